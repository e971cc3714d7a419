"""The tournament results store: one SQLite file, append-only, every game committed at once.

A results file (default ``forumlab-results.db`` in the working directory) holds exactly one
tournament.  ``ResultStore.create(path, definition, versions)`` makes a new file, or reopens
an existing one whose stored definition is the same (a resume); ``ResultStore.open(path)``
opens an existing file.  ``record(outcome)`` writes one finished game in its own transaction
and commits it before returning (``record_many(outcomes)`` several in one), so killing the
process at any moment (even SIGKILL) loses at most the games still being played.  Rows are
never updated or deleted.

Schema (``SCHEMA_VERSION`` 1; JSON columns hold compact JSON text)::

    meta        key TEXT PRIMARY KEY, value TEXT
                rows: app = "forumlab-results", schema_version = "1", created_by = forumlab version,
                ``sprt`` (JSON) once a gauntlet's sequential test has ended (``sprt/2``, ... for
                the test of an extended study), and ``definition/1``, ``definition/2``, ... (JSON)
                for each extension of the study (see below)
    tournament  id TEXT            short hash of the canonical definition
                definition TEXT    JSON, canonical (sorted keys): what identifies the tournament
                versions TEXT      JSON: software/engine versions at creation
                created REAL       unix time
    sessions    id INTEGER PRIMARY KEY   one per process that wrote games (create or resume)
                opened REAL, host TEXT, pid INTEGER, versions TEXT (JSON or NULL if not given)
    games       seq INTEGER PRIMARY KEY  insertion order
                key TEXT UNIQUE, grp TEXT ("group" is an SQL keyword), lineup, rotation, seed,
                labels, specs, agent_seeds, moves, scores, ranks, faults, move_seconds,
                moves_made (JSON), plies, termination, fault_count, started, finished, host,
                recorded REAL (commit time), session INTEGER -> sessions.id
    move_times  key TEXT PRIMARY KEY -> games.key; cpu_seconds, max_seconds, max_cpu_seconds
                (JSON, per seat): CPU time of the agent's thread and the longest move, for
                games measured whole; absent from files made before it was added (still read)

A study is extended, never shortened: ``create(..., extend=True)`` with a definition that
differs from the stored one only by a larger ``games_per_lineup`` appends the new definition
as a ``definition/N`` row of ``meta`` (one insert, so a SIGKILL leaves the file with either
definition, and both resume), and from then on :attr:`ResultStore.definition` is the newest
one.  The ``tournament`` row keeps the definition the file was created with, and with it the
tournament id.  The existing groups keep their keys and seeds, so the extension plays only
new rotation groups, each whole.

Besides the schema, the file is marked as ours with ``PRAGMA application_id`` (bytes 68..71
of the SQLite header = ``APPLICATION_ID``) and ``PRAGMA user_version = SCHEMA_VERSION``;
triggers make every table append-only inside the file itself, not just in this module.

How the file is kept safe (journal, fsync, locks, validation before any write) is the
business of :mod:`forumlab.arena.sqlite`, which holds the SQLite plumbing; what every
stored field and row must hold is :mod:`forumlab.arena.schema`, checked when a file is
opened (definitions, versions, sessions, sequential test records) and as each game row is
read (a store opened for writing reads them all first, so a damaged file never receives a
game); this module is the API.  Every problem reaches the caller as a :class:`StoreError`
with a one-line message (a damaged file as its subclass
:class:`~forumlab.arena.schema.DamagedResultsError`, which is also a ``ConfigError``).
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, squeeze
from ..core.files import check_input_file
from .jobs import Fault, GameOutcome, as_termination
from .schema import (
    DamagedResultsError,
    RowContext,
    check_definition,
    check_extension,
    check_game_row,
    check_sprt_record,
    check_versions,
    damaged,
)
from .sqlite import (
    APP_NAME,
    APPLICATION_ID,
    GAME_COLUMNS,
    MOVE_TIME_COLUMNS,
    SCHEMA_VERSION,
    SYNCHRONOUS,
    StoreError,
    WriterLock,
    check_header,
    connect,
    connect_writer,
    create_file,
    fetch,
    roll_back_interrupted_commit,
    rollback,
    run,
    sqlite_error,
    validate,
)

__all__ = [  # the file's identity and StoreError are defined in .sqlite, public here too
    "APPLICATION_ID",
    "APP_NAME",
    "DEFAULT_PATH",
    "PAGE_ROWS",
    "SCHEMA_VERSION",
    "ResultStore",
    "StoreError",
    "canonical_json",
    "tournament_id",
]

DEFAULT_PATH = "forumlab-results.db"
OPEN_TIMEOUT = 1.0  # seconds to wait for another writer's lock when opening
RECORD_TIMEOUT = 10.0  # seconds a record() waits for a foreign writer before giving up
PAGE_ROWS = 256  # games fetched per read when streaming (see iter_records)
SPRT_KEY = "sprt"  # meta row holding a gauntlet's sequential test record
DEFINITION_KEY = "definition"  # meta rows "definition/N": the study's definition after extension N

def canonical_json(data: Any) -> str:
    """The stable text form that identifies a definition.

    Args:
        data: a JSON-ready value.

    Returns:
        Compact JSON with sorted keys.

    Raises:
        ValueError: ``data`` holds NaN or infinity.
    """
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)


def tournament_id(definition: dict[str, Any]) -> str:
    """A short, stable name for a tournament.

    Args:
        definition: the JSON-ready tournament definition.

    Returns:
        The first 12 hex digits of the SHA-256 of its :func:`canonical_json`.
    """
    return hashlib.sha256(canonical_json(definition).encode()).hexdigest()[:12]


class ResultStore:
    """An open results file.  Create with :meth:`create` or :meth:`open`, not directly."""

    path: Path
    definition: dict[str, Any]  # the stored tournament definition
    versions: dict[str, Any]  # software/engine versions recorded when the file was created
    tournament_id: str
    created: float
    readonly: bool
    # games_per_lineup before create(..., extend=True) extended the study now, else None
    extended_from: int | None

    def __init__(self, *_args, **_kwargs):
        raise TypeError("use ResultStore.create(...) or ResultStore.open(...)")

    # ----------------------------------------------------------------- opening

    @classmethod
    def create(cls, path: str | os.PathLike, definition: Any, versions: dict[str, Any], *,
               synchronous: str = "FULL", timeout: float = OPEN_TIMEOUT,
               extend: bool = False) -> ResultStore:
        """A new results file for ``definition``, or the existing one at ``path`` if it holds
        the same tournament (a resume).  ``definition`` is a JSON-ready dict (or anything with
        ``to_json()``); ``versions`` the software/engine versions, stored at creation and
        with every writing session.

        Args:
            path: the results file.
            definition: the tournament, a JSON-ready dict or an object with ``to_json()``.
            versions: software/engine versions (see :func:`forumlab.arena.tournament.versions`).
            synchronous: SQLite's ``PRAGMA synchronous`` level for the writer connection.
            timeout: seconds to wait for another writer's lock.
            extend: also accept a file whose stored definition differs from ``definition``
                only by a smaller ``games_per_lineup``: the study is extended (``definition``
                is appended, see the module doc) and :attr:`extended_from` says from how many
                groups per lineup.

        Returns:
            The writable store (a context manager; closing releases the writer lock).

        Raises:
            StoreError: a new file's definition or versions do not fit the schema
                (:mod:`forumlab.arena.schema`; nothing is created), the file holds another
                tournament (or, for ``extend``, asks for fewer
                groups per lineup than it holds, or its sequential test has decided), is not a
                forumlab results file, is corrupt, or is locked by another writer; the file is
                then left exactly as it was.
            TypeError: ``definition`` is not a dict.
            ValueError: ``synchronous`` is not a valid level.
        """
        definition = _as_definition(definition)
        versions = dict(versions)
        path = Path(path)
        if not os.path.lexists(path):
            # What a new file stores must pass the schema it will be read with, so a file
            # is never made that every reader would then refuse.
            try:
                check_definition(path, definition, "the tournament definition")
                check_versions(path, "the versions", versions)
            except DamagedResultsError as exc:
                raise StoreError(f"cannot create {path}: {exc.what}") from None
            create_file(path, (tournament_id(definition), canonical_json(definition),
                               _dumps(versions), time.time()))
        return cls._open(path, readonly=False, expect=definition, versions=versions,
                         synchronous=synchronous, timeout=timeout, extend=extend)

    @classmethod
    def open(cls, path: str | os.PathLike, *, readonly: bool = False,
             versions: dict[str, Any] | None = None, synchronous: str = "FULL",
             timeout: float | None = None) -> ResultStore:
        """An existing results file.  Writable by default (for resume; ``versions`` are then
        recorded with the games this session writes); ``readonly=True`` for ratings and
        export takes no writer lock and can run beside a running tournament.

        ``timeout`` is how long to wait for a lock: by default ``OPEN_TIMEOUT`` for a writer
        (fail fast when another writer holds the file) and ``RECORD_TIMEOUT`` for a reader
        (which only waits for commits in progress, however busy the writer).

        Args:
            path: an existing results file.
            readonly: open for reading only (no writer lock).
            versions: versions recorded with the games this session writes, or None.
            synchronous: SQLite's ``PRAGMA synchronous`` level for a writer connection.
            timeout: seconds to wait for a lock; None for the defaults above.

        Returns:
            The store (a context manager).

        Raises:
            StoreError: the file is missing, not a regular file, not a forumlab results file,
                corrupt or locked.
            DamagedResultsError: a stored field or (for a writable store) a game row does not
                fit the schema (:mod:`forumlab.arena.schema`).
            ValueError: ``synchronous`` is not a valid level.
        """
        if timeout is None:
            timeout = RECORD_TIMEOUT if readonly else OPEN_TIMEOUT
        path = Path(path)
        if not os.path.lexists(path):
            raise StoreError(f"{path} does not exist")
        return cls._open(path, readonly=readonly, expect=None,
                         versions=None if versions is None else dict(versions),
                         synchronous=synchronous, timeout=timeout)

    @classmethod
    def _open(cls, path: Path, *, readonly: bool, expect: dict[str, Any] | None,
              versions: dict[str, Any] | None, synchronous: str, timeout: float,
              extend: bool = False) -> ResultStore:
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        # A regular file only (a named pipe would block the header read), then the header,
        # before SQLite touches anything.
        try:
            check_input_file(path, "results file")
        except ConfigError as exc:  # a store's problems are StoreErrors, as documented
            raise StoreError(str(exc)) from None
        check_header(path)
        self = object.__new__(cls)
        self.path = path
        self.readonly = readonly
        self._conn = None
        self._lock = None
        self._session = None
        self._session_versions = versions
        self._pid = os.getpid()
        self.extended_from = None
        try:
            if not readonly:
                self._lock = WriterLock(path)
                self._lock.acquire()
                roll_back_interrupted_commit(path, timeout)
            ro = connect(path, "ro", timeout)
            try:
                info = validate(ro, path)
                # Files made before per-move timings were kept have no move_times table.
                self._move_times = bool(fetch(path, ro, "SELECT 1 FROM sqlite_master WHERE type = "
                                                        "'table' AND name = 'move_times'"))
                definition, self._context = _check_stored(path, ro, info, self._move_times)
                grow = False
                if expect is not None:
                    grow = _check_same_tournament(path, definition, expect, extend, info["id"])
                    if grow:
                        _check_extensible(path, ro)
                self.definition = definition
                self.versions = info["versions"]
                self.tournament_id = info["id"]
                self.created = info["created"]
                if not readonly:
                    # Every game row is checked before anything is written: a damaged
                    # file never receives a game (readers check each row as they read it).
                    self._conn = ro
                    for _ in self.iter_records():
                        pass
                    self._conn = None
            except BaseException:
                self._conn = None
                ro.close()
                raise
            if readonly:
                self._conn = ro
            else:
                ro.close()
                self._conn = connect_writer(path, timeout, synchronous)
            # From now on wait for a commit (or a reader) rather than fail at once.
            run(path, self._conn.execute, f"PRAGMA busy_timeout={int(RECORD_TIMEOUT * 1000)}")
            if grow:
                self._extend(expect)
        except BaseException:
            self.close()
            raise
        return self

    # ----------------------------------------------------------------- writing

    def record(self, outcome: GameOutcome) -> None:
        """Append one finished game and commit it before returning.

        Args:
            outcome: the finished game.

        Raises:
            StoreError: the game's key is already recorded (results are append-only: the
                stored row is left untouched), the store is read-only or closed, the outcome
                holds NaN or infinity, or the write fails (disk full, locked by a foreign
                writer, ...).
            TypeError: ``outcome`` is not a GameOutcome.
        """
        self.record_many([outcome])

    def record_many(self, outcomes: Sequence[GameOutcome]) -> None:
        """Append finished games in one transaction and commit it before returning.

        All or none: if one game cannot be recorded, none of them is. One commit (two
        fsyncs under ``synchronous=FULL``) costs milliseconds, more than a cheap game, so
        the arena commits the games that finish together in one.

        Args:
            outcomes: the finished games (none: nothing happens).

        Raises:
            StoreError: as :meth:`record`, for the first game that cannot be recorded
                (the key given twice in ``outcomes`` too).
            TypeError: an item is not a GameOutcome.
        """
        if not outcomes:
            return
        conn = self._writable()
        rows = []
        for o in outcomes:
            row = _outcome_row(o)  # (a TypeError for anything but a GameOutcome)
            rows.append((row["key"], row, _move_time_row(o)))
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise sqlite_error(self.path, exc, f"cannot record game {rows[0][0]} in") from None
        key = rows[0][0]
        try:
            session = self._session if self._session is not None else self._new_session(conn)
            recorded = time.time()
            game_rows, timing_rows = [], []
            for _key, row, timings in rows:
                row["recorded"] = recorded
                row["session"] = session
                game_rows.append([row[c] for c in GAME_COLUMNS])
                if self._move_times and timings is not None:  # in the same transaction as the game
                    timing_rows.append([row["key"], *timings])
            key = self._insert_games(conn, game_rows)
            if timing_rows:
                conn.executemany(f"INSERT INTO move_times (key, {', '.join(MOVE_TIME_COLUMNS)}) "
                                 f"VALUES (?, {', '.join('?' * len(MOVE_TIME_COLUMNS))})", timing_rows)
            conn.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            rollback(conn)
            raise StoreError(
                f"game {getattr(exc, 'key', key)} is already recorded in {self.path}; "
                "results are append-only") from None
        except sqlite3.Error as exc:
            rollback(conn)
            raise sqlite_error(self.path, exc, f"cannot record game {key} in") from None
        except BaseException:  # e.g. KeyboardInterrupt: leave no transaction open
            rollback(conn)
            raise
        self._session = session

    def _new_session(self, conn: sqlite3.Connection) -> int:
        """Insert this process's sessions row (inside the caller's transaction)."""
        cur = conn.execute(
            "INSERT INTO sessions (opened, host, pid, versions) VALUES (?, ?, ?, ?)",
            (time.time(), socket.gethostname(), os.getpid(),
             None if self._session_versions is None else _dumps(self._session_versions)))
        return cur.lastrowid

    @staticmethod
    def _insert_games(conn: sqlite3.Connection, game_rows: list[list]) -> str:
        """Insert the games rows; on a duplicate key, raise IntegrityError with the
        offending key found first. Returns the last key."""
        sql = (f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
               f"VALUES ({', '.join('?' * len(GAME_COLUMNS))})")
        key_at = GAME_COLUMNS.index("key")
        try:
            conn.executemany(sql, game_rows)
        except sqlite3.IntegrityError as exc:
            # executemany does not say which row failed: name the first key already
            # stored or given twice.
            seen: set[str] = set()
            for values in game_rows:
                key = values[key_at]
                if key in seen or conn.execute("SELECT 1 FROM games WHERE key = ?", (key,)).fetchone():
                    exc.key = key  # type: ignore[attr-defined]
                    break
                seen.add(key)
            raise
        return game_rows[-1][key_at]

    def record_sprt(self, decision: dict[str, Any]) -> None:
        """Store the sequential test's final record (once per extent of the study; a
        stored record is never changed).

        Kept in the ``meta`` table under ``SPRT_KEY`` as JSON, so results files keep
        their schema and older versions still read them.  A test that ended undecided
        when every planned game was played goes on when the study is extended; its next
        record is added under ``sprt/2`` (``sprt/3``, ...).

        Args:
            decision: JSON-ready settings, LLR, bounds, games and decision (see
                :mod:`forumlab.arena.sequential`).

        Raises:
            StoreError: a current record is already there, the store is read-only or closed,
                or the write fails.
        """
        conn = self._writable()
        if self.sprt_record() is not None:
            raise StoreError(f"{self.path} holds a sequential test decision already")
        count = len(self._query("SELECT 1 FROM meta WHERE key = ? OR key LIKE ?",
                                (SPRT_KEY, f"{SPRT_KEY}/%")))
        key = SPRT_KEY if count == 0 else f"{SPRT_KEY}/{count + 1}"
        try:
            conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, _dumps(decision)))
        except sqlite3.IntegrityError:
            raise StoreError(f"{self.path} holds a sequential test decision already") from None
        except sqlite3.Error as exc:
            raise sqlite_error(self.path, exc, "cannot record the sequential test in") from None

    def sprt_record(self) -> dict[str, Any] | None:
        """The sequential test's current record (:meth:`record_sprt`), or None if there is none.

        An undecided record written before the study was last extended is not current:
        the test goes on over the new groups.

        Raises:
            StoreError: the store is closed, cannot be read or the record is damaged.
        """
        return _sprt_record(self.path, self._live())

    def _extend(self, definition: dict[str, Any]) -> None:
        """Append ``definition`` as the study's newest (one insert: all or nothing)."""
        conn = self._writable()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                n = 1 + max((number for number, _ in _definition_rows(self.path, conn)), default=0)
                conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)",
                             (f"{DEFINITION_KEY}/{n}", canonical_json(definition)))
                conn.execute("COMMIT")
            except BaseException:
                rollback(conn)
                raise
        except sqlite3.Error as exc:
            raise sqlite_error(self.path, exc, "cannot extend the study in") from None
        self.extended_from = self.definition.get("games_per_lineup")
        self.definition = definition

    # ----------------------------------------------------------------- reading

    def done_keys(self) -> set[str]:
        """Keys of every recorded game.

        Returns:
            The set of game keys (e.g. ``L0000-G000-R00``).

        Raises:
            StoreError: the store is closed or cannot be read.
        """
        return {key for (key,) in self._query("SELECT key FROM games")}

    def __contains__(self, key: str) -> bool:
        return bool(self._query("SELECT 1 FROM games WHERE key = ?", (key,)))

    def __len__(self) -> int:
        return self._query("SELECT COUNT(*) FROM games")[0][0]

    def outcomes(self) -> list[GameOutcome]:
        """Every recorded game, in insertion order.

        Returns:
            The stored outcomes as a list.

        Raises:
            StoreError: the store is closed, cannot be read or holds a damaged row.
        """
        return list(self.iter_outcomes())

    def iter_outcomes(self) -> Iterator[GameOutcome]:
        """Like :meth:`outcomes`, streamed (for large files).

        Returns:
            An iterator of the stored outcomes, in insertion order.

        Raises:
            StoreError: the store is closed, cannot be read or holds a damaged row.
        """
        for outcome, _ in self.iter_records():
            yield outcome

    def iter_records(self) -> Iterator[tuple[GameOutcome, dict[str, Any]]]:
        """Every game present when iteration starts, in insertion order, with its provenance.

        Rows are read in pages of ``PAGE_ROWS``, so no read lock is held between pages.

        Returns:
            An iterator of ``(outcome, provenance)`` pairs; provenance is ``{"recorded": unix
            time, "session": id, "versions": versions given by the session that wrote it, or
            None}``.

        Raises:
            StoreError: the store is closed or cannot be read.
            DamagedResultsError: a row does not fit the schema
                (:func:`~forumlab.arena.schema.check_game_row`).
        """
        cols = ", ".join(f"g.{c}" for c in GAME_COLUMNS)
        if self._move_times:
            timing_cols = ", " + ", ".join(f"t.{c}" for c in MOVE_TIME_COLUMNS)
            timing_join = "LEFT JOIN move_times t ON t.key = g.key "
        else:
            timing_cols = timing_join = ""
        # The games present now, read page by page: each page is one complete query, so no
        # read lock is held while the caller works on the rows (a slow export must not
        # stall a running tournament's commits).  Rows are append-only and ``seq`` only
        # grows, so the pages together are exactly the games up to ``last``.
        last = self._query("SELECT COALESCE(MAX(seq), 0) FROM games")[0][0]
        after = 0
        session_versions: dict[str | None, Any] = {}
        while after < last:
            rows = self._query(
                f"SELECT g.seq, {cols}{timing_cols}, s.versions FROM games g "
                f"LEFT JOIN sessions s ON s.id = g.session {timing_join}"
                "WHERE g.seq > ? AND g.seq <= ? ORDER BY g.seq LIMIT ?",
                (after, last, PAGE_ROWS))
            if not rows:
                return
            for row in rows:
                data = dict(zip(GAME_COLUMNS, row[1:]))
                timings = dict(zip(MOVE_TIME_COLUMNS, row[1 + len(GAME_COLUMNS):-1]))
                outcome = _row_outcome(self.path, data, timings, self._context)
                # (the sessions' versions were checked when the file was opened)
                text = row[-1]
                if text not in session_versions:
                    session_versions[text] = None if text is None else json.loads(text)
                yield outcome, {"recorded": data["recorded"], "session": data["session"],
                                "versions": session_versions[text]}
            after = rows[-1][0]

    def sessions(self) -> list[dict[str, Any]]:
        """The writing sessions (creation and resumes) that recorded games, oldest first.

        Returns:
            One dict per session: ``id``, ``opened`` (unix time), ``host``, ``pid`` and
            ``versions`` (None if the session gave none).

        Raises:
            StoreError: the store is closed or cannot be read.
        """
        rows = self._query("SELECT id, opened, host, pid, versions FROM sessions ORDER BY id")
        return [{"id": i, "opened": t, "host": h, "pid": p,
                 "versions": None if v is None else json.loads(v)} for i, t, h, p, v in rows]

    # ----------------------------------------------------------------- lifetime

    def close(self) -> None:
        """Close the file and release the writer lock (idempotent)."""
        conn, self._conn = self._conn, None
        if conn is not None and os.getpid() == self._pid:
            conn.close()  # (never in a forked child: the connection is the parent's)
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else ("read-only" if self.readonly else "writable")
        return f"<ResultStore {str(self.path)!r} tournament {getattr(self, 'tournament_id', '?')} {state}>"

    # ----------------------------------------------------------------- helpers

    def _live(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"{self.path} is closed")
        return self._conn

    def _writable(self) -> sqlite3.Connection:
        conn = self._live()
        if self.readonly:
            raise StoreError(f"{self.path} was opened read-only")
        return conn

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """All rows of one query (fetched completely, so no read lock outlives the call)."""
        return fetch(self.path, self._live(), sql, params)


