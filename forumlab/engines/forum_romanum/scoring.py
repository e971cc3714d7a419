"""Forum Romanum scoring: settling a filled region, the final settlement of the
deadlocked ones, the end of the game and the result.

Majority counts are popcounts of a colour's board under a region's mask. A region
settles when it fills with a sole leader and never scores again; one that fills with
a tied lead is deadlocked (full, unsettled) until it empties and refills, or until
the end, when :func:`final_settlement` scores it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ...core.bits import popcount
from .layout import (
    ALL_REGIONS,
    BOARD,
    HAND,
    MAX_ROUNDS,
    N_COLOURS,
    N_PLAYERS,
    N_REGIONS,
    OCCUPIED,
    OPEN_CELLS,
    REGION_MASKS,
    REGION_VALUES,
    SCORE,
    SETTLED,
    TERMINAL,
    TRUNCATED,
    TURNS,
)


@njit(cache=True, inline="always")
def is_terminal(s):
    """True once the game has ended (naturally or by the turn cap)."""
    return s[TERMINAL] != 0


# apply_move inlines everything it calls (settle, final_settlement and their helpers
# are inline="always"): a call that can return an error status leaves numba's reference
# count of the state array around every inlined apply_move, two atomic operations a ply
# (without them: +23% random plies per CPU second, no longer first compilations).
@njit(cache=True, inline="always")
def _refresh_open_cells(s):
    settled = s[SETTLED]
    union = 0
    for r in range(N_REGIONS):
        if not (settled >> r) & 1:
            union |= REGION_MASKS[r]
    s[OPEN_CELLS] = union


@njit(cache=True, inline="always")
def count_extremes(s, mask):
    """(highest count, colours with it, first such colour, lowest count, colours with
    it) of the colours' pieces inside ``mask``."""
    hi = -1
    n_hi = 0
    hi_colour = -1
    lo = 99
    n_lo = 0
    for k in range(s[N_COLOURS]):
        cnt = popcount(s[BOARD + k] & mask)
        if cnt > hi:
            hi, n_hi, hi_colour = cnt, 1, k
        elif cnt == hi:
            n_hi += 1
        if cnt < lo:
            lo, n_lo = cnt, 1
        elif cnt == lo:
            n_lo += 1
    return hi, n_hi, hi_colour, lo, n_lo


@njit(cache=True, inline="always")
def settle(s, r):
    """Settle full region r if one colour holds the majority (else it is deadlocked)."""
    mask = REGION_MASKS[r]
    n_colours = s[N_COLOURS]
    hi, n_hi, hi_colour, lo, n_lo = count_extremes(s, mask)
    if n_hi != 1:
        return
    s[SCORE + hi_colour] += REGION_VALUES[r]
    penalty = 4 if n_lo == 1 else 2
    for k in range(n_colours):
        if popcount(s[BOARD + k] & mask) == lo:
            s[SCORE + k] -= penalty
    s[SETTLED] |= 1 << r
    _refresh_open_cells(s)


@njit(cache=True, inline="always")
def final_settlement(s):
    """Score every deadlocked (full, unsettled) region when the game ends."""
    occ = s[OCCUPIED]
    settled = s[SETTLED]
    n_colours = s[N_COLOURS]
    for r in range(N_REGIONS):
        mask = REGION_MASKS[r]
        if (settled >> r) & 1 or (occ & mask) != mask:
            continue
        hi = -1
        n_hi = 0
        for k in range(n_colours):
            cnt = popcount(s[BOARD + k] & mask)
            if cnt > hi:
                hi, n_hi = cnt, 1
            elif cnt == hi:
                n_hi += 1
        if n_hi == n_colours:  # everybody tied for the lead: nobody loses
            for k in range(n_colours):
                s[SCORE + k] += 4
            continue
        lo = 99
        n_lo = 0
        for k in range(n_colours):
            cnt = popcount(s[BOARD + k] & mask)
            if cnt == hi:
                s[SCORE + k] += 4
            elif cnt < lo:
                lo, n_lo = cnt, 1
            elif cnt == lo:
                n_lo += 1
        penalty = 4 if n_lo == 1 else 2
        for k in range(n_colours):
            if popcount(s[BOARD + k] & mask) == lo:
                s[SCORE + k] -= penalty


@njit(cache=True, inline="always")
def end_if_over(s, occ):
    """End the game after a ply that left no open region with an empty cell (``occ``:
    the occupied cells), or that completed the last turn ``MAX_ROUNDS`` allows;
    either way the deadlocked regions are scored (one call site: it is inlined)."""
    if (s[OPEN_CELLS] & ~occ) == 0:
        s[TERMINAL] = 1
    elif s[MAX_ROUNDS] > 0 and s[TURNS] >= s[MAX_ROUNDS] * s[N_PLAYERS]:
        s[TERMINAL] = 1
        s[TRUNCATED] = 1
    if s[TERMINAL]:
        final_settlement(s)


@njit(cache=True)
def scores(s, out):
    """Score per player: the colour score, or the sum of a player's two colours."""
    if s[N_PLAYERS] == 2:
        out[0] = s[SCORE] + s[SCORE + 1]
        out[1] = s[SCORE + 2] + s[SCORE + 3]
    else:
        for p in range(s[N_PLAYERS]):
            out[p] = s[SCORE + p]


def settled_regions(array: np.ndarray) -> list[int]:
    """Ids of the settled regions."""
    settled = int(array[SETTLED]) & ALL_REGIONS
    return [r for r in range(N_REGIONS) if (settled >> r) & 1]


def deadlocked_regions(array: np.ndarray) -> list[int]:
    """Ids of the regions that are full but unsettled (so their lead is tied)."""
    occ = int(array[OCCUPIED])
    settled = int(array[SETTLED])
    return [
        r
        for r in range(N_REGIONS)
        if not (settled >> r) & 1 and occ & int(REGION_MASKS[r]) == int(REGION_MASKS[r])
    ]


def result_details(array: np.ndarray) -> dict[str, Any]:
    """Forum Romanum's result fields: ``colour_scores`` and ``pieces_in_hand`` (per
    colour), ``settled`` and ``deadlocked`` (region ids, see :func:`settled_regions`)."""
    n_colours = int(array[N_COLOURS])
    return {
        "colour_scores": [int(array[SCORE + c]) for c in range(n_colours)],
        "settled": settled_regions(array),
        "deadlocked": deadlocked_regions(array),
        "pieces_in_hand": [int(array[HAND + c]) for c in range(n_colours)],
    }
