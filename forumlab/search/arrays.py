"""Small array routines for the generic kernels, written as loops to keep compile time down.

numba compiles its general versions of these per process and per signature at a
price out of proportion to the work: a 1-D slice assignment ``dst[:] = src`` pulls
in the formatting of its shape-mismatch error message (about 2.5 s of compilation,
against 0.06 s for the loop below), ``np.argsort(kind="mergesort")`` about 1.2 s and
``np.sort`` about 1.3 s. Every process that compiles a search pays these again.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def copy_into(dst, src):
    """dst[i] = src[i] for every i of src (1-D arrays, dst at least as long)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True)
def stable_argsort(values):
    """Indices that sort the 1-D array values ascending, equal values in index order:
    the result of ``np.argsort(values, kind="mergesort")`` for values without NaN
    (a bottom-up merge sort)."""
    n = values.shape[0]
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        order[i] = i
    spare = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            for k in range(lo, hi):
                # take from the right run only when strictly smaller: stable
                if j < hi and (i >= mid or values[order[j]] < values[order[i]]):
                    spare[k] = order[j]
                    j += 1
                else:
                    spare[k] = order[i]
                    i += 1
        order, spare = spare, order
        width *= 2
    return order
