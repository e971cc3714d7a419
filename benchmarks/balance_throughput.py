"""Cheap games at engine speed: random self-play of Forum Romanum through the balance path.

Usage: python -m benchmarks.balance_throughput [--games 20000] [--workers 2] [--rounds 3]
       [--old PATH] [--cli]

Plays the games that ``forumlab balance forum-romanum -p 3 --agent random --games N -w 2``
plays (one agent in every seat, balanced rotation groups: one game per seed in self-play,
seed 1) into a fresh results file through ``forumlab.arena.tournament.run_tournament``,
the arena path the balance command runs on, each round in a fresh process (start-up,
worker start and numba cache loading included; the cache is warmed first). ``--old PATH``
also runs a checkout of an older commit (e.g. one made with ``git archive``), interleaved
round by round with this one, so that both see the same machine load. ``--cli`` also
times the whole ``python -m forumlab balance ...`` command (play, read back, report).

Prints one JSON object: per version the median games per second of wall-clock time and
games per CPU second of the whole process tree (the tournament process and its
workers, sampled from /proc), and that CPU figure times the worker count: what the
workers would reach with a core each to themselves, which says more than the wall
figure when other work shares the machine (the load averages are printed too).
"""
from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh interpreter with the checkout to measure first on sys.path.
_CHILD = r"""
import json, os, sys, threading, time
sys.path.insert(0, sys.argv[1])
games, workers, db = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ticks = os.sysconf("SC_CLK_TCK")
seen = {}

def tree_cpu():
    # utime + stime of this process and of every descendant, by pid, from /proc.
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                parents[int(name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
            except (OSError, IndexError, ValueError):
                pass
    mine, grew = {os.getpid()}, True
    while grew:
        grew = False
        for pid, (ppid, _) in parents.items():
            if ppid in mine and pid not in mine:
                mine.add(pid)
                grew = True
    for pid in mine:
        if pid in parents:
            seen[pid] = parents[pid][1]

done = threading.Event()
def sample():
    while not done.wait(0.05):
        tree_cpu()

t0 = time.perf_counter()
threading.Thread(target=sample, daemon=True).start()
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.tournament import run_tournament
d = TournamentDefinition(game="forum-romanum", config={"players": 3},
                         agents=(PoolEntry("random", "random"),), games_per_lineup=games,
                         rotations="balanced", seed=1)
played = run_tournament(d, db, workers, None, progress=False)
wall = time.perf_counter() - t0
done.set()
tree_cpu()
print(json.dumps({"games": played, "wall": wall, "cpu": sum(seen.values())}))
"""


def _round(checkout: str, games: int, workers: int, tmp: str, env: dict) -> dict:
    db = os.path.join(tmp, f"r{time.monotonic_ns()}.db")
    out = subprocess.run([sys.executable, "-c", _CHILD, checkout, str(games), str(workers), db],
                         check=True, capture_output=True, text=True, env=env, cwd=checkout)
    os.unlink(db)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cli_seconds(checkout: str, games: int, workers: int, env: dict) -> float:
    cmd = [sys.executable, "-m", "forumlab", "balance", "forum-romanum", "-p", "3", "--agent", "random",
           "--games", str(games), "-w", str(workers), "--no-progress"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env={**env, "PYTHONPATH": checkout}, cwd=checkout)
    return time.perf_counter() - t0


def _summary(rounds: list[dict], workers: int) -> dict:
    rates = [r["games"] / r["wall"] for r in rounds]
    per_cpu = [r["games"] / r["cpu"] for r in rounds]
    return {
        "games_per_second": round(statistics.median(rates)),
        "games_per_second_range": [round(min(rates)), round(max(rates))],
        "games_per_cpu_second": round(statistics.median(per_cpu)),
        "cpu_normalised_games_per_second": round(statistics.median(per_cpu) * workers),
        "rounds": rounds,
    }


@click.command()
@click.option("--games", type=int, default=20_000, show_default=True, help="Games (seeds) per round.")
@click.option("--workers", type=int, default=2, show_default=True)
@click.option("--rounds", type=int, default=3, show_default=True)
@click.option("--old", "old", type=click.Path(exists=True, file_okay=False), default=None,
              help="A checkout of an older commit, measured round by round beside this one.")
@click.option("--cli", is_flag=True, help="Also time the whole balance command (once per version).")
def main(games: int, workers: int, rounds: int, old: str | None, cli: bool) -> None:
    """Print JSON: games per second of random 3-player Forum Romanum self-play."""
    env = dict(os.environ)
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(tempfile.gettempdir(), "forumlab-bench-numba"))
    versions = {"new": str(ROOT)} | ({"old": os.path.abspath(old)} if old else {})
    results: dict[str, list[dict]] = {name: [] for name in versions}
    with tempfile.TemporaryDirectory() as tmp:
        for checkout in versions.values():  # warm the numba cache (and the OS's file cache)
            _round(checkout, 30, workers, tmp, env)
        for _ in range(rounds):
            for name, checkout in versions.items():
                # The old checkout plays fewer games: at tens of games per second a full
                # round would take many minutes; its rate per game is what is compared.
                n = games if name == "new" else min(games, 1_000)
                results[name].append(_round(checkout, n, workers, tmp, env))
    report = {
        "benchmark": "random self-play, Forum Romanum, 3 players, balance path (run_tournament)",
        "workers": workers, "python": platform.python_version(), "cpus": os.cpu_count(),
        "loadavg": os.getloadavg(),
        **{name: _summary(rows, workers) for name, rows in results.items()},
    }
    if cli:
        report["cli_seconds"] = {name: round(_cli_seconds(c, games if name == "new" else min(games, 1_000),
                                                          workers, env), 2)
                                 for name, c in versions.items()}
    click.echo(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
