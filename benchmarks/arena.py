"""Tournament throughput and the local pool's parallel speed-up, 2 workers vs 1.

Usage: python -m benchmarks.arena [--games 100] [--cold] [--pool-jobs 8]

1. Runs `forumlab tournament run` with random agents on Forum Romanum in fresh
   processes (so start-up and numba cache loading are included), once with
   --workers 2 and once with --workers 1. --cold points numba at an empty cache
   directory for the first run, so that its time includes compiling every kernel.
2. Plays ``--pool-jobs`` CPU-bound pure-Python jobs (they hold the GIL, so only
   processes run them in parallel) through the local pool with 1 and with 2
   workers, best of three alternating runs: the executor's own speed-up, without
   the CLI's start-up. (This replaced a unit test that asserted it: speed is
   measured here, never asserted in tests.)

Prints one JSON object with the wall times. On a busy machine the speed-ups shrink;
they are measurements, not pass/fail criteria.
"""
from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time

import click

from forumlab.arena.executors import LocalExecutor
from forumlab.arena.jobs import END_RULES, GameJob, GameOutcome

POOL_ITERATIONS = 1_500_000  # per job: about 0.1-0.2 s of pure Python on one core


def _run(workers: int, games: int, tmp: str, env: dict) -> float:
    db = os.path.join(tmp, f"w{workers}-{time.monotonic_ns()}.db")
    cmd = [sys.executable, "-m", "forumlab.cli", "tournament", "run", "-a", "random", "-p", "3",
           "--games", str(math.ceil(games / 3)), "--workers", str(workers), "--db", db, "-q"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def busy_game(job: GameJob) -> GameOutcome:
    """A 'game' that only burns CPU in pure Python (top level: workers import it)."""
    total = 0
    for i in range(job.config["iterations"]):
        total += i * i % 7
    return GameOutcome.for_job(job, moves=[], scores=[float(total)], ranks=[1], plies=0,
                               termination=END_RULES)


def _pool_times(jobs: int, rounds: int = 3) -> dict[int, float]:
    work = [GameJob(key=f"B-{i}", group="B", lineup=0, rotation=0, game="busy",
                    config={"iterations": POOL_ITERATIONS}, seed=i, labels=("a",), specs=("a",),
                    agent_seeds=(0,)) for i in range(jobs)]
    best = {1: math.inf, 2: math.inf}
    with LocalExecutor(1, progress=False) as one, LocalExecutor(2, progress=False) as two:
        pools = {1: one, 2: two}
        for pool in pools.values():  # start the workers outside the timing
            list(pool.run(work[:2], busy_game))
        for _ in range(rounds):  # alternate, keep the best: the machine may be busy
            for workers, pool in pools.items():
                t0 = time.perf_counter()
                assert len(list(pool.run(work, busy_game))) == jobs
                best[workers] = min(best[workers], time.perf_counter() - t0)
    return best


@click.command()
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--cold", is_flag=True, help="Start the first run from an empty numba cache.")
@click.option("--pool-jobs", type=int, default=8, show_default=True,
              help="CPU-bound jobs for the pool speed-up (0 = skip it).")
def main(games, cold, pool_jobs):
    """Wall time of a random-agent tournament, and of CPU-bound pool jobs, with 2 workers and 1."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        result = {"benchmark": "arena", "games": 3 * math.ceil(games / 3), "machine": platform.machine(),
                  "cores": os.cpu_count()}
        if cold:
            env["NUMBA_CACHE_DIR"] = os.path.join(tmp, "numba-cache")
            result["cold_start_workers_2_s"] = round(_run(2, games, tmp, env), 2)
        result["workers_2_s"] = round(_run(2, games, tmp, env), 2)
        result["workers_1_s"] = round(_run(1, games, tmp, env), 2)
        result["speedup"] = round(result["workers_1_s"] / result["workers_2_s"], 2)
    if pool_jobs > 0:
        best = _pool_times(pool_jobs)
        result["pool_jobs"] = pool_jobs
        result["pool_workers_1_s"] = round(best[1], 3)
        result["pool_workers_2_s"] = round(best[2], 3)
        result["pool_speedup"] = round(best[1] / best[2], 2)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
