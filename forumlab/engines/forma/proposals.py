"""Forma's rollout proposals: moves where the points are decided (``proposal_move``).

A proposal is the optional protocol kernel :data:`forumlab.core.dispatch.OPTIONAL`
names: a move a rollout tries first, to be filtered by the heuristic.
"""
import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index
from ...core.rng import rand_below
from .data import COVER_IDX, COVER_START, ORIENT_BITS, PASS, PL_CODE, PL_MASK, PL_WORD
from .layout import (
    AVAIL,
    MOVER_CAN_PLACE,
    NEIGHBOURS,
    OCC,
    PLAYER,
    SQUARES,
    STONES,
    TOWER,
    TOWER_OWNER,
    WORDS,
)
from .moves import fits, random_move
from .planes import square_bit
from .potential import stone_sides, threat_word

_PROPOSAL_TRIES = 16  # placements drawn at the chosen square before falling back


@njit(cache=True, inline="always")
def _draw_free_side(s, sq, rng, hot, seen):
    """Reservoir sampling over the free sides of square sq: (chosen square, count seen)."""
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb >= 0 and not square_bit(s, OCC, nb):
            seen += 1
            if rand_below(rng, seen) == 0:
                hot = nb
    return hot, seen


@njit(cache=True, inline="always")
def _covers(idx, sq):
    """Whether placement idx covers square sq."""
    k = (sq >> 6) - PL_WORD[idx]
    return 0 <= k < 3 and (PL_MASK[idx, k] >> (sq & 63)) & 1 == 1


@njit(cache=True)
def tower_take(s, rng):
    """A legal placement of the mover that closes every free side of the unowned tower
    at once, drawn uniformly among them (-1: none, or the tower is owned).

    With three free sides only a U pentomino wrapping the tower takes it, and a uniform
    draw, even one aimed beside the tower, finds that placement about once in hundreds:
    rollouts built from such draws let the +50 sit untaken, so a search never sees that
    leaving three open sides hands the tower to a later seat that holds a U."""
    tower = s[TOWER]
    if tower < 0 or s[TOWER_OWNER] >= 0 or s[MOVER_CAN_PLACE] == 0:
        return -1
    free_sides = np.empty(4, dtype=np.int64)
    k = 0
    for d in range(4):
        nb = NEIGHBOURS[tower, d]
        if nb >= 0 and not square_bit(s, OCC, nb):
            free_sides[k] = nb
            k += 1
    if k == 0 or k == 4:
        # four free sides: a piece of at most five squares cannot wrap them without
        # covering the tower, so skip the scan (rollouts call this every ply)
        return -1
    avail = s[AVAIL + s[PLAYER]]
    first = free_sides[0]
    found = -1
    seen = 0
    for j in range(COVER_START[first], COVER_START[first + 1]):
        idx = COVER_IDX[j]
        code = PL_CODE[idx]
        if not (avail >> ((code // SQUARES) >> ORIENT_BITS)) & 1:
            continue
        wraps = True
        for i in range(1, k):
            if not _covers(idx, free_sides[i]):
                wraps = False
                break
        if wraps and fits(s, idx):
            seen += 1
            if rand_below(rng, seen) == 0:
                found = code
    return found


@njit(cache=True)
def proposal_move(s, rng):
    """A random legal move that touches the contested squares, when there are any.

    A rollout proposal (``forumlab.core.dispatch.proposal_move``): uniformly random
    placements almost never land where points are decided, beside a stone or the
    tower or on the last open side of a free square, so rollouts built from them
    leave every race for those points unplayed. This draws a *hot* square — a free
    square next to an unclaimed stone that at most one colour touches, next to the
    unowned tower, or the one free side of a square with a single free side — and
    then a random placement of the mover's shapes covering it (``_PROPOSAL_TRIES``
    draws from ``COVER_IDX``). A placement that takes the tower (``tower_take``) comes
    before all of these: it is worth 50 and a draw beside the tower rarely closes two or
    three sides at once. With no hot square, or no fit found, it returns
    ``random_move``. Not uniform over anything: a proposal, to be filtered by the
    heuristic (``sampled_greedy_move``).
    """
    if s[MOVER_CAN_PLACE] == 0:
        return PASS
    take = tower_take(s, rng)
    if take >= 0:
        return take
    hot = -1
    seen = 0
    for w in range(WORDS):
        stones = s[STONES + w]
        while stones:
            sq = w * 64 + lowest_bit_index(stones)
            stones &= stones - 1
            owner, sides, owned = stone_sides(s, sq)
            if owner == -2 or owned == sides:  # dead, or claimed
                continue
            hot, seen = _draw_free_side(s, sq, rng, hot, seen)
    tower = s[TOWER]
    if tower >= 0 and s[TOWER_OWNER] < 0:
        hot, seen = _draw_free_side(s, tower, rng, hot, seen)
    for w in range(WORDS):
        threats = threat_word(s, w)
        while threats:
            sq = w * 64 + lowest_bit_index(threats)
            threats &= threats - 1
            hot, seen = _draw_free_side(s, sq, rng, hot, seen)
    if hot < 0:
        return random_move(s, rng)
    start = COVER_START[hot]
    n = COVER_START[hot + 1] - start
    avail = s[AVAIL + s[PLAYER]]
    for _ in range(_PROPOSAL_TRIES):
        idx = COVER_IDX[start + rand_below(rng, n)]
        code = PL_CODE[idx]
        if (avail >> ((code // SQUARES) >> ORIENT_BITS)) & 1 and fits(s, idx):
            return code
    return random_move(s, rng)
