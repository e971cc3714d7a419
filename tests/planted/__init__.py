"""Simulated round robins of strategies with planted properties, for calibrating the meta-game.

A study is what ``forumlab strategies`` plays: every lineup of the round robin (the
tournament plan of :func:`forumlab.arena.schedule.plan`, balanced seating), ``groups``
rotation groups each. Instead of an engine, each game's finishing order is drawn from a
model with known truth: the seat holding strategy ``i`` scores

    strength[i] + seat_advantage[seat] + sum over the other seats o of edge[i, strategy(o)]
    + standard Gumbel noise

and seats finish in the order of their scores (no ties). With ``edge`` zero this is exactly
a Plackett-Luce model with strengths ``strength`` (natural-log units, 1 = 173.7 Elo) and seat
effects; an antisymmetric ``edge`` plants an intransitive relation (rock-paper-scissors when
``edge[A, B] = edge[B, C] = edge[C, A] = e``). The games of a rotation group share a game
seed in the real arena; here they share nothing, which is what a game whose outcome hangs
on its seed as little as on its players looks like.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from forumlab.arena.empirical_game import EmpiricalGame, from_arrays

ELO_PER_NAT = 400.0 / np.log(10.0)


@dataclass(frozen=True)
class Truth:
    """The planted model: ``strength`` (k,), ``edge`` (k, k) antisymmetric, ``seat_advantage`` (p,),
    all in natural-log units."""

    strength: np.ndarray
    edge: np.ndarray
    seat_advantage: np.ndarray

    @property
    def strategies(self) -> int:
        return len(self.strength)

    @property
    def players(self) -> int:
        return len(self.seat_advantage)


def nothing_planted(strategies: int, players: int) -> Truth:
    """Every strategy equal, every seat equal."""
    return Truth(np.zeros(strategies), np.zeros((strategies, strategies)), np.zeros(players))


def dominant(strategies: int, players: int, elo: float, seat_elo: float = 0.0) -> Truth:
    """Strategy 0 stronger than the rest (all equal) by ``elo``; seat 0 ahead of the others by
    ``seat_elo`` (a first-player advantage the balanced seating must keep out of the verdict)."""
    strength = np.zeros(strategies)
    strength[0] = elo / ELO_PER_NAT
    seats = np.zeros(players)
    seats[0] = seat_elo / ELO_PER_NAT
    return Truth(strength, np.zeros((strategies, strategies)), seats)


def cycle(strategies: int, players: int, elo: float) -> Truth:
    """Strategies 0 > 1 > 2 > 0, each by ``elo`` per meeting; any others equal to all."""
    edge = np.zeros((strategies, strategies))
    for a, b in ((0, 1), (1, 2), (2, 0)):
        edge[a, b], edge[b, a] = elo / ELO_PER_NAT, -elo / ELO_PER_NAT
    return Truth(np.zeros(strategies), edge, np.zeros(players))


@cache
def round_robin_plan(strategies: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One rotation group per lineup of the arena's own round-robin plan, as arrays:
    ``(seats (games, p) strategy indices, group index (games,), lineup index (groups,))``."""
    from forumlab.arena.definition import PoolEntry, TournamentDefinition
    from forumlab.arena.schedule import plan

    labels = [f"S{i}" for i in range(strategies)]
    # Forum Romanum seats 2-6 players; the games are never played, only planned.
    definition = TournamentDefinition(game="forum-romanum", config={"players": players},
                                      agents=tuple(PoolEntry(s, "random") for s in labels))
    jobs = plan(definition)
    groups = sorted({j.group for j in jobs})
    group_index = {g: i for i, g in enumerate(groups)}
    seats = np.array([[labels.index(a) for a in j.labels] for j in jobs])
    lineup = np.zeros(len(groups), dtype=np.int64)
    for j in jobs:
        lineup[group_index[j.group]] = j.lineup
    return seats, np.array([group_index[j.group] for j in jobs]), lineup


def simulate_study(truth: Truth, groups: int, rng: np.random.Generator) -> EmpiricalGame:
    """The empirical game of one simulated round robin with ``groups`` rotation groups per lineup.

    Args:
        truth: the planted model.
        groups: rotation groups per lineup.
        rng: the random source.

    Returns:
        The :class:`EmpiricalGame`, strategies labelled ``S0``, ``S1``, ...
    """
    seats1, group1, lineup1 = round_robin_plan(truth.strategies, truth.players)
    per = len(lineup1)
    seats = np.tile(seats1, (groups, 1))
    group = np.concatenate([group1 + r * per for r in range(groups)])
    lineup = np.tile(lineup1, groups)
    p = truth.players
    score = truth.strength[seats] + truth.seat_advantage[None, :]
    for a in range(p):
        for b in range(p):
            if a != b:
                score[:, a] += truth.edge[seats[:, a], seats[:, b]]
    score += rng.gumbel(size=score.shape)
    ranks = (-score).argsort(axis=1).argsort(axis=1) + 1
    labels = [f"S{i}" for i in range(truth.strategies)]
    return from_arrays(labels, group, lineup, seats, ranks)
