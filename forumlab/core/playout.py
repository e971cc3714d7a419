"""Random playouts through the generic kernels (the engines' speed benchmark)."""
from numba import njit

from .dispatch import apply_move, is_terminal, random_move


@njit(cache=True)
def random_playouts(tag, start, n_games, rng):
    """Play n_games uniformly random games of the tagged game from start; return the
    total plies."""
    plies = 0
    for _ in range(n_games):
        s = start.copy()
        while not is_terminal(tag, s):
            apply_move(tag, s, random_move(tag, s, rng))
            plies += 1
    return plies
