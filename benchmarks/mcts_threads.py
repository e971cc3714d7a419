"""Root-parallel MCTS: speed and strength of ``mcts(threads=2)`` against ``threads=1``.

Usage:
    python -m benchmarks.mcts_threads [--seconds 0.2] [--rounds 3] [--budget 0.05]
        [--forma-groups 10] [--forum-groups 3] [--workers 2] [--seed 1] [--only speed|strength]

Prints one JSON object with two parts.

1. ``speed``: iterations per wall-clock second and per CPU second of ``mcts(threads=1)``
   and ``mcts(threads=2)`` (each game's tuned defaults) on the fixed benchmark positions
   of Forum Romanum with 3 players and Forma with 2 (benchmarks.positions). At each
   position a ``cpu_time=--seconds`` search of one thread sets the iteration budget, and
   then both thread counts search that many iterations (equal work) ``--rounds`` times,
   alternating which goes first, on fresh agents. CPU seconds are the searching threads'
   own clocks summed (``last_search``); the process CPU time is given as a cross-check.
   On a machine whose cores are busy with other work the wall-clock speed-up says as
   much about the load as about the code: the load average before and after is printed.
2. ``strength``: ``mcts(threads=2, cpu_time=B)`` against ``mcts(threads=1, cpu_time=B)``
   through the arena (neighbour-balanced seating: every seat, every predecessor; one
   game per worker process), in Forma with 2 players and Forum Romanum with 3 (the
   other seats are copies of the 1-thread agent). ``cpu_time`` is per searching thread,
   so the 2-thread agent searches twice the CPU time per move, which it gets in the same
   wall time on an idle machine with two free cores; the result does not depend on the
   load. Elo of the 2-thread agent against the 1-thread one with its 95% interval
   (benchmarks.mcts_experiment's summary).

The default size takes a few minutes on an idle 2-core machine.
"""
from __future__ import annotations

import json
import math
import os
import platform
import shlex
import sys
import time

import click

from forumlab.agents.registry import create_agent
from forumlab.arena.definition import TournamentDefinition
from forumlab.cli import fail
from forumlab.core.registry import create_game

from .cli import run_command
from .mcts_experiment import play_throwaway, pool, summarise
from .positions import game_positions

