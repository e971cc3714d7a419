"""The two kernels Python calls: set up the root, run one iteration.

- Root ties are broken at random: the root moves are shuffled with the agent's RNG
  before the first iteration (:func:`prepare_root`), and every iteration keeps the
  first of equally good moves (the previous best is moved to the front,
  :func:`search_iteration`). With a node or depth budget the result is a pure
  function of (state, seed, parameters).
- Chance and hidden information: the root state is first passed through
  ``determinize(copy, observer=player to move, rng)`` and the search treats the
  sample as a perfect-information game (a single determinization per move;
  averaging over several is future work). For perfect-information games, such as
  Forum Romanum, ``determinize`` is the identity.

Both take the game's tag first (numba compiles and caches them per game), then the
search's :class:`~.buffers.SearchBuffers` and :class:`~.settings.SearchSettings`.
"""
from __future__ import annotations

from numba import njit

from ...core.dispatch import current_player, determinize, legal_moves
from ...core.rng import rand_below
from ..arrays import copy_into
from .alphabeta import alphabeta_iteration
from .columns import FRAME_BEST_MOVE, STAT_ABORT, STAT_CUT, STAT_NODES, STAT_ROOT, STAT_ROOT_DONE
from .maxn import maxn_iteration
from .settings import MAXN


@njit(cache=True)
def prepare_root(tag, array, rng, buffers):
    """Determinize a copy of array into states[0] (observer = player to move), write
    its legal moves shuffled with rng to moves[0], clear the ordering tables.

    Args:
        tag: the game's tag.
        array: the position.
        rng: a uint64[1] SplitMix64 state (advanced).
        buffers: the searcher's :class:`~.buffers.SearchBuffers`.

    Returns:
        The number of root moves.
    """
    s = buffers.states[0]
    copy_into(s, array)
    determinize(tag, s, current_player(tag, s), rng)
    mv = buffers.moves[0]
    n = legal_moves(tag, s, mv)
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        m = mv[i]
        mv[i] = mv[j]
        mv[j] = m
    buffers.history[:] = 0.0
    buffers.killers[:] = -1
    return n


@njit(cache=True)
def search_iteration(tag, depth, n_root, buffers, settings):
    """One iteration of iterative deepening from states[0] over the root moves
    moves[0, :n_root] (in that order).

    Args:
        tag: the game's tag.
        depth: plies to search.
        n_root: number of root moves (from :func:`prepare_root`).
        buffers: the searcher's :class:`~.buffers.SearchBuffers`.
        settings: the search's :class:`~.settings.SearchSettings`.

    Returns:
        The root player's value. When the iteration completes (stats[STAT_ABORT] ==
        0) the best move (the first of equals) is moved to moves[0, 0]; for max^n the
        root value vector is left in values[0]. When it is abandoned, the best of the
        stats[STAT_ROOT_DONE] root moves searched in full is frames[0,
        FRAME_BEST_MOVE] with value windows[0, WINDOW_BEST] (max^n: values[0]).
    """
    stats = buffers.stats
    stats[STAT_ROOT] = current_player(tag, buffers.states[0])
    stats[STAT_ABORT] = 0
    stats[STAT_CUT] = 0
    stats[STAT_ROOT_DONE] = 0
    stats[STAT_NODES] += 1
    if settings.algorithm == MAXN:
        value = maxn_iteration(tag, depth, n_root, buffers, settings)
    else:
        value = alphabeta_iteration(tag, depth, n_root, buffers, settings)
    if stats[STAT_ABORT]:
        return 0.0
    best = buffers.frames[0, FRAME_BEST_MOVE]
    mv = buffers.moves[0]
    k = 0
    while mv[k] != best:
        k += 1
    for j in range(k, 0, -1):
        mv[j] = mv[j - 1]
    mv[0] = best
    return value
