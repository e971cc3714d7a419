"""NTBEA on a synthetic noisy objective with a known optimum: how often it is found.

The objective: three parameters, each on a grid of six values (0..5, 216 points); one
evaluation is a Bernoulli trial (a win or a loss) whose probability is a quadratic bowl,
0.8 at the optimum (1, 4, 2), 0.1 lower one step away on one parameter and falling by
``0.1 * distance**2`` to a floor of 0.05. Each run of NTBEA
gets the same budget of evaluations and its own seed; the table counts the runs whose
recommendation is the optimum, or within one step of it on every parameter.

    python3 benchmarks/tune_synthetic.py [--runs 20] [--evaluations 500]
"""
from __future__ import annotations

import argparse
import random

from forumlab.tuning.ntbea import NtbeaSettings, ntbea

OPTIMUM = (1, 4, 2)
SIZES = (6, 6, 6)


def win_probability(point) -> float:
    """The quadratic bowl: 0.8 at the optimum, down 0.1 per unit of squared distance, at least 0.05."""
    distance = sum((p - o) ** 2 for p, o in zip(point, OPTIMUM))
    return max(0.05, 0.8 - 0.1 * distance)


def noisy_run(seed: int, evaluations: int, settings: NtbeaSettings | None = None):
    """One NTBEA run against Bernoulli noise drawn from its own seeded generator."""
    noise = random.Random(1_000_003 * seed + 17)

    def evaluate(index, point):
        return 1.0 if noise.random() < win_probability(point) else 0.0

    return ntbea(SIZES, evaluate, evaluations, seed, settings)


def main() -> None:
    """Run NTBEA on seeds 0..runs-1 and print how often it found the optimum."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--evaluations", type=int, default=500)
    args = parser.parse_args()
    exact = near = 0
    for seed in range(args.runs):
        best = noisy_run(seed, args.evaluations).best
        exact += best == OPTIMUM
        near += max(abs(b - o) for b, o in zip(best, OPTIMUM)) <= 1
        print(f"seed {seed:3d}: recommended {best}")
    print(f"optimum {OPTIMUM} found exactly in {exact}/{args.runs} runs, within one step in "
          f"{near}/{args.runs} ({args.evaluations} evaluations each)")


if __name__ == "__main__":
    main()
