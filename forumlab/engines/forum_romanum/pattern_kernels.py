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
def _pattern_index(s, r, k, counts, filled):
    """The flat table index of region ``r``'s pattern seen from colour ``k``."""
    n_colours = s[N_COLOURS]
    n_players = s[N_PLAYERS]
    best = 0
    fewest = 99
    for j in range(n_colours):
        if j != k:
            best = max(best, counts[j])
            fewest = min(fewest, counts[j])
    seat = k // 2 if n_players == 2 else k
    tempo = min((seat - s[PLAYER]) % n_players, TEMPO_CLIP)
    return (REGION_CLASS[r] * _STRIDES[0] + min(counts[k], COUNT_CLIP) * _STRIDES[1]
            + min(best, COUNT_CLIP) * _STRIDES[2] + min(fewest, COUNT_CLIP) * _STRIDES[3]
            + min(REGION_VALUES[r] - filled, EMPTY_CLIP) * _STRIDES[4] + tempo)


@njit(cache=True)
def pattern_indices(s, out):
    """Every colour's table index of every region into ``out`` (colours x regions; -1
    for a settled region); returns the number of colours. Training reads the patterns
    through it."""
    counts = np.zeros(MAX_COLOURS, dtype=np.int64)
    settled = s[SETTLED]
    for r in range(N_REGIONS):
        if (settled >> r) & 1:
            out[:, r] = -1
            continue
        filled = _region_counts(s, r, counts)
        for k in range(s[N_COLOURS]):
            out[k, r] = _pattern_index(s, r, k, counts, filled)
    return s[N_COLOURS]


@njit(cache=True, inline="always")
def table_colour_scores(s, est, w):
    """Score so far plus, for every open region, its table entry seen from each colour,
    each times its term's weight in ``w``; the hand last-places term is added only when
    its weight is not 0 (a region-table model sets it to 0)."""
    n_colours = s[N_COLOURS]
    settled = s[SETTLED]
    counts = np.empty(MAX_COLOURS, dtype=np.int64)
    for k in range(n_colours):
        est[k] = w[_SCORE_TERM] * s[SCORE + k]
    for r in range(N_REGIONS):
        if (settled >> r) & 1:
            continue
        filled = _region_counts(s, r, counts)
        scale = w[REGION_TERM[r]]
        for k in range(n_colours):
            est[k] += scale * w[N_TERMS + _pattern_index(s, r, k, counts, filled)]
        if w[_LAST_TERM] != 0.0 and filled > 0:
            lo = 99
            n_lo = 0
            for k in range(n_colours):
                if counts[k] < lo:
                    lo, n_lo = counts[k], 1
                elif counts[k] == lo:
                    n_lo += 1
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
