"""The results file schema (forumlab.arena.schema): a damaged file is refused in one line,
never completed from defaults and never played on; cooperative results are computed once
for every reader; report figures print labels literally."""
import base64
import json
import os
import re
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

import forumlab
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, Fault, GameOutcome
from forumlab.arena.ratings import ratings_report
from forumlab.arena.schema import DamagedResultsError
from forumlab.arena.store import ResultStore, StoreError
from forumlab.cli import main
from forumlab.core.errors import ConfigError
from forumlab.report import section_from_store
from tests.cli.test_records_cli import assert_bad_input


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def damage(db, sql, *params):
    """Change a stored row as a bad disk or a careless hand would (triggers dropped first)."""
    conn = sqlite3.connect(db, isolation_level=None)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute(sql, params)
    conn.close()


def write_store(path, definition, outcomes):
    with ResultStore.create(path, definition, {"forumlab": "test"}, synchronous="NORMAL") as store:
        for o in outcomes:
            store.record(o)
    return path


def outcome(k, labels, specs, scores, ranks, faults=()):
    n = len(labels)
    return GameOutcome(key=f"L0000-G{k:03d}-R00", group=f"L0000-G{k:03d}", lineup=0, rotation=0, seed=k,
                       labels=tuple(labels), specs=tuple(specs), agent_seeds=(0,) * n, moves=[],
                       scores=list(scores), ranks=list(ranks), plies=0, termination=END_RULES,
                       faults=list(faults), move_seconds=[0.1] * n, moves_made=[1] * n)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished round robin, random against greedy, 2-player Forum Romanum."""
    db = tmp_path_factory.mktemp("finished") / "results.db"
    forumlab.run_tournament("forum-romanum", ["random", "greedy"], db, players=2, max_rounds=2, workers=0)
    return db


@pytest.fixture
def copy(tmp_path, finished, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(finished, tmp_path / "results.db")
    return tmp_path / "results.db"


# ---------------------------------------------------------------- the stored definition


def test_resume_refuses_a_file_whose_definition_is_empty_and_writes_nothing(copy):
    # Before: {} was completed from the defaults, and resume played the built-in 3-player
    # six-agent tournament into this 2-player file.
    damage(copy, "UPDATE tournament SET definition = '{}'")
    before = copy.read_bytes()
    message = assert_bad_input(run("tournament", "resume", copy, "--workers", "1", "-q"),
                               "results.db is a damaged forumlab results file", "the stored definition: no game")
    assert "agents" in message
    assert copy.read_bytes() == before
    assert sorted(os.listdir(copy.parent)) == ["results.db"]


def test_run_refuses_a_file_whose_definition_is_damaged_and_writes_nothing(copy):
    stored = json.loads(sqlite3.connect(copy).execute("SELECT definition FROM tournament").fetchone()[0])
    del stored["agents"]
    damage(copy, "UPDATE tournament SET definition = ?", json.dumps(stored))
    before = copy.read_bytes()
    assert_bad_input(run("tournament", "run", "-a", "random", "-a", "greedy", "-p", "2", "-o", "max_rounds=2",
                         "--db", copy, "--workers", "1", "-q"), "the stored definition: no agents")
    assert copy.read_bytes() == before


def test_a_definition_that_does_not_hash_to_the_tournament_id_is_damaged(copy):
    stored = json.loads(sqlite3.connect(copy).execute("SELECT definition FROM tournament").fetchone()[0])
    stored["seed"] = 99  # complete and valid, but not the tournament this file holds
    damage(copy, "UPDATE tournament SET definition = ?", json.dumps(stored, sort_keys=True))
    before = copy.read_bytes()
    assert_bad_input(run("tournament", "resume", copy, "-q"), "not the one the tournament id was made from")
    assert copy.read_bytes() == before


def test_from_stored_completes_nothing_but_reads_old_files_as_cyclic():
    stored = TournamentDefinition(config={"players": 2}, agents=(PoolEntry("a", "random"),
                                                                PoolEntry("b", "greedy"))).to_json()
    for key in ("agents", "config", "game", "hard_limit", "candidate"):
        with pytest.raises(DamagedResultsError, match=f"no {key}"):
            TournamentDefinition.from_stored({k: v for k, v in stored.items() if k != key})
    with pytest.raises(DamagedResultsError, match="unknown field 'colour'"):
        TournamentDefinition.from_stored({**stored, "colour": 3})
    with pytest.raises(DamagedResultsError, match="seed"):
        TournamentDefinition.from_stored({**stored, "seed": True})
    with pytest.raises(DamagedResultsError, match="candidate"):  # unhashable: no TypeError
        TournamentDefinition.from_stored({**stored, "format": "gauntlet", "candidate": ["a"]})
    del stored["rotations"]  # files written before the balanced design: played cyclic
    assert TournamentDefinition.from_stored(stored).rotations == "cyclic"


def test_an_extension_row_that_changes_more_than_the_groups_is_damaged(copy):
    stored = json.loads(sqlite3.connect(copy).execute("SELECT definition FROM tournament").fetchone()[0])
    damage(copy, "INSERT INTO meta (key, value) VALUES ('definition/1', ?)",
           json.dumps({**stored, "games_per_lineup": 2, "seed": 5}))
    assert_bad_input(run("ratings", copy), "definition/1 is not an extension")


# ---------------------------------------------------------------- rows


SPRT_RECORD = {"candidate": "greedy", "elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05, "decision": None,
               "reason": "r", "llr": 0.0, "lower": -2.9, "upper": 2.9, "groups": 1, "games": 2,
               "planned_groups": 1, "mean_score": 0.5, "score_elo": 0.0, "model": "m", "trace": [0.0]}


@pytest.mark.parametrize("sql, params, fragment", [
    ("UPDATE tournament SET versions = '[1]'", (), "the tournament's versions is not a table of versions"),
    ("UPDATE sessions SET versions = 'nope'", (), "is not JSON"),
    ("UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
     (json.dumps([{"seat": 7, "ply": 1, "kind": "exception", "message": "x"}]),), "a fault is not a seat"),
    ("UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
     (json.dumps([{"seat": 0, "ply": 1, "kind": "bogus", "message": "x"}]),), "known kind"),
    ("UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
     (json.dumps([{"seat": 0, "ply": 1, "kind": [], "message": "x"}]),), "known kind"),
    ("UPDATE games SET scores = '[1]' WHERE seq = 1", (), "scores are not 2 finite numbers"),
    ("UPDATE games SET ranks = '[1, 3]' WHERE seq = 1", (), "ranks are not 2 ranks from 1 to 2"),
    ("UPDATE games SET labels = '[\"a\", \"b\"]' WHERE seq = 1", (), "label 'a' is not an agent of the definition"),
    ("UPDATE games SET specs = '[\"random\", \"mcts\"]' WHERE seq = 1", (), "not its spec in the definition"),
    ("UPDATE games SET moves = '{}' WHERE seq = 1", (), "moves are not a list"),
    ("UPDATE games SET plies = 'many' WHERE seq = 1", (), "plies is not a count"),
    ("UPDATE move_times SET cpu_seconds = '[0.1]'", (), "move_times cpu_seconds are not 2 numbers"),
    ("INSERT INTO move_times VALUES ('nokey', '[0,0]', '[0,0]', '[0,0]')", (), "belong to no game"),
    ("INSERT INTO meta (key, value) VALUES ('sprt', '[]')", (), "the sequential test record 'sprt'"),
    ("INSERT INTO meta (key, value) VALUES ('sprt', ?)", (json.dumps(SPRT_RECORD),), "runs no sequential test"),
])
def test_every_reader_refuses_a_damaged_row_in_one_line(copy, sql, params, fragment):
    damage(copy, sql, *params)
    before = copy.read_bytes()
    for args in (["ratings", copy], ["ratings", "--json", copy], ["report", copy, "-o", "r.html"],
                 ["export", copy, "--format", "csv", "-o", "e.csv"], ["tournament", "resume", copy, "-q"]):
        assert_bad_input(run(*args), "results.db is a damaged forumlab results file", fragment)
        assert copy.read_bytes() == before
        assert sorted(os.listdir(copy.parent)) == ["results.db"]


def test_the_library_raises_one_error_that_is_a_store_and_a_config_error(copy):
    damage(copy, "UPDATE games SET scores = '[1]' WHERE seq = 1")
    with pytest.raises(DamagedResultsError) as info:
        forumlab.ratings(copy)
    assert isinstance(info.value, StoreError) and isinstance(info.value, ConfigError)
    assert "\n" not in str(info.value)


def test_a_named_pipe_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    assert_bad_input(run("ratings", fifo), "named pipe")


def test_resume_refuses_a_stored_game_its_plan_does_not_hold(copy):
    damage(copy, "UPDATE games SET seed = seed + 1 WHERE seq = 1")
    before = copy.read_bytes()
    assert run("ratings", copy).exit_code == 0  # the ratings do not depend on the seed
    assert_bad_input(run("tournament", "resume", copy, "-q"), "is not the game its tournament's plan holds")
    assert copy.read_bytes() == before


# ---------------------------------------------------------------- one code path for results


def competitive_file(path):
    labels = ("a", "b", "c")
    definition = TournamentDefinition(agents=tuple(PoolEntry(x, "random") for x in labels))
    orders = [(1, 2, 3), (2, 3, 1), (3, 1, 2), (1, 3, 2), (2, 1, 3), (3, 2, 1), (1, 1, 3)]
    games = [outcome(k, labels, ("random",) * 3, [4 - r for r in ranks], ranks)
             for k, ranks in enumerate(orders)]
    return write_store(path, definition, games)


def cooperative_file(path):
    definition = TournamentDefinition(game="foundations-of-rome", config={"players": 2, "consul": "standard"},
                                      agents=(PoolEntry("greedy", "greedy"), PoolEntry("random", "random")))
    values = [3.0, -2.0, 0.0, 5.0]
    pairs = [("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"), ("random", "random")]
    games = [outcome(k, pair, pair, [v, v], [1, 1]) for k, (pair, v) in enumerate(zip(pairs, values))]
    return write_store(path, definition, games)


def test_cooperative_results_are_the_same_in_ratings_json_the_api_and_the_report(tmp_path):
    db = cooperative_file(tmp_path / "coop.db")
    cli = json.loads(run("ratings", "--json", db).stdout)
    api = forumlab.ratings(db)
    assert cli == json.loads(json.dumps(api))
    # Before: the API and the report rated the team's seats with Plackett-Luce (win rate 0.5).
    assert api["team"]["team_wins"] == 2 and api["agents"]["greedy"]["team_wins"] == 1
    assert "elo" not in json.dumps(api["agents"])
    section = section_from_store(db)
    assert section.team == {k: api[k] for k in ("games", "team", "agents", "lineups")}
    text = run("ratings", db).stdout
    assert run("report", db, "-o", tmp_path / "c.html").exit_code == 0
    page = (tmp_path / "c.html").read_text()
    for name, row in [("all games", api["team"]), *api["agents"].items()]:
        rate = f"{row['win_rate']:.3f}"
        assert re.search(rf"{name}\s+{row['games']}\s+{rate}", text)
        assert f"<td>{name}</td><td>{row['games']}</td><td>{row['team_wins']}</td><td>{rate}</td>" in page
    assert 'id="superiority-1"' not in page and "Plackett" not in page


def test_competitive_ratings_are_the_same_in_ratings_json_the_api_and_the_report(tmp_path):
    db = competitive_file(tmp_path / "comp.db")
    cli = json.loads(run("ratings", "--json", db).stdout)
    api = forumlab.ratings(db)
    assert cli == json.loads(json.dumps(api))
    section = section_from_store(db)
    assert section.team is None
    report = ratings_report(section.ratings)
    assert json.loads(json.dumps(report["agents"])) == cli["agents"]
    text = run("ratings", db).stdout
    for row in cli["agents"]:
        assert re.search(rf"^{row['agent']}\s+{re.escape(format(int(round(row['elo'])), '+d'))}", text, re.M)


# ---------------------------------------------------------------- figures


def test_report_figures_print_labels_with_dollar_signs_literally(tmp_path):
    labels = ("a$x$b", "g$\\frac{$")  # mathtext would draw the first and fail on the second
    definition = TournamentDefinition(config={"players": 2}, agents=tuple(PoolEntry(x, "random") for x in labels))
    games = [outcome(k, labels[::1 - 2 * (k % 2)], ("random",) * 2, [1, 0], [1, 2],
                     faults=[Fault(0, 1, "illegal", "x")] if k == 0 else ())
             for k in range(4)]
    db = write_store(tmp_path / "d.db", definition, games)
    result = run("report", db, "-o", tmp_path / "d.html")
    assert result.exit_code == 0, result.output
    svgs = [base64.b64decode(u).decode() for u in
            re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", (tmp_path / "d.html").read_text())]
    assert svgs and any(">a$x$b<" in svg for svg in svgs) and any(">g$\\frac{$<" in svg for svg in svgs)


def test_a_new_file_is_never_made_for_an_incomplete_definition(tmp_path):
    with pytest.raises(StoreError, match="cannot create .*the tournament definition: no config"):
        ResultStore.create(tmp_path / "new.db", {"game": "forum-romanum"}, {})
    assert os.listdir(tmp_path) == []


def test_a_meta_row_this_version_does_not_write_is_damage(copy):
    # e.g. a sequential test record whose key lost a letter: resume would play on.
    damage(copy, "INSERT INTO meta (key, value) VALUES ('sprx', '{}')")
    before = copy.read_bytes()
    assert_bad_input(run("tournament", "resume", copy, "-q"), "unknown meta row 'sprx'")
    assert copy.read_bytes() == before
