"""One-ply greedy move choice on the game's heuristic (generic over games)."""
import numpy as np
from numba import njit

from ..core.dispatch import apply_move, current_player, heuristic, legal_moves, max_moves, random_move
from ..core.rng import rand_below
from .arrays import copy_into


@njit(cache=True)
def greedy_move(tag, s, rng):
    """The legal move of the tagged game whose successor has the best heuristic for the mover.

    Ties are broken uniformly at random (reservoir sampling over the tied moves).
    """
    player = current_player(tag, s)
    buf = np.empty(max_moves(tag), dtype=np.int64)
    n = legal_moves(tag, s, buf)
    child = s.copy()
    best = buf[0]
    best_v = -1e300
    ties = 0
    for i in range(n):
        copy_into(child, s)
        apply_move(tag, child, buf[i])
        v = heuristic(tag, child, player)
        if v > best_v:
            best_v = v
            best = buf[i]
            ties = 1
        elif v == best_v:
            ties += 1
            if rand_below(rng, ties) == 0:
                best = buf[i]
    return best


@njit(cache=True)
def sampled_greedy_move(tag, s, rng, samples):
    """The best of ``samples`` uniformly random legal moves by the mover's one-ply heuristic.

    A rollout policy for games with thousands of legal moves (Forma: 5,000-22,000),
    where a full one-ply greedy step costs a whole move generation: the engines'
    ``random_move`` draws a move without generating the list, so a step costs
    ``samples`` moves applied and scored. Ties go to the first drawn.
    """
    player = current_player(tag, s)
    child = s.copy()
    best = random_move(tag, s, rng)
    if samples <= 1:
        return best
    copy_into(child, s)
    apply_move(tag, child, best)
    best_v = heuristic(tag, child, player)
    for _ in range(samples - 1):
        move = random_move(tag, s, rng)
        copy_into(child, s)
        apply_move(tag, child, move)
        v = heuristic(tag, child, player)
        if v > best_v:
            best_v = v
            best = move
    return best
