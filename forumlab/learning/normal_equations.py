"""The compiled accumulation of a region-table fit's normal equations (:mod:`.region_table`).

Alone in its module, importing nothing of the package: the numba cache key follows a
compiled module's imports, and the training code around it imports the agents and the
registry.
"""
from numba import njit


@njit(cache=True)
def accumulate_normal_equations(idx, y, a, b):
    """Add rows of one-hot pattern features to the normal equations ``a`` and ``b``:
    row ``i`` has a 1 at each index of ``idx[i]`` (-1: none; an index twice counts 2) and
    the target ``y[i]``."""
    for i in range(idx.shape[0]):
        for p in range(idx.shape[1]):
            u = idx[i, p]
            if u < 0:
                continue
            b[u] += y[i]
            for q in range(idx.shape[1]):
                v = idx[i, q]
                if v >= 0:
                    a[u, v] += 1.0
