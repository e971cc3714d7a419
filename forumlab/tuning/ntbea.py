"""The N-tuple bandit evolutionary algorithm (NTBEA) over a discrete grid.

Written from the published description: S. M. Lucas, J. Liu and D. Perez-Liebana, "The
N-Tuple Bandit Evolutionary Algorithm for Game Agent Optimisation", IEEE Congress on
Evolutionary Computation (CEC), 2018.

The search space is a grid: each dimension is a short list of values, and a point is one
index per dimension. A noisy objective (higher is better) is sampled once per
evaluation. The model is a set of N-tuple bandits: for each chosen subset of dimensions
(every single dimension, every pair when there are few dimensions, and all of them) a
table from the values on those dimensions to the count and sum of the evaluations that
had them. A point's estimate is the average over the subsets of the mean in its cell;
its upper confidence bound adds to each cell ``k * sqrt(log(total + 1) / (count + eps))``,
so cells never tried look promising. The evolution: evaluate the current point, add the
result to the model, draw a neighbourhood of mutants of it (each dimension mutated with
probability ``1/d``, at least one), and move to the mutant with the highest bound.
The recommendation is the evaluated point with the highest estimate without exploration.

Everything here is pure Python with an explicit ``random.Random``: the same seed and the
same objective values give the same run, which lets a tuner replay stored evaluations.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Point = tuple[int, ...]

# At most this many dimensions get every pair as a tuple too (pairs grow as d^2).
PAIR_LIMIT = 5


@dataclass(frozen=True)
class NtbeaSettings:
    """How NTBEA searches.

    Args:
        k: the exploration constant of the confidence bound (objective units).
        eps: added to a cell's count under the root, so an untried cell has a large but
            finite bound and ties break towards fewer trials.
        neighbours: mutants drawn per step.
        repeats: independent runs (each from its own random start) the evaluation budget
            is split into; they share one model for the recommendation.
        pairs: model every pair of dimensions too (None: when there are at most
            ``PAIR_LIMIT`` dimensions).
    """

    k: float = 0.6
    eps: float = 0.5
    neighbours: int = 50
    repeats: int = 1
    pairs: bool | None = None


@dataclass
class TupleModel:
    """The N-tuple bandit landscape model: counts and sums per tuple cell."""

    sizes: tuple[int, ...]
    pairs: bool
    tuples: list[tuple[int, ...]] = field(init=False)
    cells: list[dict[tuple[int, ...], list[float]]] = field(init=False)
    total: int = 0

    def __post_init__(self):
        d = len(self.sizes)
        chosen = [(i,) for i in range(d)]
        if self.pairs and d > 2:
            chosen += list(combinations(range(d), 2))
        if d > 1:
            chosen.append(tuple(range(d)))
        self.tuples = chosen
        self.cells = [{} for _ in chosen]

    def add(self, point: Point, value: float) -> None:
        """Count one evaluation of ``point`` with result ``value``."""
        self.total += 1
        for dims, table in zip(self.tuples, self.cells):
            cell = table.setdefault(tuple(point[i] for i in dims), [0, 0.0])
            cell[0] += 1
            cell[1] += value

    def estimate(self, point: Point) -> float:
        """The average over tuples of the mean in the point's cells (cells never tried
        are left out; a point with no tried cell at all gets -inf)."""
        means = []
        for dims, table in zip(self.tuples, self.cells):
            cell = table.get(tuple(point[i] for i in dims))
            if cell:
                means.append(cell[1] / cell[0])
        return sum(means) / len(means) if means else -math.inf

    def bound(self, point: Point, k: float, eps: float) -> float:
        """The upper confidence bound: each cell's mean (0 if untried) plus its
        exploration term, averaged over tuples."""
        log_total = math.log(self.total + 1)
        acc = 0.0
        for dims, table in zip(self.tuples, self.cells):
            count, total = table.get(tuple(point[i] for i in dims), (0, 0.0))
            mean = total / count if count else 0.0
            acc += mean + k * math.sqrt(log_total / (count + eps))
        return acc / len(self.tuples)


def mutate(point: Point, sizes: Sequence[int], rng: random.Random) -> Point:
    """A mutant of ``point``: each dimension with more than one value changes with
    probability ``1/d`` to another of its values, and at least one changes."""
    free = [i for i, n in enumerate(sizes) if n > 1]
    if not free:
        return point
    out = list(point)
    changed = False
    for i in free:
        if rng.random() < 1.0 / len(free):
            out[i] = _other(out[i], sizes[i], rng)
            changed = True
    if not changed:
        i = rng.choice(free)
        out[i] = _other(out[i], sizes[i], rng)
    return tuple(out)


def _other(value: int, size: int, rng: random.Random) -> int:
    pick = rng.randrange(size - 1)
    return pick + 1 if pick >= value else pick


@dataclass
class NtbeaResult:
    """A finished search: the recommendation, its estimate and the trail."""

    best: Point
    estimate: float
    model: TupleModel
    history: list[tuple[Point, float]]
    recommendations: list[Point]


def _one_run(sizes, settings, model, evaluate, budget, rng, start) -> Point:
    """One NTBEA run of ``budget`` evaluations, into ``model``; returns its recommendation."""
    mine = TupleModel(tuple(sizes), model.pairs)
    current = tuple(rng.randrange(n) for n in sizes)
    seen: list[Point] = []
    for step in range(budget):
        value = evaluate(start + step, current)
        mine.add(current, value)
        model.add(current, value)
        seen.append(current)
        neighbourhood = {mutate(current, sizes, rng) for _ in range(settings.neighbours)}
        # Sorted so that ties resolve the same way whatever the set's order.
        current = max(sorted(neighbourhood), key=lambda p: mine.bound(p, settings.k, settings.eps))
    return max(sorted(set(seen)), key=mine.estimate)


def ntbea(sizes: Sequence[int], evaluate: Callable[[int, Point], float], evaluations: int,
          seed: int, settings: NtbeaSettings | None = None) -> NtbeaResult:
    """Search a grid with NTBEA.

    Args:
        sizes: the number of values of each dimension (each at least 1).
        evaluate: ``evaluate(index, point) -> value`` (higher is better), noisy; ``index``
            counts evaluations from 0 across repeats (a tuner seeds each one's games by it).
        evaluations: the budget of evaluations, split evenly over the repeats.
        seed: seeds every random choice of the search.
        settings: the search settings (defaults: :class:`NtbeaSettings`).

    Returns:
        The recommended point (the evaluated point with the best estimate under the model
        of all evaluations), its estimate, the model, every evaluation and each repeat's
        recommendation.

    Raises:
        ValueError: an empty grid, a dimension without values, or fewer evaluations than
            repeats.
    """
    settings = settings or NtbeaSettings()
    if not sizes or min(sizes) < 1:
        raise ValueError("every dimension needs at least one value")
    if evaluations < max(1, settings.repeats):
        raise ValueError(f"{evaluations} evaluations cannot be split over {settings.repeats} repeats")
    pairs = settings.pairs if settings.pairs is not None else len(sizes) <= PAIR_LIMIT
    model = TupleModel(tuple(sizes), pairs)
    history: list[tuple[Point, float]] = []

    def recorded(index: int, point: Point) -> float:
        value = float(evaluate(index, point))
        history.append((point, value))
        return value

    rng = random.Random(seed)
    recommendations, start = [], 0
    for r in range(settings.repeats):
        budget = evaluations // settings.repeats + (r < evaluations % settings.repeats)
        recommendations.append(_one_run(sizes, settings, model, recorded, budget, rng, start))
        start += budget
    # Every point evaluated is a candidate under the model of all repeats' data: a repeat's
    # own recommendation rests on its share of the budget only.
    best = max(sorted({point for point, _ in history}), key=model.estimate)
    return NtbeaResult(best, model.estimate(best), model, history, recommendations)
