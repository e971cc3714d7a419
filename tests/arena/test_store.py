"""Tests of the tournament results store (SQLite) and its JSONL/CSV export."""

import csv
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from forumlab.arena.export import CSV_COLUMNS, export_csv, export_jsonl, outcome_from_record
from forumlab.arena.jobs import END_CAP, END_RULES, FAULT_ILLEGAL, FAULT_TIMEOUT, Fault, GameOutcome
from forumlab.arena.store import APPLICATION_ID, ResultStore, StoreError
from forumlab.core.errors import ForumlabError

DEFINITION = {  # complete: a stored definition is read strictly (forumlab.arena.schema)
    "game": "forum-romanum",
    "config": {"players": 3},
    "agents": [{"label": "random", "spec": "random"}, {"label": "greedy", "spec": "greedy"},
               {"label": "mcts 1k", "spec": "mcts(iterations=1000, c=1.4)"}],
    "format": "round-robin",
    "candidate": None,
    "games_per_lineup": 1,
    "rotations": "balanced",
    "seed": 1,
    "move_time": 0.0,
    "hard_limit": 60.0,
    "fault_policy": "random",
}
VERSIONS = {"forumlab": "0.1.0", "python": "3.11", "numba": "0.59"}


def make_outcome(i: int) -> GameOutcome:
    """A deterministic, varied outcome (faults on every third game)."""
    faults = []
    if i % 3 == 0:
        faults = [Fault(seat=i % 3, ply=2, kind=FAULT_ILLEGAL, message=f"illegal move 'x{i}'"),
                  Fault(seat=1, ply=5, kind=FAULT_TIMEOUT, message="took 1.25 s > 1 s")]
    return GameOutcome(
        key=f"L{i // 6:04d}-G{i // 3 % 2:03d}-R{i % 3:02d}",
        group=f"L{i // 6:04d}-G{i // 3 % 2:03d}",
        lineup=i // 6,
        rotation=i % 3,
        seed=(2**62 + 12345 * i) % 2**63,
        labels=("random", "greedy", "mcts 1k"),
        specs=("random", "greedy", "mcts(iterations=1000, c=1.4)"),
        agent_seeds=(i, 2**63 - 1 - i, 7),
        moves=[f"m{i}-{k}" for k in range(i % 7 + 1)],
        scores=[float(i), 0.1 * i, -1.5],
        ranks=[1, 2, 2] if i % 2 else [3, 1, 2],
        plies=i % 7 + 1,
        termination=END_CAP if i % 5 == 4 else END_RULES,
        faults=faults,
        move_seconds=[0.001 * i, 1 / 3, 2.5],
        moves_made=[i % 7 + 1, 0, 1],
        started=1_700_000_000.0 + i,
        finished=1_700_000_000.5 + i,
        host=f"worker-{i % 2}",
    )


def snapshot(path: Path) -> dict[str, bytes]:
    """The bytes of a database file and of every side file SQLite may keep beside it
    (journal, WAL, shared-memory index); not the writer's empty lock file."""
    files = {}
    for p in (path, *(Path(f"{path}-{side}") for side in ("journal", "wal", "shm"))):
        if p.is_file():
            files[p.name] = p.read_bytes()
    return files


@pytest.fixture
def db(tmp_path):
    return tmp_path / "results.db"


def filled(db: Path, n: int) -> Path:
    with ResultStore.create(db, DEFINITION, VERSIONS) as store:
        for i in range(n):
            store.record(make_outcome(i))
    return db


# ---------------------------------------------------------------- round trip


def test_round_trip_in_insertion_order_with_faults(db):
    outcomes = [make_outcome(i) for i in (5, 0, 3, 1, 2, 4)]
    with ResultStore.create(db, DEFINITION, VERSIONS) as store:
        assert len(store) == 0 and store.done_keys() == set()
        for o in outcomes:
            store.record(o)
        assert store.outcomes() == outcomes
    with ResultStore.open(db, readonly=True) as store:
        assert store.outcomes() == outcomes
        assert len(store) == 6
        assert store.done_keys() == {o.key for o in outcomes}
        assert outcomes[0].key in store and "nope" not in store
        assert store.definition == DEFINITION
        assert store.versions == VERSIONS
        got = store.outcomes()[1]
        assert got.faults == make_outcome(0).faults and isinstance(got.faults[0], Fault)
        assert isinstance(got.labels, tuple) and isinstance(got.agent_seeds, tuple)
        assert got.move_seconds[1] == 1 / 3  # floats round-trip exactly
        assert got.seed == make_outcome(0).seed and got.agent_seeds[1] == 2**63 - 1


