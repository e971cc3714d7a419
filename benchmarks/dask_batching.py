"""Cheap games on a Dask cluster: batched tasks against one game per task.

Usage: python -m benchmarks.dask_batching [--games 4000] [--rounds 2] [--workers 2]

Starts a local Dask cluster (``--workers`` worker processes of one thread each), warms
it up with a short run, then plays random 3-player Forum Romanum self-play (the games
``forumlab balance forum-romanum -p 3 --agent random`` plays, seed 1) into fresh results
files through ``run_tournament`` with the cluster as scheduler: once as the executor
batches cheap games (``dask_executor.dask_batches``) and once with every game a task of
its own, the order swapped each round. Needs the ``cluster`` extra (``distributed``).

Prints one JSON object: per mode and round the wall-clock seconds and the CPU seconds of
the tournament process (the Dask client: handing out tasks, collecting and committing
results); the cluster's own processes are not counted.
"""
from __future__ import annotations

import json
import os
import tempfile
import time

import click


@click.command()
@click.option("--games", type=int, default=4000, show_default=True)
@click.option("--rounds", type=int, default=2, show_default=True)
@click.option("--workers", type=int, default=2, show_default=True)
def main(games: int, rounds: int, workers: int) -> None:
    """Print JSON: batched against unbatched cheap games on a local Dask cluster."""
    import distributed

    from forumlab.arena.definition import PoolEntry, TournamentDefinition
    from forumlab.arena.executors import dask_executor
    from forumlab.arena.tournament import run_tournament

    def definition(n: int) -> TournamentDefinition:
        return TournamentDefinition(game="forum-romanum", config={"players": 3},
                                    agents=(PoolEntry("random", "random"),), games_per_lineup=n,
                                    rotations="balanced", seed=1)

    batches = {"batched": dask_executor.dask_batches,
               "one per task": lambda jobs, threads: [[job] for job in jobs]}
    report: dict = {"benchmark": "random self-play, Forum Romanum, 3 players, on a local Dask cluster",
                    "games": games, "dask_workers": workers, "cpus": os.cpu_count()}
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            run_tournament(definition(40), os.path.join(tmp, "warm.db"), scheduler=cluster.scheduler_address,
                           progress=False)
            for r in range(rounds):
                for mode in list(batches) if r % 2 == 0 else list(batches)[::-1]:
                    dask_executor.dask_batches = batches[mode]
                    t0, c0 = time.perf_counter(), time.process_time()
                    run_tournament(definition(games), os.path.join(tmp, f"{r}-{mode}.db"),
                                   scheduler=cluster.scheduler_address, progress=False)
                    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                    report.setdefault(mode, []).append({"wall_seconds": round(wall, 2),
                                                        "client_cpu_seconds": round(cpu, 2)})
    finally:
        dask_executor.dask_batches = batches["batched"]
        cluster.close()
    report["loadavg"] = os.getloadavg()
    click.echo(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
