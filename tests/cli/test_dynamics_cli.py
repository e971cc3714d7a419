"""``forumlab dynamics``: self-play and results files, text and JSON, and bad input."""
import json

import pytest
from click.testing import CliRunner

from forumlab.cli import main

from .test_records_cli import assert_bad_input

SHORT = ["-o", "max_rounds=4", "-w", "1", "-q"]  # short Forum Romanum games


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def games_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("dyn") / "t.db"
    out = run("tournament", "run", "-a", "random", "-a", "greedy", "-p", "2", "--games", "2",
              "--db", db, *SHORT)
    assert out.exit_code == 0, out.output
    return db


def test_self_play_text_and_json(tmp_path):
    db = tmp_path / "keep.db"
    out = run("dynamics", "forum-romanum", "-p", "3", "--games", "3", "--seed", "5", "--db", db, *SHORT)
    assert out.exit_code == 0, out.output
    # stdout only: a cold numba cache adds a compilation notice on stderr
    assert out.stdout.startswith("Forum Romanum, 3 players, max rounds 4: 3 games, self-play of greedy")
    assert "lead changes" in out.stdout and "decisiveness" in out.stdout
    again = run("dynamics", db, "--json", "--per-game")
    data = json.loads(again.stdout)
    assert data["games"] == 3 and data["lead"] == "score" and len(data["games_detail"]) == 3
    assert data["plies"]["mean"] == pytest.approx(sum(g["plies"] for g in data["games_detail"]) / 3)
    assert len(data["branching_deciles"]) == 10 and len(data["progress"]["winner_margin"]) == 11


def test_results_files_are_replayed_and_pooled(games_db):
    one = json.loads(run("dynamics", games_db, "--json").stdout)
    two = json.loads(run("dynamics", games_db, games_db, "--json", "--lead", "heuristic").stdout)
    assert one["games"] == 4 and two["games"] == 8 and two["lead"] == "heuristic"
    assert two["plies"]["mean"] == pytest.approx(one["plies"]["mean"])


def test_bad_input(games_db, tmp_path):
    assert_bad_input(run("dynamics", "no-such-game"), "neither a game name nor a results file")
    assert_bad_input(run("dynamics", games_db, "-p", "3"), "--players is for self-play")
    assert_bad_input(run("dynamics", "forum-romanum", games_db), "one GAME")
    assert_bad_input(run("dynamics", "forum-romanum", "--games", "0"), "--games")
    assert_bad_input(run("dynamics", "foundations-of-rome", "-p", "1", "-o", "consul=standard", "-q"),
                     "cooperative")
    other = tmp_path / "other.db"
    assert run("tournament", "run", "-a", "random", "-a", "greedy", "-p", "3", "--games", "1",
               "--db", other, *SHORT).exit_code == 0
    assert_bad_input(run("dynamics", games_db, other), "give files of one game and config")
