"""The results file of a variant study: one SQLite file, append-only, games committed as they finish.

A variant study plays several rule setups (variants) of one game on the same seeds, so its
games have several configs; a tournament results file (:mod:`forumlab.arena.store`) holds
one. This file holds them all::

    meta        key TEXT PRIMARY KEY, value TEXT: app = "forumlab-balance-study",
                schema_version = "1", created_by
    definitions seq INTEGER PRIMARY KEY, definition TEXT (JSON), versions TEXT (JSON),
                created REAL: the study as created, then each extension (more games,
                more variants); the newest row is the study now
    games       seq INTEGER PRIMARY KEY, variant TEXT, key TEXT, outcome TEXT (the game's
                GameOutcome as JSON: seeds, moves, scores, ranks, faults, timings),
                sources TEXT (JSON: points per scoring source and seat, or null),
                recorded REAL; UNIQUE (variant, key)

Every table refuses UPDATE and DELETE (triggers). A new file is built under a temporary
name and linked into place; a writer holds the same ``<path>-lock`` flock as a results
file's writer (:class:`forumlab.arena.sqlite.WriterLock`); the games that finish together
are one transaction with ``synchronous=FULL``, so a killed run keeps every game it handed
over (all but those of the last quarter second: see docs/arena.md, "Cheap games in batches").
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from ..core.errors import ForumlabError, squeeze
from ..core.files import check_input_file, read_file_head
from .jobs import GameOutcome
from .schema import check_versions, damaged
from .sqlite import StoreError, WriterLock, connect, fetch, sqlite_error
from .study_schema import check_growth_row, check_outcome, check_sources, check_study, decode

APP = "forumlab-balance-study"
APPLICATION_ID = 0x464C4253  # "FLBS" in the SQLite header, offset 68
SCHEMA_VERSION = 1
_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE definitions (seq INTEGER PRIMARY KEY, definition TEXT NOT NULL, versions TEXT NOT NULL,
                          created REAL NOT NULL);
CREATE TABLE games (seq INTEGER PRIMARY KEY, variant TEXT NOT NULL, key TEXT NOT NULL,
                    outcome TEXT NOT NULL, sources TEXT, recorded REAL NOT NULL,
                    UNIQUE (variant, key));
""" + "".join(
    f"CREATE TRIGGER {t}_no_{op} BEFORE {op.upper()} ON {t} "
    "BEGIN SELECT RAISE(ABORT, 'forumlab balance studies are append-only'); END;\n"
    for t in ("meta", "definitions", "games") for op in ("update", "delete"))


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def is_study_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is an SQLite file carrying the balance study's application id."""
    try:
        header = read_file_head(path, "balance study file", 100)  # never blocks on a pipe
    except ForumlabError:
        return False
    return header.startswith(_MAGIC) and int.from_bytes(header[68:72], "big") == APPLICATION_ID


def _create(path: Path, definition: dict, versions: dict) -> None:
    from .. import __version__

    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            conn.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("app", APP), ("schema_version", str(SCHEMA_VERSION)),
                ("created_by", f"forumlab {__version__}")])
            conn.execute("INSERT INTO definitions (definition, versions, created) VALUES (?, ?, ?)",
                         (_dumps(definition), _dumps(versions), time.time()))
            conn.execute("COMMIT")
        finally:
            conn.close()
        os.link(tmp, path)
    except FileExistsError:
        raise StoreError(f"{path} appeared while the study was being created; run again") from None
    except sqlite3.Error as exc:
        raise sqlite_error(path, exc, "cannot create") from None
    except OSError as exc:
        raise StoreError(f"cannot create {path}: {exc.strerror or exc}") from None
    finally:
        for leftover in (tmp, Path(f"{tmp}-journal")):
            try:
                leftover.unlink()
            except OSError:
                pass


