"""Bad input and faults on every surface, case by case: one ``error:`` line, exit 2, nothing touched.

Every case runs a command (in-process, under a deadline, so a hang fails instead of
blocking the suite) in a working directory holding a results file of each kind the tool
writes (a round robin, a gauntlet with a sequential test, a cooperative Will-of-the-Consul
tournament, a variant study, a one-setup balance study, a strategies round robin and a
rating gauntlet), a game record, a tournament file, a model file, a tuning log and a named
pipe. Each case must end with exit code 2 and exactly one ``error:`` line on stderr, no
traceback, and leave every file of the directory as it was: same kind, bytes and
modification time, and nothing new. Python API cases must raise one of the library's
documented errors (a :class:`ForumlabError`) with a one-line message, and create nothing.

The classes: damaged results files (every stored field of the definition, the sequential
test record, the versions rows, fault seats and game rows) for every reader; outputs onto
a device, a directory, a dangling symbolic link, an unwritable directory, or an existing
file when the command then fails; named pipes, devices and directories given where a file
is read; agent parameters at and beyond their ranges; ``--sprt`` spelling; the API's
argument checks.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import sqlite3
import stat
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

import forumlab
from forumlab.cli import main
from forumlab.core.errors import ForumlabError
from tests.deadline import deadline

LIMIT = 20  # seconds per case: every case takes well under one; a hang fails instead of blocking
SHORT = ["-o", "max_rounds=2"]
QUIET = ["-q", "--workers", "1"]
# The shortest runs of the commands that make files: 2-player Forum Romanum, one game each.
BALANCE = ["balance", "forum-romanum", "-p", "2", "--agent", "greedy", "--games", "1"]
VARIANTS = ["--variant", "a=max_rounds=2", "--variant", "b=max_rounds=3"]
DESIGN = [
    "design", "forum-romanum", "-p", "2", "--agent", "greedy", "--option-param", "max_rounds=2..4",
    "--target", "length=10", "--evaluations", "2", "--games-per-evaluation", "1", "--confirm-games", "0",
    "-w", "0",
]


# ---------------------------------------------------------------- the working directory


@contextmanager
def prompt():
    """Fail if the body blocks. The deadline's alarm interrupts a blocked call with an
    OSError, which code waiting on a pipe might catch and turn into a clean error line, so
    the time taken is checked too."""
    start = time.monotonic()
    with deadline(LIMIT):
        yield
    # A hang guard, not a speed claim: every case takes well under a second, so only a call
    # that blocked until the alarm (20x that, whatever the load) comes near the deadline.
    assert time.monotonic() - start < LIMIT - 1, "blocked until the deadline"


def _invoke(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def _must(*args):
    result = _invoke(*args)
    assert result.exit_code == 0, (args, result.output, result.exception)


def _cooperative_file(path: str) -> None:
    """A Will-of-the-Consul tournament's file, written directly (nothing to compile)."""
    from forumlab.arena.definition import PoolEntry, TournamentDefinition
    from forumlab.arena.jobs import END_RULES, GameOutcome
    from forumlab.arena.store import ResultStore

    definition = TournamentDefinition(
        game="foundations-of-rome",
        config={"players": 2, "consul": "standard"},
        agents=(PoolEntry("greedy", "greedy"), PoolEntry("random", "random")),
    )
    with ResultStore.create(path, definition, {"forumlab": "test"}) as store:
        for k, (pair, value) in enumerate([(("greedy", "random"), 3.0), (("random", "greedy"), -2.0)]):
            store.record(
                GameOutcome(
                    key=f"L0000-G{k:03d}-R00",
                    group=f"L0000-G{k:03d}",
                    lineup=0,
                    rotation=0,
                    seed=k,
                    labels=pair,
                    specs=pair,
                    agent_seeds=(0, 0),
                    moves=[],
                    scores=[value, value],
                    ranks=[1, 1],
                    plies=0,
                    termination=END_RULES,
                    faults=[],
                    move_seconds=[0.1, 0.1],
                    moves_made=[1, 1],
                )
            )


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """One file of every kind the tool reads, made once for the module."""
    root = tmp_path_factory.mktemp("ring")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        forumlab.run_tournament(
            "forum-romanum", ["random", "greedy"], "rr.db", players=2, max_rounds=2, workers=0
        )
        _must(
            "tournament", "run", "--format", "gauntlet", "--candidate", "greedy", "--sprt", "elo0=0,elo1=10",
            "-a", "random", "-a", "greedy", "-p", "2", *SHORT, "--games", "2", "--db", "g.db", *QUIET,
        )
        _cooperative_file("coop.db")
        _must(*BALANCE, *VARIANTS, "--db", "study.db", *QUIET)
        _must(*BALANCE, *SHORT, "--db", "single.db", *QUIET)
        _must(
            "strategies", "forum-romanum", "-p", "2", "-s", "a=random", "-s", "b=greedy", "--games", "1",
            *SHORT, "--bootstrap", "0", "--db", "strat.db", *QUIET,
        )
        _must("play", "forum-romanum", "-p", "2", *SHORT, "--record", "game.json")
        Path("t.toml").write_text(
            'game = "forum-romanum"\n[config]\nplayers = 2\nmax_rounds = 2\n'
            '[[agents]]\nspec = "random"\n[[agents]]\nspec = "greedy"\n'
        )
        shutil.copy(
            Path(forumlab.__file__).parent / "learning" / "evals" / "forum-romanum-3p.json", "model.json"
        )
        Path("old.txt").write_text("a file that was here before\n")
    finally:
        os.chdir(cwd)
    return root