def test_schema_columns_and_file_marks(db):
    filled(db, 4)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # rollback journal
        rows = conn.execute("SELECT key, grp, fault_count, faults, scores FROM games ORDER BY seq").fetchall()
        assert [r[0] for r in rows] == [make_outcome(i).key for i in range(4)]
        assert [r[2] for r in rows] == [2, 0, 0, 2]
        assert json.loads(rows[0][3])[0] == {"seat": 0, "ply": 2, "kind": "illegal",
                                             "message": "illegal move 'x0'"}
        assert json.loads(rows[1][4]) == [1.0, 0.1, -1.5]
    finally:
        conn.close()


def test_numpy_values_are_stored_as_plain_numbers(db):
    o = make_outcome(1)
    o.scores = list(np.array([3.0, 1.0, 2.0]))
    o.ranks = list(np.array([1, 3, 2]))
    o.seed = np.int64(42)
    with ResultStore.create(db, DEFINITION, VERSIONS) as store:
        store.record(o)
        got = store.outcomes()[0]
    assert got.scores == [3.0, 1.0, 2.0] and got.ranks == [1, 3, 2] and got.seed == 42


def test_non_finite_number_is_refused_and_nothing_recorded(db):
    o = make_outcome(1)
    o.scores = [float("nan"), 1.0, 2.0]
    with ResultStore.create(db, DEFINITION, VERSIONS) as store:
        with pytest.raises(StoreError, match=o.key):
            store.record(o)
        assert len(store) == 0


# ---------------------------------------------------------------- append-only


def test_duplicate_key_is_refused_and_stored_row_kept(db):
    first = make_outcome(2)
    other = make_outcome(3)
    other.key = first.key
    with ResultStore.create(db, DEFINITION, VERSIONS) as store:
        store.record(first)
        with pytest.raises(StoreError, match="already recorded.*append-only"):
            store.record(other)
        with pytest.raises(StoreError, match="already recorded"):
            store.record(first)
        assert store.outcomes() == [first]
        store.record(make_outcome(4))  # the store is still usable
        assert len(store) == 2


def test_file_itself_refuses_updates_and_deletes(db):
    filled(db, 2)
    conn = sqlite3.connect(db)
    try:
        for sql in ("UPDATE games SET scores = '[0,0,0]'", "DELETE FROM games",
                    "UPDATE tournament SET definition = '{}'", "DELETE FROM meta"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                conn.execute(sql)
    finally:
        conn.close()
    with ResultStore.open(db) as store:
        assert store.outcomes() == [make_outcome(0), make_outcome(1)]


def test_read_only_and_closed_stores_refuse_records(db):
    filled(db, 1)
    with ResultStore.open(db, readonly=True) as store:
        with pytest.raises(StoreError, match="read-only"):
            store.record(make_outcome(1))
    store = ResultStore.open(db)
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        store.record(make_outcome(1))
    with pytest.raises(StoreError, match="closed"):
        len(store)


# ---------------------------------------------------------------- resume / identity


def test_create_twice_with_same_definition_is_a_resume(db):
    filled(db, 3)
    reordered = json.loads(json.dumps(DEFINITION))
    reordered = dict(reversed(list(reordered.items())))  # key order does not matter
    with ResultStore.create(db, reordered, {**VERSIONS, "forumlab": "0.2.0"}) as store:
        assert store.done_keys() == {make_outcome(i).key for i in range(3)}
        assert store.versions == VERSIONS  # creation versions are kept
        store.record(make_outcome(3))
        sessions = store.sessions()
    assert [s["versions"]["forumlab"] for s in sessions] == ["0.1.0", "0.2.0"]
    with ResultStore.open(db) as store:
        assert store.outcomes() == [make_outcome(i) for i in range(4)]
        records = list(store.iter_records())
        assert [r[1]["versions"]["forumlab"] for r in records] == ["0.1.0"] * 3 + ["0.2.0"]


def test_different_definition_is_refused_and_file_unchanged(db):
    filled(db, 3)
    before = snapshot(db)
    other = {**DEFINITION, "seed": 2, "agents": DEFINITION["agents"][:1]}
    with pytest.raises(StoreError) as info:
        ResultStore.create(db, other, VERSIONS)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{db} holds tournament ") and "not this one" in message
    assert "agents, seed" in message  # names what differs
    assert snapshot(db) == before
    with ResultStore.open(db) as store:  # and it is not left locked
        assert len(store) == 3


def test_tournament_definition_object_is_accepted(db):
    class Definition:
        def to_json(self):
            return dict(DEFINITION)

    with ResultStore.create(db, Definition(), VERSIONS) as store:
        assert store.definition == DEFINITION


# ---------------------------------------------------------------- bad files


def _garbled(path: Path) -> None:
    filled(path, 60)
    data = bytearray(path.read_bytes())
    assert len(data) > 4 * 4096
    data[2 * 4096:3 * 4096] = os.urandom(4096)  # trash a b-tree page, keep the header
    path.write_bytes(bytes(data))


def _truncated(path: Path) -> None:
    filled(path, 60)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (key TEXT, score REAL)")
    conn.execute("INSERT INTO games VALUES ('a', 1.0)")
    conn.commit()
    conn.close()


def _foreign_with_our_id(path: Path) -> None:  # right magic number, wrong contents
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    conn.commit()
    conn.close()


def _damaged_games_page(path: Path) -> None:
    """Trash the start of the games table's root page (what a bad disk sector does): the
    header and schema stay readable, the first read of the games fails."""
    filled(path, 12)
    conn = sqlite3.connect(path)
    root, = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    page_size, = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * page_size + 8)
        f.write(b"\xab" * 200)


