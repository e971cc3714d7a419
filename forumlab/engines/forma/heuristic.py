"""Forma's heuristic evaluation for the search agents (see ``heuristic``)."""
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

_BRIDGE_WEIGHT = 50.0  # points of a bridge; progress counts as its squared share
_SUPPLY_WEIGHT = 0.5  # expected share of the squares still in supply that get placed
# A live stone's worth to the colour building round it: 10 x (its share of the sides)**2.
# Greedy with it won 38.1% of 240 4-player games against three greedy seats without it
# and 58.8% of 240 2-player games (weights 5 and 20 did worse; docs/notebook/search.md).
_STONE_WEIGHT = 10.0
_THREAT_FIRST = 7.0  # value to the seat to move of a free square it can close
_THREAT_MORE = 2.0


@njit(cache=True)
def heuristic(s, player):
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
    exact margin.
    """
    n = s[N_PLAYERS]
    est = np.zeros(n, dtype=np.float64)
    for q in range(n):
        est[q] = s[SCORE + q]
    if s[TERMINAL] == 0:
        _add_potential(s, est)
    best_other = -1e18
    for q in range(n):
        if q != player and est[q] > best_other:
            best_other = est[q]
    return est[player] - best_other


@njit(cache=True)
def _add_potential(s, est):
    n = s[N_PLAYERS]
    for q in range(n):
        if n == 2:  # see heuristic(): it pays at 2 players only
            est[q] += _BRIDGE_WEIGHT * bridge_progress(s, q)
        if not (s[STUCK] >> q) & 1:
            est[q] += _SUPPLY_WEIGHT * s[SUPPLY_SQUARES + q]
    stone_potential(s, est, _STONE_WEIGHT)
    # Free squares with exactly one free side: whoever covers that side encloses them,
    # most likely the seat to move.
    threats = enclosure_threats(s)
    if threats > 0:
        mover = s[PLAYER]
        est[mover] += _THREAT_FIRST + _THREAT_MORE * (threats - 1)
    tower = s[TOWER]
    if tower >= 0 and s[TOWER_OWNER] < 0:
        open_sides = 0
        for d in range(4):
            nb = NEIGHBOURS[tower, d]
            if nb >= 0 and not square_bit(s, OCC, nb):
                open_sides += 1
        if open_sides == 1:
            est[s[PLAYER]] += 0.7 * TOWER_POINTS
