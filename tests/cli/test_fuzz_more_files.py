"""Damaged evaluation files, balance study files and tuning logs, at random, from a fixed seed.

The other file formats forumlab reads have their fuzz tests beside this one (game records
and tournament files: test_fuzz_inputs.py; results files: tests/arena/
test_fuzz_results_files.py). Here: a learned evaluation (``eval=FILE``, read by every
search agent), a variant study's file (read by ``balance report``, continued by ``balance
--variant ... --db``) and a tuning log (read back by ``tune``/``design --db``). Each case
damages a copy of a good file (bytes flipped, the file cut short, or a JSON field replaced
by a value of the wrong type, removed, or made garbage) and runs the command that reads
it, in-process. The command must either succeed or exit 2 with exactly one ``error:``
line and no traceback, within the deadline, and a refused file must be left as it was.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import forumlab
from forumlab.cli import main
from tests.deadline import deadline

SEED = 20261206
LIMIT = 60  # seconds per case, far above what one takes: a hang fails instead of blocking
ODD = [None, True, 0, -1, 1.5, math.inf, math.nan, 10**30, "", "x", [], [1], {}, {"a": 1}, [[[]]], "9" * 3000]
SHORT = ["-o", "max_rounds=2"]
QUIET = ["-q", "--workers", "1"]
STUDY = [
    "balance", "forum-romanum", "-p", "2", "--agent", "greedy", "--games", "1", "--variant", "a=max_rounds=2",
    "--variant", "b=max_rounds=3",
]
DESIGN = [
    "design", "forum-romanum", "-p", "2", "--agent", "greedy", "--option-param", "max_rounds=2..3",
    "--target", "length=10", "--evaluations", "2", "--games-per-evaluation", "1", "--confirm-games", "0",
    "-w", "0", "--no-progress",
]


def _run(*args):
    with deadline(LIMIT):
        return CliRunner().invoke(main, [str(a) for a in args])


def assert_clean(result, where):
    """Success, or exit 2 with exactly one ``error:`` line and no traceback."""
    assert not isinstance(result.exception, TimeoutError), where
    assert result.exit_code in (0, 2), (where, result.exit_code, result.output, repr(result.exception))
    assert isinstance(result.exception, (SystemExit, type(None))), (where, repr(result.exception))
    assert "Traceback" not in result.output, where
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (where, result.stderr)


def _mutate(rng: random.Random, value):
    """``value`` (decoded JSON) with one field, somewhere inside, replaced, removed or added."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        choice = rng.random()
        if choice < 0.2:
            return {k: v for k, v in value.items() if k != key}
        if choice < 0.6 and isinstance(value[key], (dict, list)) and value[key]:
            return {**value, key: _mutate(rng, value[key])}
        return {**value, key: rng.choice(ODD)}
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        inner = value[i]
        replaced = (
            _mutate(rng, inner) if isinstance(inner, (dict, list)) and rng.random() < 0.6 else rng.choice(ODD)
        )
        return value[:i] + [replaced] + value[i + 1 :]
    return rng.choice(ODD)


def _bytes_damage(rng: random.Random, data: bytes) -> bytes:
    if rng.random() < 0.4:
        return data[: rng.randrange(len(data))]
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        out[rng.randrange(len(out))] ^= rng.randrange(1, 256)
    return bytes(out)


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A good file of each kind: an evaluation file, a variant study and a tuning log."""
    root = tmp_path_factory.mktemp("good")
    shutil.copy(
        Path(forumlab.__file__).parent / "learning" / "evals" / "forum-romanum-3p.json", root / "eval.json"
    )
    for args in ([*STUDY, "--db", root / "study.db", *QUIET], [*DESIGN, "--db", root / "log.jsonl"]):
        result = CliRunner().invoke(main, [str(a) for a in args])
        assert result.exit_code == 0, (args, result.output, result.exception)
    return root


def _damaged_json_text(rng: random.Random, text: str) -> str:
    if rng.random() < 0.3:
        return _bytes_damage(rng, text.encode()).decode("utf-8", "replace")
    return json.dumps(_mutate(rng, json.loads(text)), allow_nan=True)


def test_damaged_evaluation_files(good, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(SEED)
    refused = 0
    for case in range(25):
        text = _damaged_json_text(rng, (good / "eval.json").read_text())
        Path("eval.json").write_bytes(text.encode())  # bytes: a damaged byte may be a lone carriage return
        result = _run(
            "play", "forum-romanum", "-p", "3", "-o", "max_rounds=1", "-a",
            "greedy(eval=eval.json),random,random",
        )
        assert_clean(result, f"case {case}: {text[:200]}")
        refused += result.exit_code == 2
        assert Path("eval.json").read_bytes() == text.encode()
    assert refused > 10


def _damage_study(rng: random.Random, db: Path) -> str:
    if rng.random() < 0.25:
        db.write_bytes(_bytes_damage(rng, db.read_bytes()))
        return "bytes"
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        table, column = rng.choice(
            [
                ("definitions", "definition"),
                ("definitions", "versions"),
                ("games", "outcome"),
                ("games", "sources"),
                ("games", "variant"),
            ]
        )
        (seq, value) = conn.execute(f"SELECT seq, {column} FROM {table} ORDER BY random() LIMIT 1").fetchone()
        try:
            new = json.dumps(_mutate(rng, json.loads(value)), allow_nan=True)
        except (TypeError, ValueError):  # a NULL or a plain text column
            new = json.dumps(rng.choice(ODD), allow_nan=True)
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE seq = ?", (new, seq))
        return f"{table}.{column} = {new[:120]}"
    finally:
        conn.close()


def test_damaged_study_files(good, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(SEED)
    refused = 0
    for case in range(25):
        shutil.copy(good / "study.db", "study.db")
        how = _damage_study(rng, Path("study.db"))
        damaged = Path("study.db").read_bytes()
        for args in (["balance", "report", "study.db"], [*STUDY, "--db", "study.db", *QUIET]):
            result = _run(*args)
            assert_clean(result, f"case {case} ({how}): {args[1]}")
            refused += result.exit_code == 2
            if result.exit_code == 2:
                assert Path("study.db").read_bytes() == damaged, f"case {case} ({how}) changed a refused file"
    assert refused > 15


def test_damaged_tuning_logs(good, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(SEED)
    lines = (good / "log.jsonl").read_text().splitlines()
    refused = 0
    for case in range(12):
        if rng.random() < 0.3:
            text = _bytes_damage(rng, "\n".join(lines).encode() + b"\n").decode("utf-8", "replace")
        else:
            i = rng.randrange(len(lines))
            damaged = list(lines)
            damaged[i] = json.dumps(_mutate(rng, json.loads(lines[i])), allow_nan=True)
            text = "\n".join(damaged) + "\n"
        Path("log.jsonl").write_text(text)
        result = _run(*DESIGN, "--db", "log.jsonl")
        assert_clean(result, f"case {case}: {text[:300]}")
        refused += result.exit_code == 2
        if result.exit_code == 2:
            assert Path("log.jsonl").read_text() == text
    assert refused > 3
