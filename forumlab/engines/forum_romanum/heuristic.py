"""The heuristic evaluation of Forum Romanum used by the search agents.

A seat's estimated final score (at 2 players, its two colours together) minus the best
estimate among the other seats; a terminal position is worth its exact score margin.
Each part of the estimate is a named term (:mod:`.terms`) multiplied by its weight where
the estimate adds it, so the default weights (all 1) give the very value, bit for bit,
that the heuristic gave before it had terms (multiplying by 1.0 is exact, and every
addition happens in the same order); :func:`weighted_heuristic` takes other weights.
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
from .pattern_kernels import table_colour_scores
from .scoring import count_extremes
from .terms import TERM_NAMES

T_SCORE, T_ROWS, T_COLUMNS, T_DIAGONALS, T_SECTIONS, T_LAST_PLACES = range(len(TERM_NAMES))
DEFAULT_WEIGHTS = np.ones(len(TERM_NAMES))
# the term of each region's lead, in REGION_NAMES order: 7 rows, 7 columns, 2 diagonals, 7 sections
REGION_TERM = np.array([T_ROWS] * 7 + [T_COLUMNS] * 7 + [T_DIAGONALS] * 2 + [T_SECTIONS] * 7, dtype=np.int64)

_POTENTIAL = 0.75  # weight of an open region's present outcome when it is full


@njit(cache=True, inline="always")
def _estimated_colour_scores(s, est, w):
    """Score so far plus, for every open region, the outcome it would have if it
    settled with the present counts, weighted by how full it is; each term times its
    weight in ``w``."""
    n_colours = s[N_COLOURS]
    occ = s[OCCUPIED]
    settled = s[SETTLED]
    counts = np.empty(MAX_COLOURS, dtype=np.int64)
    for k in range(n_colours):
        est[k] = w[T_SCORE] * s[SCORE + k]
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
        # the same products the colours' sums always added, weighed once per region
        gain = w[REGION_TERM[r]] * (weight * lead_value)
        loss = w[T_LAST_PLACES] * (weight * penalty)
        for k in range(n_colours):
            if counts[k] == hi and n_hi < n_colours:
                est[k] += gain
            elif counts[k] == lo:
                est[k] -= loss


@njit(cache=True)
def heuristic(s, player):
    """Estimated final score of ``player`` minus the best estimate among the others.

    Terminal states return the exact score margin.
    """
    return _weighted_margin(s, player, DEFAULT_WEIGHTS)


# inlined: a call per layer cost the search ~15% of the heuristic's time
@njit(cache=True, inline="always")
def _hand_colour_values(s, w, est):
    """Every colour's estimate into ``est[:colours]`` (the exact score once the game
    is over), with the hand formula and the weights ``w`` on its terms."""
    if s[TERMINAL] != 0:
        for k in range(s[N_COLOURS]):
            est[k] = s[SCORE + k]
    else:
        _estimated_colour_scores(s, est, w)


@njit(cache=True, inline="always")
def colour_values(s, w, est):
    """Every colour's estimate into ``est[:colours]`` (the exact score once the game
    is over), with the weights ``w``: the hand formula per open region, or, when ``w``
    is longer than the terms, a region-table model (the terms' weights, then the table:
    :mod:`.pattern_kernels`)."""
    if s[TERMINAL] == 0 and w.shape[0] > len(TERM_NAMES):
        table_colour_scores(s, est, w)
    else:
        _hand_colour_values(s, w, est)


@njit(cache=True)
def seat_values(s, w, out):
    """Every seat's estimate into ``out[:players]`` (at 2 players its two colours' sum)."""
    est = np.zeros(MAX_COLOURS, dtype=np.float64)
    colour_values(s, w, est)
    if s[N_PLAYERS] == 2:
        for p in range(2):
            out[p] = est[2 * p] + est[2 * p + 1]
    else:
        for p in range(s[N_PLAYERS]):
            out[p] = est[p]


@njit(cache=True)
def weighted_heuristic(s, player, w):
    """:func:`heuristic` with the weights ``w`` on the terms (:data:`.terms.TERM_NAMES`
    order), or a region-table model when ``w`` is longer than the terms."""
    if w.shape[0] <= len(TERM_NAMES):
        return _weighted_margin(s, player, w)
    return _table_margin(s, player, w)


# The term weights' path first and the table in a call of its own: so the term weights'
# path costs what it did before tables (about 0.31 us a call; 0.35-0.37 with the call
# inlined or the test the other way round), and the table path 0.58 us (1.1 when it shared
# the estimate array with the hand formula's code).
@njit(cache=True)
def _table_margin(s, player, w):
    """The estimated margin of ``player`` with a region-table model ``w``."""
    est = np.zeros(MAX_COLOURS, dtype=np.float64)
    colour_values(s, w, est)
    return _margin(s, player, est)


@njit(cache=True, inline="always")
def _weighted_margin(s, player, w):
    """The estimated margin of ``player`` with the weights ``w`` on the hand terms."""
    est = np.zeros(MAX_COLOURS, dtype=np.float64)
    _hand_colour_values(s, w, est)
    return _margin(s, player, est)


@njit(cache=True, inline="always")
def _margin(s, player, est):
    """``player``'s estimate minus the best other seat's (at 2 players, seats' colour sums)."""
    n_players = s[N_PLAYERS]
    if n_players == 2:
        mine = est[2 * player] + est[2 * player + 1]
        other = est[2 - 2 * player] + est[3 - 2 * player]
        return mine - other
    best_other = -1e18
    for p in range(n_players):
        if p != player and est[p] > best_other:
            best_other = est[p]
    return est[player] - best_other
