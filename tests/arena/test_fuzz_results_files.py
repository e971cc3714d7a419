"""Damaged results files, at random: every reading command either works or refuses in one line.

Two small results files are made once: a finished round robin (random against greedy,
2-player Forum Romanum) and a finished gauntlet with a sequential test record and faults
(greedy against an agent whose every move is illegal). Each case copies one of them and
damages the copy, with a fixed seed: bytes flipped or the file truncated, or, through
SQLite (the append-only triggers dropped first), a stored field replaced: JSON of the
wrong type, a key removed, an out-of-range seat, an unknown fault kind, garbage text, an
empty object, a bogus extension or sequential test row, an orphan move_times row.

Then ``ratings``, ``ratings --json``, ``report -o``, ``export`` and ``tournament resume``
run on it in-process (click's CliRunner), and each must either succeed or exit 2 with one
``error:`` line and no traceback; none may change the damaged file's bytes (both base
files are complete, so even a successful resume has nothing to write), and a command
that fails leaves no output file behind.
"""
import json
import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import forumlab
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import run_tournament
from forumlab.cli import main

SEED = 20261206
CASES = 60

# Values a damaged JSON field may take: wrong types, garbage, empty containers, out of range.
WRONG_JSON = ['{}', '[]', '"x"', '0', '-1', '7', '1.5', 'true', 'null', 'NaN', '1e999', '[[]]',
              '{"a": 1}', '[null]', '["a", 5]', '', 'garbage{', '\x00', '"' + 'x' * 3000 + '"']
WRONG_SQL = [5, -1, 2**62, 1.5, "text", b"\x00\xff", "[]", "{}"]
GAME_JSON = ("labels", "specs", "agent_seeds", "moves", "scores", "ranks", "faults", "move_seconds",
             "moves_made")
GAME_PLAIN = ("key", "grp", "lineup", "rotation", "seed", "plies", "termination", "fault_count",
              "started", "finished", "host", "recorded", "session")


@pytest.fixture(scope="module")
def bases(tmp_path_factory):
    """The two finished results files the cases damage."""
    root = tmp_path_factory.mktemp("bases")
    plain = root / "plain.db"
    forumlab.run_tournament("forum-romanum", ["random", "greedy"], plain, players=2, max_rounds=2, workers=0)
    gauntlet = root / "gauntlet.db"
    definition = TournamentDefinition(
        game="forum-romanum", config={"players": 2, "max_rounds": 2}, format="gauntlet", candidate="greedy",
        agents=(PoolEntry("greedy", "greedy"), PoolEntry("bad", "tests.fault_agents:IllegalAgent")),
        games_per_lineup=2, sprt={"elo0": 0, "elo1": 100})
    run_tournament(definition, gauntlet, workers=0, progress=False)
    with ResultStore.open(gauntlet, readonly=True) as store:
        assert store.sprt_record() is not None  # decided or exhausted: resume plays nothing
        assert any(o.faults for o in store.outcomes())
    return {"plain": plain, "gauntlet": gauntlet}


def _drop_triggers(conn: sqlite3.Connection) -> None:
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")


