"""Cold and warm start: the default `forumlab tournament`, first with an empty numba cache.

Usage: python -m benchmarks.startup [--runs 1] [--workers N] [-- extra tournament options]

Runs `forumlab tournament run` (the default pool on 3-player Forum Romanum, as
`forumlab tournament` does) in fresh processes: once with NUMBA_CACHE_DIR pointing
at an empty directory (cold: every kernel is compiled, as after `pip install`), then
again with that directory filled (warm). Prints one JSON object with, per run, the
wall time, the seconds until the compile notice appeared on stderr, and the CPU
seconds of the tournament process and the warm-up processes it waited for (the
workers run under a fork server, whose CPU time is not included). Wall times
depend on what else the machine runs, so the load average is recorded too, and
``compile_cpu_s`` gives a figure that does not: the CPU seconds each step of the
warm-up takes from an empty cache in one fresh process (the game's own kernels,
then each agent family; the tournament compiles the families in parallel, so its
compile time on an idle machine is about the game's kernels plus the largest
family plus one process start).
"""
from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import threading
import time

import click

BREAKDOWN = """
import json, sys, time
from forumlab.arena import warmup
from forumlab.arena.definition import TournamentDefinition
from forumlab.core.registry import create_game

d = TournamentDefinition()
times = {}
t = time.process_time()
warmup.compile_game_kernels(create_game(d.game, d.config), d.seed)
times["game kernels"] = round(time.process_time() - t, 2)
for family, specs in warmup._builtin_families(e.spec for e in d.agents).items():
    t = time.process_time()
    warmup._first_moves(d.game, d.config, d.seed, specs)
    times[family.rsplit(".", 1)[1]] = round(time.process_time() - t, 2)
print(json.dumps(times))
"""


def compile_breakdown(tmp: str) -> dict:
    """CPU seconds of each warm-up step from an empty cache, in one fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "breakdown-cache"))
    done = subprocess.run([sys.executable, "-c", BREAKDOWN], capture_output=True, text=True,
                          env=env, cwd=tmp)
    if done.returncode != 0:
        raise click.ClickException(f"breakdown failed: {done.stderr[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(cache: str, tmp: str, workers: int | None, extra: tuple[str, ...]) -> dict:
    """One `forumlab tournament run` in a fresh process; wall time, notice time, CPU."""
    db = os.path.join(tmp, f"t-{time.monotonic_ns()}.db")
    cmd = [sys.executable, "-m", "forumlab.cli", "tournament", "run", "--db", db, "-q", *extra]
    if workers:
        cmd += ["--workers", str(workers)]
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    cpu0 = _cpu_children()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=tmp)
    notice: list[float] = []
    lines: list[str] = []

    def read_stderr() -> None:
        for line in proc.stderr:
            if line.startswith("compiling") and not notice:
                notice.append(time.perf_counter() - t0)
            lines.append(line)

    reader = threading.Thread(target=read_stderr)
    reader.start()
    code = proc.wait()
    wall = time.perf_counter() - t0
    reader.join()
    if code != 0:
        raise click.ClickException(f"tournament failed ({code}): {''.join(lines[-5:])}")
    return {"wall_s": round(wall, 2), "notice_after_s": round(notice[0], 2) if notice else None,
            "cpu_s": round(_cpu_children() - cpu0, 2)}


@click.command(context_settings={"ignore_unknown_options": True})
@click.option("--runs", type=int, default=1, show_default=True, help="Cold/warm pairs.")
@click.option("--workers", type=int, default=None, help="Tournament workers (default: cores).")
@click.option("--breakdown/--no-breakdown", default=True, show_default=True,
              help="Also measure the CPU time of each warm-up step (default tournament only).")
@click.argument("extra", nargs=-1, type=click.UNPROCESSED)
def main(runs, workers, breakdown, extra):
    """Wall time of the first (cold numba cache) and a later (warm) tournament."""
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            cache = os.path.join(tmp, "numba-cache")
            load = os.getloadavg()[0]
            cold = run_once(cache, tmp, workers, extra)
            warm = run_once(cache, tmp, workers, extra)
            results.append({"load_average_1min": round(load, 2), "cold": cold, "warm": warm})
            if breakdown and not extra:
                results[-1]["compile_cpu_s"] = compile_breakdown(tmp)
    print(json.dumps({"benchmark": "startup", "command": "forumlab tournament run " + " ".join(extra),
                      "cores": os.cpu_count(), "machine": platform.machine(),
                      "python": platform.python_version(), "runs": results}, indent=1))


if __name__ == "__main__":
    main()
