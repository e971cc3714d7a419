"""Move ordering of the alpha-beta searches (paranoid, BRS+).

TT move first; at nodes with at least ``order_depth`` plies left (default
``ORDER_DEPTH``), the rest by a one-ply look-ahead with the evaluation (cheap next to
the subtree below); nearer the leaves by killer moves (two per ply) then the history
heuristic. Moves are picked lazily (selection, :func:`pick`), so a cutoff on the
first moves costs no full sort; below ``order_depth`` only the first ``PICK_FIRST``
moves are picked (TT move, killers, best history), the rest are taken in generation
order, since an O(n^2) selection over ~190 moves would cost more than the
evaluations it orders. (Measured on Forum Romanum: the look-ahead saves few nodes
once iterative deepening supplies TT moves, so it only pays near the root.)
"""
from __future__ import annotations

from numba import njit

from ...core.dispatch import apply_move
from ..arrays import copy_into
from .columns import SCRATCH_ROW
from .leaves import leaf_value
from .settings import HISTORY_BITS

_HISTORY_MASK = (1 << HISTORY_BITS) - 1
# ordering keys above any evaluation: the TT move, then the two killers
_TT_BONUS = 1e300
_KILLER0 = 1e200
_KILLER1 = 1e199


@njit(cache=True, inline="always")
def history_index(m):
    """Entry of the history table for move code m."""
    return (m ^ (m >> HISTORY_BITS)) & _HISTORY_MASK


@njit(cache=True, inline="always")
def pick(mv, ky, i, n):
    """Move the best-keyed of mv[i:n] to position i (first on ties) and return it."""
    j = i
    kbest = ky[i]
    for k in range(i + 1, n):
        if ky[k] > kbest:
            kbest = ky[k]
            j = k
    if j != i:
        m = mv[j]
        mv[j] = mv[i]
        mv[i] = m
        ky[j] = ky[i]
        ky[i] = kbest
    return mv[i]


@njit(cache=True)
def order_keys(tag, buffers, ply, n, depth, order_depth, sign, root, tt_move, cooperative, w=None):
    """Ordering keys (high first) of the n moves at ply into buffers.move_keys[ply]:
    TT move, then one-ply look-ahead value (sign * the root player's value) at nodes
    with at least order_depth plies left, else killers and history. The look-ahead
    plays into states[ply + 1] (``w``: the heuristic's term weights). Returns the number
    of look-ahead evaluations."""
    s = buffers.states[ply]
    child = buffers.states[ply + 1]
    mv = buffers.moves[ply]
    ky = buffers.move_keys[ply]
    killers = buffers.killers
    history = buffers.history
    scratch = buffers.values[SCRATCH_ROW]
    lookahead = depth >= order_depth
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    for i in range(n):
        m = mv[i]
        if m == tt_move:
            ky[i] = _TT_BONUS
        elif lookahead:
            copy_into(child, s)
            apply_move(tag, child, m)
            ky[i] = sign * leaf_value(tag, child, root, scratch, cooperative, w)
        elif m == k0:
            ky[i] = _KILLER0
        elif m == k1:
            ky[i] = _KILLER1
        else:
            ky[i] = history[history_index(m)]
    return n if lookahead else 0


@njit(cache=True, inline="always")
def record_cutoff(m, ply, depth, killers, history):
    """Move m caused a cutoff at ply with depth plies left: make it the first killer
    of that ply and add depth**2 to its history score."""
    if killers[ply, 0] != m:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = m
    history[history_index(m)] += depth * depth
