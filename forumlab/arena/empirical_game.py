"""The empirical game of a round robin of strategies: who finished ahead of whom, per rotation group.

The meta-game (:mod:`forumlab.arena.metagame`) is read from one table: for every ordered
pair of strategies ``(i, j)`` and every rotation group ``g``, ``wins[g, i, j]`` counts the
seat pairs of the group's games in which ``i`` finished ahead of ``j`` (a shared rank counts
1/2) and ``meetings[g, i, j]`` the seat pairs in which they met. Seats of one strategy are
not compared with each other.

Payoff. A game's utility to a seat is the share of its opponents it finished ahead of
(ties half): 1 for the sole winner, 0 for the sole last, the same rank-based utility the
arena's sequential test scores (docs/arena.md). Its expectation is the mean over the
opponents of the chance to finish ahead of each, so a strategy ``i`` whose ``p - 1``
opponents are drawn independently from a population mix ``x`` expects

    u(i, x) = sum_j x_j * H[i, j],     H[i, j] = P(i finishes ahead of j),  H[i, i] = 1/2,

whatever the player count. ``H`` is read directly off the games (the pooled ``wins /
meetings``), not from fitted strengths: a Plackett-Luce fit is transitive by construction
and could never show a cycle. What this leaves out, and says so: how ``i`` fares against
``j`` may depend on who else sits at the table (king-making); ``H`` averages over the
tables the round robin plays.

Groups are the unit of resampling (a group's games share one game seed and mirror each
other's seats), and groups are resampled within their lineup (the *stratum*), so that a
resample keeps the round robin's design; with a single group in some lineup, across all
lineups instead.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .plackett_luce import RatingsError, as_rated_game


@dataclass(frozen=True)
class EmpiricalGame:
    """Pairwise finishing counts of a round robin, per rotation group.

    ``strategies``: the labels, in a fixed order (indices of the arrays).
    ``strata``: per group, the index of its lineup (groups are resampled within it).
    ``wins``, ``meetings``: arrays of shape (groups, k, k), see the module docstring.
    """

    strategies: tuple[str, ...]
    strata: np.ndarray
    wins: np.ndarray
    meetings: np.ndarray

    @property
    def groups(self) -> int:
        """Rotation groups held."""
        return int(self.wins.shape[0])

    def head_to_head(self) -> np.ndarray:
        """The (k, k) matrix ``H`` of the module docstring: pooled share of meetings in which
        row finished ahead of column; 1/2 on the diagonal and for pairs that never met."""
        return head_to_head(self.wins.sum(axis=0), self.meetings.sum(axis=0))

    def resampled_counts(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Summed ``(wins, meetings)`` of one bootstrap resample: within each lineup, as many
        groups as it has, drawn with replacement. When some lineup has a single group, its
        resamples would all be the same group and the spread would be lost, so the groups are
        then drawn from all lineups together."""
        sizes = np.bincount(self.strata)
        strata = self.strata if sizes[sizes > 0].min() >= 2 else np.zeros_like(self.strata)
        picks = [rng.choice(np.flatnonzero(strata == s), size=int(np.sum(strata == s)))
                 for s in np.unique(strata)]
        index = np.concatenate(picks)
        return self.wins[index].sum(axis=0), self.meetings[index].sum(axis=0)


def head_to_head(wins: np.ndarray, meetings: np.ndarray) -> np.ndarray:
    """``wins / meetings`` elementwise, 1/2 where nothing met (and on the diagonal).

    Args:
        wins: (k, k) seat pairs in which row finished ahead of column (ties 1/2).
        meetings: (k, k) seat pairs in which row and column met.

    Returns:
        The (k, k) head-to-head matrix, ``H + H.T == 1``.
    """
    out = np.full(wins.shape, 0.5)
    met = meetings > 0
    out[met] = wins[met] / meetings[met]
    np.fill_diagonal(out, 0.5)
    return out


def from_arrays(strategies: Sequence[str], group_of_game: np.ndarray, stratum_of_group: np.ndarray,
                seats: np.ndarray, ranks: np.ndarray) -> EmpiricalGame:
    """Build the counts from games given as arrays (fast path for simulations).

    Args:
        strategies: the k labels.
        group_of_game: (games,) index of each game's rotation group, 0..groups-1.
        stratum_of_group: (groups,) lineup index of each group.
        seats: (games, p) strategy index in each seat.
        ranks: (games, p) competition ranks (1 = best; equal ranks are ties).

    Returns:
        The :class:`EmpiricalGame`.
    """
    k = len(strategies)
    groups = len(stratum_of_group)
    seats = np.asarray(seats, dtype=np.int64)
    ranks = np.asarray(ranks)
    group_of_game = np.asarray(group_of_game, dtype=np.int64)
    wins = np.zeros(groups * k * k)
    meetings = np.zeros(groups * k * k)
    p = seats.shape[1]
    for a in range(p):
        for b in range(p):
            keep = seats[:, a] != seats[:, b]
            cell = (group_of_game[keep] * k + seats[keep, a]) * k + seats[keep, b]
            credit = np.where(ranks[keep, a] < ranks[keep, b], 1.0,
                              np.where(ranks[keep, a] == ranks[keep, b], 0.5, 0.0))
            wins += np.bincount(cell, credit, minlength=groups * k * k)
            meetings += np.bincount(cell, minlength=groups * k * k)
    return EmpiricalGame(tuple(strategies), np.asarray(stratum_of_group, dtype=np.int64),
                         wins.reshape(groups, k, k), meetings.reshape(groups, k, k))


def empirical_game(games: Iterable, strategies: Sequence[str] | None = None) -> EmpiricalGame:
    """The empirical game of finished games (``RatedGame`` or anything with ``group``,
    ``agents``/``labels`` and ``ranks``; see :func:`forumlab.arena.ratings.rated_games`).

    Args:
        games: the round robin's games, every one with the same number of seats.
        strategies: the labels in the order wanted (default: sorted labels of the games).

    Returns:
        The :class:`EmpiricalGame`; a group's stratum is its lineup (the multiset of labels).

    Raises:
        RatingsError: no games, mixed player counts, or a label not in ``strategies``.
    """
    rated = [as_rated_game(g) for g in games]
    if not rated:
        raise RatingsError("no games to build the meta-game from")
    if len({g.players for g in rated}) > 1:
        raise RatingsError("the meta-game needs games of one player count")
    seen = {a for g in rated for a in g.agents}
    labels = tuple(strategies) if strategies is not None else tuple(sorted(seen))
    index = {a: i for i, a in enumerate(labels)}
    unknown = sorted(seen - set(index))
    if unknown:
        raise RatingsError(f"label {unknown[0]!r} of the games is not one of the strategies")
    group_ids: dict[str, int] = {}
    lineup_ids: dict[tuple[str, ...], int] = {}
    strata: list[int] = []
    for g in rated:
        if g.group not in group_ids:
            group_ids[g.group] = len(group_ids)
            strata.append(lineup_ids.setdefault(tuple(sorted(g.agents)), len(lineup_ids)))
    return from_arrays(labels, np.array([group_ids[g.group] for g in rated]), np.array(strata),
                       np.array([[index[a] for a in g.agents] for g in rated]),
                       np.array([g.ranks for g in rated]))
