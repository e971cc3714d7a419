"""``forumlab strategies``: a round robin of strategies, continued on its file, then the meta-game;
bad input is one line and exit code 2."""
import json

import pytest
from click.testing import CliRunner

from forumlab.arena.store import ResultStore
from forumlab.cli import main

from .test_records_cli import assert_bad_input

# random cannot finish ahead of greedy in Forum Romanum often enough to matter: greedy dominates.
POOL = ["-s", "r=random", "-s", "g=greedy", "-s", "r2=random"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_round_robin_is_played_continued_and_read_as_a_meta_game(tmp_path):
    db = tmp_path / "s.db"
    args = ["strategies", "forum-romanum", "-p", "3", *POOL, "--games", "2", "--db", db, "-w", "1",
            "-q", "--bootstrap", "50", "-o", "max_rounds=4"]
    first = run(*args)
    assert first.exit_code == 0, first.output
    with ResultStore.open(db, readonly=True) as store:
        games = len(store)
    assert games == 2 * 6  # one lineup of three, six balanced seatings per group
    assert "Meta-game: 3 strategies, 2 rotation groups" in first.stdout
    assert "Verdict: " in first.stdout
    again = run(*args, "--json")  # the same study: nothing new is played
    assert again.exit_code == 0, again.output
    with ResultStore.open(db, readonly=True) as store:
        assert len(store) == games
    report = json.loads(again.stdout)
    assert report["games"] == games and report["level"] == "greedy"
    assert "text" not in report  # the JSON holds the figures, not the printed table
    assert [s["label"] for s in report["strategies"]] == ["r", "g", "r2"]
    mg = report["metagame"]
    assert sum(s["nash"] for s in mg["strategies"]) == pytest.approx(1.0, abs=1e-3)  # rounded
    assert mg["head_to_head"]["g"]["r"] + mg["head_to_head"]["r"]["g"] == pytest.approx(1.0)
    assert mg["verdict"]["kind"] in ("dominates", "coexist", "leads", "cycles")
    extended = run(*[a if a != "2" else "3" for a in args])  # a larger --games adds groups
    assert extended.exit_code == 0, extended.output
    with ResultStore.open(db, readonly=True) as store:
        assert len(store) == 3 * 6


@pytest.mark.parametrize("extra, fragment", [
    (["--games", "0"], "--games"),
    (["--bootstrap", "-1"], "--bootstrap"),
    (["-w", "0"], "--workers"),
])
def test_bad_numbers_are_one_line(tmp_path, extra, fragment):
    result = run("strategies", "forum-romanum", "-p", "3", *POOL, "--db", tmp_path / "x.db", *extra)
    assert_bad_input(result, fragment)
    assert not (tmp_path / "x.db").exists()


def test_a_cooperative_game_has_no_meta_game(tmp_path):
    result = run("strategies", "foundations-of-rome", "-p", "2", "-o", "consul=standard", *POOL,
                 "--db", tmp_path / "x.db")
    assert_bad_input(result, "cooperative")
    assert not (tmp_path / "x.db").exists()


def test_one_strategy_is_not_a_meta_game(tmp_path):
    result = run("strategies", "forum-romanum", "-p", "3", "-s", "greedy", "--db", tmp_path / "x.db")
    assert_bad_input(result, "at least two strategies")


def test_an_unknown_archetype_or_agent_is_one_line(tmp_path):
    pytest.importorskip("forumlab.agents.archetypes")
    result = run("strategies", "forum-trajanum", "-p", "3", "--archetype", "nonsense", "--db", tmp_path / "x.db")
    assert_bad_input(result, "nonsense")
    result = run("strategies", "forum-romanum", "-p", "3", "-s", "a=greedy", "-s", "b=nosuchagent",
                 "--db", tmp_path / "x.db")
    assert_bad_input(result, "nosuchagent")
    assert not (tmp_path / "x.db").exists()


def test_a_file_of_another_study_is_refused(tmp_path):
    db = tmp_path / "s.db"
    first = run("strategies", "forum-romanum", "-p", "3", *POOL, "--games", "1", "--db", db, "-w", "1", "-q",
                "--bootstrap", "0", "-o", "max_rounds=2")
    assert first.exit_code == 0, first.output
    other = run("strategies", "forum-romanum", "-p", "3", "-s", "a=greedy", "-s", "b=random", "--games", "1",
                "--db", db, "-w", "1", "-q", "-o", "max_rounds=2")
    assert_bad_input(other)


def test_archetypes_at_a_level_become_the_pool():
    pytest.importorskip("forumlab.agents.archetypes")
    from forumlab.agents.archetypes import archetypes
    from forumlab.arena.strategies_command import strategy_pool

    pool = strategy_pool("forum-trajanum", "mcts(iterations=50)", (), ())
    assert [e.label for e in pool] == list(archetypes("forum-trajanum"))
    assert all(e.spec.startswith("mcts(iterations=50") for e in pool)
    named = strategy_pool("forum-trajanum", "greedy", ("balanced", "trajan"), ("r=random",))
    assert [e.label for e in named] == ["balanced", "trajan", "r"]
