"""The compiled lookup of Forum Romanum's region-table evaluation (the pattern of each
open region: :mod:`.patterns`). Imported by the heuristic, so only Forum Romanum's
kernels compile it.

The weight array ``w`` of a region-table model is the term weights
(:data:`.terms.TERM_NAMES` order) followed by the table, flattened in C order.
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
    PLAYER,
    REGION_MASKS,
    REGION_VALUES,
    SCORE,
    SETTLED,
)
from .patterns import CLASS_OF_SIZE, COUNT_CLIP, EMPTY_CLIP, TABLE_SHAPE, TEMPO_CLIP
from .terms import TERM_NAMES

N_TERMS = len(TERM_NAMES)
_SCORE_TERM = TERM_NAMES.index("score")
_LAST_TERM = TERM_NAMES.index("last_places")
_LINE_TERMS = [TERM_NAMES.index(name) for name in ("rows", "columns", "diagonals")]
# the term whose weight scales each region's table entry: 7 rows, 7 columns, 2 diagonals, 7 sections
REGION_TERM = np.array([_LINE_TERMS[0]] * 7 + [_LINE_TERMS[1]] * 7 + [_LINE_TERMS[2]] * 2
                       + [TERM_NAMES.index("sections")] * 7, dtype=np.int64)
REGION_CLASS = np.array([CLASS_OF_SIZE[int(v)] for v in REGION_VALUES], dtype=np.int64)
_STRIDES = np.array([int(np.prod(TABLE_SHAPE[i + 1:])) for i in range(len(TABLE_SHAPE))], dtype=np.int64)
_POTENTIAL = 0.75  # as the hand heuristic's last-places term


@njit(cache=True, inline="always")
def _region_counts(s, r, counts):
    """Each colour's pieces in region ``r`` into ``counts``; returns the filled cells."""
    mask = REGION_MASKS[r]
    for k in range(s[N_COLOURS]):
        counts[k] = popcount(s[BOARD + k] & mask)
    return popcount(s[OCCUPIED] & mask)


@njit(cache=True, inline="always")
def _extremes(counts, n_colours):
    """(most, colours with it, second most, fewest, colours with it, second fewest) of
    ``counts``: every colour's most and fewest among the others follow from them."""
    hi, n_hi, hi2 = -1, 0, -1
    lo, n_lo, lo2 = 99, 0, 99
    for j in range(n_colours):
        c = counts[j]
        if c > hi:
            hi, n_hi, hi2 = c, 1, hi
        elif c == hi:
            n_hi += 1
        elif c > hi2:
            hi2 = c
        if c < lo:
            lo, n_lo, lo2 = c, 1, lo
        elif c == lo:
            n_lo += 1
        elif c < lo2:
            lo2 = c
    return hi, n_hi, hi2, lo, n_lo, lo2


@njit(cache=True, inline="always")
def _tempo(s, k):
    """How many seats move before colour ``k``'s seat does, clipped."""
    n_players = s[N_PLAYERS]
    seat = k // 2 if n_players == 2 else k
    return min((seat - s[PLAYER]) % n_players, TEMPO_CLIP)


@njit(cache=True, inline="always")
def _region_base(r, filled):
    """The part of region ``r``'s table index that is the same for every colour."""
    return REGION_CLASS[r] * _STRIDES[0] + min(REGION_VALUES[r] - filled, EMPTY_CLIP) * _STRIDES[4]


@njit(cache=True, inline="always")
def _colour_index(base, tempo, c, hi, n_hi, hi2, lo, n_lo, lo2):
    """The table index of a region (``base``, the extremes of its counts) seen from a
    colour with ``c`` pieces there and the given tempo."""
    best = hi2 if c == hi and n_hi == 1 else hi
    fewest = lo2 if c == lo and n_lo == 1 else lo
    return (base + min(c, COUNT_CLIP) * _STRIDES[1] + min(best, COUNT_CLIP) * _STRIDES[2]
            + min(fewest, COUNT_CLIP) * _STRIDES[3] + tempo)


@njit(cache=True)
def pattern_indices(s, out):
    """Every colour's table index of every region into ``out`` (colours x regions; -1
    for a settled region); returns the number of colours. Training reads the patterns
    through it."""
    n_colours = s[N_COLOURS]
    counts = np.zeros(MAX_COLOURS, dtype=np.int64)
    settled = s[SETTLED]
    for r in range(N_REGIONS):
        if (settled >> r) & 1:
            out[:, r] = -1
            continue
        base = _region_base(r, _region_counts(s, r, counts))
        hi, n_hi, hi2, lo, n_lo, lo2 = _extremes(counts, n_colours)
        for k in range(n_colours):
            out[k, r] = _colour_index(base, _tempo(s, k), counts[k], hi, n_hi, hi2, lo, n_lo, lo2)
    return n_colours


@njit(cache=True, inline="always")
def table_colour_scores(s, est, w):
    """Score so far plus, for every open region, its table entry seen from each colour,
    each times its term's weight in ``w``; the hand last-places term is added only when
    its weight is not 0 (a region-table model sets it to 0)."""
    n_colours = s[N_COLOURS]
    settled = s[SETTLED]
    counts = np.empty(MAX_COLOURS, dtype=np.int64)
    tempo = np.empty(MAX_COLOURS, dtype=np.int64)
    for k in range(n_colours):
        est[k] = w[_SCORE_TERM] * s[SCORE + k]
        tempo[k] = N_TERMS + _tempo(s, k)  # the table's offset in w folded in
    for r in range(N_REGIONS):
        if (settled >> r) & 1:
            continue
        filled = _region_counts(s, r, counts)
        base = _region_base(r, filled)
        hi, n_hi, hi2, lo, n_lo, lo2 = _extremes(counts, n_colours)
        scale = w[REGION_TERM[r]]
        for k in range(n_colours):
            est[k] += scale * w[_colour_index(base, tempo[k], counts[k], hi, n_hi, hi2, lo, n_lo, lo2)]
        if w[_LAST_TERM] != 0.0 and filled > 0:
            loss = w[_LAST_TERM] * (_POTENTIAL * filled / popcount(REGION_MASKS[r])
                                    * (4.0 if n_lo == 1 else 2.0))
            for k in range(n_colours):
                if counts[k] == lo:
                    est[k] -= loss


@njit(cache=True)
def colour_scores(s, out):
    """Every colour's score so far into ``out``; returns the number of colours."""
    for k in range(s[N_COLOURS]):
        out[k] = s[SCORE + k]
    return s[N_COLOURS]
