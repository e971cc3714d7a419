"""Self-play games for training: epsilon-greedy play through the engine's kernels,
recording positions along the way (their per-seat term vectors: :mod:`.terms`)."""
from __future__ import annotations

from numba import njit

from ..core.dispatch import apply_move, is_terminal, random_move
from ..core.rng import rand_float
from ..search.greedy import greedy_move


@njit(cache=True)
def play_recording(tag, s, rng, epsilon, stride, out, w=None):
    """Play the tagged game from ``s`` to its end (in place): a uniformly random move
    with probability ``epsilon`` (variety between games), else greedy's move on the
    heuristic with weights ``w``. Every ``stride``-th position before the end is copied
    into a row of ``out`` (as many as fit).

    Returns:
        The number of rows written.
    """
    recorded = 0
    ply = 0
    while not is_terminal(tag, s):
        if ply % stride == 0 and recorded < out.shape[0]:
            out[recorded, :] = s
            recorded += 1
        if rand_float(rng) < epsilon:
            move = random_move(tag, s, rng)
        else:
            move = greedy_move(tag, s, rng, w)
        apply_move(tag, s, move)
        ply += 1
    return recorded
