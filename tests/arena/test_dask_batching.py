"""Cheap games in batches on a Dask cluster: the same rows as one game per task.

A Dask task plays a batch of cheap games (dask_executor.dask_batches) in its watched
child process. A game depends only on its job, so a batched run records the rows of an
unbatched one and of a local run; a fault or a runner error in one game of a batch is
that game's alone; and a tournament process killed mid-run resumes to the uninterrupted
run's file.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forumlab.arena.executors import DaskExecutor, GameExecutionError, dask_executor
from forumlab.arena.jobs import CHEAP_BATCH, FAULT_EXCEPTION, FAULT_EXIT, RANDOM_BATCH
from forumlab.arena.schedule import plan
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import resume_tournament, run_tournament
from tests import executor_fns as fns
from tests.arena.test_batching import rows, self_play

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip(
        "distributed", reason="distributed is not installed (pip install 'forumlab[cluster]')")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def tasks(monkeypatch):
    """The batches the Dask executor hands the cluster, as lists of game keys."""
    handed: list[list[str]] = []
    original = dask_executor.dask_batches

    def spy(jobs, threads):
        batches = original(jobs, threads)
        handed.extend([job.key for job in batch] for batch in batches)
        return batches

    monkeypatch.setattr(dask_executor, "dask_batches", spy)
    return handed


# ---------------------------------------------------------------- sizes


def test_cheap_games_go_many_to_a_task_and_costly_ones_alone():
    random_jobs = plan(self_play(games=400))
    sizes = [len(b) for b in dask_executor.dask_batches(random_jobs, threads=2)]
    assert sizes == [50] * 8  # a quarter of each of 2 threads' share of 400
    assert [len(b) for b in dask_executor.dask_batches(random_jobs * 20, threads=1)] == \
        [RANDOM_BATCH] * 7 + [8000 - 7 * RANDOM_BATCH]
    greedy = plan(self_play("greedy", games=400))
    assert {len(b) for b in dask_executor.dask_batches(greedy, threads=1)} == {CHEAP_BATCH, 400 % CHEAP_BATCH}
    costly = plan(self_play("mcts", games=6))
    assert [len(b) for b in dask_executor.dask_batches(costly, threads=1)] == [1] * 6
    # Every job once, in the planned order.
    mixed = costly[:2] + random_jobs[:30] + costly[2:]
    assert [j for b in dask_executor.dask_batches(mixed, threads=1) for j in b] == mixed
    assert dask_executor.dask_batches(random_jobs[:3], threads=0) == [[job] for job in random_jobs[:3]]


# ---------------------------------------------------------------- same games


def test_batched_dask_run_records_the_rows_of_an_unbatched_one_and_of_a_local_run(
        dask_cluster, tmp_path, monkeypatch, tasks):
    d = self_play(games=120)
    run_tournament(d, tmp_path / "batched.db", scheduler=dask_cluster.scheduler_address, progress=False)
    assert len(tasks) == 8 and {len(t) for t in tasks} == {15}
    with monkeypatch.context() as m:
        m.setattr(dask_executor, "dask_batches", lambda jobs, threads: [[job] for job in jobs])
        run_tournament(d, tmp_path / "unbatched.db", scheduler=dask_cluster.scheduler_address,
                       progress=False)
    run_tournament(d, tmp_path / "local.db", workers=2, progress=False)
    batched = rows(tmp_path / "batched.db")
    assert len(batched) == 120
    assert batched == rows(tmp_path / "unbatched.db") == rows(tmp_path / "local.db")


@pytest.mark.parametrize("how,kind", [("raise", FAULT_EXCEPTION), ("exit", FAULT_EXIT)])
def test_a_fault_in_one_game_of_a_task_is_that_games_and_the_task_goes_on(
        dask_cluster, tmp_path, tasks, how, kind):
    base = self_play(games=40, config={"max_rounds": 10})
    target = plan(base)[2].seed
    spec = f"tests.arena.test_batching:FaultOnSeed(iterations=1, target={target}, how={how})"
    d = self_play(spec, games=40, config={"max_rounds": 10})
    run_tournament(d, tmp_path / "t.db", scheduler=dask_cluster.scheduler_address, progress=False)
    assert len(tasks[0]) == 5  # a quarter of each of 2 threads' share of 40 games
    with ResultStore.open(tmp_path / "t.db", readonly=True) as store:
        outcomes = {o.key: o for o in store.outcomes()}
    assert len(outcomes) == 40
    assert {key for key, o in outcomes.items() if o.faults} == {tasks[0][2]}
    faults = outcomes[tasks[0][2]].faults
    assert [(f.seat, f.ply, f.kind) for f in faults] == [(0, 1, kind), (1, 2, kind), (2, 3, kind)]
    # The games after it in its task were played, as they are played in a local run.
    run_tournament(d, tmp_path / "local.db", workers=1, progress=False)
    local = rows(tmp_path / "local.db")
    assert all(rows(tmp_path / "t.db")[key] == local[key] for key in tasks[0][3:])


def test_a_runner_error_loses_only_its_game_and_the_rest_of_its_task_is_yielded(dask_cluster):
    import distributed

    jobs = [fns.make_job(f"J-{i:02d}") for i in range(10)] + [fns.make_job("X-00", "error")] \
        + [fns.make_job(f"K-{i:02d}") for i in range(5)]
    with distributed.Client(dask_cluster.scheduler_address, set_as_default=False) as client:
        executor = DaskExecutor(client, progress=False)
        assert len(dask_executor.dask_batches(jobs, 2)) == 8  # X-00 shares a task with K-00
        outcomes = []
        with executor, pytest.raises(GameExecutionError) as caught:
            for batch in executor.run_batches(jobs, fns.play):
                outcomes.extend(batch)
    assert sorted(o.key for o in outcomes) == sorted(j.key for j in jobs if j.key != "X-00")
    (failure,) = caught.value.failures
    assert failure.key == "X-00" and "bug in the runner for X-00" in failure.error


# ---------------------------------------------------------------- kill -9


@pytest.mark.slow
def test_kill_9_mid_dask_run_loses_only_tasks_in_flight_and_resume_is_exact(dask_cluster, tmp_path):
    d = self_play(games=4_000, seed=9)
    killed = tmp_path / "killed.db"
    script = tmp_path / "run.py"
    script.write_text(
        "import sys, json\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from forumlab.arena.definition import TournamentDefinition\n"
        "from forumlab.arena.tournament import run_tournament\n"
        f"d = TournamentDefinition.from_json(json.loads({json.dumps(json.dumps(d.to_json()))}))\n"
        f"run_tournament(d, {str(killed)!r}, scheduler={dask_cluster.scheduler_address!r}, progress=False)\n")
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
        try:
            with ResultStore.open(killed, readonly=True) as store:
                if len(store):
                    break
        except Exception:
            continue
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with ResultStore.open(killed, readonly=True) as store:
        done = len(store)
    assert 0 < done < 4_000, "the kill must land mid-run"
    assert resume_tournament(killed, scheduler=dask_cluster.scheduler_address, progress=False) == 4_000 - done
    full = tmp_path / "full.db"
    run_tournament(d, full, workers=2, progress=False)
    assert rows(killed) == rows(full)