def _definition_rows(path: Path, conn: sqlite3.Connection) -> list[tuple[int, int]]:
    """``(N, rowid)`` of every ``definition/N`` meta row."""
    rows = fetch(path, conn, "SELECT key, rowid FROM meta WHERE key LIKE ?", (f"{DEFINITION_KEY}/%",))
    out = []
    for key, rowid in rows:
        number = key.partition("/")[2]
        if not number.isdigit():
            raise StoreError(f"{path} is a corrupt forumlab results file (bad meta row {key!r})")
        out.append((int(number), rowid))
    return out


def _check_stored(path: Path, conn: sqlite3.Connection, info: dict[str, Any],
                  move_times: bool) -> tuple[dict[str, Any], RowContext]:
    """Check every small stored row against the schema (:mod:`.schema`): the definitions,
    versions, sessions, sequential test records and the move_times keys.

    Returns:
        The study's definition (the newest extension's, else the one it was created
        with) and the context its game rows are checked against.

    Raises:
        DamagedResultsError: the first damage found.
    """
    created = info["definition"]
    context = check_definition(path, created)
    try:
        same_id = isinstance(info["id"], str) and tournament_id(created) == info["id"]
    except ValueError:  # NaN or infinity in the definition
        same_id = False
    if not same_id:
        raise damaged(path, "the stored definition is not the one the tournament id was made from")
    check_versions(path, "the tournament's versions", info["versions"])
    if not _is_time(info["created"]):
        raise damaged(path, "the tournament's creation time is not a time")
    definition = created
    for number, _ in sorted(_definition_rows(path, conn)):
        where = f"{DEFINITION_KEY}/{number}"
        (text,), = fetch(path, conn, "SELECT value FROM meta WHERE key = ?", (where,))
        extended = _json_field(path, text, where)
        check_definition(path, extended, where)
        check_extension(path, definition, extended, where)
        definition = extended
    for sid, opened, host, pid, versions in fetch(
            path, conn, "SELECT id, opened, host, pid, versions FROM sessions"):
        where = f"session {sid}"
        if not (_is_time(opened) and isinstance(host, str) and type(pid) is int):
            raise damaged(path, f"{where} is not a time, host and process id")
        check_versions(path, f"the versions of {where}", _json_field(path, versions, where, True),
                       nullable=True)
    # Only the rows this module writes: a key that lost a letter ("sprx") would otherwise
    # hide, e.g., a decided sequential test, and resume would play on.
    for (key,) in fetch(path, conn, "SELECT key FROM meta"):
        head, slash, number = key.partition("/") if isinstance(key, str) else ("", "", "")
        known = (key in ("app", "schema_version", "created_by", SPRT_KEY)
                 or (slash and head in (SPRT_KEY, DEFINITION_KEY) and number.isdigit()))
        if not known:
            raise damaged(path, f"unknown meta row {squeeze(repr(key), 40)}")
    for key, text in fetch(path, conn, "SELECT key, value FROM meta WHERE key = ? OR key LIKE ?",
                           (SPRT_KEY, f"{SPRT_KEY}/%")):
        check_sprt_record(path, _json_field(path, text, f"the sequential test record {key!r}"),
                          definition, f"the sequential test record {key!r}")
    if move_times:
        have = {row[1] for row in fetch(path, conn, "PRAGMA table_info(move_times)")}
        if not {"key", *MOVE_TIME_COLUMNS} <= have:
            raise damaged(path, "the move_times table lacks a column")
        orphans = fetch(path, conn,
                        "SELECT COUNT(*) FROM move_times WHERE key NOT IN (SELECT key FROM games)")
        if orphans[0][0]:
            raise damaged(path, f"{orphans[0][0]} move_times rows belong to no game")
    return definition, context


