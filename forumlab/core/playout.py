"""Random playouts through the generic kernels (the engines' speed benchmark)."""
from numba import njit

from .dispatch import apply_move, is_terminal, random_move


@njit(cache=True)
def random_playouts(start, n_games, rng):
    """Play n_games uniformly random games from start; return the total plies."""
    plies = 0
    for _ in range(n_games):
        s = start.copy()
        while not is_terminal(s):
            apply_move(s, random_move(s, rng))
            plies += 1
    return plies
