"""Records everywhere: exported games are replayable records, one game can
be exported alone, an interrupted `play` still writes what was played, `replay` warns when a
record's stored result or setup disagrees with the replay, and a Forma record carries its
random obstacle layout so that it replays without this project's RNG."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.agents.base import Agent, Param
from forumlab.arena.export import outcome_from_record
from forumlab.arena.store import ResultStore
from forumlab.cli import main
from forumlab.core.errors import RecordError
from forumlab.core.record import RECORD_FORMAT, Record, replay, replay_checked, result_disagreements
from forumlab.core.registry import create_game
from forumlab.engines.forma.pieces import square_name
from forumlab.engines.forma.setup import obstacle_squares

ROOT = Path(__file__).resolve().parents[2]


class InterruptingAgent(Agent):
    """Plays the first legal move; on its n-th move it sends SIGINT to process ``pid`` (the
    test's, where ``play`` runs; the agent itself plays from a process of its own) and
    keeps thinking: a person's Ctrl-C arriving while it thinks. (An agent that raises
    KeyboardInterrupt itself is an agent fault, not a Ctrl-C.)"""

    name = "interrupting"
    params = {"at": Param(3, "the move that is interrupted"),
              "pid": Param(0, "the process to interrupt", low=0)}

    def __init__(self, seed=0, **options):
        super().__init__(seed, **options)
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        if self.moves == self.options["at"]:
            os.kill(self.options["pid"], signal.SIGINT)
            time.sleep(30)  # play stops long before: the agent is still thinking
        return int(state.legal_moves()[0])


class DawdlingAgent(Agent):
    """Plays the first legal move after a short sleep, so a game lasts long enough to be
    interrupted from outside."""

    name = "dawdling"

    def choose(self, state):
        time.sleep(0.2)
        return int(state.legal_moves()[0])


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_line_error(result, *fragments, code=2):
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def replay_json(path):
    """`replay --json` of a file: (result, stderr)."""
    result = run("replay", path, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result.stderr


def tournament(db, *args):
    result = run("tournament", "run", *args, "--games", "1", "--db", db, "-q", "--workers", "1")
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture(scope="module")
def romanum_db(tmp_path_factory):
    """Forum Romanum, 3 players: random, greedy and an agent that raises on its second move
    (its games carry a fault, and their stored ranks follow the fault policy)."""
    db = tmp_path_factory.mktemp("romanum") / "t.db"
    return tournament(db, "-a", "random", "-a", "greedy",
                      "-a", "bad=tests.fault_agents:RaisingAgent(after=1)", "-o", "max_rounds=6", "-p", "3")


@pytest.fixture(scope="module")
def forma_db(tmp_path_factory):
    """Forma, 2 players, random obstacles (the default)."""
    db = tmp_path_factory.mktemp("forma") / "f.db"
    return tournament(db, "--game", "forma", "-p", "2", "-a", "random", "-a", "greedy")


def export_lines(db):
    result = run("export", db, "--format", "jsonl")
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


# ---------------------------------------------------------------- JSONL export
def test_every_jsonl_line_is_a_record_that_replays_to_the_stored_result(romanum_db, tmp_path):
    lines = export_lines(romanum_db)
    with ResultStore.open(romanum_db, readonly=True) as store:
        outcomes = {o.key: o for o in store.outcomes()}
    assert len(lines) == len(outcomes) == 6  # one lineup in the 6 balanced seatings
    faulted = 0
    for i, line in enumerate(lines):
        data = json.loads(line)
        assert data["format"] == RECORD_FORMAT and data["game"] == "forum-romanum"
        stored = outcomes[data["tournament"]["key"]]
        assert outcome_from_record(data) == stored  # nothing the store holds is lost
        assert [a["label"] for a in data["agents"]] == list(stored.labels)
        assert [a["seed"] for a in data["agents"]] == list(stored.agent_seeds)
        path = tmp_path / f"line{i}.json"
        path.write_text(line + "\n")  # one JSONL line saved to a file, as it is
        res, stderr = replay_json(path)
        assert stderr == ""  # the stored result agrees, faults and all
        assert res["scores"] == stored.scores and res["plies"] == stored.plies == len(data["moves"])
        if stored.faults:
            faulted += 1
            assert stored.ranks[stored.labels.index("bad")] == 3  # last by the fault policy
    assert faulted == 6  # the raising agent sits in every game


def test_a_whole_jsonl_file_is_refused_with_a_clear_error(romanum_db, tmp_path):
    path = tmp_path / "all.jsonl"
    path.write_text("\n".join(export_lines(romanum_db)) + "\n")
    assert_one_line_error(run("replay", path), "more than one JSON value", "--game")


def test_replay_names_the_agents_of_an_exported_record(romanum_db, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(export_lines(romanum_db)[0])
    text = run("replay", path).stdout
    labels = [a["label"] for a in json.loads(path.read_text())["agents"]]
    for seat, label in enumerate(labels):
        assert f"seat {seat} {label}: score" in text


# ---------------------------------------------------------------- one game
def test_export_one_game_by_key(romanum_db, tmp_path):
    line = json.loads(export_lines(romanum_db)[1])
    key = line["tournament"]["key"]
    out = tmp_path / "game.json"
    result = run("export", romanum_db, "--game", key, "-o", out)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text()) == line
    assert not list(tmp_path.glob("*.tmp"))
    res, stderr = replay_json(out)
    assert stderr == "" and res["scores"] == line["result"]["scores"]
    # Without -o, the same record goes to stdout.
    assert json.loads(run("export", romanum_db, "--game", key).stdout) == line


def test_export_unknown_game_is_a_one_line_error_and_writes_nothing(romanum_db, tmp_path):
    before = romanum_db.read_bytes()
    out = tmp_path / "game.json"
    assert_one_line_error(run("export", romanum_db, "--game", "L9999-G000-R00", "-o", out),
                          "'L9999-G000-R00'", "L0000-G000-R00")
    assert_one_line_error(run("export", romanum_db, "--game", "7", "-o", out), "'7'")
    assert not out.exists() and not list(tmp_path.iterdir())
    assert romanum_db.read_bytes() == before


@pytest.mark.parametrize("args,fragment", [
    ([], "--format"),
    (["--game", "L0000-G000-R00", "--format", "csv"], "--format"),
    (["--game", "L0000-G000-R00", "--format", "jsonl"], "--format"),
])
def test_export_option_combinations(romanum_db, args, fragment):
    assert_one_line_error(run("export", romanum_db, *args), fragment)


@pytest.mark.parametrize("extra", [["--game", "L0000-G000-R00"], ["--format", "jsonl"]])
def test_export_refuses_to_write_over_the_results_file(romanum_db, extra):
    before = romanum_db.read_bytes()
    assert_one_line_error(run("export", romanum_db, *extra, "-o", romanum_db), "results file")
    assert romanum_db.read_bytes() == before


# ---------------------------------------------------------------- interrupted play
def test_ctrl_c_during_play_writes_the_moves_played_and_exits_130(tmp_path):
    path = tmp_path / "partial.json"
    spec = f"tests.interop.test_records_export:InterruptingAgent(at=4, pid={os.getpid()})"
    result = run("play", "forum-romanum", "-p", "3", "--seed", "5", "-a", f"random,{spec},greedy",
                 "--record", path, "--json")
    assert result.exit_code == 130, result.output
    assert result.stdout == ""
    message = result.stderr.strip()
    assert "\n" not in message and "interrupted" in message and str(path) in message
    record = json.loads(path.read_text())
    # Seat 1 moves at plies 2, 5, 8, 11: its 4th move is interrupted, so 10 plies were played.
    assert len(record["moves"]) == 10
    assert record["interrupted"] == {"cause": "interrupted (Ctrl-C)", "after_plies": 10}
    assert [a["spec"] for a in record["agents"]] == ["random", spec, "greedy"]
    assert record["result"]["plies"] == 10 and record["result"]["terminal"] is False
    res, stderr = replay_json(path)
    assert stderr == "" and res == record["result"]


def test_ctrl_c_without_a_record_file_still_exits_130():
    result = run("play", "forum-romanum", "-p", "2", "-a",
                 f"tests.interop.test_records_export:InterruptingAgent(at=1, pid={os.getpid()}),random")
    assert result.exit_code == 130 and "interrupted after 0 plies" in result.stderr


def test_an_agent_exception_does_not_stop_play_the_fault_is_recorded(tmp_path):
    # Before: the game stopped at the failing move (exit 1) with a partial record.
    path = tmp_path / "faulty.json"
    result = run("play", "forum-romanum", "-p", "2", "--seed", "1",
                 "-a", "random,tests.fault_agents:RaisingAgent(after=2)", "--record", path, "--json")
    assert result.exit_code == 0, result.output
    # 2-player Forum Romanum: plies 1-4 are colours 0-3, seat 0 owning colours 0 and 1, so seat 1
    # moves at plies 3, 4, 7: its third move, at ply 7, raises.
    warnings = result.stderr.strip().splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("warning: seat 1 (") and "ply 7" in warnings[0]
    assert "RuntimeError: boom" in warnings[0]
    record = json.loads(path.read_text())
    assert "interrupted" not in record
    assert record["result"]["faults"] == [
        {"seat": 1, "ply": 7, "kind": "exception", "message": "RuntimeError: boom"}]
    assert record["result"]["ranks"] == [1, 2]  # the faulty seat ranks last whatever its score
    res, stderr = replay_json(path)
    assert stderr == "" and res["terminal"] and res["plies"] == len(record["moves"]) > 7


def test_sigint_to_a_playing_process_writes_the_record_and_exits_130(tmp_path):
    path = tmp_path / "sigint.json"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "forumlab.cli", "play", "forum-romanum", "-p", "3", "--seed", "2",
         "-a", "random,tests.interop.test_records_export:DawdlingAgent,random", "-o", "max_rounds=0",
         "--show", "--record", str(path)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stdout:  # wait until the game is under way, however slow the machine
            if line.startswith("ply 4:"):
                break
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr
    record = json.loads(path.read_text())
    assert len(record["moves"]) >= 4 and record["interrupted"]["after_plies"] == len(record["moves"])
    res, warnings = replay_json(path)
    assert warnings == "" and res["plies"] == len(record["moves"]) and not res["terminal"]


# ---------------------------------------------------------------- stored result checks
@pytest.fixture
def played(tmp_path):
    path = tmp_path / "game.json"
    result = run("play", "forum-romanum", "-p", "3", "--seed", "4", "-o", "max_rounds=8", "--record", path)
    assert result.exit_code == 0, result.output
    return path


def test_replay_of_an_intact_record_warns_nothing(played):
    res, stderr = replay_json(played)
    assert stderr == "" and res == json.loads(played.read_text())["result"]


@pytest.mark.parametrize("field", ["scores", "ranks", "winners"])
def test_replay_warns_in_one_line_when_the_stored_result_disagrees(played, field):
    record = json.loads(played.read_text())
    true_result = dict(record["result"])
    record["result"][field] = list(reversed(record["result"][field])) + [0]
    played.write_text(json.dumps(record))
    result = run("replay", played, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == true_result  # the replay stands
    warning = result.stderr.strip()
    assert warning.startswith("warning: ") and "\n" not in warning, warning
    assert f"{field} {record['result'][field]!r} stored, {true_result[field]!r} replayed" in warning
    assert run("replay", played).exit_code == 0  # the text form warns too, and succeeds


def test_stored_ranks_are_checked_against_the_fault_policy():
    from forumlab.core.ranks import fault_ranks

    state = create_game("forum-romanum", players=3, max_rounds=4).new_state(1)
    while not state.is_terminal:
        state.play(int(state.legal_moves()[0]))
    scores = state.scores()
    best = scores.index(max(scores))
    faults = [{"seat": best, "ply": 1, "kind": "exception", "message": "x"}]
    policy_ranks = fault_ranks(scores, {best})
    assert policy_ranks[best] == 3 and policy_ranks != state.result()["ranks"]
    assert result_disagreements({"scores": scores, "ranks": policy_ranks, "faults": faults}, state) == []
    assert result_disagreements({"ranks": state.result()["ranks"], "faults": faults}, state) == [
        f"ranks {state.result()['ranks']!r} stored, {policy_ranks!r} replayed"]
    assert result_disagreements({"termination": "end"}, state) == [  # the turn cap ended it
        "termination 'end' stored, but the replay has truncated=True"]
    assert result_disagreements({"termination": "cap", "plies": 12}, state) == []


# ---------------------------------------------------------------- setups
def test_a_forma_play_record_carries_its_random_layout(tmp_path):
    path = tmp_path / "forma.json"
    result = run("play", "forma", "-p", "2", "--seed", "13", "--record", path, "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    stones, tower = obstacle_squares(create_game("forma", players=2).new_state(13).array)
    assert record["config"]["obstacles"] == "random"
    assert record["setup"] == {"obstacles": [square_name(q) for q in stones], "tower": square_name(tower)}
    assert len(record["setup"]["obstacles"]) == 25
    check_explicit_layout_replays_alike(record, tmp_path)


def test_forma_export_carries_the_layout_and_replays_with_an_explicit_config(forma_db, tmp_path):
    for line in export_lines(forma_db):
        record = json.loads(line)
        assert len(record["setup"]["obstacles"]) == 25 and record["setup"]["tower"]
        path = tmp_path / "line.json"
        path.write_text(line)
        res, stderr = replay_json(path)
        assert stderr == "" and res["scores"] == record["result"]["scores"]
        check_explicit_layout_replays_alike(record, tmp_path)


def check_explicit_layout_replays_alike(record, tmp_path):
    """What another implementation would do: put the layout into the config, forget the
    setup, and replay; the result is the one stored."""
    explicit = dict(record, config={**record["config"], **record["setup"]})
    del explicit["setup"]
    path = tmp_path / "explicit.json"
    path.write_text(json.dumps(explicit))
    res, stderr = replay_json(path)
    assert stderr == ""
    assert res["scores"] == record["result"]["scores"] and res["plies"] == len(record["moves"])


def test_replay_warns_when_the_setup_differs_from_the_seed_and_uses_the_records(tmp_path):
    other = create_game("forma", players=2).setup_record(create_game("forma", players=2).new_state(8))
    data = {"format": RECORD_FORMAT, "game": "forma", "config": {"players": 2}, "seed": 7,
            "setup": other, "moves": []}
    path = tmp_path / "swapped.json"
    path.write_text(json.dumps(data))
    result = run("replay", path, "--json")
    assert result.exit_code == 0, result.output
    warning = result.stderr.strip()
    assert warning.startswith("warning: ") and "\n" not in warning and "setup" in warning
    state, warnings = replay_checked(Record.from_json(data))
    stones, tower = obstacle_squares(state.array)
    assert {"obstacles": [square_name(q) for q in stones], "tower": square_name(tower)} == other
    assert len(warnings) == 1


def test_a_setup_that_breaks_the_rules_is_a_record_error(tmp_path):
    data = {"format": RECORD_FORMAT, "game": "forma", "config": {"players": 2}, "seed": 7,
            "setup": {"obstacles": ["c3", "c4"], "tower": None}, "moves": []}
    with pytest.raises(RecordError, match="setup.*touch"):
        replay(Record.from_json(data))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert_one_line_error(run("replay", path), "setup")
    path.write_text(json.dumps(dict(data, setup=["c3"])))
    assert_one_line_error(run("replay", path), "'setup'")


def test_games_without_a_random_setup_record_none():
    for name, config in (("forum-romanum", {"players": 3}), ("forma", {"players": 2, "obstacles": "none"})):
        game = create_game(name, config)
        assert game.setup_record(game.new_state(3)) == {}
        assert "setup" not in Record.from_state(game.new_state(3)).to_json()


def test_unknown_record_fields_survive_a_load_and_save(tmp_path):
    data = {"format": RECORD_FORMAT, "game": "forum-romanum", "config": {"players": 2}, "seed": 1,
            "moves": ["d4"], "agents": [{"spec": "random"}, {"spec": "greedy"}],
            "tournament": {"key": "L0000-G000-R00"}, "note": "kept"}
    Record.from_json(data).save(tmp_path / "r.json")
    assert json.loads((tmp_path / "r.json").read_text()) == data
