"""The tournament results store: one SQLite file, append-only, every game committed at once.

A results file (default ``forumlab-results.db`` in the working directory) holds exactly one
tournament.  ``ResultStore.create(path, definition, versions)`` makes a new file, or reopens
an existing one whose stored definition is the same (a resume); ``ResultStore.open(path)``
opens an existing file.  ``record(outcome)`` writes one finished game in its own transaction
and commits it before returning, so killing the process at any moment (even SIGKILL) loses
at most the games still being played.  Rows are never updated or deleted.

Schema (``SCHEMA_VERSION`` 1; JSON columns hold compact JSON text)::

    meta        key TEXT PRIMARY KEY, value TEXT
                rows: app = "forumlab-results", schema_version = "1", created_by = forumlab version
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

Besides the schema, the file is marked as ours with ``PRAGMA application_id`` (bytes 68..71
of the SQLite header = ``APPLICATION_ID``) and ``PRAGMA user_version = SCHEMA_VERSION``;
triggers make every table append-only inside the file itself, not just in this module.

Durability and safety choices:

* A rollback journal (``journal_mode=DELETE``), not WAL: a commit writes the game into the
  database file itself before it returns, so the ``.db`` alone is always the whole result
  (a copy of it holds every committed game, even right after a SIGKILL), and reading it
  needs no side files: ``ratings`` and ``export`` work on a finished file in a read-only
  directory or on a read-only medium.  Files written in WAL mode by earlier versions still
  open; opening one for writing converts it (its ``-wal`` is folded into the file).
* ``synchronous=FULL`` by default: each commit fsyncs the journal and the file, so a
  committed game survives a power cut or OS crash too, not only a killed process.  A few
  fsyncs per game cost milliseconds, negligible against the seconds a research game takes;
  pass ``synchronous="NORMAL"`` for very fast games where that matters.
* Readers never hold a lock for long: every query fetches its rows completely (games are
  streamed in pages of :data:`PAGE_ROWS`, each page its own short read), so a slow
  consumer (``export | less``) does not stall the writer, whose commit waits for readers
  up to ``RECORD_TIMEOUT``.  A reader started during a commit waits for it likewise.
* A new file is built under a temporary name and hard-linked into place, so the results
  path never holds a half-initialised file and two concurrent creators cannot both win.
* Opening an existing file first checks the raw header (no SQLite involved), then validates
  it through a read-only connection (``PRAGMA quick_check``, which reads the whole file
  once, then schema and definition).  A refused file is therefore never written to: not
  even a rollback of a left-over journal or a journal-mode change.  (A writable open of a
  file with our header lets SQLite roll back a ``-journal`` left by a writer killed in the
  middle of a commit first; a read-only open reports it instead.)
* One writer at a time: a writable store holds an exclusive ``flock`` on a ``<path>-lock``
  side file for its lifetime (released by the kernel if the process dies, removed on
  close; forked pool workers drop their inherited copy, so the lock dies with the writer),
  and probes the database write lock with ``BEGIN IMMEDIATE`` under a short timeout
  (catching non-forumlab writers, e.g. an ``sqlite3`` shell).  Read-only stores
  (``open(path, readonly=True)``) take no lock and may run beside a writer.

Every problem reaches the caller as a :class:`StoreError` with a one-line message.
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator

from ..core.errors import ForumlabError, squeeze
from .jobs import Fault, GameOutcome, as_termination

try:  # POSIX; on other platforms the side-file lock is skipped (the SQLite probe remains)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

DEFAULT_PATH = "forumlab-results.db"
APP_NAME = "forumlab-results"
APPLICATION_ID = 0x464C5253  # "FLRS" in the SQLite header, offset 68
SCHEMA_VERSION = 1
OPEN_TIMEOUT = 1.0  # seconds to wait for another writer's lock when opening
RECORD_TIMEOUT = 10.0  # seconds a record() waits for a foreign writer before giving up
SYNCHRONOUS = ("FULL", "NORMAL")
PAGE_ROWS = 256  # games fetched per read when streaming (see iter_records)

_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE tournament (
    id         TEXT NOT NULL,
    definition TEXT NOT NULL,
    versions   TEXT NOT NULL,
    created    REAL NOT NULL
);
CREATE TABLE sessions (
    id       INTEGER PRIMARY KEY,
    opened   REAL NOT NULL,
    host     TEXT NOT NULL,
    pid      INTEGER NOT NULL,
    versions TEXT
);
CREATE TABLE games (
    seq          INTEGER PRIMARY KEY,
    key          TEXT NOT NULL UNIQUE,
    grp          TEXT NOT NULL,
    lineup       INTEGER NOT NULL,
    rotation     INTEGER NOT NULL,
    seed         INTEGER NOT NULL,
    labels       TEXT NOT NULL,
    specs        TEXT NOT NULL,
    agent_seeds  TEXT NOT NULL,
    moves        TEXT NOT NULL,
    scores       TEXT NOT NULL,
    ranks        TEXT NOT NULL,
    plies        INTEGER NOT NULL,
    termination  TEXT NOT NULL,
    faults       TEXT NOT NULL,
    fault_count  INTEGER NOT NULL,
    move_seconds TEXT NOT NULL,
    moves_made   TEXT NOT NULL,
    started      REAL NOT NULL,
    finished     REAL NOT NULL,
    host         TEXT NOT NULL,
    recorded     REAL NOT NULL,
    session      INTEGER REFERENCES sessions(id)
);
CREATE INDEX games_grp ON games(grp);
""" + "".join(
    f"""
CREATE TRIGGER {table}_no_{op} BEFORE {op.upper()} ON {table}
BEGIN SELECT RAISE(ABORT, 'forumlab results are append-only'); END;
"""
    for table in ("meta", "tournament", "sessions", "games")
    for op in ("update", "delete")
)

