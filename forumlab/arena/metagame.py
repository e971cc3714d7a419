"""The meta-game of a round robin of strategies: equilibrium, uncertainty, verdict.

From the empirical game (:mod:`forumlab.arena.empirical_game`: ``H[i, j]``, the share of
meetings in which ``i`` finished ahead of ``j``, a strategy's expected utility against a
population mix being linear in ``H``) this module computes

- the pairwise **likelihood of superiority** ``LOS[i, j]``: the probability that ``i``
  finishes ahead of ``j`` more often than not, ``Phi((H' - 1/2) / sd)``. The rotation groups
  are the independent units (a ratio estimator with groups as clusters and the usual
  ``G / (G - 1)`` small-sample factor), and two pseudo-groups of the mean size are added as
  the sequential test does (docs/arena.md), each with even chances and the spread of a group
  of independent meetings (``H'`` is ``H`` shrunk by them towards 1/2): a few unanimous
  groups are then not read as certainty. The gap to an even share loses half a meeting (a
  continuity correction: wins come in steps of one meeting). Without the pseudo-groups, 4
  two-player games all won by one of two equal strategies (1 study in 8) read as a
  likelihood of superiority of 0.996;
- a **symmetric Nash equilibrium** (:mod:`forumlab.arena.nash`) and the single-population
  **alpha-rank** (:mod:`forumlab.arena.alpharank`) of the game with payoff ``H``;
- their **bootstrap** uncertainty: rotation groups resampled within their lineups,
  ``H`` recomputed and both solved again; each strategy's mass gets the 2.5% and 97.5%
  percentiles of its resampled masses;
- a **verdict** in words (:func:`verdict`).

The calibration of the verdict (false alarms with nothing planted, power with a planted
dominant strategy or cycle) is measured by ``benchmarks/metagame_calibration.py`` and
reported in docs/strategies.md.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from .alpharank import alpharank
from .empirical_game import EmpiricalGame, head_to_head
from .nash import symmetric_nash

LOS_THRESHOLD = 0.95  # "beats": finishes ahead more often than not with this likelihood
# A strategy may take part in the equilibrium when the upper end of its 95% mass interval
# reaches this share (the point estimate's mass when there is no bootstrap).
SUPPORT_MASS = 0.05
BOOTSTRAP = 500
DOMINATES, CYCLES, COEXIST, LEADS = "dominates", "cycles", "coexist", "leads"


@dataclass(frozen=True)
class Verdict:
    """What the meta-game says: ``kind`` (one of DOMINATES, CYCLES, COEXIST, LEADS), the
    strategies it names (the dominant one; the cycle in order; those that may coexist; the
    leader) and a sentence."""

    kind: str
    strategies: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class MetaGame:
    """The analysis of one empirical game (see the module docstring). Masses and intervals
    are per strategy, in ``strategies`` order; ``*_interval`` are (k, 2) arrays (NaN when
    there was no bootstrap)."""

    strategies: tuple[str, ...]
    groups: int
    head_to_head: np.ndarray
    superiority: np.ndarray
    nash: np.ndarray
    nash_interval: np.ndarray
    alpharank: np.ndarray
    alpharank_interval: np.ndarray
    bootstrap: int
    verdict: Verdict


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def pairwise_superiority(game: EmpiricalGame) -> np.ndarray:
    """The (k, k) likelihood-of-superiority matrix ``LOS[i, j]`` of the module docstring.

    Args:
        game: the empirical game.

    Returns:
        ``LOS`` with ``LOS + LOS.T == 1`` off the diagonal, 1/2 on it and for pairs that
        never met.
    """
    wins, meetings = game.wins, game.meetings
    k = len(game.strategies)
    los = np.full((k, k), 0.5)
    for i in range(k):
        for j in range(k):
            met = meetings[:, i, j] > 0
            if i != j and met.any():
                los[i, j] = _superiority_of_pair(wins[met, i, j], meetings[met, i, j])
    return los


def _superiority_of_pair(wins: np.ndarray, meetings: np.ndarray) -> float:
    """LOS of one pair from its per-group counts (the groups in which the pair met), with
    two pseudo-groups of the mean size added, each half won and with the spread of
    independent even meetings (see the module docstring)."""
    size = float(meetings.mean())
    total = float(meetings.sum()) + 2.0 * size
    share = (float(wins.sum()) + size) / total
    resid = wins - share * meetings
    # each pseudo-group adds the variance of a group of independent even meetings
    spread = float(resid @ resid) + 2.0 * 0.25 * size
    clusters = len(meetings) + 2
    var = spread / total**2 * clusters / (clusters - 1)
    # continuity correction: wins move in steps of one meeting, so half a step comes off the gap
    # (the normal tail of a two-player study of 100 even games was 5.9%, not 5%, without it)
    gap = share * total - 0.5 * total
    gap = math.copysign(max(abs(gap) - 0.5, 0.0), gap)
    return _normal_cdf(gap / total / math.sqrt(var))


def find_cycle(beats: np.ndarray) -> list[int] | None:
    """A shortest directed cycle of the relation ``beats`` (a (k, k) boolean matrix).

    Args:
        beats: ``beats[i, j]`` when ``i`` beats ``j``.

    Returns:
        The cycle as indices ``[a, b, ..., z]`` (a beats b, ..., z beats a), starting at its
        smallest index; None if the relation has no cycle.
    """
    k = beats.shape[0]
    best: list[int] | None = None
    for start in range(k):
        parent = {start: None}
        queue = deque([start])
        while queue:  # breadth first: the first path back to start is a shortest cycle through it
            node = queue.popleft()
            if beats[node, start] and (node != start):
                path = [node]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                cycle = path[::-1]
                if best is None or len(cycle) < len(best):
                    best = cycle
                break
            for nxt in np.flatnonzero(beats[node]):
                if int(nxt) not in parent:
                    parent[int(nxt)] = node
                    queue.append(int(nxt))
    if best is None:
        return None
    first = best.index(min(best))
    return best[first:] + best[:first]


def dominance_threshold(strategies: int, threshold: float = LOS_THRESHOLD) -> float:
    """The likelihood of superiority "X dominates" asks of each of X's comparisons.

    With two strategies the one comparison is read both ways (either may dominate), so it
    is a two-sided test and asks for ``1 - (1 - threshold) / 2`` (0.975); with three or more,
    X must win every one of its comparisons, which holds the chance of a false "dominates"
    below ``1 - threshold`` as it is (docs/strategies.md has the measured rates).

    Args:
        strategies: how many strategies the meta-game has.
        threshold: the likelihood of superiority that counts as "beats".

    Returns:
        The threshold for each comparison of a dominant strategy.
    """
    return 1.0 - (1.0 - threshold) / 2.0 if strategies == 2 else threshold


def verdict(strategies: tuple[str, ...], superiority: np.ndarray, in_support: np.ndarray,
            leader: int, threshold: float = LOS_THRESHOLD) -> Verdict:
    """The meta-game in words.

    In this order: "X dominates" when X beats every other strategy (``LOS >= threshold``, or
    the stricter :func:`dominance_threshold` with two strategies);
    "the meta-game cycles" when the relation "beats" has a cycle (A beats B beats C beats
    A); "several coexist" when at least two strategies may take part in the equilibrium
    (``in_support``); otherwise the equilibrium's ``leader`` leads without being shown to
    beat every other strategy.

    Args:
        strategies: the labels.
        superiority: (k, k) likelihood of superiority.
        in_support: (k,) booleans: may the strategy have mass in the equilibrium.
        leader: index of the strategy with the most equilibrium mass.
        threshold: the likelihood of superiority that counts as "beats".

    Returns:
        The :class:`Verdict`.
    """
    k = len(strategies)
    beats = superiority >= threshold
    np.fill_diagonal(beats, False)
    strict = dominance_threshold(k, threshold)
    for i in range(k):
        if k > 1 and all(superiority[i, j] >= strict for j in range(k) if j != i):
            return Verdict(DOMINATES, (strategies[i],),
                           f"{strategies[i]} dominates: it finishes ahead of every other strategy "
                           f"more often than not, each with likelihood of superiority >= {strict:g}")
    cycle = find_cycle(beats)
    if cycle is not None:
        names = [strategies[c] for c in cycle]
        chain = ", ".join(f"{a} beats {b}" for a, b in zip(names, names[1:] + names[:1]))
        return Verdict(CYCLES, tuple(names),
                       f"the meta-game cycles: {chain} "
                       f"(each with likelihood of superiority >= {threshold:g})")
    members = tuple(strategies[i] for i in range(k) if in_support[i])
    if len(members) >= 2:
        return Verdict(COEXIST, members,
                       f"several coexist: {', '.join(members)} may all take part in the equilibrium; "
                       "no strategy beats every other and no cycle is significant")
    return Verdict(LEADS, (strategies[leader],),
                   f"{strategies[leader]} leads the equilibrium but is not shown to beat "
                   "every other strategy")


def analyse(game: EmpiricalGame, bootstrap: int = BOOTSTRAP, seed: int = 0) -> MetaGame:
    """Equilibria, their bootstrap intervals, the likelihood of superiority and the verdict.

    Args:
        game: the empirical game (at least two strategies).
        bootstrap: resamples of the rotation groups (0: no intervals; the support of the
            verdict is then read from the point estimate).
        seed: seed of the resampling.

    Returns:
        The :class:`MetaGame`.

    Raises:
        ValueError: fewer than two strategies, or a negative ``bootstrap``.
    """
    k = len(game.strategies)
    if k < 2:
        raise ValueError("a meta-game needs at least two strategies")
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be >= 0, not {bootstrap}")
    h = game.head_to_head()
    nash, rank = symmetric_nash(h), alpharank(h)
    nash_iv = np.full((k, 2), np.nan)
    rank_iv = np.full((k, 2), np.nan)
    if bootstrap:
        rng = np.random.default_rng(seed)
        samples = np.empty((bootstrap, 2, k))
        for b in range(bootstrap):
            hb = head_to_head(*game.resampled_counts(rng))
            samples[b, 0], samples[b, 1] = symmetric_nash(hb), alpharank(hb)
        nash_iv = np.percentile(samples[:, 0], [2.5, 97.5], axis=0).T
        rank_iv = np.percentile(samples[:, 1], [2.5, 97.5], axis=0).T
        in_support = nash_iv[:, 1] >= SUPPORT_MASS
    else:
        in_support = nash >= SUPPORT_MASS
    los = pairwise_superiority(game)
    found = verdict(game.strategies, los, in_support, int(np.argmax(nash)))
    return MetaGame(game.strategies, game.groups, h, los, nash, nash_iv, rank, rank_iv, bootstrap, found)
