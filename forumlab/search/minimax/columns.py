"""Slots and columns of the minimax search's arrays, each family with its own prefix.

- ``STAT_*``: slots of the int64 ``stats`` array, the counters and budget that Python
  and the kernels share during one search.
- ``TT_*``: columns of the transposition table ``tt`` (int64), and the bits of its
  meta word (``TT_DEPTH_BITS``, ``TT_PROVEN``, the bound flags ``TT_EXACT`` ...).
- ``FRAME_*``: columns of ``frames`` (int64), one row per frame of the explicit
  search stack; ``WINDOW_*``: columns of ``windows`` (float64), the same frame's
  alpha-beta window and best value.
- ``NODE_*``: kinds of frame; ``ENTER_*``: outcomes of entering a node.

Explicit stack: the searches are loops over a stack of frames, not recursive
functions. Numba cannot reliably cache a recursive function that another cached
function calls (it segfaults on loading, numba issues #6061 and #6713), and the loop
also saves the call overhead. A frame's position on the stack (``sp``) can differ
from its state ply (``FRAME_PLY``) in BRS, where default moves add plies without
frames and an opponent-choice layer shares its state with its children.
"""
from __future__ import annotations

from .settings import MAX_STACK

# ---- stats slots -----------------------------------------------------------------------
STAT_NODES = 0  # nodes searched so far for this move (cumulative over iterations)
STAT_NODE_LIMIT = 1  # abort once STAT_NODES exceeds this (0 = no limit)
STAT_ABORT = 2  # why the iteration was abandoned: 0 = it was not, ABORT_NODES, ABORT_CLOCK
STAT_CUT = 3  # set when some leaf was cut by depth (or by an unproven TT entry): not proven
STAT_ROOT = 4  # the root player
STAT_ROOT_DONE = 5  # root moves fully searched in the current iteration
STAT_EXTRA = 6  # look-ahead evaluations (move ordering, greedy default moves): not nodes
STAT_CHECK_AT = 7  # read the clock once STAT_NODES + STAT_EXTRA reaches this (0 = no clock)
STAT_DEADLINE = 8  # abort once time.perf_counter_ns() reaches this (0 = no wall-clock budget)
STAT_CPU_DEADLINE = 9  # abort once time.thread_time_ns() reaches this (0 = no CPU budget)
N_STATS = 10
ABORT_NODES = 1
ABORT_CLOCK = 2

# ---- transposition table: columns of `tt`, bits of its meta word -----------------------
TT_KEY = 0
TT_MOVE = 1
TT_META = 2  # depth | TT_PROVEN | flag << 8 | generation << 10
N_TT_COLUMNS = 3
TT_DEPTH_BITS = 127  # depth < 128 (MAX_DEPTH)
TT_PROVEN = 128  # no leaf of the stored search was cut by depth: the value holds at any depth
TT_EXACT = 1
TT_LOWER = 2
TT_UPPER = 3

# ---- frames: columns of `frames` (int64) -----------------------------------------------
FRAME_PLY = 0  # row of states / moves / move_keys holding the node's position
FRAME_DEPTH = 1  # plies left
FRAME_NEXT = 2  # next move index (next seat offset in a BRS layer)
FRAME_COUNT = 3  # number of moves (players in a BRS layer)
FRAME_TT_KEY = 4  # TT key (int64)
FRAME_TT_INDEX = 5  # TT index, -1 = do not store
FRAME_BEST_MOVE = 6
FRAME_MOVE = 7  # the move whose subtree is being searched
FRAME_SEARCHER = 8  # BRS: the replying opponent, -1 if none
FRAME_KIND = 9  # NODE_SEARCH or NODE_LAYER
FRAME_MAXIMIZING = 10  # 1 if the root player moves
FRAME_PLAYER = 11  # player to move
FRAME_SAVED_CUT = 12  # the parent's STAT_CUT flag, saved while this node's subtree is searched
N_FRAME_COLUMNS = 13

# ---- frames: columns of `windows` (float64) --------------------------------------------
WINDOW_ALPHA = 0
WINDOW_BETA = 1
WINDOW_ALPHA_IN = 2  # window on entry (after TT bounds), for the TT flag
WINDOW_BETA_IN = 3
WINDOW_BEST = 4  # best value found so far
N_WINDOW_COLUMNS = 5

NODE_SEARCH = 0  # a node searching its own moves (MAX, or MIN in paranoid / by the BRS searcher)
NODE_LAYER = 1  # BRS: the MIN layer choosing which opponent replies

ENTER_FRAME = 0  # a frame was pushed
ENTER_VALUE = 1  # the node's value is known at once (leaf or TT cutoff)
ENTER_ABORT = 2  # the budget is exhausted

SCRATCH_ROW = MAX_STACK + 1  # row of `values` used as scratch for scores
