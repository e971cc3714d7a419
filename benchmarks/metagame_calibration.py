"""Calibration of the meta-game verdict of ``forumlab strategies``, by simulated round robins.

Each simulated study is a balanced round robin of ``k`` strategies in a ``p``-player game
(the arena's own plan, ``groups`` rotation groups per lineup) whose finishing orders come
from a planted model (``tests/planted``): nothing planted (every strategy equal), a dominant
strategy (strategy 0 ahead of the rest by ``elo``, optionally with a first-seat advantage as
well), or a cycle (0 > 1 > 2 > 0 by ``elo`` per meeting). Each study is analysed as the
command analyses it (:func:`forumlab.arena.metagame.analyse`, without the bootstrap, which
the "dominates" and "cycles" verdicts do not use) and the verdict's kind is counted:

- with nothing planted, "dominates" and "cycles" are false alarms;
- with a planted dominant strategy, the power is the share of studies whose verdict is
  "S0 dominates";
- with a planted cycle, the share whose verdict is "cycles".

    python -m benchmarks.metagame_calibration                  # the table of docs/strategies.md
    python -m benchmarks.metagame_calibration --studies 500 --markdown
"""
from __future__ import annotations

import json
import platform
import time
from collections import Counter

import click
import numpy as np

from forumlab.arena.metagame import COEXIST, CYCLES, DOMINATES, LEADS, analyse
from tests.planted import cycle, dominant, nothing_planted, simulate_study

# (label, planted model, strategies, players, groups per lineup, elo, seat elo)
SETTINGS = (
    ("nothing", 2, 2, 2, 0, 0),
    ("nothing", 2, 2, 50, 0, 0),
    ("nothing", 3, 2, 20, 0, 0),
    ("nothing", 3, 3, 2, 0, 0),
    ("nothing", 3, 3, 20, 0, 0),
    ("nothing", 4, 3, 2, 0, 0),
    ("nothing", 4, 3, 20, 0, 0),
    ("nothing", 4, 4, 20, 0, 0),
    ("nothing", 5, 4, 5, 0, 0),
    ("dominant", 3, 3, 20, 50, 0),
    ("dominant", 4, 3, 20, 50, 0),
    ("dominant", 4, 3, 20, 100, 0),
    ("dominant", 4, 4, 20, 50, 0),
    ("dominant", 4, 4, 20, 50, 100),
    ("dominant", 4, 4, 40, 50, 0),
    ("dominant", 5, 4, 5, 100, 0),
    ("cycle", 3, 2, 20, 100, 0),
    ("cycle", 4, 3, 20, 100, 0),
    ("cycle", 4, 3, 40, 100, 0),
)


def planted_model(kind: str, strategies: int, players: int, elo: float, seat_elo: float):
    """The :class:`tests.planted.Truth` of one setting."""
    if kind == "nothing":
        return nothing_planted(strategies, players)
    if kind == "dominant":
        return dominant(strategies, players, elo, seat_elo)
    return cycle(strategies, players, elo)


def calibrate(kind: str, strategies: int, players: int, groups: int, elo: float, seat_elo: float,
              studies: int, seed: int) -> dict:
    """Verdict counts over ``studies`` simulated studies of one setting (see the module docstring)."""
    truth = planted_model(kind, strategies, players, elo, seat_elo)
    rng = np.random.default_rng(seed)
    kinds: Counter = Counter()
    named_right = 0
    for _ in range(studies):
        result = analyse(simulate_study(truth, groups, rng), bootstrap=0)
        kinds[result.verdict.kind] += 1
        named_right += result.verdict.kind == DOMINATES and result.verdict.strategies == ("S0",)
    games = groups * len(_plan_games(strategies, players))
    row = {"planted": kind, "strategies": strategies, "players": players, "groups_per_lineup": groups,
           "games": games, "elo": elo, "seat_elo": seat_elo, "studies": studies, "seed": seed,
           "verdicts": {k: v / studies for k, v in sorted(kinds.items())},
           "false_alarm": (kinds[DOMINATES] + kinds[CYCLES]) / studies if kind == "nothing" else None}
    if kind == "dominant":
        row["power"] = named_right / studies
    elif kind == "cycle":
        row["power"] = kinds[CYCLES] / studies
    return row


def _plan_games(strategies: int, players: int):
    from tests.planted import round_robin_plan

    return round_robin_plan(strategies, players)[0]


def markdown(rows: list[dict]) -> str:
    """The rows as the table of docs/strategies.md."""
    lines = ["| planted | strategies | players | groups per lineup | games per study | \"X dominates\" "
             "| \"cycles\" | neither |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        what = r["planted"] if r["planted"] == "nothing" else f"{r['planted']} {r['elo']:+g} Elo"
        if r["seat_elo"]:
            what += f", seat 0 {r['seat_elo']:+g} Elo"
        v = r["verdicts"]
        neither = v.get(COEXIST, 0.0) + v.get(LEADS, 0.0)
        cells = [f"{100 * x:.1f}%" for x in (v.get(DOMINATES, 0.0), v.get(CYCLES, 0.0), neither)]
        lines.append(f"| {what} | {r['strategies']} | {r['players']} | {r['groups_per_lineup']} "
                     f"| {r['games']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


@click.command()
@click.option("--studies", default=2000, show_default=True, help="Simulated studies per setting.")
@click.option("--seed", default=1, show_default=True)
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the docs table instead of JSON.")
def main(studies: int, seed: int, as_markdown: bool) -> None:
    """Print the verdict rates of simulated round robins (JSON, or a markdown table)."""
    start = time.time()
    rows = [calibrate(*setting, studies=studies, seed=seed) for setting in SETTINGS]
    if as_markdown:
        print(markdown(rows))
        return
    print(json.dumps({"benchmark": "metagame_calibration", "python": platform.python_version(),
                      "results": rows, "seconds": round(time.time() - start, 1)}, indent=1))


if __name__ == "__main__":
    main()
