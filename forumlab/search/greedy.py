"""One-ply greedy move choice on the game's heuristic (generic over games)."""
import numpy as np
from numba import njit

from ..core.dispatch import (
    apply_move,
    current_player,
    legal_moves,
    max_moves,
    proposal_move,
    random_move,
)
from ..core.rng import rand_below
from .arrays import copy_into
from .weighted import heuristic_value


@njit(cache=True)
def greedy_move(tag, s, rng, w=None):
    """The legal move of the tagged game whose successor has the best heuristic for the mover.

    Ties are broken uniformly at random (reservoir sampling over the tied moves). ``w``:
    weights of the heuristic's terms (None: the game's defaults; :mod:`.weighted`).
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
        v = heuristic_value(tag, child, player, w)
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
def sampled_greedy_move(tag, s, rng, samples, proposals=0, w=None):
    """The best of ``samples`` legal moves by the mover's one-ply heuristic: the first
    ``proposals`` of them drawn from the game's ``proposal_move``, the rest uniformly.

    A rollout policy for games with thousands of legal moves (Forma: 5,000-22,000),
    where a full one-ply greedy step costs a whole move generation: the engines'
    ``random_move`` draws a move without generating the list, so a step costs
    ``samples`` moves applied and scored. Uniform draws rarely land where points are
    decided; a game's proposal kernel aims some of them there. Ties go to the first
    drawn. ``w``: weights of the heuristic's terms, as for :func:`greedy_move`.
    """
    player = current_player(tag, s)
    child = s.copy()
    best = proposal_move(tag, s, rng) if proposals > 0 else random_move(tag, s, rng)
    if samples <= 1:
        return best
    copy_into(child, s)
    apply_move(tag, child, best)
    best_v = heuristic_value(tag, child, player, w)
    for i in range(1, samples):
        move = proposal_move(tag, s, rng) if i < proposals else random_move(tag, s, rng)
        copy_into(child, s)
        apply_move(tag, child, move)
        v = heuristic_value(tag, child, player, w)
        if v > best_v:
            best_v = v
            best = move
    return best


@njit(cache=True)
def one_ply_values(tag, s, moves, out, w=None):
    """Write the mover's heuristic value (term weights ``w``; None: the game's own) of
    each legal move's successor to ``out`` and the legal moves to ``moves`` (room for
    ``max_moves``); return their number. What greedy chooses from: its move is one of
    those with the highest value (tests, benchmarks of how weights change play)."""
    player = current_player(tag, s)
    n = legal_moves(tag, s, moves)
    child = s.copy()
    for i in range(n):
        copy_into(child, s)
        apply_move(tag, child, moves[i])
        out[i] = heuristic_value(tag, child, player, w)
    return n
