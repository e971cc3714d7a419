"""Playing strength on Forum Romanum (3 players), through the arena.

Usage: python -m benchmarks.strength [--games 100] [--workers 2] [--round-robin-games 1]

Prints one JSON object with
- "targets": the two strength checks, each a lineup played in seat-rotation groups:
  mcts(iterations=1000) with greedy and random, and greedy with two random agents;
  the win rate of the first agent (a shared win counts as a fraction) with a 95%
  Wilson interval;
- "round_robin": every 3-agent lineup of random, greedy, paranoid, maxn, brs and mcts
  at the stated budgets, rated with the arena's Plackett-Luce model.
"""
from __future__ import annotations

import json
import math
import os
import platform
import tempfile
import time

import click

from forumlab.arena.balance import wilson_interval
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.ratings import rate, rated_games, ratings_report
from forumlab.arena.seating import BALANCED, design
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import run_tournament

TARGETS = (
    ("mcts(iterations=1000)", ("mcts(iterations=1000)", "greedy", "random"), 0.80),
    ("greedy", ("greedy", "random", "random2"), 0.70),
)
ROUND_ROBIN = ("random", "greedy", "paranoid(depth=3)", "maxn(depth=2)", "brs(depth=3)",
               "mcts(iterations=1000)")


def _pool(labels):
    # "random2" is a second random agent so that a lineup can hold two of them.
    return tuple(PoolEntry(label, "random" if label == "random2" else label) for label in labels)


def _play(definition, workers, tmp):
    db = os.path.join(tmp, f"strength-{time.monotonic_ns()}.db")
    t0 = time.perf_counter()
    run_tournament(definition, db, workers, None, progress=False)
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    return outcomes, time.perf_counter() - t0


@click.command()
@click.option("--games", type=int, default=100, show_default=True, help="Games per target lineup.")
@click.option("--round-robin-games", type=int, default=1, show_default=True,
              help="Rotation groups per round-robin lineup (0 = skip the round robin).")
@click.option("--workers", type=int, default=None, help="Worker processes (default: cores).")
@click.option("--seed", type=int, default=1, show_default=True)
def main(games, round_robin_games, workers, seed):
    """Win rates with 95% intervals, and a rated round robin."""
    report = {"benchmark": "strength", "game": "forum-romanum", "players": 3,
              "machine": platform.machine(), "python": platform.python_version(), "targets": []}
    with tempfile.TemporaryDirectory() as tmp:
        for subject, lineup, goal in TARGETS:
            definition = TournamentDefinition(
                game="forum-romanum", config={"players": 3}, agents=_pool(lineup),
                games_per_lineup=math.ceil(games / len(design(BALANCED, 3))), seed=seed)
            outcomes, seconds = _play(definition, workers, tmp)
            wins = 0.0
            for o in outcomes:
                best = [s for s, r in enumerate(o.ranks) if r == 1]
                wins += sum(1 / len(best) for s in best if o.labels[s] == subject)
            low, high = wilson_interval(wins, len(outcomes))
            report["targets"].append({
                "agent": subject, "lineup": list(lineup), "games": len(outcomes),
                "win_rate": wins / len(outcomes), "win_rate_95": [low, high], "goal": goal,
                "meets_goal": wins / len(outcomes) >= goal, "seconds": round(seconds, 1)})
        if round_robin_games > 0:
            definition = TournamentDefinition(
                game="forum-romanum", config={"players": 3}, agents=_pool(ROUND_ROBIN),
                games_per_lineup=round_robin_games, seed=seed)
            outcomes, seconds = _play(definition, workers, tmp)
            ratings = ratings_report(rate(rated_games(outcomes), anchor="random"))
            report["round_robin"] = {"agents": list(ROUND_ROBIN), "games": len(outcomes),
                                     "seconds": round(seconds, 1), "ratings": ratings}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
