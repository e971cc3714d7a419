"""SQLite plumbing of the results store: schema, connections, locks, validation.

:mod:`forumlab.arena.store` is the API (:class:`~forumlab.arena.store.ResultStore`);
this module is how a results file is made, opened and kept safe.

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
  streamed in pages of :data:`forumlab.arena.store.PAGE_ROWS`, each page its own short read), so a slow
  consumer (``export | less``) does not stall the writer, whose commit waits for readers
  up to ``forumlab.arena.store.RECORD_TIMEOUT``.  A reader started during a commit waits for it likewise.
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

"""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from ..core.errors import ForumlabError, squeeze

try:  # POSIX; on other platforms the side-file lock is skipped (the SQLite probe remains)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

APP_NAME = "forumlab-results"
APPLICATION_ID = 0x464C5253  # "FLRS" in the SQLite header, offset 68
SCHEMA_VERSION = 1
SYNCHRONOUS = ("FULL", "NORMAL")

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
CREATE TABLE move_times (
    key             TEXT PRIMARY KEY REFERENCES games(key),
    cpu_seconds     TEXT NOT NULL,
    max_seconds     TEXT NOT NULL,
    max_cpu_seconds TEXT NOT NULL
);
""" + "".join(
    f"""
CREATE TRIGGER {table}_no_{op} BEFORE {op.upper()} ON {table}
BEGIN SELECT RAISE(ABORT, 'forumlab results are append-only'); END;
"""
    for table in ("meta", "tournament", "sessions", "games", "move_times")
    for op in ("update", "delete")
)

# Per game and seat, JSON lists: CPU seconds of the thread that called act(), summed, and
# the longest single move in wall and in CPU seconds. Files made before this table existed
# lack it and stay valid (it is not required); their games simply have no such timings.
MOVE_TIME_COLUMNS = ("cpu_seconds", "max_seconds", "max_cpu_seconds")

GAME_COLUMNS = (
    "key", "grp", "lineup", "rotation", "seed", "labels", "specs", "agent_seeds", "moves",
    "scores", "ranks", "plies", "termination", "faults", "fault_count", "move_seconds",
    "moves_made", "started", "finished", "host", "recorded", "session",
)
_REQUIRED_TABLES = {"meta": ("key", "value"),
                    "tournament": ("id", "definition", "versions", "created"),
                    "sessions": ("id", "opened", "host", "pid", "versions"),
                    "games": GAME_COLUMNS}

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


# --------------------------------------------------------------------- creation


def create_file(path: Path, tournament: tuple[str, str, str, float]) -> None:
    """Build a complete new results file beside ``path`` and link it into place atomically.
    If someone else created ``path`` meanwhile, leave theirs alone (the caller then opens
    it and checks it like any existing file).

    Args:
        path: where the file goes.
        tournament: its one ``tournament`` row: id, definition (JSON), versions (JSON),
            creation time.
    """
    from .. import __version__

    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
    except sqlite3.Error as exc:
        raise sqlite_error(path, exc, "cannot create") from None
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
                tournament)
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
        raise sqlite_error(path, exc, "cannot create") from None
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


def check_header(path: Path) -> None:
    """Refuse anything that is not an SQLite file carrying our application id, reading the
    raw header only (so SQLite never touches, e.g., rolls back a journal of, a foreign file)."""
    from ..core.files import read_file_head

    # A regular file only: a named pipe would block the open, a device be read.
    header = read_file_head(path, "results file", 100, error=StoreError)
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise StoreError(f"{path} is not a forumlab results file (or is corrupt)")
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise StoreError(f"{path} is an SQLite database of another application, "
                         "not a forumlab results file")


def validate(conn: sqlite3.Connection, path: Path) -> dict[str, Any]:
    """Integrity, schema and tournament row of a file; its stored tournament."""
    def query(sql: str) -> list[tuple]:
        return fetch(path, conn, sql)

    try:
        check = query("PRAGMA quick_check")
        if check != [("ok",)]:
            raise StoreError(f"{path} is not a forumlab results file (or is corrupt): "
                             f"{squeeze(check[0][0])}")
        tables = {name for (name,) in query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, columns in _REQUIRED_TABLES.items():
            if table not in tables:
                raise StoreError(f"{path} is not a forumlab results file (no {table} table)")
            have = {row[1] for row in query(f"PRAGMA table_info({table})")}
            if not set(columns) <= have:
                raise StoreError(f"{path} is not a forumlab results file (bad {table} table)")
        meta = dict(query("SELECT key, value FROM meta"))
        if meta.get("app") != APP_NAME:
            raise StoreError(f"{path} is not a forumlab results file")
        try:
            schema = int(meta.get("schema_version", ""))
        except ValueError:
            raise StoreError(f"{path} is a corrupt forumlab results file (bad schema version)") from None
        if schema > SCHEMA_VERSION:
            raise StoreError(f"{path} was written by a newer forumlab (results schema {schema}; "
                             f"this version reads up to {SCHEMA_VERSION})")
        rows = query("SELECT id, definition, versions, created FROM tournament")
        if len(rows) != 1:
            raise StoreError(f"{path} is a corrupt forumlab results file (no single tournament)")
        tid, definition, versions, created = rows[0]
        return {"id": tid, "definition": json.loads(definition), "versions": json.loads(versions),
                "created": created}
    except (ValueError, TypeError):  # undecodable JSON in the tournament row
        raise StoreError(f"{path} is a corrupt forumlab results file (bad tournament row)") from None


def probe_write_lock(conn: sqlite3.Connection, path: Path) -> None:
    """Fail now, not at the first game, if another connection holds the write lock."""
    run(path, conn.execute, "BEGIN IMMEDIATE")
    run(path, conn.execute, "ROLLBACK")


# --------------------------------------------------------------------- plumbing


class WriterLock:
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


def connect(path: Path, mode: str, timeout: float) -> sqlite3.Connection:
    """An autocommit connection in URI ``mode`` (``"ro"`` or ``"rw"``); StoreError if it fails."""
    uri = f"{Path(os.path.abspath(path)).as_uri()}?mode={mode}"
    try:
        return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as exc:
        raise sqlite_error(path, exc, "cannot open") from None


def connect_writer(path: Path, timeout: float, synchronous: str) -> sqlite3.Connection:
    """A read-write connection to a validated results file whose writer lock is held:
    the database write lock probed, a rollback journal, and ``synchronous`` set.

    Args:
        path: the results file (its header already checked).
        timeout: seconds to wait for SQLite locks while connecting and probing.
        synchronous: ``"FULL"`` or ``"NORMAL"`` (see :data:`SYNCHRONOUS`).

    Returns:
        The connection, in autocommit mode (transactions are explicit).
    """
    conn = connect(path, "rw", timeout)
    try:
        probe_write_lock(conn, path)
        use_rollback_journal(conn, path)
        run(path, conn.execute, f"PRAGMA synchronous={synchronous}")
    except BaseException:
        conn.close()
        raise
    return conn


def fetch(path: Path, conn: sqlite3.Connection, sql: str, params: tuple = ()) -> list[tuple]:
    """Run one query and fetch all its rows; a damaged page may only show while fetching,
    so both steps turn sqlite3 errors into a StoreError."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.Error as exc:
        raise sqlite_error(path, exc, "cannot read") from None


