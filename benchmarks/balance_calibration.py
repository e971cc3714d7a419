"""Calibration of the balance lab: false alarms with nothing planted, power with a planted
first-player advantage or a planted change between variants.

Each simulated study is what ``forumlab balance GAME --variant ...`` analyses: ``games``
games of every variant on the same seeds, drawn from the synthetic game of
``tests/toy_planted`` (exact Plackett-Luce finishing orders with planted seat strengths,
integer scores with shared ranks, variants paired by seed with probability ``pairing``)
and analysed by :func:`forumlab.arena.balance_analysis.analyse_study`, the command's own
code. Per study:

- ``alarm``: anything flagged: a seat of a variant or of a difference whose interval
  excludes 0, or a joint test rejected (the lab's corrected family);
- ``alarm_uncorrected``: the same read from plain 95% intervals and 5% tests;
- ``fpa_found``: the first variant's first-player advantage flagged, and positive;
- ``fpa_diff_found``: the last difference's first-player advantage flagged, and positive;
- ``fpa_covered``: the first variant's first-player interval holds the planted value.

    python -m benchmarks.balance_calibration                  # every cell of docs/balance.md
    python -m benchmarks.balance_calibration --cells null-4x2 --studies 200

Prints one JSON object; each rate has its 95% Wilson interval.
"""
from __future__ import annotations

import json
import platform
import sys
import time
from statistics import NormalDist

import click
import numpy as np

from forumlab.arena.balance_analysis import analyse_study
from forumlab.arena.balance_stats import wilson_interval
from tests.toy_planted import PlantedVariant, draw_study, planted_fpa  # run from the checkout's root

Z95 = NormalDist().inv_cdf(0.975)

# name: (players, variants, games, pairing, planted FPA of every variant, planted FPA change of the last).
# With nothing planted the seats are ranked by their integer scores (shared ranks: the harder case
# for the fit); with a planted advantage by their exact values, so that finishing orders are exact
# Plackett-Luce draws and the planted size is exactly what the lab estimates.
CELLS = {
    "null-2x2": (2, 2, 400, 0.5, 0.0, 0.0),
    "null-3x2": (3, 2, 400, 0.5, 0.0, 0.0),
    "null-4x1": (4, 1, 400, 0.5, 0.0, 0.0),
    "null-4x2": (4, 2, 400, 0.5, 0.0, 0.0),
    "null-4x2-unpaired": (4, 2, 400, 0.0, 0.0, 0.0),
    "null-4x2-paired90": (4, 2, 400, 0.9, 0.0, 0.0),
    "null-4x2-100games": (4, 2, 100, 0.5, 0.0, 0.0),
    "null-4x3": (4, 3, 400, 0.5, 0.0, 0.0),
    "null-6x2": (6, 2, 400, 0.5, 0.0, 0.0),
    "fpa30-4x2": (4, 2, 400, 0.5, 30.0, 0.0),
    "fpa50-4x2": (4, 2, 400, 0.5, 50.0, 0.0),
    "fpa80-4x2": (4, 2, 400, 0.5, 80.0, 0.0),
    "change50-4x2": (4, 2, 400, 0.5, 0.0, 50.0),
    "change100-4x2": (4, 2, 400, 0.5, 0.0, 100.0),
}


def _uncorrected(item: dict, z: float) -> bool:
    """Whether a plain 95% interval (the family's interval narrowed to 1.96) excludes 0."""
    iv = item["interval"]
    if iv is None:
        return False
    half = (iv[1] - iv[0]) / 2 * Z95 / z
    return abs(item["elo"]) > half


def judge(report: dict, planted: float) -> dict[str, bool]:
    """What one analysed study flagged (see the module docstring)."""
    columns = [*report["variants"], *report["differences"]]
    z = report["family"]["z"]
    seats = [s for c in columns for s in c["seats"]]
    tests = [c["no_seat_matters"] for c in columns]
    fpa = report["variants"][0]["first_player_advantage"]
    last = report["differences"][-1]["first_player_advantage"] if report["differences"] else None
    iv = fpa["interval"]
    return {
        "alarm": any(s["flagged"] for s in seats) or any(t["rejected"] for t in tests),
        "alarm_uncorrected": any(_uncorrected(s, z) for s in seats) or any(t["p"] < 0.05 for t in tests),
        "fpa_found": fpa["flagged"] and fpa["elo"] > 0,
        "fpa_diff_found": bool(last and last["flagged"] and last["elo"] > 0),
        "fpa_covered": iv is not None and iv[0] <= planted <= iv[1],
    }


def run_cell(name: str, studies: int, seed: int) -> dict:
    """Simulate ``studies`` studies of one cell and count what they flagged."""
    players, n_variants, games, pairing, fpa, change = CELLS[name]
    variants = [PlantedVariant(f"v{i}", planted_fpa(fpa, players)) for i in range(n_variants)]
    if change:
        variants[-1] = PlantedVariant(variants[-1].name, planted_fpa(fpa + change, players))
    rng = np.random.default_rng([seed, list(CELLS).index(name)])
    counts: dict[str, int] = {}
    for _ in range(studies):
        report = analyse_study(draw_study(rng, variants, games, pairing=pairing, ties=not (fpa or change)))
        for key, hit in judge(report, fpa).items():
            counts[key] = counts.get(key, 0) + int(hit)
    rates = {k: {"count": v, "rate": v / studies, "rate_95": list(wilson_interval(v, studies))}
             for k, v in counts.items()}
    return {"cell": name, "players": players, "variants": n_variants, "games": games, "pairing": pairing,
            "planted_fpa_elo": fpa, "planted_change_elo": change, "studies": studies,
            "comparisons": report["family"]["comparisons"], **rates}


@click.command()
@click.option("--cells", default=",".join(CELLS), show_default=True, help="Comma-separated cell names.")
@click.option("--studies", default=1000, show_default=True, help="Simulated studies per cell.")
@click.option("--seed", default=1, show_default=True)
def main(cells: str, studies: int, seed: int) -> None:
    """Print the false-alarm rates and the power of simulated balance studies as JSON."""
    start = time.time()
    rows = []
    for name in cells.split(","):
        if name not in CELLS:
            raise click.BadParameter(f"unknown cell {name!r} (cells: {', '.join(CELLS)})")
        rows.append(run_cell(name, studies, seed))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(json.dumps({"benchmark": "balance_calibration", "python": platform.python_version(),
                      "results": rows, "seconds": round(time.time() - start, 1)}, indent=1))


if __name__ == "__main__":
    main()
