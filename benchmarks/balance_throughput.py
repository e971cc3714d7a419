"""Cheap games at engine speed: self-play of cheap agents through the balance path.

Usage: python -m benchmarks.balance_throughput [--game forum-romanum] [--players 3]
       [--agent random|greedy] [--games 20000] [--workers 2] [--rounds 3] [--old PATH] [--cli]
       [--engine]

Plays the games that ``forumlab balance GAME -p N --agent AGENT --games G -w 2`` plays
(one agent in every seat, balanced rotation groups: one game per seed in self-play,
seed 1) into a fresh results file through ``forumlab.arena.tournament.run_tournament``,
the arena path the balance command runs on, each round in a fresh process (start-up,
worker start and numba cache loading included; the cache is warmed first). ``--old PATH``
also runs a checkout of an older commit (e.g. one made with ``git archive``), interleaved
round by round with this one, so that both see the same machine load. ``--cli`` also
times the whole ``python -m forumlab balance ...`` command (play, read back, report).
``--engine`` also plays the same games (the same seeds, agent streams and view streams)
in a plain loop in one process that calls the engine's kernels and the agent's kernel
(``random_move`` or ``greedy_move``) directly, each round beside the arena's: the
engine's own cost, against which the arena's overhead per game is measured; and each
round a run of 20 games through the arena, whose CPU is the fixed cost of a run (start-up
of the interpreters and workers, imports, cache loading), so that the overhead per game
beyond it is measured too.

Prints one JSON object: per version the median games per second of wall-clock time and
games per CPU second of the whole process tree (the tournament process and its
workers, sampled from /proc), and that CPU figure times the worker count: what the
workers would reach with a core each to themselves, which says more than the wall
figure when other work shares the machine (the load averages are printed too). With
``--engine``: the engine loop's games per CPU second, the plies it played (equal to the
arena's when the games are the same) and the arena's overhead, the CPU seconds per game
of the arena's process tree over the engine loop's, minus 1: of the whole run, and of
the games beyond the small run's (the CPU of the two runs' difference over their
difference in games).
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
# Games of the small run that measures a run's fixed cost (with --engine).
SMALL_RUN = 20

# Run in a fresh interpreter with the checkout to measure first on sys.path.
_CHILD = r"""
import json, os, sys, threading, time
sys.path.insert(0, sys.argv[1])
games, workers, db = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game, players, agent = sys.argv[5], int(sys.argv[6]), sys.argv[7]
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
d = TournamentDefinition(game=game, config={"players": players},
                         agents=(PoolEntry(agent, agent),), games_per_lineup=games,
                         rotations="balanced", seed=1)
played = run_tournament(d, db, workers, None, progress=False)
wall = time.perf_counter() - t0
done.set()
tree_cpu()
from forumlab.arena.store import ResultStore
with ResultStore.open(db, readonly=True) as store:
    plies = sum(len(o.moves) for o in store.outcomes())
print(json.dumps({"games": played, "wall": wall, "cpu": sum(seen.values()), "plies": plies}))
"""

# The same games played by a plain loop over the kernels, in one process (engine cost).
_ENGINE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
games, game_name, players, agent = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.schedule import plan
from forumlab.core.registry import create_game
from forumlab.core.rng import derive_seed, make_rng, next_u64
from forumlab.search.greedy import greedy_move

game = create_game(game_name, {"players": players})
k = game.kernels
tag, hidden = k.tag, not game.perfect_information
d = TournamentDefinition(game=game_name, config={"players": players}, agents=(PoolEntry(agent, agent),),
                         games_per_lineup=games, rotations="balanced", seed=1)
jobs = plan(d)

def play(job):
    # As the arena's runner: each seat moves on its view (determinized with the game's
    # view stream, one more draw in a hidden-information game), from its own stream.
    s = game.new_state(job.seed).array
    rngs = [make_rng(seed) for seed in job.agent_seeds]
    view_rng = make_rng(derive_seed(job.seed, "views"))
    view = s.copy()
    plies = 0
    while not k.is_terminal(s):
        seat = k.current_player(s)
        view[:] = s
        k.determinize(view, seat, view_rng)
        if hidden:
            next_u64(view_rng)
        move = greedy_move(tag, view, rngs[seat]) if agent == "greedy" else k.random_move(view, rngs[seat])
        k.apply_move(s, move)
        plies += 1
    return plies

play(jobs[0])  # compile or load from the cache outside the timing
c0 = time.process_time()
plies = sum(play(job) for job in jobs)
print(json.dumps({"games": len(jobs), "cpu": time.process_time() - c0, "plies": plies}))
"""


