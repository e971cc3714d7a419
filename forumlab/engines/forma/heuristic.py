"""Forma's heuristic evaluation for the search agents (see ``heuristic``).

Each part of a seat's estimate is a named term (:mod:`.terms`) multiplied by its weight
where the estimate adds it, so the default weights (all 1) give the very value, bit for
bit, that the heuristic gave before it had terms (multiplying by 1.0 is exact, and every
addition happens in the same order); :func:`weighted_heuristic` takes other weights.
"""
import numpy as np
from numba import njit

from .bridges import bridge_progress
from .layout import (
    N_PLAYERS,
    NEIGHBOURS,
    OCC,
    PLAYER,
    SCORE,
    STUCK,
    SUPPLY_SQUARES,
    TERMINAL,
    TOWER,
    TOWER_OWNER,
)
from .planes import square_bit
from .potential import enclosure_threats, stone_potential
from .scoring import TOWER_POINTS
from .terms import TERM_NAMES

T_SCORE, T_SUPPLY, T_BRIDGES, T_STONES, T_ENCLOSURES, T_TOWER = range(len(TERM_NAMES))
DEFAULT_WEIGHTS = np.ones(len(TERM_NAMES))

_BRIDGE_WEIGHT = 50.0  # points of a bridge; progress counts as its squared share
_SUPPLY_WEIGHT = 0.5  # expected share of the squares still in supply that get placed
# A live stone's worth to the colour building round it: 10 x (its share of the sides)**2.
# Greedy with it won 38.1% of 240 4-player games against three greedy seats without it
# and 58.8% of 240 2-player games (weights 5 and 20 did worse; docs/notebook/search.md).
_STONE_WEIGHT = 10.0
_THREAT_FIRST = 7.0  # value to the seat to move of a free square it can close
_THREAT_MORE = 2.0


@njit(cache=True)
def weighted_heuristic(s, player, w):
    """Estimated final score of ``player`` minus the best estimate among the others.

    Estimate = points so far + half the squares still in supply (players who can still
    place; so a big piece placed now beats keeping it) + for the seat to move, the
    enclosure threats it may cash next (free squares with one open side: 7 for the
    first, 2 for each further one) and 35 when the tower has one open side left; every
    player also gets 10 x (share of its sides)**2 for each stone only it still can claim
    (``stone_potential``).
    At 2 players (two sets each, 180 squares) every player also gets bridge progress
    (``bridge_progress``): 50 points times, per direction, 1 for a finished bridge,
    else the squared share of the board's length its chains from the two edges cover.
    A greedy with it scored 56.7% [50.4, 63.0] against one without it in 240 2-player
    games (two runs of 120 on different seeds: 65.8% and 47.5%); at 4 players (90
    squares each, bridges rare) it chased bridges it could not finish and won 6% of 80
    games against three greedy seats without it (docs/notebook/search.md, "Forma
    heuristic: bridges"). The whole estimate costs about 1-2 microseconds; greedy beats
    random play by ~600 to ~130 points in 4-player games. Terminal states return the
    exact margin. ``w``: the weights of the terms (:data:`.terms.TERM_NAMES` order).
    """
    n = s[N_PLAYERS]
    est = np.zeros(n, dtype=np.float64)
    seat_values(s, w, est)
    best_other = -1e18
    for q in range(n):
        if q != player and est[q] > best_other:
            best_other = est[q]
    return est[player] - best_other


@njit(cache=True)
def heuristic(s, player):
    """:func:`weighted_heuristic` at the default weights."""
    return weighted_heuristic(s, player, DEFAULT_WEIGHTS)


@njit(cache=True)
def seat_values(s, w, est):
    """Every seat's estimate into ``est[:players]``: the score, and unless the game is
    over the weighted potential terms."""
    n = s[N_PLAYERS]
    terminal = s[TERMINAL] != 0
    for q in range(n):
        est[q] = s[SCORE + q] if terminal else w[T_SCORE] * s[SCORE + q]
    if not terminal:
        _add_potential(s, est, w)


@njit(cache=True)
def _add_potential(s, est, w):
    n = s[N_PLAYERS]
    for q in range(n):
        if n == 2:  # see heuristic(): it pays at 2 players only
            est[q] += w[T_BRIDGES] * (_BRIDGE_WEIGHT * bridge_progress(s, q))
        if not (s[STUCK] >> q) & 1:
            est[q] += w[T_SUPPLY] * (_SUPPLY_WEIGHT * s[SUPPLY_SQUARES + q])
    stone_potential(s, est, _STONE_WEIGHT * w[T_STONES])
    # Free squares with exactly one free side: whoever covers that side encloses them,
    # most likely the seat to move.
    threats = enclosure_threats(s)
    if threats > 0:
        mover = s[PLAYER]
        est[mover] += w[T_ENCLOSURES] * (_THREAT_FIRST + _THREAT_MORE * (threats - 1))
    tower = s[TOWER]
    if tower >= 0 and s[TOWER_OWNER] < 0:
        open_sides = 0
        for d in range(4):
            nb = NEIGHBOURS[tower, d]
            if nb >= 0 and not square_bit(s, OCC, nb):
                open_sides += 1
        if open_sides == 1:
            est[s[PLAYER]] += w[T_TOWER] * (0.7 * TOWER_POINTS)