SPEED_GAMES = (("forum-romanum", 3), ("forma", 2))
THREADS = (1, 2)


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (None where the system has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def measure(spec: str, state, seed: int) -> dict:
    """One fresh search of ``spec`` from ``state``: iterations, wall, thread and process CPU."""
    agent = create_agent(spec, seed=seed)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    agent.act(state.view_for(state.current_player))
    wall, process_cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    s = agent.last_search
    return {"iterations": s["iterations"], "wall": wall, "cpu": s["cpu_seconds"], "process_cpu": process_cpu}


def speed_at(state, seconds: float, rounds: int) -> dict:
    """Both thread counts at one position, alternating, on equal iteration budgets."""
    # compile / load
    create_agent("mcts(iterations=200, threads=2)", seed=0).act(state.view_for(state.current_player))
    calibration = create_agent(f"mcts(cpu_time={seconds:g})", seed=0)
    calibration.act(state.view_for(state.current_player))
    n = max(THREADS[-1], calibration.last_search["iterations"])
    runs = {k: [] for k in THREADS}
    for r in range(rounds):
        for k in (THREADS if r % 2 == 0 else THREADS[::-1]):
            runs[k].append(measure(f"mcts(iterations={n}, threads={k})", state, seed=r))
    return {"iterations_per_search": n, "runs": runs}


def _totals(runs: list[dict]) -> dict:
    total = {key: sum(r[key] for r in runs) for key in ("iterations", "wall", "cpu", "process_cpu")}
    return {
        "searches": len(runs),
        "iterations": total["iterations"],
        "wall_seconds": round(total["wall"], 4),
        "thread_cpu_seconds": round(total["cpu"], 4),
        "process_cpu_seconds": round(total["process_cpu"], 4),
        "iterations_per_wall_second": round(total["iterations"] / total["wall"]),
        "iterations_per_cpu_second": round(total["iterations"] / total["cpu"]),
    }


def speed(seconds: float, rounds: int) -> dict:
    """Iterations per wall and CPU second of every thread count, per game."""
    report = {"load_average_before": load_average(), "games": []}
    for game, players in SPEED_GAMES:
        positions = game_positions(game, players)
        per_position = []
        runs = {k: [] for k in THREADS}
        for label, state in positions.items():
            measured = speed_at(state, seconds, rounds)
            per_position.append({"position": label, "ply": len(state.history),
                                 "iterations_per_search": measured["iterations_per_search"],
                                 **{f"threads={k}": _totals(measured["runs"][k]) for k in THREADS}})
            for k in THREADS:
                runs[k] += measured["runs"][k]
        totals = {k: _totals(runs[k]) for k in THREADS}
        one, two = totals[1], totals[2]
        report["games"].append({
            "game": game, "players": players,
            **{f"threads={k}": totals[k] for k in THREADS},
            "wall_speedup": round(two["iterations_per_wall_second"] / one["iterations_per_wall_second"], 3),
            "cpu_efficiency": round(two["iterations_per_cpu_second"] / one["iterations_per_cpu_second"], 3),
            "positions": per_position,
        })
    report["load_average_after"] = load_average()
    return report


def strength_in(game: str, players: int, budget: float, groups: int, workers: int, seed: int) -> dict:
    """Elo of ``mcts(threads=2, cpu_time=budget)`` against the 1-thread agent in one game."""
    agent = f"mcts(threads=2, cpu_time={budget:g})"
    opponent = f"mcts(threads=1, cpu_time={budget:g})"
    config = {**create_game(game, {"players": players}).config}
    definition = TournamentDefinition(game=game, config=config, agents=pool(agent, opponent, players),
                                      games_per_lineup=groups, seed=seed, hard_limit=max(60.0, 30 * budget))
    load_before = load_average()
    outcomes, elapsed = play_throwaway(definition, workers)
    return {"game": game, "players": players, "agent": agent, "opponent": opponent, "groups": groups,
            "seating": definition.rotations, **summarise(outcomes), "seconds": round(elapsed, 1),
            "load_average_before": load_before, "load_average_after": load_average()}


@click.command()
@click.option("--seconds", type=float, default=0.2, show_default=True,
              help="Speed: CPU seconds of one thread that set each position's iteration budget.")
@click.option("--rounds", type=int, default=3, show_default=True,
              help="Speed: searches per thread count and position (alternating order).")
@click.option("--budget", type=float, default=0.05, show_default=True,
              help="Strength: CPU seconds per move of each searching thread.")
@click.option("--forma-groups", type=int, default=10, show_default=True,
              help="Strength: seating groups in Forma, 2 players (2 games each).")
@click.option("--forum-groups", type=int, default=3, show_default=True,
              help="Strength: seating groups in Forum Romanum, 3 players (6 games each).")
@click.option("--workers", type=int, default=2, show_default=True, help="Strength: worker processes.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--only", type=click.Choice(["speed", "strength"]), default=None, help="Run one part only.")
def main(seconds, rounds, budget, forma_groups, forum_groups, workers, seed, only):
    """Speed and strength of root-parallel MCTS (threads=2 against threads=1), as JSON."""
    for name, value in (("--seconds", seconds), ("--budget", budget)):
        if not (math.isfinite(value) and value > 0):
            fail(f"{name} must be a positive number of seconds, not {value!r}")
    for name, value in (("--rounds", rounds), ("--forma-groups", forma_groups),
                        ("--forum-groups", forum_groups), ("--workers", workers)):
        if value < 1:
            fail(f"{name} must be at least 1, not {value}")
    started = time.perf_counter()
    report = {"benchmark": "mcts_threads",
              "command": "python -m benchmarks.mcts_threads " + shlex.join(sys.argv[1:]),
              "machine": platform.machine(), "cores": os.cpu_count(), "seed": seed}
    if only in (None, "speed"):
        report["speed"] = {"seconds": seconds, "rounds": rounds, **speed(seconds, rounds)}
    if only in (None, "strength"):
        report["strength"] = {
            "budget_cpu_seconds_per_thread": budget, "workers": workers,
            "games": [strength_in("forma", 2, budget, forma_groups, workers, seed),
                      strength_in("forum-romanum", 3, budget, forum_groups, workers, seed)],
        }
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=1))


def run() -> None:
    """``main`` as a command line program (see benchmarks.cli.run_command)."""
    run_command(main)


if __name__ == "__main__":
    run()