BAD_FILES = {
    "random bytes": lambda p: p.write_bytes(os.urandom(8192)),
    "empty file": lambda p: p.write_bytes(b""),
    "text file": lambda p: p.write_text("key,score\na,1\n"),
    "truncated": _truncated,
    "garbled": _garbled,
    "damaged games page": _damaged_games_page,
    "foreign sqlite": _foreign,
    "foreign sqlite, our id": _foreign_with_our_id,
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
@pytest.mark.parametrize("how", ["create", "open", "open-readonly"])
def test_bad_file_is_refused_and_unchanged(tmp_path, kind, how):
    path = tmp_path / "bad.db"
    BAD_FILES[kind](path)
    before = snapshot(path)
    with pytest.raises(StoreError) as info:
        if how == "create":
            ResultStore.create(path, DEFINITION, VERSIONS)
        else:
            ResultStore.open(path, readonly=how == "open-readonly")
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    assert "forumlab results file" in message
    assert isinstance(info.value, ForumlabError)
    assert snapshot(path) == before
    assert not Path(f"{path}-lock").exists()


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        ResultStore.open(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    with pytest.raises(StoreError, match="is a directory"):
        ResultStore.open(tmp_path)
    with pytest.raises(StoreError, match="cannot create"):
        ResultStore.create(tmp_path / "no" / "such" / "dir.db", DEFINITION, VERSIONS)
    assert os.listdir(tmp_path) == []  # no temporary left behind


def test_new_file_leaves_no_temporary(tmp_path):
    with ResultStore.create(tmp_path / "r.db", DEFINITION, VERSIONS):
        pass
    assert sorted(os.listdir(tmp_path)) == ["r.db"]


# ---------------------------------------------------------------- locks


def test_file_locked_by_another_connection(db):
    filled(db, 2)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        before = snapshot(db)
        start = time.monotonic()
        with pytest.raises(StoreError, match=r"results\.db is locked by another process$"):
            ResultStore.open(db, timeout=0.2)
        with pytest.raises(StoreError, match="locked"):
            ResultStore.create(db, DEFINITION, VERSIONS, timeout=0.2)
        assert time.monotonic() - start < 5
        assert snapshot(db) == before
        # A rollback journal: an exclusive lock keeps readers out too, until it ends.
        with pytest.raises(StoreError, match="locked"):
            ResultStore.open(db, readonly=True, timeout=0.2)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with ResultStore.open(db) as store:  # free again
        store.record(make_outcome(2))
        assert len(store) == 3


def test_second_writer_in_same_process_is_refused(db):
    with ResultStore.create(db, DEFINITION, VERSIONS) as store:
        with pytest.raises(StoreError, match="already open for writing"):
            ResultStore.open(db)
        with ResultStore.open(db, readonly=True) as reader:
            store.record(make_outcome(0))
            assert reader.done_keys() == {make_outcome(0).key}
    with ResultStore.open(db) as store:
        assert len(store) == 1


# ---------------------------------------------------------------- durability

CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    from test_store import DEFINITION, VERSIONS, make_outcome
    from forumlab.arena.store import ResultStore

    store = ResultStore.create(sys.argv[2], DEFINITION, VERSIONS)
    print("open", flush=True)
    for i in range(100000):
        store.record(make_outcome(i))
        print(i, flush=True)  # only after the commit returned
""")


def test_sigkill_loses_nothing_committed(db):
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(Path(__file__).parent), str(db)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    reported = []
    try:
        assert child.stdout.readline().strip() == "open", child.stderr.read()
        while len(reported) < 40:
            line = child.stdout.readline()
            assert line, child.stderr.read()
            reported.append(int(line))
        # While it runs: a second writer is refused, a reader sees committed games.
        with pytest.raises(StoreError, match="locked by another process"):
            ResultStore.open(db)
        with ResultStore.open(db, readonly=True) as reader:
            assert len(reader) >= 40
        os.kill(child.pid, signal.SIGKILL)  # at an arbitrary point of its record loop
        child.wait(timeout=10)
        reported += [int(line) for line in child.stdout.read().split()]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    assert reported == list(range(len(reported)))
    assert not Path(f"{db}-wal").exists()  # a rollback journal: every game is in the file
    if Path(f"{db}-journal").exists():  # the kill landed inside a commit
        # A journal holding pages to restore is "hot": a reader cannot roll it back itself
        # and says so. An empty one (the kill came before its header was written) is not
        # hot, and SQLite ignores it: the reader then sees the last committed game.
        try:
            ResultStore.open(db, readonly=True).close()
        except StoreError as exc:
            assert re.search("interrupted.*tournament resume", str(exc)), exc
        ResultStore.open(db).close()  # a writer rolls a hot journal back
        ResultStore.open(db, readonly=True).close()  # ... after which readers open the file

    # A refused create (another tournament) does not touch the file.
    before = snapshot(db)
    with pytest.raises(StoreError, match="not this one"):
        ResultStore.create(db, {**DEFINITION, "seed": 99}, VERSIONS)
    assert snapshot(db) == before

    with ResultStore.create(db, DEFINITION, VERSIONS) as store:  # resume
        outcomes = store.outcomes()
        # every reported game, intact; at most one more that committed before the kill
        assert len(outcomes) - len(reported) in (0, 1)
        assert outcomes == [make_outcome(i) for i in range(len(outcomes))]
        store.record(make_outcome(len(outcomes)))
        assert len(store) == len(outcomes) + 1


STOPPING_CHILD = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, sys.argv[1])
    from test_store import DEFINITION, VERSIONS, make_outcome
    from forumlab.arena.store import ResultStore

    store = ResultStore.create(sys.argv[2], DEFINITION, VERSIONS)
    for i in range(int(sys.argv[3])):
        store.record(make_outcome(i))
    print("recorded", flush=True)
    time.sleep(60)  # the store stays open, as in a tournament between two games
""")


def test_a_copy_of_the_file_alone_holds_every_committed_game(db, tmp_path):
    child = subprocess.Popen([sys.executable, "-c", STOPPING_CHILD, str(Path(__file__).parent),
                              str(db), "25"], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "recorded"
        copy = tmp_path / "copy" / "results.db"
        copy.parent.mkdir()
        copy.write_bytes(db.read_bytes())  # while the writer still has the file open
        child.kill()
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
    # Every committed game is in the main file (no -wal holding them elsewhere).
    assert sorted(os.listdir(db.parent)) == ["copy", "results.db", "results.db-lock"]
    for path in (copy, db):
        with ResultStore.open(path, readonly=True) as store:
            assert store.outcomes() == [make_outcome(i) for i in range(25)]
    assert os.listdir(copy.parent) == ["results.db"]  # reading created no side files


def test_reading_leaves_the_file_and_its_directory_alone(db):
    filled(db, 5)
    listing, before = sorted(os.listdir(db.parent)), snapshot(db)
    with ResultStore.open(db, readonly=True) as store:
        assert len(store.outcomes()) == 5 and len(list(store.iter_records())) == 5
        assert len(store.done_keys()) == 5 and store.sessions()
    assert sorted(os.listdir(db.parent)) == listing == ["results.db"]
    assert snapshot(db) == before


def test_a_slow_reader_does_not_stall_the_writer(db, monkeypatch):
    import forumlab.arena.store as store_module

    monkeypatch.setattr(store_module, "RECORD_TIMEOUT", 1.0)  # fail fast if it would wait
    filled(db, 30)
    monkeypatch.setattr(store_module, "PAGE_ROWS", 4)
    with ResultStore.open(db, readonly=True) as reader, ResultStore.open(db) as writer:
        records = reader.iter_records()
        first = next(records)  # the reader is in the middle of its pages
        writer.record(make_outcome(30))
        writer.record(make_outcome(31))
        rest = list(records)
    assert [o for o, _ in [first, *rest]] == [make_outcome(i) for i in range(30)]  # a snapshot


def _write_wal_file(db: Path) -> None:
    """A results file as an earlier forumlab left it: WAL mode, games only in the -wal."""
    import forumlab.arena.store as store_module

    filled(db, 2)
    script = textwrap.dedent(f"""
        import os, sqlite3, sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_store import make_outcome
        from forumlab.arena import store
        conn = sqlite3.connect({str(db)!r}, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        for i in (2, 3):
            row = store._outcome_row(make_outcome(i))
            row["recorded"], row["session"] = 1.0, None
            conn.execute("INSERT INTO games ({', '.join(store_module.GAME_COLUMNS)}) VALUES "
                         "({', '.join('?' * len(store_module.GAME_COLUMNS))})",
                         [row[c] for c in store.GAME_COLUMNS])
        os._exit(0)  # killed: no checkpoint
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert Path(f"{db}-wal").stat().st_size > 0


def test_a_wal_file_of_an_older_version_opens_and_is_converted_for_writing(db, tmp_path):
    _write_wal_file(db)
    with ResultStore.open(db, readonly=True) as store:
        assert store.outcomes() == [make_outcome(i) for i in range(4)]
    with ResultStore.open(db) as store:
        store.record(make_outcome(4))
    assert sorted(os.listdir(db.parent)) == ["results.db"]  # -wal folded in, -shm gone
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    with ResultStore.open(copy, readonly=True) as store:
        assert store.outcomes() == [make_outcome(i) for i in range(5)]


INTERRUPTED_COMMIT = textwrap.dedent("""
    import os, sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("PRAGMA cache_size=1")  # spill: the file is written before the commit ends
    conn.execute("BEGIN IMMEDIATE")
    for i in range(300):
        conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"k{i}", "x" * 500))
    os._exit(0)  # killed in the middle of the transaction
""")


def test_an_interrupted_commit_is_reported_read_only_and_rolled_back_by_a_writer(db):
    filled(db, 3)
    subprocess.run([sys.executable, "-c", INTERRUPTED_COMMIT, str(db)], check=True, timeout=60)
    assert Path(f"{db}-journal").stat().st_size > 0
    before = snapshot(db)
    with pytest.raises(StoreError, match=r"interrupted .*'forumlab tournament resume .*results\.db'"):
        ResultStore.open(db, readonly=True)
    assert snapshot(db) == before
    with ResultStore.open(db) as store:
        assert store.outcomes() == [make_outcome(i) for i in range(3)]
    assert sorted(os.listdir(db.parent)) == ["results.db"]
    with ResultStore.open(db, readonly=True) as store:
        assert len(store) == 3


FORKING_CHILD = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, sys.argv[1])
    from test_store import DEFINITION, VERSIONS, make_outcome
    from forumlab.arena.store import ResultStore

    store = ResultStore.create(sys.argv[2], DEFINITION, VERSIONS)
    store.record(make_outcome(0))
    worker = os.fork()  # like a process-pool worker forked after the store was opened
    if worker == 0:
        os.close(1), os.close(2)  # let the test read the writer's output to the end
        time.sleep(20)
        os._exit(0)
    print(worker, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
""")