def _is_time(value: Any) -> bool:
    return type(value) in (int, float) and value == value and abs(value) != float("inf")


def _json_field(path: Path, text: Any, where: str, nullable: bool = False) -> Any:
    """A stored JSON text, decoded; DamagedResultsError if it is not JSON."""
    if text is None and nullable:
        return None
    try:
        return _decode(text)
    except (ValueError, TypeError, RecursionError):
        raise damaged(path, f"{where} is not JSON") from None


def _sprt_record(path: Path, conn: sqlite3.Connection) -> dict[str, Any] | None:
    rows = fetch(path, conn, "SELECT value, rowid FROM meta WHERE key = ? OR key LIKE ? ORDER BY rowid",
                 (SPRT_KEY, f"{SPRT_KEY}/%"))
    if not rows:
        return None
    # (every record was checked against the schema when the file was opened)
    record = _json_field(path, rows[-1][0], "the sequential test record")
    if not isinstance(record, dict):
        raise damaged(path, "the sequential test record is not a JSON object")
    extended = max((rowid for _, rowid in _definition_rows(path, conn)), default=0)
    if record.get("decision") is None and extended > rows[-1][1]:
        return None  # ran out of groups, then the study was extended: the test goes on
    return record


def _check_extensible(path: Path, conn: sqlite3.Connection) -> None:
    """Refuse to extend a gauntlet whose sequential test has decided: its verdict is final,
    and further groups would never be tested."""
    record = _sprt_record(path, conn)
    if record is not None and record.get("decision") is not None:
        raise StoreError(
            f"{path} holds a gauntlet whose sequential test accepted {record['decision']} after "
            f"{record.get('groups', '?')} rotation groups; it plays no more groups, so it cannot be "
            "extended (use another results file)")