def roll_back_interrupted_commit(path: Path, timeout: float) -> None:
    """Let SQLite roll back the ``-journal`` of a writer killed in the middle of a commit
    (restoring the last committed state), which a read-only connection cannot do.  Only
    called for a file whose header is ours and whose writer lock we hold."""
    if not os.path.exists(f"{path}-journal"):
        return
    conn = connect(path, "rw", timeout)
    try:
        fetch(path, conn, "SELECT COUNT(*) FROM sqlite_master")  # a read rolls back
    finally:
        conn.close()


def use_rollback_journal(conn: sqlite3.Connection, path: Path) -> None:
    """Switch the file to a rollback journal (a no-op unless an earlier version left it in
    WAL mode, whose games the switch folds back into the file)."""
    mode = fetch(path, conn, "PRAGMA journal_mode=DELETE")
    if not mode or str(mode[0][0]).lower() != "delete":
        raise StoreError(f"cannot open {path} for writing: it stays in "
                         f"{mode[0][0] if mode else 'an unknown'} journal mode")


def run(path: Path, fn, *args):
    """``fn(*args)`` with an sqlite3 error turned into a one-line StoreError about ``path``."""
    try:
        return fn(*args)
    except sqlite3.Error as exc:
        raise sqlite_error(path, exc, "cannot read") from None


def sqlite_error(path: Path, exc: sqlite3.Error, doing: str) -> StoreError:
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
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_CANTOPEN" and is_wal(path):
        return StoreError(f"{doing} {path}: it is in WAL mode (written by an older forumlab) and its "
                          f"-wal/-shm files cannot be read or created here; open it for writing "
                          f"once where its directory is writable, which converts it")
    return StoreError(f"{doing} {path}: {text}")


def is_wal(path: Path) -> bool:
    """Whether the file's header says WAL mode (bytes 18 and 19 are 2)."""
    try:
        with open(path, "rb") as f:
            return f.read(20)[18:20] == b"\x02\x02"
    except OSError:
        return False


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if any (never raises)."""
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass  # nothing open, or the connection is gone; the transaction is not committed