def _round(checkout: str, games: int, workers: int, tmp: str, env: dict, study: tuple) -> dict:
    db = os.path.join(tmp, f"r{time.monotonic_ns()}.db")
    args = [sys.executable, "-c", _CHILD, checkout, str(games), str(workers), db, *map(str, study)]
    out = subprocess.run(args, check=True, capture_output=True, text=True, env=env, cwd=checkout)
    os.unlink(db)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _engine_round(games: int, env: dict, study: tuple) -> dict:
    out = subprocess.run([sys.executable, "-c", _ENGINE, str(ROOT), str(games), *map(str, study)],
                         check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _engine_summary(rounds: list[dict], arena: list[dict], small: list[dict]) -> dict:
    per_cpu = [r["games"] / r["cpu"] for r in rounds]
    # The arena's CPU per game over the engine's, round by round: all of it, and beyond
    # the fixed cost of a run (interpreters, imports, workers, cache loading), which the
    # small run of the same round measures.
    overheads = [(a["cpu"] / a["games"]) / (e["cpu"] / e["games"]) - 1 for a, e in zip(arena, rounds)]
    per_game = [((a["cpu"] - s["cpu"]) / (a["games"] - s["games"])) / (e["cpu"] / e["games"]) - 1
                for a, s, e in zip(arena, small, rounds)]
    return {"games_per_cpu_second": round(statistics.median(per_cpu), 1),
            "same_plies_as_the_arena": all(a.get("plies") == e["plies"] for a, e in zip(arena, rounds)),
            "arena_overhead": round(statistics.median(overheads), 3),
            "arena_overhead_range": [round(min(overheads), 3), round(max(overheads), 3)],
            "small_run_games": small[0]["games"] if small else None,
            "small_run_cpu_seconds": round(statistics.median(s["cpu"] for s in small), 2) if small else None,
            "arena_overhead_per_game_beyond_start": round(statistics.median(per_game), 3),
            "arena_overhead_per_game_beyond_start_range": [round(min(per_game), 3), round(max(per_game), 3)],
            "rounds": rounds}


def _cli_seconds(checkout: str, games: int, workers: int, env: dict, study: tuple) -> float:
    game, players, agent = study
    cmd = [sys.executable, "-m", "forumlab", "balance", game, "-p", str(players), "--agent", agent,
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
@click.option("--game", default="forum-romanum", show_default=True)
@click.option("--players", type=int, default=3, show_default=True)
@click.option("--agent", type=click.Choice(["random", "greedy"]), default="random", show_default=True)
@click.option("--games", type=int, default=20_000, show_default=True, help="Games (seeds) per round.")
@click.option("--workers", type=int, default=2, show_default=True)
@click.option("--rounds", type=int, default=3, show_default=True)
@click.option("--old", "old", type=click.Path(exists=True, file_okay=False), default=None,
              help="A checkout of an older commit, measured round by round beside this one.")
@click.option("--cli", is_flag=True, help="Also time the whole balance command (once per version).")
@click.option("--engine", is_flag=True, help="Also play the same games by a plain loop over the kernels.")
def main(game: str, players: int, agent: str, games: int, workers: int, rounds: int, old: str | None,
         cli: bool, engine: bool) -> None:
    """Print JSON: games per second of cheap self-play through the balance path."""
    study = (game, players, agent)
    env = dict(os.environ)
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(tempfile.gettempdir(), "forumlab-bench-numba"))
    versions = {"new": str(ROOT)} | ({"old": os.path.abspath(old)} if old else {})
    results: dict[str, list[dict]] = {name: [] for name in versions}
    engine_rounds: list[dict] = []
    small_rounds: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        for checkout in versions.values():  # warm the numba cache (and the OS's file cache)
            _round(checkout, 30, workers, tmp, env, study)
        for _ in range(rounds):
            for name, checkout in versions.items():
                # The old checkout plays fewer games: at tens of games per second a full
                # round would take many minutes; its rate per game is what is compared.
                n = games if name == "new" else min(games, 1_000)
                results[name].append(_round(checkout, n, workers, tmp, env, study))
            if engine:
                engine_rounds.append(_engine_round(games, env, study))
                small_rounds.append(_round(str(ROOT), SMALL_RUN, workers, tmp, env, study))
    report = {
        "benchmark": f"{agent} self-play, {game}, {players} players, balance path (run_tournament)",
        "workers": workers, "python": platform.python_version(), "cpus": os.cpu_count(),
        "loadavg": os.getloadavg(),
        **{name: _summary(rows, workers) for name, rows in results.items()},
    }
    if engine:
        report["engine"] = _engine_summary(engine_rounds, results["new"], small_rounds)
    if cli:
        report["cli_seconds"] = {name: round(_cli_seconds(c, games if name == "new" else min(games, 1_000),
                                                          workers, env, study), 2)
                                 for name, c in versions.items()}
    click.echo(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
