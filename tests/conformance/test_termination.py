"""Termination kinds are an enum whose values are the strings results files have always held.

``tests/data/results-plain-terminations.db`` was written by forumlab before the
``Termination`` enum existed, when terminations were bare strings: a 2-player Forma
tournament (``forumlab tournament run --game forma -p 2 -a random -a greedy --games 2
--seed 7``, 4 games ending ``"end"``) plus two games recorded through
``ResultStore.record`` with the old ``END_KILLED`` (``"killed"``, what the watchdog left
before games were continued) and ``END_CAP`` (``"cap"``) strings.
"""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.arena.jobs import END_CAP, END_KILLED, END_RULES, GameOutcome
from forumlab.arena.ratings import rate, rated_games
from forumlab.arena.store import ResultStore
from forumlab.cli import main
from forumlab.core.termination import Termination, as_termination

OLD_FILE = Path(__file__).resolve().parents[1] / "data" / "results-plain-terminations.db"


@pytest.fixture
def old_db(tmp_path) -> Path:
    db = tmp_path / "old.db"
    shutil.copyfile(OLD_FILE, db)
    return db


def stored_terminations(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [t for (t,) in conn.execute("SELECT termination FROM games ORDER BY seq")]


def test_the_members_are_the_strings_results_files_hold():
    assert (END_RULES, END_CAP, END_KILLED) == (Termination.RULES, Termination.CAP, Termination.KILLED)
    assert [str(t) for t in Termination] == ["end", "cap", "killed"]
    assert as_termination("cap") is Termination.CAP
    assert as_termination("draw") == "draw"  # unknown to this version: kept as it is


def test_a_results_file_with_plain_string_terminations_reads_and_rates(old_db):
    assert stored_terminations(old_db) == ["end"] * 4 + ["killed", "cap"]
    with ResultStore.open(old_db, readonly=True) as store:
        outcomes = store.outcomes()
    assert [o.termination for o in outcomes] == [Termination.RULES] * 4 + [Termination.KILLED,
                                                                              Termination.CAP]
    assert all(isinstance(o.termination, Termination) for o in outcomes)
    assert rate(rated_games(outcomes), anchor="random").ranking() == ["greedy", "random"]

    result = CliRunner().invoke(main, ["ratings", str(old_db)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Forma, 2 players: 6 games, 0 faults"
    exported = CliRunner().invoke(main, ["export", str(old_db), "--format", "csv"])
    assert [line.split(",")[12] for line in exported.output.splitlines()] == (
        ["termination"] + ["end"] * 8 + ["killed"] * 2 + ["cap"] * 2)


def test_recording_a_member_stores_the_plain_string(old_db):
    with ResultStore.open(old_db) as store:
        game = store.outcomes()[0]
        data = game.to_json()
        data.update(key="L0000-G92-R0", termination=Termination.CAP)
        store.record(GameOutcome.from_json(data))
    assert stored_terminations(old_db)[-1] == "cap"
    assert GameOutcome.from_json({**data, "termination": "end"}).termination is Termination.RULES