_GAME_COLUMNS = (
    "key", "grp", "lineup", "rotation", "seed", "labels", "specs", "agent_seeds", "moves",
    "scores", "ranks", "plies", "termination", "faults", "fault_count", "move_seconds",
    "moves_made", "started", "finished", "host", "recorded", "session",
)
_REQUIRED_TABLES = {"meta": ("key", "value"),
                    "tournament": ("id", "definition", "versions", "created"),
                    "sessions": ("id", "opened", "host", "pid", "versions"),
                    "games": _GAME_COLUMNS}

# real path -> lock file descriptor (None without flock) of stores this process holds open
# for writing
_WRITERS_IN_PROCESS: dict[str, int | None] = {}


def _forget_writer_locks_in_child() -> None:
    """A forked child (a worker of a process pool) is no writer: drop its inherited copies
    of the lock descriptors, so that the lock dies with the writer even if workers linger.
    Closing a copy does not release the parent's flock; only LOCK_UN or the last close does."""
    for fd in _WRITERS_IN_PROCESS.values():
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
    _WRITERS_IN_PROCESS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_writer_locks_in_child)


class StoreError(ForumlabError):
    """A results file that cannot be created, opened or written (one-line message)."""


def canonical_json(data: Any) -> str:
    """The stable text form that identifies a definition (sorted keys, compact)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)


def tournament_id(definition: dict[str, Any]) -> str:
    """A short, stable name for a tournament: a hash of its canonical definition."""
    return hashlib.sha256(canonical_json(definition).encode()).hexdigest()[:12]


class ResultStore:
    """An open results file.  Create with :meth:`create` or :meth:`open`, not directly."""

    path: Path
    definition: dict[str, Any]  # the stored tournament definition
    versions: dict[str, Any]  # software/engine versions recorded when the file was created
    tournament_id: str
    created: float
    readonly: bool

    def __init__(self, *_args, **_kwargs):
        raise TypeError("use ResultStore.create(...) or ResultStore.open(...)")

    # ----------------------------------------------------------------- opening

    @classmethod
    def create(cls, path: str | os.PathLike, definition: Any, versions: dict[str, Any], *,
               synchronous: str = "FULL", timeout: float = OPEN_TIMEOUT) -> "ResultStore":
        """A new results file for ``definition``, or the existing one at ``path`` if it holds
        the same tournament (a resume).  ``definition`` is a JSON-ready dict (or anything with
        ``to_json()``); ``versions`` the software/engine versions, stored at creation and
        with every writing session.

        StoreError if the file holds another tournament, is not a forumlab results file, is
        corrupt, or is locked by another writer; the file is then left exactly as it was.
        """
        definition = _as_definition(definition)
        versions = dict(versions)
        path = Path(path)
        if not os.path.lexists(path):
            _initialise(path, definition, versions)
        return cls._open(path, readonly=False, expect=definition, versions=versions,
                         synchronous=synchronous, timeout=timeout)

    @classmethod
    def open(cls, path: str | os.PathLike, *, readonly: bool = False,
             versions: dict[str, Any] | None = None, synchronous: str = "FULL",
             timeout: float | None = None) -> "ResultStore":
        """An existing results file.  Writable by default (for resume; ``versions`` are then
        recorded with the games this session writes); ``readonly=True`` for ratings and
        export takes no writer lock and can run beside a running tournament.

        ``timeout`` is how long to wait for a lock: by default ``OPEN_TIMEOUT`` for a writer
        (fail fast when another writer holds the file) and ``RECORD_TIMEOUT`` for a reader
        (which only waits for commits in progress, however busy the writer).

        StoreError if the file is missing, not a forumlab results file, corrupt or locked.
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
              versions: dict[str, Any] | None, synchronous: str, timeout: float) -> "ResultStore":
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        _check_header(path)  # before SQLite touches anything
        self = object.__new__(cls)
        self.path = path
        self.readonly = readonly
        self._conn = None
        self._lock = None
        self._session = None
        self._session_versions = versions
        self._pid = os.getpid()
        try:
            if not readonly:
                self._lock = _WriterLock(path)
                self._lock.acquire()
                _roll_back_interrupted_commit(path, timeout)
            ro = _connect(path, "ro", timeout)
            try:
                info = _validate(ro, path)
                if expect is not None:
                    _check_same_tournament(path, info["definition"], expect)
            except BaseException:
                ro.close()
                raise
            self.definition = info["definition"]
            self.versions = info["versions"]
            self.tournament_id = info["id"]
            self.created = info["created"]
            if readonly:
                self._conn = ro
            else:
                ro.close()
                self._conn = _connect(path, "rw", timeout)
                _probe_write_lock(self._conn, path)
                _use_rollback_journal(self._conn, path)
                _sql(path, self._conn.execute, f"PRAGMA synchronous={synchronous}")
            # From now on wait for a commit (or a reader) rather than fail at once.
            _sql(path, self._conn.execute, f"PRAGMA busy_timeout={int(RECORD_TIMEOUT * 1000)}")
        except BaseException:
            self.close()
            raise
        return self

    # ----------------------------------------------------------------- writing

    def record(self, outcome: GameOutcome) -> None:
        """Append one finished game and commit it before returning.

        StoreError if the game's key is already recorded (results are append-only: the
        stored row is left untouched), if the store is read-only or closed, or if the
        write fails (disk full, locked by a foreign writer, ...).
        """
        conn = self._writable()
        row = _outcome_row(outcome)
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _error(self.path, exc, f"cannot record game {outcome.key} in") from None
        try:
            if self._session is None:
                cur = conn.execute(
                    "INSERT INTO sessions (opened, host, pid, versions) VALUES (?, ?, ?, ?)",
                    (time.time(), socket.gethostname(), os.getpid(),
                     None if self._session_versions is None else _dumps(self._session_versions)))
                session = cur.lastrowid
            else:
                session = self._session
            row["recorded"] = time.time()
            row["session"] = session
            conn.execute(
                f"INSERT INTO games ({', '.join(_GAME_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_GAME_COLUMNS))})",
                [row[c] for c in _GAME_COLUMNS])
            conn.execute("COMMIT")
        except sqlite3.IntegrityError:
            _rollback(conn)
            raise StoreError(
                f"game {outcome.key} is already recorded in {self.path}; results are append-only"
            ) from None
        except sqlite3.Error as exc:
            _rollback(conn)
            raise _error(self.path, exc, f"cannot record game {outcome.key} in") from None
        except BaseException:  # e.g. KeyboardInterrupt: leave no transaction open
            _rollback(conn)
            raise
        self._session = session

    # ----------------------------------------------------------------- reading

    def done_keys(self) -> set[str]:
        """Keys of every recorded game."""
        return {key for (key,) in self._query("SELECT key FROM games")}

    def __contains__(self, key: str) -> bool:
        return bool(self._query("SELECT 1 FROM games WHERE key = ?", (key,)))

    def __len__(self) -> int:
        return self._query("SELECT COUNT(*) FROM games")[0][0]

    def outcomes(self) -> list[GameOutcome]:
        """Every recorded game, in insertion order."""
        return list(self.iter_outcomes())

    def iter_outcomes(self) -> Iterator[GameOutcome]:
        """Like :meth:`outcomes`, streamed (for large files)."""
        for outcome, _ in self.iter_records():
            yield outcome

    def iter_records(self) -> Iterator[tuple[GameOutcome, dict[str, Any]]]:
        """Every game in insertion order with its provenance: ``{"recorded": unix time,
        "session": id, "versions": versions given by the session that wrote it, or None}``."""
        cols = ", ".join(f"g.{c}" for c in _GAME_COLUMNS)
        # The games present now, read page by page: each page is one complete query, so no
        # read lock is held while the caller works on the rows (a slow export must not
        # stall a running tournament's commits).  Rows are append-only and ``seq`` only
        # grows, so the pages together are exactly the games up to ``last``.
        last = self._query("SELECT COALESCE(MAX(seq), 0) FROM games")[0][0]
        after = 0
        while after < last:
            rows = self._query(
                f"SELECT g.seq, {cols}, s.versions FROM games g "
                "LEFT JOIN sessions s ON s.id = g.session "
                "WHERE g.seq > ? AND g.seq <= ? ORDER BY g.seq LIMIT ?",
                (after, last, PAGE_ROWS))
            if not rows:
                return
            for row in rows:
                data = dict(zip(_GAME_COLUMNS, row[1:]))
                try:
                    outcome = _row_outcome(data)
                    versions = None if row[-1] is None else json.loads(row[-1])
                except (ValueError, TypeError, KeyError) as exc:
                    raise StoreError(
                        f"{self.path} holds a damaged row for game {data['key']}: "
                        f"{squeeze(exc)}") from None
                yield outcome, {"recorded": data["recorded"], "session": data["session"],
                                "versions": versions}
            after = rows[-1][0]

    def sessions(self) -> list[dict[str, Any]]:
        """The writing sessions (creation and resumes) that recorded games, oldest first."""
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

    def __enter__(self) -> "ResultStore":
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
        return _fetch(self.path, self._live(), sql, params)


