"""``forumlab skill``: a tiny battery end to end (deterministic), continued from its files, and bad input."""
import json

import pytest
from click.testing import CliRunner

from forumlab.cli import main

from .test_records_cli import assert_bad_input

TINY = ["-o", "max_rounds=3", "--budgets", "4,8", "--games", "1", "-w", "1", "-q"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.slow  # three batteries of 12 games, about 10 s
def test_a_tiny_battery_text_json_and_continued(tmp_path):
    out = run("skill", "forum-romanum", "-p", "3", *TINY, "--out", tmp_path / "b")
    assert out.exit_code == 0, out.output
    assert "Skill battery: Forum Romanum, 3 players, max rounds 3: 12 games in 2 windows" in out.stdout
    assert "mcts-8 over mcts-4" in out.stdout and "skill trace" in out.stdout
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["window-00.db", "window-01.db"]
    first = json.loads(run("skill", "forum-romanum", "-p", "3", *TINY, "--out", tmp_path / "b", "--json").stdout)
    fresh = json.loads(run("skill", "forum-romanum", "-p", "3", *TINY, "--json").stdout)
    assert first == fresh  # iteration budgets: the same games, the same figures
    assert [lv["label"] for lv in first["levels"]] == ["random", "greedy", "mcts-4", "mcts-8"]
    assert first["games"] == 12 and len(first["trace"]) == 1 and first["windows"] == 2


def test_bad_input():
    assert_bad_input(run("skill", "no-such-game"), "no-such-game")
    assert_bad_input(run("skill", "forum-romanum", "--budgets", "10,5"), "--budgets")
    assert_bad_input(run("skill", "forum-romanum", "--search", "minimax"), "--search")
    assert_bad_input(run("skill", "forma", "-p", "4", "--budgets", "10"), "at least 4 levels")
    assert_bad_input(run("skill", "forum-romanum", "--games", "0"), "--games")
    assert_bad_input(run("skill", "foundations-of-rome", "-p", "1", "-o", "consul=standard"), "cooperative")
