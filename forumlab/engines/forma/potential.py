"""Points still open on Forma's board: enclosure threats and live stones.

Read by the heuristic (what each colour may still cash) and by rollout proposals
(where the points are decided).
"""
from numba import njit

from ...core.bits import lowest_bit_index, popcount
from .layout import (
    BOARD_PLANE,
    MARKS,
    N_PLAYERS,
    NEIGHBOURS,
    NOT_COL_A,
    NOT_COL_T,
    OCC,
    PIECES,
    SIZE,
    STONES,
    STUCK,
    WORDS,
)
from .planes import square_bit

_LOW20 = (1 << SIZE) - 1
_LOW44 = (1 << (64 - SIZE)) - 1
_LOW63 = (1 << 63) - 1


@njit(cache=True, inline="always")
def _threat_bits(f_prev, f, f_next, i):
    """Squares of word i of the free plane ``f`` with exactly one free side (given
    the free words before and after it)."""
    up = (f << SIZE) | ((f_prev >> (64 - SIZE)) & _LOW20)
    down = ((f >> SIZE) & _LOW44) | (f_next << (64 - SIZE))
    left = ((f << 1) | ((f_prev >> 63) & 1)) & NOT_COL_A[i]
    right = (((f >> 1) & _LOW63) | (f_next << 63)) & NOT_COL_T[i]
    x1 = up ^ down
    x2 = left ^ right
    return f & (x1 ^ x2) & ~((up & down) | (left & right))


@njit(cache=True, inline="always")
def _free_word(s, i):
    if i < 0 or i >= WORDS:
        return 0
    return ~s[OCC + i] & BOARD_PLANE[i]


@njit(cache=True)
def threat_word(s, i):
    """Word i of the plane of free squares with exactly one free side."""
    return _threat_bits(_free_word(s, i - 1), _free_word(s, i), _free_word(s, i + 1), i)


@njit(cache=True)
def enclosure_threats(s):
    """Free squares with exactly one free side (covering that side would enclose them).

    Neighbour planes are the free plane shifted by a row (20 bits) or a column (1 bit),
    carrying bits across the seven words; "exactly one of four" is a bit-sliced count.
    """
    threats = 0
    f_prev = 0
    f = _free_word(s, 0)
    for i in range(WORDS):
        f_next = _free_word(s, i + 1)
        threats += popcount(_threat_bits(f_prev, f, f_next, i))
        f_prev = f
        f = f_next
    return threats


@njit(cache=True, inline="always")
def _colour_at(s, sq):
    """The player whose piece square or marker is on occupied square sq (-1: none)."""
    for q in range(s[N_PLAYERS]):
        if square_bit(s, PIECES + q * WORDS, sq) | square_bit(s, MARKS + q * WORDS, sq):
            return q
    return -1


@njit(cache=True, inline="always")
def stone_sides(s, sq):
    """(owner, sides, owned) of the grey stone on sq: its sides on the board, and the
    one colour on its occupied sides with how many it holds (owner -1: no side
    occupied; -2: dead, touched by two colours or an obstacle, the counts then partial)."""
    owner = -1
    sides = 0
    owned = 0
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb < 0:
            continue
        sides += 1
        if not square_bit(s, OCC, nb):
            continue
        q = _colour_at(s, nb)
        if q < 0 or (owner >= 0 and q != owner):
            return -2, sides, owned
        owner = q
        owned += 1
    return owner, sides, owned


@njit(cache=True)
def stone_potential(s, est, weight):
    """Add to ``est`` each live unclaimed stone's worth to the colour building round it.

    A stone is live for q when every occupied side of it is q's (piece square or
    marker) and at least one side is: only q can still claim it. It adds ``weight`` x
    (q's sides / the stone's sides)**2 to q's estimate, if q can still place. A stone
    touched by two colours can never be claimed and adds nothing.
    """
    for w in range(WORDS):
        bits = s[STONES + w]
        while bits:
            low = bits & -bits
            sq = w * 64 + lowest_bit_index(low)
            bits ^= low
            owner, sides, owned = stone_sides(s, sq)
            if owner < 0 or owned == sides or (s[STUCK] >> owner) & 1:
                continue
            share = owned / sides
            est[owner] += weight * share * share
