"""Cold and warm start: the default `forumlab tournament`, first with an empty numba cache,
and `forumlab games`, which compiles nothing and imports no numba.

Usage: python -m benchmarks.startup [--runs 1] [--workers N] [--games-runs 5] [--source DIR]
                                    [-- extra tournament options]

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

``games`` is the CPU seconds (user + system) of a warm `forumlab games` process, the
median of ``--games-runs`` runs, and whether it imported numba. ``--source`` runs the
forumlab of another checkout (its root directory), e.g. an older commit unpacked with
``git archive``, to compare before and after on the same machine.
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


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Runs the CLI (argv) in this process and reports on stderr whether numba was imported.
WITH_NUMBA_REPORT = """
import atexit, runpy, sys
atexit.register(lambda: sys.stderr.write(f"\\nnumba imported: {'numba' in sys.modules}\\n"))
sys.argv = ["forumlab", *sys.argv[1:]]
runpy.run_module("forumlab", run_name="__main__", alter_sys=True)
"""


def _env(source: str, **extra: str) -> dict:
    """The environment of a child: ``source``'s forumlab first on the path."""
    path = os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path, **extra)


def compile_breakdown(tmp: str, source: str) -> dict:
    """CPU seconds of each warm-up step from an empty cache, in one fresh process."""
    env = _env(source, NUMBA_CACHE_DIR=os.path.join(tmp, "breakdown-cache"))
    done = subprocess.run([sys.executable, "-c", BREAKDOWN], capture_output=True, text=True,
                          env=env, cwd=tmp)
    if done.returncode != 0:
        raise click.ClickException(f"breakdown failed: {done.stderr[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def games_cpu(cache: str, tmp: str, source: str, runs: int) -> dict:
    """CPU seconds of warm `forumlab games` processes (median, min, max) and whether
    the last one imported numba."""
    cpus, imported = [], None
    for _ in range(runs):
        cpu0 = _cpu_children()
        done = subprocess.run([sys.executable, "-c", WITH_NUMBA_REPORT, "games"], capture_output=True,
                              text=True, env=_env(source, NUMBA_CACHE_DIR=cache), cwd=tmp)
        cpus.append(_cpu_children() - cpu0)
        if done.returncode != 0:
            raise click.ClickException(f"forumlab games failed: {done.stderr[-500:]}")
        imported = "numba imported: True" in done.stderr
    cpus.sort()
    return {"cpu_s_median": round(cpus[len(cpus) // 2], 3), "cpu_s_min": round(cpus[0], 3),
            "cpu_s_max": round(cpus[-1], 3), "runs": runs, "imports_numba": imported}


def run_once(cache: str, tmp: str, workers: int | None, extra: tuple[str, ...], source: str) -> dict:
    """One `forumlab tournament run` in a fresh process; wall time, notice time, CPU."""
    db = os.path.join(tmp, f"t-{time.monotonic_ns()}.db")
    cmd = [sys.executable, "-m", "forumlab.cli", "tournament", "run", "--db", db, "-q", *extra]
    if workers:
        cmd += ["--workers", str(workers)]
    env = _env(source, NUMBA_CACHE_DIR=cache)
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
@click.option("--games-runs", type=int, default=5, show_default=True,
              help="Warm `forumlab games` processes to time (0: none).")
@click.option("--source", type=click.Path(exists=True, file_okay=False), default=ROOT, show_default=True,
              help="The checkout whose forumlab runs.")
@click.argument("extra", nargs=-1, type=click.UNPROCESSED)
def main(runs, workers, breakdown, games_runs, source, extra):
    """Wall and CPU time of the first (cold numba cache) and a later (warm) tournament, and
    the CPU time of `forumlab games`."""
    source = os.path.abspath(source)
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            cache = os.path.join(tmp, "numba-cache")
            load = os.getloadavg()[0]
            cold = run_once(cache, tmp, workers, extra, source)
            warm = run_once(cache, tmp, workers, extra, source)
            results.append({"load_average_1min": round(load, 2), "cold": cold, "warm": warm})
            if games_runs > 0:
                results[-1]["games"] = games_cpu(cache, tmp, source, games_runs)
            if breakdown and not extra:
                results[-1]["compile_cpu_s"] = compile_breakdown(tmp, source)
            results[-1]["load_average_1min_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps({"benchmark": "startup", "command": "forumlab tournament run " + " ".join(extra),
                      "source": source, "cores": os.cpu_count(), "machine": platform.machine(),
                      "python": platform.python_version(), "runs": results}, indent=1))


if __name__ == "__main__":
    main()
