"""The heuristic evaluation of Forum Romanum used by the search agents.

A seat's estimated final score (at 2 players, its two colours together) minus the best
estimate among the other seats; a terminal position is worth its exact score margin.
"""
import numpy as np
from numba import njit

from ...core.bits import popcount
from .layout import (
    BOARD,
    MAX_COLOURS,
    N_COLOURS,
    N_PLAYERS,
    N_REGIONS,
    OCCUPIED,
    REGION_MASKS,
    REGION_VALUES,
    SCORE,
    SETTLED,
    TERMINAL,
)
from .scoring import count_extremes

_POTENTIAL = 0.75  # weight of an open region's present outcome when it is full


@njit(cache=True)
def _estimated_colour_scores(s, est):
    """Score so far plus, for every open region, the outcome it would have if it
    settled with the present counts, weighted by how full it is."""
    n_colours = s[N_COLOURS]
    occ = s[OCCUPIED]
    settled = s[SETTLED]
    counts = np.empty(MAX_COLOURS, dtype=np.int64)
    for k in range(n_colours):
        est[k] = s[SCORE + k]
    for r in range(N_REGIONS):
        if (settled >> r) & 1:
            continue
        mask = REGION_MASKS[r]
        filled = popcount(occ & mask)
        if filled == 0:
            continue
        frac = filled / popcount(mask)
        # Discounted so that settling a region now beats keeping an open lead that
        # the next players may still contest or deadlock.
        weight = _POTENTIAL * frac
        hi, n_hi, _, lo, n_lo = count_extremes(s, mask)
        for k in range(n_colours):
            counts[k] = popcount(s[BOARD + k] & mask)
        lead_value = REGION_VALUES[r] if n_hi == 1 else 4
        penalty = 4.0 if n_lo == 1 else 2.0
        for k in range(n_colours):
            if counts[k] == hi and n_hi < n_colours:
                est[k] += weight * lead_value
            elif counts[k] == lo:
                est[k] -= weight * penalty


@njit(cache=True)
def heuristic(s, player):
    """Estimated final score of ``player`` minus the best estimate among the others.

    Terminal states return the exact score margin.
    """
    n_players = s[N_PLAYERS]
    est = np.zeros(MAX_COLOURS, dtype=np.float64)
    if s[TERMINAL] != 0:
        for k in range(s[N_COLOURS]):
            est[k] = s[SCORE + k]
    else:
        _estimated_colour_scores(s, est)
    if n_players == 2:
        mine = est[2 * player] + est[2 * player + 1]
        other = est[2 - 2 * player] + est[3 - 2 * player]
        return mine - other
    best_other = -1e18
    for p in range(n_players):
        if p != player and est[p] > best_other:
            best_other = est[p]
    return est[player] - best_other