@pytest.fixture
def ws(base, tmp_path, monkeypatch):
    """A fresh copy of the base files, a named pipe and a character device (as root), as cwd."""
    for p in base.iterdir():
        shutil.copy2(p, tmp_path / p.name)
    os.mkfifo(tmp_path / "pipe")
    os.mkdir(tmp_path / "adir")
    os.symlink("nowhere/x.out", tmp_path / "dangling")
    os.symlink("missing.out", tmp_path / "dangling2")
    try:
        os.mknod(tmp_path / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pass  # only root may; the cases naming it are skipped
    monkeypatch.chdir(tmp_path)
    return tmp_path


def snapshot(root: Path) -> dict:
    """Every entry under ``root``: its kind, and for a regular file its size, mtime and hash."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            info = os.lstat(p)
            entry = [stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode)]
            if stat.S_ISREG(info.st_mode):
                entry += [info.st_size, info.st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest()]
            elif stat.S_ISLNK(info.st_mode):
                entry.append(os.readlink(p))
            out[str(p.relative_to(root))] = tuple(entry)
    return out


def assert_one_line(result, fragments=()):
    assert not isinstance(result.exception, TimeoutError), "still running after the deadline"
    assert result.exit_code == 2, (result.exit_code, result.output, repr(result.exception))
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    lines = message.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


# ---------------------------------------------------------------- damage


def _sql(db: str, sql: str, *params) -> Callable[[Path], None]:
    """Change a stored row as a bad disk or a careless hand would (triggers dropped first)."""

    def apply(ws: Path) -> None:
        conn = sqlite3.connect(ws / db, isolation_level=None)
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(sql, params)
        conn.close()

    return apply


def _definition(change: Callable[[dict], object], db: str = "rr.db", table: str = "tournament") -> Callable:
    """Rewrite the stored definition with ``change`` applied to its JSON."""

    def apply(ws: Path) -> None:
        conn = sqlite3.connect(ws / db)
        column = "definition"
        (text,) = conn.execute(f"SELECT {column} FROM {table} LIMIT 1").fetchone()
        conn.close()
        value = json.loads(text)
        changed = change(value)
        value = value if changed is None else changed
        _sql(db, f"UPDATE {table} SET definition = ?", json.dumps(value))(ws)

    return apply


def _bytes(db: str, change: Callable[[bytes], bytes]) -> Callable:
    def apply(ws: Path) -> None:
        (ws / db).write_bytes(change((ws / db).read_bytes()))

    return apply


def _other_sqlite(ws: Path) -> None:
    (ws / "rr.db").unlink()
    conn = sqlite3.connect(ws / "rr.db")
    conn.execute("CREATE TABLE foo (x)")
    conn.commit()
    conn.close()


def _set(key, value):
    def change(d):
        d[key] = value

    return change


def _pop(key):
    def change(d):
        d.pop(key)

    return change


def _agent0(key, value):
    def change(d):
        d["agents"][0][key] = value

    return change


def _config(key, value):
    def change(d):
        d["config"][key] = value

    return change


DAMAGES = {
    "definition {}": _definition(lambda d: {}),
    "definition not JSON": _sql("rr.db", "UPDATE tournament SET definition = 'not json {'"),
    "definition a list": _definition(lambda d: [d]),
    "definition no agents": _definition(_pop("agents")),
    "definition no game": _definition(_pop("game")),
    "definition no config": _definition(_pop("config")),
    "definition unknown field": _definition(_set("colour", 3)),
    "definition game unknown": _definition(_set("game", "chess")),
    "definition game a number": _definition(_set("game", 5)),
    "definition players text": _definition(_config("players", "2")),
    "definition players 9": _definition(_config("players", 9)),
    "definition bad option": _definition(_config("max_rounds", -4)),
    "definition agents {}": _definition(_set("agents", {})),
    "definition agents empty": _definition(_set("agents", [])),
    "definition agent spec a number": _definition(_agent0("spec", 5)),
    "definition agent spec unknown": _definition(_agent0("spec", "nosuchagent")),
    "definition agent no label": _definition(lambda d: d["agents"][0].pop("label")),
    "definition labels twice": _definition(_agent0("label", "greedy")),
    "definition format unknown": _definition(_set("format", "swiss")),
    "definition games_per_lineup 0": _definition(_set("games_per_lineup", 0)),
    "definition games_per_lineup text": _definition(_set("games_per_lineup", "1")),
    "definition rotations unknown": _definition(_set("rotations", "spiral")),
    "definition seed 1.5": _definition(_set("seed", 1.5)),
    "definition seed huge": _definition(_set("seed", 2**70)),
    "definition hard_limit negative": _definition(_set("hard_limit", -1)),
    "definition hard_limit NaN": _sql(
        "rr.db",
        "UPDATE tournament SET definition = replace(definition, '\"hard_limit\":60.0', '\"hard_limit\":NaN')",
    ),
    "definition move_time text": _definition(_set("move_time", "1")),
    "definition fault_policy unknown": _definition(_set("fault_policy", "forfeit-all")),
    "definition sprt on a round robin": _definition(
        _set("sprt", {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05})
    ),
    "definition candidate on a round robin": _definition(_set("candidate", "greedy")),
    "definition seed changed": _definition(_set("seed", 99)),
    "tournament versions a list": _sql("rr.db", "UPDATE tournament SET versions = '[1]'"),
    "tournament versions not JSON": _sql("rr.db", "UPDATE tournament SET versions = 'x'"),
    "tournament id changed": _sql("rr.db", "UPDATE tournament SET id = 'abc'"),
    "second tournament row": _sql("rr.db", "INSERT INTO tournament SELECT * FROM tournament"),
    "no tournament row": _sql("rr.db", "DELETE FROM tournament"),
    "session versions not JSON": _sql("rr.db", "UPDATE sessions SET versions = 'nope'"),
    "session versions nested": _sql("rr.db", "UPDATE sessions SET versions = '{\"a\": [1]}'"),
    "meta app changed": _sql("rr.db", "UPDATE meta SET value = 'other' WHERE key = 'app'"),
    "meta schema version 99": _sql("rr.db", "UPDATE meta SET value = '99' WHERE key = 'schema_version'"),
    "meta unknown row": _sql("rr.db", "INSERT INTO meta VALUES ('sprx', '{}')"),
    "fault seat 7": _sql(
        "rr.db",
        "UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
        json.dumps([{"seat": 7, "ply": 1, "kind": "exception", "message": "x"}]),
    ),
    "fault seat -1": _sql(
        "rr.db",
        "UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
        json.dumps([{"seat": -1, "ply": 1, "kind": "exception", "message": "x"}]),
    ),
    "fault seat text": _sql(
        "rr.db",
        "UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
        json.dumps([{"seat": "0", "ply": 1, "kind": "exception", "message": "x"}]),
    ),
    "fault kind unknown": _sql(
        "rr.db",
        "UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
        json.dumps([{"seat": 0, "ply": 1, "kind": "bogus", "message": "x"}]),
    ),
    "fault not an object": _sql("rr.db", "UPDATE games SET faults = '[3]', fault_count = 1 WHERE seq = 1"),
    "faults not a list": _sql("rr.db", "UPDATE games SET faults = '{}' WHERE seq = 1"),
    "scores short": _sql("rr.db", "UPDATE games SET scores = '[1]' WHERE seq = 1"),
    "scores NaN": _sql("rr.db", "UPDATE games SET scores = '[NaN, 1]' WHERE seq = 1"),
    "ranks out of range": _sql("rr.db", "UPDATE games SET ranks = '[1, 3]' WHERE seq = 1"),
    "ranks text": _sql("rr.db", "UPDATE games SET ranks = '[\"1\", 2]' WHERE seq = 1"),
    "labels unknown": _sql("rr.db", 'UPDATE games SET labels = \'["a", "b"]\' WHERE seq = 1'),
    "labels not JSON": _sql("rr.db", "UPDATE games SET labels = '[\"a' WHERE seq = 1"),
    "specs changed": _sql("rr.db", 'UPDATE games SET specs = \'["random", "mcts"]\' WHERE seq = 1'),
    "moves garbage": _sql("rr.db", "UPDATE games SET moves = 'garbage{' WHERE seq = 1"),
    "plies text": _sql("rr.db", "UPDATE games SET plies = 'many' WHERE seq = 1"),
    "agent seeds short": _sql("rr.db", "UPDATE games SET agent_seeds = '[1]' WHERE seq = 1"),
    "game key unknown": _sql("rr.db", "UPDATE games SET key = 'Z' WHERE seq = 1"),
    "move times short": _sql("rr.db", "UPDATE move_times SET cpu_seconds = '[0.1]'"),
    "move times of no game": _sql(
        "rr.db", "INSERT INTO move_times VALUES ('nokey', '[0,0]', '[0,0]', '[0,0]')"
    ),
    "bytes truncated": _bytes("rr.db", lambda b: b[: len(b) // 2]),
    "bytes header garbage": _bytes("rr.db", lambda b: b"\x00" * 100 + b[100:]),
    "bytes page garbage": _bytes("rr.db", lambda b: b[:4096] + b"\xff" * 4096 + b[8192:]),
    "empty file": _bytes("rr.db", lambda b: b""),
    "text file": _bytes("rr.db", lambda b: b"hello\n"),
    "another sqlite file": _other_sqlite,
}

# The readers of a results file, with the file given as RR.
READERS = {
    "ratings": ["ratings", "rr.db"],
    "ratings --json": ["ratings", "--json", "rr.db"],
    "report": ["report", "rr.db", "-o", "r.html"],
    "export": ["export", "rr.db", "--format", "csv", "-o", "e.csv"],
    "resume": ["tournament", "resume", "rr.db", *QUIET],
    "run on it": [
        "tournament", "run", "-a", "random", "-a", "greedy", "-p", "2", *SHORT, "--db", "rr.db", *QUIET,
    ],
    "dynamics": ["dynamics", "rr.db"],
    "balance report": ["balance", "report", "rr.db"],
}


# Every damage is read by resume (the writer: it must never play on a damaged file) and by
# one more reader in turn, so that every reader meets damage of every part of the file
# while the module stays near a minute; the API (forumlab.ratings) reads every damage below.
_ROTATING = [r for r in READERS if r != "resume"]
DAMAGE_READERS = [
    (damage, reader)
    for i, damage in enumerate(DAMAGES)
    for reader in ("resume", _ROTATING[i % len(_ROTATING)])
]


@pytest.mark.parametrize("damage, reader", DAMAGE_READERS)
def test_a_damaged_results_file_is_refused_by_every_reader(ws, damage, reader):
    DAMAGES[damage](ws)
    before = snapshot(ws)
    with prompt():
        result = _invoke(*READERS[reader])
    assert_one_line(result, ["rr.db"])
    assert snapshot(ws) == before


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_results_file_is_a_library_error_in_the_api(ws, damage):
    DAMAGES[damage](ws)
    before = snapshot(ws)
    with prompt(), pytest.raises(ForumlabError) as info:
        forumlab.ratings("rr.db")
    assert "\n" not in str(info.value)
    assert snapshot(ws) == before


# ---------------------------------------------------------------- the other stored files

SPRT_DAMAGES = {
    "sprt record a list": _sql("g.db", "UPDATE meta SET value = '[]' WHERE key = 'sprt'"),
    "sprt record not JSON": _sql("g.db", "UPDATE meta SET value = '{' WHERE key = 'sprt'"),
    "sprt record no llr": _sql(
        "g.db", "UPDATE meta SET value = json_remove(value, '$.llr') WHERE key = 'sprt'"
    ),
    "sprt record llr text": _sql(
        "g.db", "UPDATE meta SET value = json_set(value, '$.llr', 'x') WHERE key = 'sprt'"
    ),
    "sprt record decision unknown": _sql(
        "g.db", "UPDATE meta SET value = json_set(value, '$.decision', 'maybe') WHERE key = 'sprt'"
    ),
    "sprt record other candidate": _sql(
        "g.db", "UPDATE meta SET value = json_set(value, '$.candidate', 'random') WHERE key = 'sprt'"
    ),
    "sprt definition alpha 2": _definition(lambda d: d["sprt"].update(alpha=2), db="g.db"),
    "sprt definition elo1 below elo0": _definition(lambda d: d["sprt"].update(elo1=-10), db="g.db"),
    "sprt definition a list": _definition(_set("sprt", [0, 10]), db="g.db"),
    "gauntlet candidate not in the pool": _definition(_set("candidate", "nobody"), db="g.db"),
}
SPRT_READERS = {
    "ratings": ["ratings", "g.db"],
    "report": ["report", "g.db", "-o", "r.html"],
    "resume": ["tournament", "resume", "g.db", *QUIET],
}


@pytest.mark.parametrize("reader", list(SPRT_READERS))
@pytest.mark.parametrize("damage", list(SPRT_DAMAGES))
def test_a_damaged_sequential_test_is_refused(ws, damage, reader):
    SPRT_DAMAGES[damage](ws)
    before = snapshot(ws)
    with prompt():
        result = _invoke(*SPRT_READERS[reader])
    assert_one_line(result, ["g.db"])
    assert snapshot(ws) == before


STUDY_DAMAGES = {
    "study definition {}": _sql("study.db", "UPDATE definitions SET definition = '{}'"),
    "study definition not JSON": _sql("study.db", "UPDATE definitions SET definition = 'x'"),
    "study definition variants text": _sql(
        "study.db", "UPDATE definitions SET definition = json_set(definition, '$.variants', 'x')"
    ),
    "study definition players text": _sql(
        "study.db", "UPDATE definitions SET definition = json_set(definition, '$.players', 'two')"
    ),
    "study outcome not JSON": _sql("study.db", "UPDATE games SET outcome = 'x' WHERE seq = 1"),
    "study outcome {}": _sql("study.db", "UPDATE games SET outcome = '{}' WHERE seq = 1"),
    "study ranks out of range": _sql(
        "study.db", "UPDATE games SET outcome = json_set(outcome, '$.ranks', json('[1, 7]')) WHERE seq = 1"
    ),
    "study fault seat 7": _sql(
        "study.db",
        "UPDATE games SET outcome = json_set(outcome, '$.faults', json(?)) WHERE seq = 1",
        json.dumps([{"seat": 7, "ply": 1, "kind": "exception", "message": "x"}]),
    ),
    "study variant unknown": _sql("study.db", "UPDATE games SET variant = 'zzz' WHERE seq = 1"),
    "study sources text": _sql("study.db", "UPDATE games SET sources = '\"x\"' WHERE seq = 1"),
    "study truncated": _bytes("study.db", lambda b: b[: len(b) // 2]),
}


@pytest.mark.parametrize("damage", list(STUDY_DAMAGES))
@pytest.mark.parametrize("reader", ["report", "continue"])
def test_a_damaged_variant_study_is_refused(ws, damage, reader):
    STUDY_DAMAGES[damage](ws)
    before = snapshot(ws)
    args = (
        ["balance", "report", "study.db"]
        if reader == "report"
        else [*BALANCE, *VARIANTS, "--db", "study.db", *QUIET]
    )
    with prompt():
        result = _invoke(*args)
    assert_one_line(result, ["study.db"])
    assert snapshot(ws) == before


def _exported_move_a(ws: Path) -> None:
    _sql("rr.db", "UPDATE games SET moves = '[\"a\"]' WHERE key = 'L0000-G000-R00'")(ws)
    _must("export", "rr.db", "--game", "L0000-G000-R00", "-o", "moves-a.json")


OTHER_FILES = {
    "single study definition {}": (
        _definition(lambda d: {}, db="single.db"),
        ["balance", "report", "single.db"],
    ),
    "single study continued": (
        _definition(lambda d: {}, db="single.db"),
        [*BALANCE, *SHORT, "--db", "single.db", *QUIET],
    ),
    "strategies definition {}": (
        _definition(lambda d: {}, db="strat.db"),
        [
            "strategies", "forum-romanum", "-p", "2", "-s", "a=random", "-s", "b=greedy", "--games", "1",
            *SHORT, "--bootstrap", "0", "--db", "strat.db", *QUIET,
        ],
    ),
    "strategies fault seat 7": (
        _sql(
            "strat.db",
            "UPDATE games SET faults = ?, fault_count = 1 WHERE seq = 1",
            json.dumps([{"seat": 7, "ply": 1, "kind": "exception", "message": "x"}]),
        ),
        [
            "strategies", "forum-romanum", "-p", "2", "-s", "a=random", "-s", "b=greedy", "--games", "1",
            *SHORT, "--bootstrap", "0", "--db", "strat.db", *QUIET,
        ],
    ),
    "cooperative definition {}": (_definition(lambda d: {}, db="coop.db"), ["ratings", "--json", "coop.db"]),
    "cooperative scores differ": (
        _sql("coop.db", "UPDATE games SET scores = '[1, 2]' WHERE seq = 1"),
        ["report", "coop.db", "-o", "r.html"],
    ),
    "rate on a damaged file": (
        _definition(lambda d: {}, db="rr.db"),
        ["rate", "random", "-p", "2", "--members", "greedy", "--games", "1", "--db", "rr.db", *QUIET],
    ),
    # Moves are stored as notation and checked where a game is replayed.
    "dynamics of moves that do not replay": (
        _sql("rr.db", "UPDATE games SET moves = '[\"a\"]' WHERE seq = 1"),
        ["dynamics", "rr.db", "--json"],
    ),
    "replay of an exported game that does not replay": (_exported_move_a, ["replay", "moves-a.json"]),
}


@pytest.mark.parametrize("case", list(OTHER_FILES))
def test_other_damaged_files_are_refused(ws, case):
    setup, args = OTHER_FILES[case]
    setup(ws)
    before = snapshot(ws)
    with prompt():
        result = _invoke(*args)
    assert_one_line(result)
    assert snapshot(ws) == before


# ---------------------------------------------------------------- inputs that are not regular files

# Every command that reads a file, with {} where the file goes.
INPUTS = {
    "ratings": ["ratings", "{}"],
    "ratings --json": ["ratings", "--json", "{}"],
    "report": ["report", "{}", "-o", "r.html"],
    "export": ["export", "{}", "--format", "jsonl"],
    "resume": ["tournament", "resume", "{}", *QUIET],
    "replay": ["replay", "{}"],
    "--config": ["tournament", "run", "--config", "{}", "--db", "new.db", *QUIET],
    "balance report": ["balance", "report", "{}"],
    "dynamics": ["dynamics", "{}"],
    "eval=PATH": ["play", "forum-romanum", "-p", "2", "-a", "greedy(eval={}),random", *SHORT],
    "human(input=PATH)": ["play", "forum-romanum", "-p", "2", "-a", "human(input={}),random", *SHORT],
    "tournament human(input=PATH)": [
        "tournament", "run", "-a", "human(input={})", "-a", "random", "-p", "2", *SHORT, "--db", "new.db",
        *QUIET,
    ],
    "tune --db": [*DESIGN, "--db", "{}"],
}
NOT_FILES = {
    "named pipe": "pipe",
    "/dev/zero": "/dev/zero",
    "directory": "adir",
    "missing": "nope.db",
    "dangling link": "dangling",
}


@pytest.mark.parametrize("kind", list(NOT_FILES))
@pytest.mark.parametrize("reader", list(INPUTS))
def test_an_input_that_is_not_a_regular_file_is_refused_at_once(ws, reader, kind):
    if reader == "tune --db" and kind == "missing":
        # Not bad input: a tuning log that does not exist yet is the one a new run starts
        # (tests/tuning covers it); every other kind of non-file is refused below.
        pytest.skip("a missing tuning log is a new one")
    args = [a.replace("{}", NOT_FILES[kind]) for a in INPUTS[reader]]
    before = snapshot(ws)
    with prompt():
        result = _invoke(*args)
    assert_one_line(result, [NOT_FILES[kind]])
    assert snapshot(ws) == before


def test_the_api_refuses_a_pipe_and_a_device(ws):
    for call, path in [
        (forumlab.ratings, "pipe"),
        (forumlab.replay, "pipe"),
        (forumlab.ratings, "/dev/zero"),
        (forumlab.replay, "/dev/zero"),
        (forumlab.ratings, "adir"),
    ]:
        with prompt(), pytest.raises(ForumlabError) as info:
            call(path)
        assert "\n" not in str(info.value)
    with prompt(), pytest.raises(ForumlabError):
        forumlab.make_agent("greedy(eval=pipe)").heuristic_weights(
            forumlab.load_game("forum-romanum", players=3)
        )


# ---------------------------------------------------------------- outputs

OUTPUTS = {
    "report -o": ["report", "rr.db", "-o", "{}"],
    "play --record": ["play", "forum-romanum", "-p", "2", *SHORT, "--record", "{}"],
    "export -o": ["export", "rr.db", "--format", "jsonl", "-o", "{}"],
    "export --game -o": ["export", "rr.db", "--game", "L0000-G000-R00", "-o", "{}"],
    "balance --report": [*BALANCE, *SHORT, "--report", "{}", *QUIET],
    "balance --html": [*BALANCE, *VARIANTS, "--html", "{}", *QUIET],
    "balance report --html": ["balance", "report", "study.db", "--html", "{}"],
    "strategies --html": [
        "strategies", "forum-romanum", "-p", "2", "-s", "a=random", "-s", "b=greedy", "--games", "1", *SHORT,
        "--bootstrap", "0", "--db", "strat.db", "--html", "{}", *QUIET,
    ],
    "learn -o": ["learn", "forum-romanum", "-p", "2", "--games", "1", "-o", "{}"],
    "design --out": [*DESIGN, "--out", "{}"],
    "tune --db": [*DESIGN, "--db", "{}"],
    "tournament --db": [
        "tournament", "run", "-a", "random", "-a", "greedy", "-p", "2", *SHORT, "--db", "{}", *QUIET,
    ],
    "balance --db": [*BALANCE, *SHORT, "--db", "{}", *QUIET],
}
TARGETS = {
    "device": "null",
    "named pipe": "pipe",
    "directory": "adir",
    "dangling link": "dangling",
    "link to nothing here": "dangling2",
    "no directory": "nodir/x.out",
}


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("command", list(OUTPUTS))
def test_an_output_that_cannot_be_written_safely_is_refused_and_kept(ws, command, target):
    if target == "device" and not (ws / "null").exists():
        # mknod needs root (CI runs as root, so there the case runs); the pipe, directory and
        # link targets check the same refusal without it.
        pytest.skip("making a device node needs root")
    args = [a.replace("{}", TARGETS[target]) for a in OUTPUTS[command]]
    before = snapshot(ws)
    with prompt():
        result = _invoke(*args)
    assert_one_line(result, [TARGETS[target]])
    assert snapshot(ws) == before


@pytest.mark.parametrize("target", ["null", "pipe", "dangling2", "old.txt", "old.txt/sub"])
def test_an_output_directory_that_is_something_else_is_refused_before_any_game(ws, target):
    if target == "null" and not (ws / "null").exists():
        # mknod needs root (CI runs as root, so there the case runs); the other targets check
        # the same refusal without it.
        pytest.skip("making a device node needs root")
    before = snapshot(ws)
    with prompt():
        result = _invoke(
            "skill", "forum-romanum", "-p", "2", "--games", "1", "--budgets", "5,10", "--out", target, *QUIET
        )
    assert_one_line(result, [target])
    assert snapshot(ws) == before


READ_ONLY = {
    "report -o onto a read-only file": ["report", "rr.db", "-o", "ro_file.txt"],
    "export -o into a read-only directory": ["export", "rr.db", "--format", "jsonl", "-o", "ro/e.jsonl"],
    "play --record into a read-only directory": [
        "play", "forum-romanum", "-p", "2", *SHORT, "--record", "ro/g.json",
    ],
}


@pytest.mark.parametrize("case", list(READ_ONLY))
def test_an_output_the_user_may_not_write_is_refused_before_any_work(ws, case):
    """Run without the capability that lets root write anywhere (as any other user would):
    renaming over a read-only file would replace it all the same, and a game played to
    the end before its record could not be written is work lost."""
    import subprocess
    import sys

    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        # Only root can drop its own override of file permissions (CI runs as root); as any
        # other user the read-only targets are simply unwritable, which the OS enforces.
        pytest.skip("needs root and setpriv to drop the permission override")
    (ws / "ro_file.txt").write_text("keep me\n")
    os.chmod(ws / "ro_file.txt", 0o444)
    os.mkdir(ws / "ro", 0o555)
    before = snapshot(ws)
    drop = "-dac_override,-dac_read_search"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    proc = subprocess.run(
        [
            setpriv,
            "--bounding-set",
            drop,
            "--inh-caps",
            drop,
            sys.executable,
            "-m",
            "forumlab",
            *READ_ONLY[case],
        ],
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        timeout=3 * LIMIT,
    )
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert (
        proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1 and "not writable" in proc.stderr
    )
    assert snapshot(ws) == before


# A command that fails after its output's path was accepted: an existing file stays as it was.
def _write(name: str, text: str) -> Callable[[Path], None]:
    def apply(ws: Path) -> None:
        (ws / name).write_text(text)

    return apply


FAILING = {
    "report of a damaged file": (DAMAGES["fault seat 7"], ["report", "rr.db", "-o", "old.txt"]),
    "play --record onto a human's command file": (
        _write("cmds.txt", "quit\n"),
        [
            "play", "forum-romanum", "-p", "2", *SHORT, "-a", "human(input=cmds.txt),random", "--record",
            "cmds.txt",
        ],
    ),
    "play --record onto an evaluation file": (
        None,
        [
            "play", "forum-romanum", "-p", "3", *SHORT, "-a", "greedy(eval=model.json),random,random",
            "--record", "model.json",
        ],
    ),
    "report onto the results file": (None, ["report", "rr.db", "-o", "rr.db"]),
    "export onto the results file": (None, ["export", "rr.db", "--format", "csv", "-o", "rr.db"]),
    "design --out onto its own log": (None, [*DESIGN, "--db", "new.jsonl", "--out", "new.jsonl"]),
    "export meets a damaged row": (
        _sql("rr.db", "UPDATE games SET moves = 'garbage{' WHERE seq = (SELECT max(seq) FROM games)"),
        ["export", "rr.db", "--format", "jsonl", "-o", "old.txt"],
    ),
    "export --game of no game": (None, ["export", "rr.db", "--game", "nope", "-o", "old.txt"]),
    "play an agent that cannot load": (
        None,
        ["play", "forum-romanum", "-p", "2", "-a", "nosuchmod_q:Bot,random", "--record", "old.txt"],
    ),
    "play a bad option": (
        None,
        ["play", "forum-romanum", "-p", "2", "-o", "max_rounds=-1", "--record", "old.txt"],
    ),
    "balance --report with a bad agent": (
        None,
        ["balance", "forum-romanum", "-p", "2", "--agent", "nosuch", "--report", "old.txt", *QUIET],
    ),
    "learn with a bad agent": (
        None,
        ["learn", "forum-romanum", "-p", "2", "--agent", "mcts", "-o", "old.txt"],
    ),
    "design with a bad target": (
        None,
        [
            "design", "forum-romanum", "-p", "2", "--option-param", "max_rounds=2..4", "--target", "nonsense",
            "--out", "old.txt", "-w", "0",
        ],
    ),
    "strategies --html with a bad level": (
        None,
        ["strategies", "forum-romanum", "-p", "2", "--level", "nosuch", "--html", "old.txt", *QUIET],
    ),
    "balance report --html of a damaged study": (
        STUDY_DAMAGES["study outcome {}"],
        ["balance", "report", "study.db", "--html", "old.txt"],
    ),
}


@pytest.mark.parametrize("case", list(FAILING))
def test_an_existing_output_is_untouched_when_the_command_fails(ws, case):
    setup, args = FAILING[case]
    if setup is not None:
        setup(ws)
    before = snapshot(ws)
    with prompt():
        result = _invoke(*args)
    assert_one_line(result)
    assert snapshot(ws) == before


# ---------------------------------------------------------------- play and third-party agents

AGENT_HEAD = "import os, signal, sys\nfrom forumlab.agents.base import Agent\n"
BROKEN_AGENTS = {
    "syntax error": "class Bot(Agent:\n    pass\n",
    "import-time exception": "raise RuntimeError('boom at import')\n",
    "constructor raises": (
        "class Bot(Agent):\n    name = 'bot'\n"
        "    def __init__(self, seed=0, **options):\n        raise RuntimeError('no')\n"
        "    def choose(self, s):\n        return 0\n"
    ),
}


@pytest.mark.parametrize("case", list(BROKEN_AGENTS))
def test_play_refuses_an_agent_that_cannot_be_loaded(ws, case):
    module = f"broken_{case.split()[0].replace('-', '_')}_{os.getpid()}_{id(ws)}"
    (ws / f"{module}.py").write_text(AGENT_HEAD + BROKEN_AGENTS[case])
    before = snapshot(ws)
    with prompt():
        result = _invoke(
            "play", "forum-romanum", "-p", "2", *SHORT, "-a", f"{module}:Bot,random", "--record", "old.txt"
        )
    assert_one_line(result, [f"{module}:Bot"])
    assert snapshot(ws) == before


MISBEHAVING = {
    "sys.exit(4)": ("sys.exit(4)", "exit", "SystemExit: 4"),
    "os._exit(3)": ("os._exit(3)", "exit", "exit code 3"),
    "SIGKILL": ("os.kill(os.getpid(), signal.SIGKILL)", "crash", "SIGKILL"),
}


@pytest.mark.parametrize("case", list(MISBEHAVING))
def test_play_records_an_agent_that_ends_during_the_game_as_a_fault(ws, case):
    body, kind, words = MISBEHAVING[case]
    module = f"ends_{abs(hash(case))}_{os.getpid()}_{id(ws)}"
    (ws / f"{module}.py").write_text(
        AGENT_HEAD + "class Bot(Agent):\n    name = 'bot'\n    moves = 0\n"
        "    def choose(self, state):\n        self.moves += 1\n"
        f"        if self.moves > 1:\n            {body}\n"
        "        return int(state.legal_moves()[0])\n"
    )
    with deadline(3 * LIMIT):
        result = _invoke(
            "play",
            "forum-romanum",
            "-p",
            "2",
            "-o",
            "max_rounds=3",
            "-a",
            f"random,{module}:Bot",
            "--record",
            "fault.json",
        )
    assert result.exit_code == 0, (result.output, repr(result.exception))
    record = json.loads((ws / "fault.json").read_text())
    (fault,) = record["result"]["faults"]
    assert (fault["seat"], fault["kind"]) == (1, kind) and words in fault["message"], fault
    assert record["result"]["terminal"] or record["result"].get("truncated", True)


def test_a_human_seat_with_standard_input_closed_ends_the_game_as_end_of_input(ws):
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    command = (
        f"exec {sys.executable} -m forumlab play forum-romanum -p 2 {' '.join(SHORT)} "
        "-a 'human(input=-),random' --record human.json 0<&-"
    )
    proc = subprocess.run(
        ["sh", "-c", command], cwd=ws, env=env, capture_output=True, text=True, timeout=3 * LIMIT
    )
    assert proc.returncode == 0, proc.stderr
    record = json.loads((ws / "human.json").read_text())
    assert record["moves"] == [] and record["interrupted"]["cause"].startswith("end of input")


# ---------------------------------------------------------------- parameters


def _numeric_parameters():
    from forumlab.agents.registry import agent_names, agent_params

    cases = []
    for name in agent_names():
        for key, param in agent_params(name).items():
            kind = getattr(param, "kind", None)
            if kind in (int, float):
                cases.append((name, key, kind))
    return cases


BEYOND = ["inf", "-inf", "nan", "-1e300", "1e300", "10**30", "-(10**30)", "1e19", "-1"]


@pytest.mark.parametrize("agent, key, kind", _numeric_parameters(), ids=lambda v: getattr(v, "__name__", v))
def test_every_numeric_parameter_refuses_values_beyond_its_range(agent, key, kind):
    from forumlab.agents.registry import agent_params
    from forumlab.agents.spec import AgentSpecError

    param = agent_params(agent)[key]
    for text in BEYOND:
        value = eval(text, {"__builtins__": {}}, {"inf": math.inf, "nan": math.nan})  # noqa: S307
        low, high = getattr(param, "low", None), getattr(param, "high", None)
        inside = (
            not math.isnan(value)
            and (low is None or value >= low)
            and (high is None or value <= high)
            and (kind is float or value == int(value) if math.isfinite(value) else False)
        )
        if inside:
            continue
        spec = (
            f"{agent}({key}={value!r})"
            if kind is float or not math.isfinite(value)
            else f"{agent}({key}={int(value)})"
        )
        with pytest.raises((AgentSpecError, ForumlabError)) as info:
            forumlab.make_agent(spec)
        assert "\n" not in str(info.value), spec


@pytest.mark.parametrize(
    "spec",
    [
        "mcts(widen=1e19)", "mcts(iterations=1e30)", "mcts(c=nan)", "mcts(c=inf)", "mcts(iterations=-5)",
        "greedy(seed=1.5)", "paranoid(depth=10**30)", "brs(nodes=-1)", "maxn(time=inf)", "random(seed=2**70)",
    ],
)
def test_play_refuses_an_agent_parameter_out_of_range_before_playing(ws, spec):
    before = snapshot(ws)
    with prompt():
        result = _invoke(
            "play", "forum-romanum", "-p", "2", "-a", f"{spec},random", *SHORT, "--record", "g2.json"
        )
    assert_one_line(result)
    assert snapshot(ws) == before


SPRT = [
    "elo0=0, elo1=10, elo0 =1", "elo0=0,elo1=10,elo0=1", "elo0=0,,elo1=10", "elo0=0,elo1=10,alpha=2",
    "elo0=nan,elo1=10", "elo0=10,elo1=0", "elo1=10", "elo0=0,elo1=10,gamma=1", "elo0=0 elo1=10", "",
    "elo0=inf,elo1=10", "elo0=0,elo1=10,beta=0", "elo0=0,elo1=1e400", " ELO0=0,elo1=10,elo0=2",
]


@pytest.mark.parametrize("text", SPRT)
@pytest.mark.parametrize("command", ["tournament", "rate"])
def test_sprt_spelling_is_refused_before_anything_is_made(ws, text, command):
    args = (
        [
            "tournament",
            "run",
            "--format",
            "gauntlet",
            "--candidate",
            "greedy",
            "-a",
            "random",
            "-a",
            "greedy",
            "-p",
            "2",
            *SHORT,
            "--db",
            "new.db",
            "--sprt",
            text,
            *QUIET,
        ]
        if command == "tournament"
        else ["rate", "random", "-p", "2", "--members", "greedy", "--db", "new.db", "--sprt", text, *QUIET]
    )
    before = snapshot(ws)
    with prompt():
        result = _invoke(*args)
    assert_one_line(result)
    assert snapshot(ws) == before


# ---------------------------------------------------------------- the Python API and the adapters


def _state():
    return forumlab.load_game("forum-romanum", players=2).new_state(1)


def _code():
    return int(_state().legal_moves()[0])


def _openspiel(params):
    pytest.importorskip("pyspiel")
    import pyspiel

    from forumlab.interop.openspiel import register_games

    register_games()
    return pyspiel.load_game("python_forumlab_forma", params)


def _spiel_class():
    """The OpenSpiel game class of Forma, called directly: pyspiel.load_game checks the
    declared parameters' types itself (a pyspiel.SpielError) before the class sees them."""
    pytest.importorskip("pyspiel")
    from forumlab.interop.openspiel import SpielGame, register_games

    register_games()
    return next(c for c in SpielGame.__subclasses__() if c.forumlab_name == "forma")


def _pettingzoo(*args, **kwargs):
    pytest.importorskip("pettingzoo")
    from forumlab.interop.pettingzoo import env

    return env(*args, **kwargs)


API = {
    "state.play(code + 0.9)": lambda: _state().play(_code() + 0.9),
    "state.play(True)": lambda: _state().play(True),
    "state.play(2**70)": lambda: _state().play(2**70),
    "state.play('zz9')": lambda: _state().play("zz9"),
    "state.play(None)": lambda: _state().play(None),
    "state.play(-1)": lambda: _state().play(-1),
    "view_for(99)": lambda: _state().view_for(99),
    "view_for(-1)": lambda: _state().view_for(-1),
    "view_for(1.0)": lambda: _state().view_for(1.0),
    "view_for(0, rng='x')": lambda: _state().view_for(0, "x"),
    "make_agent seed 1.5": lambda: forumlab.make_agent("greedy", seed=1.5),
    "make_agent seed '1'": lambda: forumlab.make_agent("greedy", seed="1"),
    "make_agent spec 5": lambda: forumlab.make_agent(5),
    "make_agent spec None": lambda: forumlab.make_agent(None),
    "load_game 5": lambda: forumlab.load_game(5),
    "load_game players 2.5": lambda: forumlab.load_game("forum-romanum", players=2.5),
    "load_game players 99": lambda: forumlab.load_game("forum-romanum", players=99),
    "load_game option NaN": lambda: forumlab.load_game("forum-romanum", players=2, max_rounds=math.nan),
    "new_state seed 1.5": lambda: forumlab.load_game("forum-romanum", players=2).new_state(1.5),
    "play one agent for two seats": lambda: forumlab.play("forum-romanum", ["random"]),
    "play agents not a list": lambda: forumlab.play("forum-romanum", "random,random"),
    "replay a number": lambda: forumlab.replay(5),
    "replay {}": lambda: forumlab.replay({}),
    "ratings of a number": lambda: forumlab.ratings(5),
    "ratings of no files": lambda: forumlab.ratings([]),
    "ratings anchor unknown": lambda: forumlab.ratings("rr.db", anchor="nobody"),
    "openspiel name": lambda: _spiel_class()({"name": "x"}),
    "openspiel options name": lambda: _openspiel({"options": '{"name": "x"}'}),
    "openspiel options not JSON": lambda: _openspiel({"options": "{bad"}),
    "openspiel options players 9": lambda: _openspiel({"options": '{"players": 9}'}),
    "openspiel players text": lambda: _spiel_class()({"players": "2"}),
    "openspiel seed 1.5": lambda: _spiel_class()({"seed": 1.5}),
    "openspiel seed 2**31": lambda: _spiel_class()({"seed": 2**31}),
    "pettingzoo render_mode": lambda: _pettingzoo("forma", render_mode="rgb_array"),
    "pettingzoo game 3": lambda: _pettingzoo(3),
    "pettingzoo players 2.5": lambda: _pettingzoo("forma", players=2.5),
    "pettingzoo reset seed 1.5": lambda: _pettingzoo("forma", players=2).reset(seed=1.5),
}


@pytest.mark.parametrize("case", list(API))
def test_the_api_raises_the_librarys_own_errors(ws, case):
    from forumlab.agents.spec import AgentSpecError

    before = snapshot(ws)
    with prompt(), pytest.raises((ForumlabError, AgentSpecError)) as info:
        API[case]()
    assert str(info.value) and "\n" not in str(info.value)
    assert snapshot(ws) == before


@dataclass
class _Run:
    kwargs: dict = field(default_factory=dict)
    args: tuple = ("forum-romanum", ["random", "greedy"])


RUNS = {
    "workers -1": _Run({"workers": -1}),
    "workers 1.5": _Run({"workers": 1.5}),
    "workers text": _Run({"workers": "2"}),
    "games_per_lineup 0": _Run({"games_per_lineup": 0}),
    "games_per_lineup 1.5": _Run({"games_per_lineup": 1.5}),
    "players 99": _Run({"players": 99}),
    "unknown agent": _Run({}, ("forum-romanum", ["random", "nosuch"])),
    "no agent": _Run({}, ("forum-romanum", [])),
    "agents text": _Run({}, ("forum-romanum", "random,greedy")),
    "unknown game": _Run({}, ("chess", ["random", "greedy"])),
    "seed 1.5": _Run({"seed": 1.5}),
    "bad option": _Run({"max_rounds": -1}),
    "progress 5": _Run({"progress": 5}),
}


@pytest.mark.parametrize("case", list(RUNS))
def test_run_tournament_refuses_before_it_makes_a_file(ws, case):
    from forumlab.agents.spec import AgentSpecError

    run = RUNS[case]
    before = snapshot(ws)
    with prompt(), pytest.raises((ForumlabError, AgentSpecError)) as info:
        forumlab.run_tournament(*run.args, "new.db", **{"players": 2, **run.kwargs})
    assert "\n" not in str(info.value)
    assert snapshot(ws) == before
