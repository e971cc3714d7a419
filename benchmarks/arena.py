"""Tournament throughput: 100 random-agent games of Forum Romanum, 2 workers vs 1.

Usage: python -m benchmarks.arena [--games 100] [--cold]

Runs `forumlab tournament run` in fresh processes (so start-up and numba cache loading
are included), once with --workers 2 and once with --workers 1, and prints one JSON
object with the wall times. --cold points numba at an empty cache directory for the
first run, so that its time includes compiling every kernel.
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


def _run(workers: int, games: int, tmp: str, env: dict) -> float:
    db = os.path.join(tmp, f"w{workers}-{time.monotonic_ns()}.db")
    cmd = [sys.executable, "-m", "forumlab.cli", "tournament", "run", "-a", "random", "-p", "3",
           "--games", str(math.ceil(games / 3)), "--workers", str(workers), "--db", db, "-q"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


@click.command()
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--cold", is_flag=True, help="Start the first run from an empty numba cache.")
def main(games, cold):
    """Wall time of a random-agent tournament with 2 workers and with 1."""
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
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
