"""False alarms of per-seat intervals read one by one, by simulation of games in which every
seat is equal: why the balance lab corrects its intervals (benchmarks/balance_calibration.py
measures the lab itself, corrected, with variants).

Each simulated study is ``games`` self-play games of one agent, here with every finishing
order equally likely (a fair game, no ties), rated with :func:`forumlab.arena.ratings.rate`
(each seat's Elo against seat 0, the ``seats[].elo_vs_seat0`` of ``forumlab balance --json``).
A study raises an alarm when its per-seat figures show some seat as different although none is:

- ``elo``: some seat's 95% interval of its Elo against seat 0 excludes 0;
- ``elo_bonferroni``: the same with each interval widened to a (1 - 0.05/(players - 1))
  interval, so that the study as a whole has a 5% false-alarm rate;
- ``win_rate``: some seat's 95% Wilson interval of its win rate excludes 1/players.

    python -m benchmarks.balance_false_alarms                         # 2, 3, 4 and 6 players
    python -m benchmarks.balance_false_alarms --players 4 --games 400 --studies 2000

Games are drawn directly (uniform random permutations), without the engines.
"""
from __future__ import annotations

import json
import platform
import time
from statistics import NormalDist

import click
import numpy as np

from forumlab.arena.balance import wilson_interval
from forumlab.arena.plackett_luce import RatedGame
from forumlab.arena.ratings import rate


def false_alarms(players: int, games: int, studies: int, seed: int) -> dict:
    """Alarm rates of ``studies`` simulated fair studies (see the module docstring)."""
    rng = np.random.default_rng(seed)
    widen = NormalDist().inv_cdf(1 - 0.025 / max(players - 1, 1)) / NormalDist().inv_cdf(0.975)
    alarms = {"elo": 0, "elo_bonferroni": 0, "win_rate": 0}
    for _ in range(studies):
        ranks = np.argsort(rng.random((games, players)), axis=1).argsort(axis=1) + 1
        rated = [RatedGame(group=str(i), agents=("a",) * players, ranks=tuple(int(x) for x in r),
                           scores=tuple(float(-x) for x in r)) for i, r in enumerate(ranks)]
        r = rate(rated)
        centre = r.fit.seat_elo[players]
        intervals = r.seat_elo_interval[players]
        alarms["elo"] += any(lo > 0 or hi < 0 for lo, hi in intervals[1:])
        alarms["elo_bonferroni"] += any(
            c - widen * (c - lo) > 0 or c + widen * (hi - c) < 0
            for c, (lo, hi) in zip(centre[1:], intervals[1:]))
        wins = (ranks == 1).sum(axis=0)
        alarms["win_rate"] += any(not lo <= 1 / players <= hi
                                  for lo, hi in (wilson_interval(int(w), games) for w in wins))
    return {"players": players, "games": games, "studies": studies, "seed": seed,
            **{k: v / studies for k, v in alarms.items()}}


@click.command()
@click.option("--players", default="2,3,4,6", show_default=True, help="Comma-separated player counts.")
@click.option("--games", default=400, show_default=True, help="Games per study.")
@click.option("--studies", default=2000, show_default=True, help="Simulated studies per player count.")
@click.option("--seed", default=1, show_default=True)
def main(players: str, games: int, studies: int, seed: int) -> None:
    """Print the false-alarm rates of simulated fair balance studies as JSON."""
    start = time.time()
    rows = [false_alarms(int(p), games, studies, seed) for p in players.split(",")]
    print(json.dumps({"benchmark": "balance_false_alarms", "python": platform.python_version(),
                      "results": rows, "seconds": round(time.time() - start, 1)}, indent=1))


if __name__ == "__main__":
    main()
