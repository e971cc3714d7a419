"""Numba helpers over move lists (an int64 buffer and the count of moves in it)."""
from numba import njit


@njit(cache=True, inline="always")
def contains(moves, n, move):
    """Whether ``move`` is among ``moves[:n]``."""
    for i in range(n):
        if moves[i] == move:
            return True
    return False

