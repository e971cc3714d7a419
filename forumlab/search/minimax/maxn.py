"""The max^n engine of the minimax search (Luckhardt & Irani 1986).

Every node returns a vector with one value per player (each the player's own
margin, :func:`.leaves.leaf_vector`); the player to move picks the child that is
best in its own component. Ties are broken by one fixed total order on vectors (own
component high, then the other components low, lowest seat first), so the value does
not depend on the move order. No pruning: our margins are not constant-sum, so
shallow pruning's bound does not exist; move ordering is thus useless and skipped
(the TT still catches transpositions). With two players a seat's margin is minus
the other's, so max^n is minimax and the driver runs it as the paranoid alpha-beta
search (:func:`.driver.search`).

Frames are one per ply (no BRS layers), so the stack pointer is the ply; the value
vector of ply ``k`` is ``values[k]``.
"""
from __future__ import annotations

from numba import njit

from ...core.dispatch import apply_move, current_player, is_terminal, legal_moves, num_players
from ..arrays import copy_into
from ..hashing import state_hash
from .budget import over_budget
from .columns import (
    ENTER_ABORT,
    ENTER_FRAME,
    ENTER_VALUE,
    FRAME_BEST_MOVE,
    FRAME_COUNT,
    FRAME_DEPTH,
    FRAME_MOVE,
    FRAME_NEXT,
    FRAME_PLAYER,
    FRAME_PLY,
    FRAME_TT_INDEX,
    FRAME_TT_KEY,
    SCRATCH_ROW,
    STAT_CUT,
    STAT_NODES,
    STAT_ROOT,
    STAT_ROOT_DONE,
    TT_DEPTH_BITS,
    TT_EXACT,
    TT_KEY,
    TT_META,
    TT_MOVE,
    TT_PROVEN,
)
from .leaves import leaf_vector
from .settings import MAX_STACK
from .table import enter_subtree, leave_subtree


@njit(cache=True, inline="always")
def _better(a, b, p, n):
    """Whether player p prefers value vector a to b (a fixed total order, so ties
    between different vectors never depend on the move order)."""
    if a[p] != b[p]:
        return a[p] > b[p]
    for q in range(n):
        if q != p and a[q] != b[q]:
            return a[q] < b[q]
    return False


@njit(cache=True, inline="always")
def _enter(tag, ply, depth, states, moves, values, frames, tt, tt_values, stats, settings):
    """Enter states[ply]: ENTER_VALUE with its vector in values[ply] (leaf or TT hit),
    ENTER_ABORT, or push frame ply (ENTER_FRAME).

    Takes the arrays that :func:`maxn_iteration` took out of the buffers tuple once
    per iteration, not the tuple: numba counts a reference for every array taken out
    of a tuple, and doing that here, once per node, cost about 5% of max^n's nodes
    per second.
    """
    if over_budget(stats):
        return ENTER_ABORT
    s = states[ply]
    out = values[ply]
    if is_terminal(tag, s):
        leaf_vector(tag, s, out, values[SCRATCH_ROW], settings.cooperative, settings.weights)
        return ENTER_VALUE
    if depth <= 0 or ply >= MAX_STACK - 1:
        stats[STAT_CUT] = 1
        leaf_vector(tag, s, out, values[SCRATCH_ROW], settings.cooperative, settings.weights)
        return ENTER_VALUE
    mask = settings.tt_mask
    key = 0
    idx = -1
    if mask >= 0:
        key = state_hash(s)
        idx = key & mask
        meta = tt[idx, TT_META]
        proven = (meta & TT_PROVEN) != 0
        if (tt[idx, TT_KEY] == key and (meta >> 10) == settings.generation
                and (proven or (meta & TT_DEPTH_BITS) >= depth)):
            for q in range(num_players(s)):
                out[q] = tt_values[idx, q]
            if not proven:
                stats[STAT_CUT] = 1
            return ENTER_VALUE
    frame = frames[ply]
    frame[FRAME_PLY] = ply
    frame[FRAME_DEPTH] = depth
    frame[FRAME_NEXT] = 0
    frame[FRAME_COUNT] = legal_moves(tag, s, moves[ply])
    frame[FRAME_TT_KEY] = key
    frame[FRAME_TT_INDEX] = idx
    frame[FRAME_BEST_MOVE] = -1
    frame[FRAME_PLAYER] = current_player(tag, s)
    enter_subtree(frame, stats)
    return ENTER_FRAME


@njit(cache=True, inline="always")
def maxn_iteration(tag, depth, n_root, buffers, settings):
    """One max^n iteration over moves[0, :n_root]; the root vector ends in values[0]
    and the best move in frames[0, FRAME_BEST_MOVE]; returns the root player's
    component."""
    states = buffers.states
    moves = buffers.moves
    values = buffers.values
    frames = buffers.frames
    stats = buffers.stats
    tt = buffers.tt
    tt_values = buffers.tt_values
    root = stats[STAT_ROOT]
    n_players = num_players(states[0])
    gen = settings.generation
    frame = frames[0]
    frame[FRAME_PLY] = 0
    frame[FRAME_DEPTH] = depth
    frame[FRAME_NEXT] = 0
    frame[FRAME_COUNT] = n_root
    frame[FRAME_TT_INDEX] = -1
    frame[FRAME_BEST_MOVE] = moves[0, 0]
    frame[FRAME_PLAYER] = root
    ply = 0
    pending = False
    while True:
        frame = frames[ply]
        if pending:
            pending = False
            if ply == 0:
                stats[STAT_ROOT_DONE] += 1
            if frame[FRAME_NEXT] == 1 or _better(values[ply + 1], values[ply], frame[FRAME_PLAYER],
                                                 n_players):
                for q in range(n_players):
                    values[ply, q] = values[ply + 1, q]
                frame[FRAME_BEST_MOVE] = frame[FRAME_MOVE]
        if frame[FRAME_NEXT] < frame[FRAME_COUNT]:
            m = moves[ply, frame[FRAME_NEXT]]
            frame[FRAME_NEXT] += 1
            frame[FRAME_MOVE] = m
            child = states[ply + 1]
            copy_into(child, states[ply])
            apply_move(tag, child, m)
            stats[STAT_NODES] += 1
            status = _enter(tag, ply + 1, frame[FRAME_DEPTH] - 1, states, moves, values, frames, tt,
                            tt_values, stats, settings)
            if status == ENTER_ABORT:
                return 0.0
            if status == ENTER_VALUE:
                pending = True
            else:
                ply += 1
            continue
        if ply == 0:
            return values[0, root]
        idx = frame[FRAME_TT_INDEX]
        proven = leave_subtree(frame, stats)
        if idx >= 0:
            tt[idx, TT_KEY] = frame[FRAME_TT_KEY]
            tt[idx, TT_MOVE] = frame[FRAME_BEST_MOVE]
            tt[idx, TT_META] = frame[FRAME_DEPTH] | proven | (TT_EXACT << 8) | (gen << 10)
            for q in range(n_players):
                tt_values[idx, q] = values[ply, q]
        ply -= 1
        pending = True
