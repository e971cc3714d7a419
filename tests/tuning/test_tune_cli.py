"""forumlab tune / forumlab design end to end at tiny budgets (greedy, in this process):
the result JSON, resuming a killed run, the confirmation, and one-line errors (exit 2)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from forumlab.cli import main

TUNE = ["tune", "greedy", "--game", "foundations-of-rome", "-p", "3", "--param", "w.civic=0.5,1,2",
        "--param", "w.silver=1,2", "--evaluations", "4", "--seed", "3", "-w", "0", "--no-progress"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_tune_recommends_a_spec_and_confirms_it(tmp_path):
    out = tmp_path / "tuned.json"
    result = run(*TUNE, "--confirm-games", 3, "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["spec"].startswith("greedy(w.civic=") and data["evaluations"] == 4 and data["games"] == 12
    assert data["confirmation"]["games"] == 3 and len(data["confirmation"]["interval"]) == 2
    assert "spec: greedy(" in result.output and "confirmation on fresh seeds" in result.output


def test_a_killed_run_continues_from_its_log(tmp_path):
    db, first, second = tmp_path / "t.jsonl", tmp_path / "a.json", tmp_path / "b.json"
    assert run(*TUNE, "--confirm-games", 0, "--db", db, "--out", first).exit_code == 0
    lines = db.read_text().splitlines()
    assert len(lines) == 5  # the header and four evaluations
    db.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])  # killed while writing the third
    assert run(*TUNE, "--confirm-games", 0, "--db", db, "--out", second).exit_code == 0
    assert json.loads(first.read_text()) == json.loads(second.read_text())
    rows = [json.loads(x) for x in db.read_text().splitlines()[1:] if x.endswith("}")]
    assert sorted(r["index"] for r in rows if "value" in r) == [0, 1, 2, 3]


def test_design_search_on_a_list_element(tmp_path):
    out = tmp_path / "best.json"
    result = run("design", "foundations-of-rome", "-p", 4, "-o", "start_silver=[5,6,7,8]",
                 "--option-param", "start_silver[3]=7,8", "--target", "length=120", "--evaluations", 2,
                 "--games-per-evaluation", 1, "--confirm-games", 2, "-w", 0, "--no-progress", "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["options"]["start_silver"][:3] == [5, 6, 7] and data["options"]["players"] == 4
    assert "Seat effects" in result.output


@pytest.mark.parametrize("args, words", [
    (["tune", "greedy", "--game", "forma", "-p", "2", "--param", "nope=1,2"], "no parameter"),
    (["tune", "mcts", "--game", "forma", "-p", "2", "--param", "c=-1,1"], "c must be"),
    (["design", "foundations-of-rome", "-p", "4", "--option-param", "max_trades=0..5",
      "--target", "seat-fair"], "max_trades"),
    (["design", "foundations-of-rome", "-p", "4", "--option-param", "max_trades=0..2",
      "--target", "fair"], "--target"),
    (["design", "foundations-of-rome", "-p", "4", "--option-param", "max_trades=0..2"], "needs --target"),
    (["tune", "greedy", "--game", "forma", "-p", "2", "--param", "archetype=a,b",
      "--option-param", "max_turns=1,2", "--target", "seat-fair"], "not both"),
    (["design", "foundations-of-rome", "-p", "4", "--option-param", "start_silver[1]=3,4",
      "--target", "seat-fair"], "whole list"),
    (["tune", "mcts(time=0.1)", "--game", "forma", "-p", "2", "--param", "c=0.5,1"], "cpu_time"),
    (["tune", "mcts", "--game", "forma", "-p", "2", "--param", "time=0.1,0.2"], "cpu_time"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    result = run(*args, "-w", "0", "--no-progress")
    assert result.exit_code == 2, result.output
    assert words in result.output and len(result.output.strip().splitlines()) == 1