# --------------------------------------------------------------------- creation


def _initialise(path: Path, definition: dict[str, Any], versions: dict[str, Any]) -> None:
    """Build a complete new results file beside ``path`` and link it into place atomically.
    If someone else created ``path`` meanwhile, leave theirs alone (the caller then opens
    it and checks it like any existing file)."""
    from .. import __version__

    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
    except sqlite3.Error as exc:
        raise _error(path, exc, "cannot create") from None
    try:
        try:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
                ("app", APP_NAME), ("schema_version", str(SCHEMA_VERSION)),
                ("created_by", f"forumlab {__version__}")])
            conn.execute(
                "INSERT INTO tournament (id, definition, versions, created) VALUES (?, ?, ?, ?)",
                (tournament_id(definition), canonical_json(definition), _dumps(versions), time.time()))
            conn.execute("COMMIT")
        finally:
            conn.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # a concurrent creator won; its file is checked by the caller
        except OSError:  # no hard links here (some network/FAT file systems)
            if not os.path.lexists(path):
                os.replace(tmp, path)
        _fsync_dir(path)
    except sqlite3.Error as exc:
        raise _error(path, exc, "cannot create") from None
    except OSError as exc:
        raise StoreError(f"cannot create {path}: {exc.strerror or exc}") from None
    finally:
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
            try:
                leftover.unlink()
            except OSError:
                pass