def _check_same_tournament(path: Path, stored: dict[str, Any], wanted: dict[str, Any],
                           extend: bool = False, tid: str | None = None) -> bool:
    """Refuse ``wanted`` unless it is the stored tournament (``tid``: the file's id); with
    ``extend``, also accept it with more groups per lineup, returning True for such an
    extension."""
    if canonical_json(stored) == canonical_json(wanted):
        return False
    have, want = stored.get("games_per_lineup"), wanted.get("games_per_lineup")
    if (isinstance(have, int) and isinstance(want, int) and have != want
            and canonical_json({**stored, "games_per_lineup": want}) == canonical_json(wanted)):
        if want < have:
            raise StoreError(
                f"{path} holds {have} rotation groups per lineup of this tournament; {want} would "
                f"drop some, and results are append-only: ask for {have} (a resume) or more (an "
                "extension), or use another results file")
        if extend:
            return True
    differ = sorted(k for k in set(stored) | set(wanted) if stored.get(k, ...) != wanted.get(k, ...))
    about = ", ".join(f"{k} {stored[k]}" for k in ("game", "format", "seed")
                      if isinstance(stored.get(k), (str, int)))
    raise StoreError(
        f"{path} holds tournament {tid or tournament_id(stored)!r} ({about}), not this one"
        f" (they differ in: {', '.join(differ) or 'field types'});"
        " use another results file, or resume that tournament")