# The scenario forks a writer process, which Windows cannot do.
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_lock_dies_with_the_writer_not_with_its_forked_workers(db):
    child = subprocess.run([sys.executable, "-c", FORKING_CHILD, str(Path(__file__).parent), str(db)],
                           capture_output=True, text=True, timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr
    worker = int(child.stdout)
    try:
        os.kill(worker, 0)  # the forked worker outlives the writer
        with ResultStore.open(db) as store:
            assert store.outcomes() == [make_outcome(0)]
    finally:
        os.kill(worker, signal.SIGKILL)


# ---------------------------------------------------------------- export


def small_store(db: Path) -> ResultStore:
    store = ResultStore.create(db, {**DEFINITION, "game": "forma", "config": {"players": 2}, "seed": 3,
                                    "agents": [{"label": "alice", "spec": "random"},
                                               {"label": "bob", "spec": "greedy"}]},
                               {"forumlab": "0.1.0"})
    store.record(GameOutcome(
        key="L0000-G000-R00", group="L0000-G000", lineup=0, rotation=0, seed=7,
        labels=("alice", "bob"), specs=("random", "greedy"), agent_seeds=(11, 12),
        moves=["a1", "b2", "c3"], scores=[3.0, 1.5], ranks=[1, 2], plies=3,
        termination="end", faults=[], move_seconds=[0.25, 0.5], moves_made=[2, 1],
        started=100.0, finished=101.0, host="h1"))
    store.record(GameOutcome(
        key="L0000-G000-R01", group="L0000-G000", lineup=0, rotation=1, seed=7,
        labels=("bob", "alice"), specs=("greedy", "random"), agent_seeds=(13, 14),
        moves=["a1", "pass"], scores=[2.0, 2.0], ranks=[1, 1], plies=2, termination="cap",
        faults=[Fault(1, 2, "exception", "ValueError: boom"), Fault(1, 4, "hang", "cut off")],
        move_seconds=[0.125, 61.0], moves_made=[1, 1], started=102.0, finished=170.0, host="h2"))
    return store


def test_export_csv(db):
    out = io.StringIO()
    with small_store(db) as store:
        assert export_csv(store, out) == 2
    assert out.getvalue() == (
        ",".join(CSV_COLUMNS) + "\n"
        "L0000-G000-R00,L0000-G000,0,0,7,0,alice,random,11,3.0,1,3,end,0,0.25,2\n"
        "L0000-G000-R00,L0000-G000,0,0,7,1,bob,greedy,12,1.5,2,3,end,0,0.5,1\n"
        "L0000-G000-R01,L0000-G000,0,1,7,0,bob,greedy,13,2.0,1,2,cap,0,0.125,1\n"
        "L0000-G000-R01,L0000-G000,0,1,7,1,alice,random,14,2.0,1,2,cap,2,61.0,1\n"
    )
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == 4 and rows[3]["faults_of_seat"] == "2"


def test_export_jsonl(db):
    """Each line is a game record: record fields, agents, result and the tournament's facts,
    from which the stored outcome is rebuilt exactly (replaying is tested in
    tests/interop/test_records_export.py; these moves are placeholders)."""
    out = io.StringIO()
    with small_store(db) as store:
        assert export_jsonl(store, out) == 2
        expected = store.outcomes()
        tid = store.tournament_id
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    games = [json.loads(line) for line in lines]
    for game, want in zip(games, expected):
        assert game["format"] == "forumlab-record/1"
        assert game["game"] == "forma" and game["config"] == {"players": 2}
        assert game["tournament"]["id"] == tid
        assert game["tournament"]["versions"] == {"forumlab": "0.1.0"}
        assert isinstance(game["tournament"]["recorded"], float)
        assert outcome_from_record(game) == want
        # Forma's default obstacles are random: the record carries the layout of seed 7.
        assert len(game["setup"]["obstacles"]) == 25 and isinstance(game["setup"]["tower"], str)
    assert games[0]["seed"] == 7 and games[0]["moves"] == ["a1", "b2", "c3"]
    assert games[0]["agents"] == [{"label": "alice", "spec": "random", "seed": 11},
                                  {"label": "bob", "spec": "greedy", "seed": 12}]
    assert games[0]["result"] == {"scores": [3.0, 1.5], "ranks": [1, 2], "plies": 3,
                                  "termination": "end", "faults": []}
    assert {k: games[0]["tournament"][k] for k in ("key", "group", "lineup", "rotation", "move_seconds",
                                                  "moves_made", "started", "finished", "host")} == {
        "key": "L0000-G000-R00", "group": "L0000-G000", "lineup": 0, "rotation": 0,
        "move_seconds": [0.25, 0.5], "moves_made": [2, 1], "started": 100.0, "finished": 101.0, "host": "h1"}
    assert games[1]["result"]["faults"] == [
        {"seat": 1, "ply": 2, "kind": "exception", "message": "ValueError: boom"},
        {"seat": 1, "ply": 4, "kind": "hang", "message": "cut off"}]