def _mutate_json(rng: random.Random, text) -> str:
    """``text`` (a JSON value) changed in one random way."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return rng.choice(WRONG_JSON)
    wrong = json.loads(rng.choice([w for w in WRONG_JSON if w not in ("", "garbage{", "\x00", "NaN", "1e999")]))
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(sorted(value))
        if rng.random() < 0.5:
            del value[key]
        else:
            value[key] = wrong
        return json.dumps(value)
    if isinstance(value, list) and value and rng.random() < 0.7:
        k = rng.randrange(len(value))
        item = value[k]
        roll = rng.random()
        if isinstance(item, dict) and "seat" in item and roll < 0.4:  # a fault: seat or kind out of range
            item = dict(item)
            if rng.random() < 0.5:
                item["seat"] = rng.choice([-1, 2, 7, 2**40])
            else:
                item["kind"] = "bogus"
            value[k] = item
        elif roll < 0.6:
            del value[k]
        elif roll < 0.8:
            value.append(value[k])
        else:
            value[k] = wrong
        return json.dumps(value)
    return rng.choice(WRONG_JSON)


def _damage_sql(rng: random.Random, db: Path) -> str:
    """One stored field or row replaced or added through SQLite; says which."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        _drop_triggers(conn)
        target = rng.choice(["definition", "versions", "tournament_id", "created", "session", "sprt",
                             "extension", "game_json", "game_json", "game_json", "game_plain",
                             "move_times", "orphan_move_times"])
        if target == "definition":
            (text,) = conn.execute("SELECT definition FROM tournament").fetchone()
            conn.execute("UPDATE tournament SET definition = ?", (_mutate_json(rng, text),))
        elif target == "versions":
            (text,) = conn.execute("SELECT versions FROM tournament").fetchone()
            conn.execute("UPDATE tournament SET versions = ?", (_mutate_json(rng, text),))
        elif target == "tournament_id":
            conn.execute("UPDATE tournament SET id = ?", (rng.choice(WRONG_SQL),))
        elif target == "created":
            conn.execute("UPDATE tournament SET created = ?", (rng.choice(WRONG_SQL),))
        elif target == "session":
            column = rng.choice(["versions", "opened", "host", "pid"])
            if column == "versions":
                (text,) = conn.execute("SELECT versions FROM sessions LIMIT 1").fetchone()
                conn.execute("UPDATE sessions SET versions = ?", (_mutate_json(rng, text),))
            else:
                conn.execute(f"UPDATE sessions SET {column} = ?", (rng.choice(WRONG_SQL),))
        elif target == "sprt":
            row = conn.execute("SELECT key, value FROM meta WHERE key LIKE 'sprt%'").fetchone()
            if row is None:
                conn.execute("INSERT INTO meta (key, value) VALUES ('sprt', ?)", (rng.choice(WRONG_JSON),))
            else:
                conn.execute("UPDATE meta SET value = ? WHERE key = ?", (_mutate_json(rng, row[1]), row[0]))
        elif target == "extension":
            (text,) = conn.execute("SELECT definition FROM tournament").fetchone()
            conn.execute("INSERT INTO meta (key, value) VALUES ('definition/1', ?)", (_mutate_json(rng, text),))
        elif target == "game_json":
            column = rng.choice(GAME_JSON)
            seq, text = conn.execute(f"SELECT seq, {column} FROM games ORDER BY random() LIMIT 1").fetchone()
            conn.execute(f"UPDATE games SET {column} = ? WHERE seq = ?", (_mutate_json(rng, text), seq))
            return f"games.{column}"
        elif target == "game_plain":
            column = rng.choice(GAME_PLAIN)
            try:
                conn.execute(f"UPDATE games SET {column} = ? WHERE seq = 1", (rng.choice(WRONG_SQL),))
            except sqlite3.IntegrityError:  # NOT NULL, UNIQUE: SQLite itself refuses this damage
                conn.execute("UPDATE games SET host = 5 WHERE seq = 1")
            return f"games.{column}"
        elif target == "move_times":
            column = rng.choice(["cpu_seconds", "max_seconds", "max_cpu_seconds"])
            row = conn.execute(f"SELECT key, {column} FROM move_times LIMIT 1").fetchone()
            if row is None:
                return "move_times (none)"
            conn.execute(f"UPDATE move_times SET {column} = ? WHERE key = ?", (_mutate_json(rng, row[1]), row[0]))
            return f"move_times.{column}"
        else:
            conn.execute("INSERT INTO move_times VALUES ('L9999-G000-R00', '[0,0]', '[0,0]', '[0,0]')")
        return target
    finally:
        conn.close()


def _damage_bytes(rng: random.Random, db: Path) -> str:
    data = bytearray(db.read_bytes())
    if rng.random() < 0.25:
        del data[rng.randrange(len(data)):]
        db.write_bytes(bytes(data))
        return "truncated"
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(data))
        data[k] ^= rng.randrange(1, 256)
    db.write_bytes(bytes(data))
    return "bytes flipped"


COMMANDS = {
    "ratings": (["ratings", "damaged.db"], None),
    "ratings --json": (["ratings", "--json", "damaged.db"], None),
    "report": (["report", "damaged.db", "-o", "out.html"], "out.html"),
    "export": (["export", "damaged.db", "--format", "jsonl", "-o", "out.jsonl"], "out.jsonl"),
    "resume": (["tournament", "resume", "damaged.db", "--workers", "1", "-q"], None),
}


def test_damaged_results_files_are_read_or_refused_in_one_line(bases, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(SEED)
    runner = CliRunner()
    refused = 0
    for case in range(CASES):
        base = rng.choice(sorted(bases))
        db = tmp_path / "damaged.db"
        shutil.copy(bases[base], db)
        how = _damage_bytes(rng, db) if rng.random() < 0.3 else _damage_sql(rng, db)
        damaged = db.read_bytes()
        for name, (args, output) in COMMANDS.items():
            result = runner.invoke(main, args)
            where = f"case {case} ({base}, {how}): {name}"
            assert result.exit_code in (0, 2), (where, result.output, result.exception)
            assert isinstance(result.exception, (SystemExit, type(None))), (where, result.exception)
            assert "Traceback" not in result.output, where
            assert db.read_bytes() == damaged, f"{where} changed the damaged file"
            assert sorted(os.listdir(tmp_path)) == sorted(["damaged.db"] + ([output] if output and
                                                                          result.exit_code == 0 else [])), where
            if result.exit_code == 2:
                refused += 1
                message = result.stderr.strip()
                assert message.startswith("error: ") and "\n" not in message, (where, message)
            if output and os.path.exists(output):
                os.unlink(output)
        db.unlink()
    assert refused > CASES  # most damage is found (and some is harmless, e.g. a flipped score)
