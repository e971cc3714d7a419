"""Transposition table and the proof flag of the minimax search.

The table is fixed-size arrays indexed by ``hash & mask`` (Zobrist hash of the whole
state, :mod:`forumlab.search.hashing`), holding the full key, remaining depth, bound
flag (exact/lower/upper), best move and a generation stamp (``TT_*`` columns of
:mod:`.columns`); entries of earlier searches are treated as empty, so a search
never depends on what the agent searched before (always-replace). The table
persists across the iterations of one move, giving the previous iteration's best
move first. An entry whose subtree had no leaf cut by depth is marked ``TT_PROVEN``:
its value (or bound) is the game's, so it is used at any remaining depth and does
not make the search that uses it unproven (which is how a game tree with
transpositions is still seen to be exhausted). Probing differs per engine and is
written in :mod:`.alphabeta` and :mod:`.maxn`.
"""
from __future__ import annotations

from numba import njit

from .columns import FRAME_SAVED_CUT, STAT_CUT, TT_KEY, TT_META, TT_MOVE, TT_PROVEN


@njit(cache=True, inline="always")
def tt_store(tt, tt_values, idx, key, move, depth, flag, gen, value):
    """Write one alpha-beta entry (depth may carry TT_PROVEN)."""
    tt[idx, TT_KEY] = key
    tt[idx, TT_MOVE] = move
    tt[idx, TT_META] = depth | (flag << 8) | (gen << 10)
    tt_values[idx, 0] = value


@njit(cache=True, inline="always")
def enter_subtree(frame, stats):
    """A node's frame was pushed: save the cut flag of the search so far and start
    its subtree's own, so that the node learns whether its subtree was proven."""
    frame[FRAME_SAVED_CUT] = stats[STAT_CUT]
    stats[STAT_CUT] = 0


@njit(cache=True, inline="always")
def leave_subtree(frame, stats):
    """A node is finished: TT_PROVEN for its TT entry if no leaf below it was cut by
    depth; the cut flag of the search so far then includes its subtree's."""
    cut = stats[STAT_CUT]
    stats[STAT_CUT] = cut | frame[FRAME_SAVED_CUT]
    return 0 if cut else TT_PROVEN