def _fsync_dir(path: Path) -> None:
    """Make the new directory entry durable (best effort; not possible everywhere)."""
    try:
        fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# --------------------------------------------------------------------- checks


def _check_header(path: Path) -> None:
    """Refuse anything that is not an SQLite file carrying our application id, reading the
    raw header only (so SQLite never touches, e.g., rolls back a journal of, a foreign file)."""
    if os.path.isdir(path):
        raise StoreError(f"{path} is a directory, not a forumlab results file")
    try:
        with open(path, "rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise StoreError(f"{path} is not a forumlab results file (or is corrupt)")
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise StoreError(f"{path} is an SQLite database of another application, "
                         "not a forumlab results file")


def _validate(conn: sqlite3.Connection, path: Path) -> dict[str, Any]:
    """Integrity, schema and tournament row of a file; its stored tournament."""
    def fetch(sql: str) -> list[tuple]:
        return _fetch(path, conn, sql)

    try:
        check = fetch("PRAGMA quick_check")
        if check != [("ok",)]:
            raise StoreError(f"{path} is not a forumlab results file (or is corrupt): "
                             f"{squeeze(check[0][0])}")
        tables = {name for (name,) in fetch("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, columns in _REQUIRED_TABLES.items():
            if table not in tables:
                raise StoreError(f"{path} is not a forumlab results file (no {table} table)")
            have = {row[1] for row in fetch(f"PRAGMA table_info({table})")}
            if not set(columns) <= have:
                raise StoreError(f"{path} is not a forumlab results file (bad {table} table)")
        meta = dict(fetch("SELECT key, value FROM meta"))
        if meta.get("app") != APP_NAME:
            raise StoreError(f"{path} is not a forumlab results file")
        try:
            schema = int(meta.get("schema_version", ""))
        except ValueError:
            raise StoreError(f"{path} is a corrupt forumlab results file (bad schema version)") from None
        if schema > SCHEMA_VERSION:
            raise StoreError(f"{path} was written by a newer forumlab (results schema {schema}; "
                             f"this version reads up to {SCHEMA_VERSION})")
        rows = fetch("SELECT id, definition, versions, created FROM tournament")
        if len(rows) != 1:
            raise StoreError(f"{path} is a corrupt forumlab results file (no single tournament)")
        tid, definition, versions, created = rows[0]
        return {"id": tid, "definition": json.loads(definition), "versions": json.loads(versions),
                "created": created}
    except (ValueError, TypeError):  # undecodable JSON in the tournament row
        raise StoreError(f"{path} is a corrupt forumlab results file (bad tournament row)") from None


def _check_same_tournament(path: Path, stored: dict[str, Any], wanted: dict[str, Any]) -> None:
    if canonical_json(stored) == canonical_json(wanted):
        return
    differ = sorted(k for k in set(stored) | set(wanted) if stored.get(k, ...) != wanted.get(k, ...))
    about = ", ".join(f"{k} {stored[k]}" for k in ("game", "format", "seed")
                      if isinstance(stored.get(k), (str, int)))
    raise StoreError(
        f"{path} holds tournament {tournament_id(stored)!r} ({about}), not this one"
        f" (they differ in: {', '.join(differ) or 'field types'});"
        " use another results file, or resume that tournament")


def _probe_write_lock(conn: sqlite3.Connection, path: Path) -> None:
    """Fail now, not at the first game, if another connection holds the write lock."""
    _sql(path, conn.execute, "BEGIN IMMEDIATE")
    _sql(path, conn.execute, "ROLLBACK")


# --------------------------------------------------------------------- plumbing


class _WriterLock:
    """An exclusive flock on ``<db>-lock`` held while a store is open for writing."""

    def __init__(self, db: Path):
        self.db = db
        self.key = os.path.realpath(db)
        self.path = Path(f"{db}-lock")
        self.fd: int | None = None
        self.held = False
        self.pid = os.getpid()

    def acquire(self) -> None:
        if self.key in _WRITERS_IN_PROCESS:
            raise StoreError(f"{self.db} is already open for writing in this process")
        if fcntl is not None:
            self._flock()
        _WRITERS_IN_PROCESS[self.key] = self.fd
        self.held = True
        self.pid = os.getpid()

    def _flock(self) -> None:
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise StoreError(f"cannot open {self.db} for writing: {exc.strerror or exc}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise StoreError(
                    f"{self.db} is locked by another process (a tournament is writing to it)") from None
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                self.fd = fd
                return
            os.close(fd)  # the previous holder removed that lock file as we opened it; retry

    def release(self) -> None:
        if os.getpid() != self.pid:  # in a forked child: the lock is the parent's
            self.fd = None
            self.held = False
            return
        if self.held:
            _WRITERS_IN_PROCESS.pop(self.key, None)
            self.held = False
        if self.fd is not None:
            try:  # unlink while still holding the lock; acquirers check the inode
                self.path.unlink()
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None


def _connect(path: Path, mode: str, timeout: float) -> sqlite3.Connection:
    uri = f"{Path(os.path.abspath(path)).as_uri()}?mode={mode}"
    try:
        return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as exc:
        raise _error(path, exc, "cannot open") from None


def _fetch(path: Path, conn: sqlite3.Connection, sql: str, params: tuple = ()) -> list[tuple]:
    """Run one query and fetch all its rows; a damaged page may only show while fetching,
    so both steps turn sqlite3 errors into a StoreError."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.Error as exc:
        raise _error(path, exc, "cannot read") from None


def _roll_back_interrupted_commit(path: Path, timeout: float) -> None:
    """Let SQLite roll back the ``-journal`` of a writer killed in the middle of a commit
    (restoring the last committed state), which a read-only connection cannot do.  Only
    called for a file whose header is ours and whose writer lock we hold."""
    if not os.path.exists(f"{path}-journal"):
        return
    conn = _connect(path, "rw", timeout)
    try:
        _fetch(path, conn, "SELECT COUNT(*) FROM sqlite_master")  # a read rolls back
    finally:
        conn.close()


def _use_rollback_journal(conn: sqlite3.Connection, path: Path) -> None:
    """Switch the file to a rollback journal (a no-op unless an earlier version left it in
    WAL mode, whose games the switch folds back into the file)."""
    mode = _fetch(path, conn, "PRAGMA journal_mode=DELETE")
    if not mode or str(mode[0][0]).lower() != "delete":
        raise StoreError(f"cannot open {path} for writing: it stays in "
                         f"{mode[0][0] if mode else 'an unknown'} journal mode")


def _sql(path: Path, fn, *args):
    try:
        return fn(*args)
    except sqlite3.Error as exc:
        raise _error(path, exc, "cannot read") from None


def _error(path: Path, exc: sqlite3.Error, doing: str) -> StoreError:
    """A one-line StoreError for an sqlite3 exception."""
    text = squeeze(str(exc))
    low = text.lower()
    if "locked" in low or "busy" in low:
        return StoreError(f"{path} is locked by another process")
    if isinstance(exc, sqlite3.DatabaseError) and (
            "malformed" in low or "not a database" in low or "corrupt" in low):
        return StoreError(f"{path} is not a forumlab results file (or is corrupt): {text}")
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_ROLLBACK":
        return StoreError(f"{path} has a commit that was interrupted ({path}-journal); open it "
                          f"for writing once, e.g. 'forumlab tournament resume {path}', to roll it back")
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_CANTOPEN" and _is_wal(path):
        return StoreError(f"{doing} {path}: it is in WAL mode (written by an older forumlab) and its "
                          f"-wal/-shm files cannot be read or created here; open it for writing "
                          f"once where its directory is writable, which converts it")
    return StoreError(f"{doing} {path}: {text}")


def _is_wal(path: Path) -> bool:
    """Whether the file's header says WAL mode (bytes 18 and 19 are 2)."""
    try:
        with open(path, "rb") as f:
            return f.read(20)[18:20] == b"\x02\x02"
    except OSError:
        return False


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass  # nothing open, or the connection is gone; the transaction is not committed


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


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False, default=_plain)


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


def _row_outcome(row: dict[str, Any]) -> GameOutcome:
    return GameOutcome(
        key=row["key"], group=row["grp"], lineup=row["lineup"], rotation=row["rotation"],
        seed=row["seed"], labels=tuple(json.loads(row["labels"])),
        specs=tuple(json.loads(row["specs"])), agent_seeds=tuple(json.loads(row["agent_seeds"])),
        moves=json.loads(row["moves"]), scores=json.loads(row["scores"]),
        ranks=json.loads(row["ranks"]), plies=row["plies"],
        termination=as_termination(row["termination"]),
        faults=[Fault(**f) for f in json.loads(row["faults"])],
        move_seconds=json.loads(row["move_seconds"]), moves_made=json.loads(row["moves_made"]),
        started=row["started"], finished=row["finished"], host=row["host"],
    )
