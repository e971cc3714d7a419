"""Coverage of the ratings' 95% intervals, by simulation from known true strengths.

For each player count and number of rotation groups per lineup, many round-robin
tournaments are drawn from the model the ratings assume (Plackett–Luce with a seat effect),
each is rated with :func:`forumlab.arena.ratings.rate`, and we count how often the 95%
interval of each agent's Elo difference to the anchor contains the true difference.

True-rating design (printed with the results): in every tournament each agent's true Elo is
drawn independently and uniformly from [0, spread] (default 400, so true gaps run from 0 to
400 Elo), and is then fixed while that tournament's games are played; the seat advantages are
fixed (``SEAT_ELO``).  Every lineup of the round robin plays each rotation group in all
cyclic seat rotations (n games per group, the fewest of any design that puts every agent in
every seat equally often); the generating model has no neighbour effect, so a design that also
balances neighbours differs only in having more games per group.  Games are drawn directly
(Gumbel-max sampling of the Plackett–Luce order), without the engines.

    python -m benchmarks.coverage                    # JSON, about 1000 tournaments per cell
    python -m benchmarks.coverage --markdown         # the README's table
"""
from __future__ import annotations

import itertools
import json
import math
import platform
import time

import click
import numpy as np

from forumlab.arena.plackett_luce import ELO_PER_NAT, RatedGame
from forumlab.arena.ratings import rate

SEAT_ELO = {2: [0, -50], 3: [0, -30, -60], 4: [0, -20, -40, -60]}


def simulate_tournament(rng: np.random.Generator, agents: int, players: int, groups: int,
                        spread: float) -> tuple[np.ndarray, list[RatedGame]]:
    """True Elo of each agent and the games of one round robin drawn from the model."""
    true = rng.uniform(0.0, spread, size=agents)
    seat = np.array(SEAT_ELO[players], dtype=float)
    games = []
    for li, lineup in enumerate(itertools.combinations(range(agents), players)):
        seatings = np.array([lineup[r:] + lineup[:r] for r in range(players)])  # (n, n)
        eta = (true[seatings] + seat[None, :]) / ELO_PER_NAT  # (rotation, seat)
        noise = rng.gumbel(size=(groups, players, players))
        order = np.argsort(-(eta[None] + noise), axis=2)
        ranks = np.empty_like(order)
        np.put_along_axis(ranks, order, np.arange(1, players + 1)[None, None, :], axis=2)
        for g in range(groups):
            for r in range(players):
                games.append(RatedGame(f"L{li}-G{g}", tuple(f"a{k}" for k in seatings[r]),
                                       tuple(int(x) for x in ranks[g, r]), (0.0,) * players))
    return true, games


def measure_cell(players: int, groups: int, tournaments: int, agents: int, spread: float,
                 prior_sd: float, seed: int) -> dict:
    """Coverage of agent and seat intervals over ``tournaments`` simulated tournaments."""
    rng = np.random.default_rng([seed, players, groups])
    hits = checks = seat_hits = seat_checks = 0
    sep_tournaments = sep_hits = sep_checks = 0
    half_width = 0.0
    games_per_tournament = 0
    per_tournament = []  # coverage within each tournament: its intervals are not independent
    for _ in range(tournaments):
        true, games = simulate_tournament(rng, agents, players, groups, spread)
        games_per_tournament = len(games)
        r = rate(games, anchor="a0", prior_sd=prior_sd)
        sep_tournaments += not r.separation.connected
        hits_before = hits
        for k in range(1, agents):
            a = f"a{k}"
            lo, hi = r.elo_interval[a]
            hit = lo <= true[k] - true[0] <= hi
            hits += hit
            checks += 1
            half_width += (hi - lo) / 2
            # An agent's difference to the anchor rests on the prior when either is separated.
            if a in r.separation.position or "a0" in r.separation.position:
                sep_hits += hit
                sep_checks += 1
        per_tournament.append((hits - hits_before) / (agents - 1))
        for s in range(1, players):
            lo, hi = r.seat_elo_interval[players][s]
            seat_hits += lo <= SEAT_ELO[players][s] <= hi
            seat_checks += 1
    return {
        "players": players,
        "groups_per_lineup": groups,
        "games_per_tournament": games_per_tournament,
        "tournaments": tournaments,
        "agent_intervals": checks,
        "coverage": hits / checks,
        # Standard error over tournaments (the intervals of one tournament share its games).
        "coverage_se": (float(np.std(per_tournament, ddof=1) / math.sqrt(tournaments))
                        if tournaments > 1 else None),
        "mean_half_width_elo": half_width / checks,
        "seat_coverage": seat_hits / seat_checks,
        "separated_tournaments": sep_tournaments / tournaments,
        "coverage_with_separation": sep_hits / sep_checks if sep_checks else None,
        "intervals_with_separation": sep_checks,
    }


def markdown(report: dict) -> str:
    """The coverage table (players x groups per lineup), as in the README."""
    groups = report["groups_per_lineup"]
    lines = ["| players \\ groups per lineup | " + " | ".join(str(g) for g in groups) + " |",
             "|---|" + "---:|" * len(groups)]
    for n in report["players"]:
        cells = []
        for g in groups:
            c = next(c for c in report["cells"] if c["players"] == n and c["groups_per_lineup"] == g)
            cells.append(f"{100 * c['coverage']:.1f}% ({c['games_per_tournament']} games)")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _int_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {text!r}") from None
    if any(v < 1 for v in values):
        raise click.BadParameter("every value must be >= 1")
    return values


@click.command()
@click.option("--tournaments", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Simulated tournaments per cell.")
@click.option("--players", default="2,3,4", show_default=True, help="Player counts (2-4).")
@click.option("--groups", default="2,4,8,16,64", show_default=True, help="Rotation groups per lineup.")
@click.option("--agents", type=click.IntRange(min=2), default=4, show_default=True,
              help="Agents per tournament.")
@click.option("--spread", type=click.FloatRange(min=0), default=400.0, show_default=True,
              help="True Elo drawn uniformly from [0, spread].")
@click.option("--prior-sd", type=click.FloatRange(min=0, min_open=True), default=2.0, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--markdown", "as_markdown", is_flag=True, help="Print the README table instead of JSON.")
def main(tournaments, players, groups, agents, spread, prior_sd, seed, as_markdown):
    """Coverage of the 95% rating intervals in simulated tournaments."""
    player_counts, group_counts = _int_list(players), _int_list(groups)
    if any(n not in SEAT_ELO or n > agents for n in player_counts):
        raise click.BadParameter(f"player counts must be 2-4 and at most --agents ({agents})")
    started = time.perf_counter()
    cells = [measure_cell(n, g, tournaments, agents, spread, prior_sd, seed)
             for n in player_counts for g in group_counts]
    report = {
        "benchmark": "coverage",
        "interval": "95% Laplace approximation of the posterior (forumlab.arena.ratings.rate)",
        "design": {
            "agents": agents,
            "true_elo": (f"each agent uniform on [0, {spread:g}] per tournament "
                         f"(gaps 0-{spread:g}), anchor a0"),
            "seat_elo": SEAT_ELO,
            "seating": "round robin over every lineup; each rotation group in all n cyclic rotations",
            "prior_sd": prior_sd,
            "seed": seed,
        },
        "players": player_counts,
        "groups_per_lineup": group_counts,
        "cells": cells,
        "seconds": round(time.perf_counter() - started, 1),
        "machine": platform.machine(),
        "python": platform.python_version(),
    }
    print(markdown(report) if as_markdown else json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