def _as_definition(definition: Any) -> dict[str, Any]:
    if hasattr(definition, "to_json"):
        definition = definition.to_json()
    if not isinstance(definition, dict):
        raise TypeError(f"a tournament definition must be a dict, not {type(definition).__name__}")
    return json.loads(canonical_json(definition))  # a JSON-clean copy, compared as stored


def _plain(value: Any) -> Any:
    """numpy scalars and arrays to Python (outcomes may carry them)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


# One encoder for every value, made once: json.dumps builds one per call, which costs
# more than encoding a small list, and a game row holds eight of them. No check for
# circular references (``markers`` None): outcomes hold plain lists and numbers.
try:
    from json.encoder import c_make_encoder, encode_basestring_ascii

    _chunks = c_make_encoder(None, _plain, encode_basestring_ascii, None, ":", ",", False, False, False)
except (ImportError, TypeError):  # no C accelerator: the pure-Python encoder
    _chunks = json.JSONEncoder(separators=(",", ":"), allow_nan=False, default=_plain).iterencode


def _dumps(value: Any) -> str:
    return "".join(_chunks(value, 0))


def _outcome_row(o: GameOutcome) -> dict[str, Any]:
    if not isinstance(o, GameOutcome):
        raise TypeError(f"record() takes a GameOutcome, not {type(o).__name__}")
    faults = [asdict(f) if isinstance(f, Fault) else dict(f) for f in o.faults]
    try:
        return {
            "key": str(o.key), "grp": str(o.group), "lineup": int(o.lineup),
            "rotation": int(o.rotation), "seed": int(o.seed),
            "labels": _dumps(list(o.labels)), "specs": _dumps(list(o.specs)),
            "agent_seeds": _dumps([int(s) for s in o.agent_seeds]),
            "moves": _dumps(list(o.moves)), "scores": _dumps(list(o.scores)),
            "ranks": _dumps([int(r) for r in o.ranks]), "plies": int(o.plies),
            "termination": str(o.termination), "faults": _dumps(faults),
            "fault_count": len(faults), "move_seconds": _dumps(list(o.move_seconds)),
            "moves_made": _dumps([int(m) for m in o.moves_made]),
            "started": float(o.started), "finished": float(o.finished), "host": str(o.host),
        }
    except ValueError as exc:  # NaN/inf: not valid JSON, would not round-trip through exports
        raise StoreError(f"game {o.key} cannot be recorded: {exc}") from None


def _move_time_row(o: GameOutcome) -> list[str] | None:
    """The move_times row of ``o`` (JSON lists), or None when the game has no such timings."""
    lists = (o.move_cpu_seconds, o.move_max_seconds, o.move_max_cpu_seconds)
    if not all(lists):
        return None
    try:
        return [_dumps([float(v) for v in values]) for values in lists]
    except ValueError as exc:  # NaN/inf
        raise StoreError(f"game {o.key} cannot be recorded: {exc}") from None


_scan_json = json.JSONDecoder().raw_decode  # json.loads minus its wrapping: rows are read by the 10,000


def _decode(text: Any) -> Any:
    """One stored JSON text (compact, as written), decoded; ValueError/TypeError if it is not."""
    if type(text) is not str:
        raise TypeError(f"a JSON column holds {type(text).__name__}, not text")
    value, end = _scan_json(text)
    if end != len(text):
        raise ValueError(f"extra data after the JSON value (char {end})")
    return value


_JSON_COLUMNS = ("labels", "specs", "agent_seeds", "moves", "scores", "ranks", "faults",
                 "move_seconds", "moves_made")


def _row_outcome(path: Path, row: dict[str, Any], timings: dict[str, Any] | None,
                 context: RowContext | None) -> GameOutcome:
    """The outcome of one games row, checked against the schema (:mod:`.schema`)."""
    try:
        decoded = dict(row)
        for column in _JSON_COLUMNS:
            decoded[column] = _decode(row[column])
        for column, text in (timings or {}).items():
            if text is not None:
                decoded[column] = _decode(text)
    except (ValueError, TypeError, RecursionError) as exc:
        raise damaged(path, f"game {squeeze(repr(row['key']), 40)}: {squeeze(exc, 80)}") from None
    problem = check_game_row(path, decoded, context)
    if problem is not None:
        raise damaged(path, f"game {squeeze(repr(row['key']), 40)}: {problem}")
    return GameOutcome(
        key=decoded["key"], group=decoded["grp"], lineup=decoded["lineup"], rotation=decoded["rotation"],
        seed=decoded["seed"], labels=tuple(decoded["labels"]), specs=tuple(decoded["specs"]),
        agent_seeds=tuple(decoded["agent_seeds"]), moves=decoded["moves"], scores=decoded["scores"],
        ranks=decoded["ranks"], plies=decoded["plies"],
        termination=as_termination(decoded["termination"]),
        faults=[Fault(**f) for f in decoded["faults"]],
        move_seconds=decoded["move_seconds"], moves_made=decoded["moves_made"],
        started=decoded["started"], finished=decoded["finished"], host=decoded["host"],
        move_cpu_seconds=decoded.get("cpu_seconds", []), move_max_seconds=decoded.get("max_seconds", []),
        move_max_cpu_seconds=decoded.get("max_cpu_seconds", []),
    )