class StudyFile:
    """An open study file: :meth:`open` to read, :meth:`create` to write (new or continued)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, lock: WriterLock | None):
        self.path, self.conn, self.lock = path, conn, lock
        rows = fetch(path, conn, "SELECT seq, definition, versions FROM definitions ORDER BY seq")
        if not rows:
            raise StoreError(f"{path} is not a forumlab balance study (or is corrupt)")
        # Every stored row checked before anything is used (study_schema): never completed.
        studies = []
        for seq, text, versions in rows:
            where = f"the stored study (definition row {seq})"
            study = decode(path, text, where)
            self.context = check_study(path, study, where)
            check_versions(path, f"the versions of definition row {seq}", decode(path, versions, where))
            if studies:
                check_growth_row(path, studies[-1], study, where)
            studies.append(study)
        self.definition: dict[str, Any] = studies[-1]
        self.first_definition: dict[str, Any] = studies[0]

    @classmethod
    def open(cls, path: str | os.PathLike, writable: bool = False) -> StudyFile:
        """Open an existing study file (StoreError with one line if it is not one)."""
        path = Path(path)
        check_input_file(path, "balance study file", error=StoreError)  # a regular file, not a pipe
        if not is_study_file(path):
            raise StoreError(f"{path} is not a forumlab balance study file (variant studies write them: "
                             "forumlab balance GAME --variant ... --db FILE)")
        lock = None
        if writable:
            lock = WriterLock(path)
            lock.acquire()
        conn = None
        try:
            conn = connect(path, "rw" if writable else "ro", 5.0)
            if writable:
                fetch(path, conn, "PRAGMA synchronous=FULL")  # a damaged file: one StoreError line
            check = fetch(path, conn, "PRAGMA quick_check")
            if check != [("ok",)]:
                raise StoreError(f"{path} is corrupt")
            store = cls(path, conn, lock)
            if writable:
                store.games()  # every row checked before a game is added to the file
            return store
        except BaseException:
            if conn is not None:
                conn.close()  # a refused file is let go at once, not when collected
            if lock is not None:
                lock.release()
            raise

    @classmethod
    def create(cls, path: str | os.PathLike, definition: dict, versions: dict) -> StudyFile:
        """A new study file holding ``definition``, opened for writing (``path`` must not exist)."""
        path = Path(path)
        _create(path, definition, versions)
        return cls.open(path, writable=True)

    def extend(self, definition: dict, versions: dict) -> None:
        """Record a grown study (more games or more variants) as the newest definition."""
        self._write("INSERT INTO definitions (definition, versions, created) VALUES (?, ?, ?)",
                    (_dumps(definition), _dumps(versions), time.time()))
        self.definition = definition

    def record(self, variant: str, outcome: GameOutcome, sources: list | None) -> None:
        """Commit one finished game of ``variant``."""
        self._write("INSERT INTO games (variant, key, outcome, sources, recorded) VALUES (?, ?, ?, ?, ?)",
                    (variant, outcome.key, _dumps(outcome.to_json()),
                     None if sources is None else _dumps(sources), time.time()))

    def record_many(self, games: list[tuple[str, GameOutcome, list | None]]) -> None:
        """Commit finished games, each ``(variant, outcome, sources)``, in one transaction
        (a commit's fsyncs cost more than a cheap game; all or none is recorded)."""
        self._write("INSERT INTO games (variant, key, outcome, sources, recorded) VALUES (?, ?, ?, ?, ?)",
                    [(variant, outcome.key, _dumps(outcome.to_json()),
                      None if sources is None else _dumps(sources), time.time())
                     for variant, outcome, sources in games], many=True)

    def _write(self, sql: str, params, many: bool = False) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            (self.conn.executemany if many else self.conn.execute)(sql, params)
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise sqlite_error(self.path, exc, "cannot write to") from None

    def done(self) -> set[tuple[str, str]]:
        """The (variant, key) of every game recorded."""
        return {(v, k) for v, k in fetch(self.path, self.conn, "SELECT variant, key FROM games")}

    def games(self) -> list[tuple[str, GameOutcome, list | None]]:
        """Every game: its variant, outcome and points per source (None if not reported)."""
        rows = fetch(self.path, self.conn, "SELECT seq, variant, outcome, sources FROM games ORDER BY seq")
        variants = {v["name"] for v in self.definition["variants"]}
        games = []
        for seq, variant, text, sources in rows:
            where = f"game row {seq}"
            outcome = decode(self.path, text, where)
            sources = None if sources is None else decode(self.path, sources, where)
            problem = (f"variant {squeeze(repr(variant), 40)} is not one of the study's"
                       if variant not in variants else
                       check_outcome(outcome, self.context) or check_sources(sources, self.context.players))
            if problem is None:
                try:
                    games.append((variant, GameOutcome.from_json(outcome), sources))
                except (ValueError, TypeError, KeyError) as exc:
                    problem = squeeze(exc, 80)
            if problem is not None:
                raise damaged(self.path, f"{where}: {problem}")
        return games

    def close(self) -> None:
        """Close the file and release the writer lock."""
        self.conn.close()
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def __enter__(self) -> StudyFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
