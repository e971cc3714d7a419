"""Reading and writing Forma's bitboard planes inside numba kernels.

A plane is seven int64 words of the state (:mod:`.layout`, "Bitboards"); these helpers
are inlined into every kernel that touches one.
"""
import numpy as np
from numba import njit

from .layout import OCC, ROW_MASK, ROW_OFF, ROW_WORD, SIZE


@njit(cache=True, inline="always")
def square_bit(s, base, i):
    """Bit of square i in the plane at s[base:base+7] (0 or 1)."""
    return (s[base + (i >> 6)] >> (i & 63)) & 1


@njit(cache=True, inline="always")
def set_square(s, base, i):
    """Set square i in the plane at s[base:base+7]."""
    s[base + (i >> 6)] |= np.int64(1) << (i & 63)


@njit(cache=True, inline="always")
def plane_row(s, base, r):
    """Row r (20 bits, bit c = column c) of the plane at s[base:base+7]."""
    off = ROW_OFF[r]
    w = ROW_WORD[r]
    x = s[base + w] >> off
    if off > 64 - SIZE:
        x = (x & ((np.int64(1) << (64 - off)) - 1)) | (s[base + w + 1] << (64 - off))
    return x & ROW_MASK


@njit(cache=True, inline="always")
def free_rows(s, free):
    """The 20 row words of the free squares (those not in the occupancy plane), into ``free``."""
    for r in range(SIZE):
        free[r] = ~plane_row(s, OCC, r) & ROW_MASK
