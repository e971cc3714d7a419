"""The alpha-beta engine of the minimax search: paranoid and BRS+.

- **Paranoid** (Sturtevant & Korf 2000): the root player maximizes its value, every
  other player minimizes it, searched with fail-soft alpha-beta.
- **BRS+** (Schadd & Winands 2011, "Best Reply Search for Multiplayer Games";
  Esser, Gras, Winands, Schadd & Lanctot 2013, "Improving Best-Reply Search"): a
  MAX layer for the root player, then a single MIN layer in which only one opponent
  replies, the one whose reply is worst for the root player, chosen among *all*
  opponents. Our engines have no pass move, so plain BRS would reach illegal
  positions; BRS+ lets the other opponents play a fixed *default move* instead:
  ``history`` (the default, as in Esser et al.: what move ordering would try first,
  i.e. the legal move with the highest history-heuristic score, the first legal
  move while none has a score) or ``greedy`` (the move maximizing the opponent's own
  one-ply margin). History scores come from cutoffs, mostly opponents' moves that
  hurt the root player, so the history default is an adversarial filler move; on
  Forum Romanum midgames it prunes 20-30 times more than ``greedy``, whose
  self-interested moves rarely refute (depth 4 after 30 plies: 0.3-1 s against
  10-28 s per move), with no measurable strength difference in a small match
  (18 games at 0.1 s per move).
  The TT key of a node where an opponent searches is salted with that opponent's
  seat, since its value depends on who replies.
  Default moves do not use depth. In the 2-player game BRS equals paranoid search.

Both run as one loop over the explicit frame stack (:mod:`.columns`), with move
ordering from :mod:`.ordering` and the table of :mod:`.table`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.dispatch import (
    apply_move,
    current_player,
    is_terminal,
    legal_moves,
    num_players,
)
from ..arrays import copy_into
from ..hashing import salted, state_hash
from ..weighted import heuristic_value
from .budget import over_budget
from .columns import (
    ENTER_ABORT,
    ENTER_FRAME,
    ENTER_VALUE,
    FRAME_BEST_MOVE,
    FRAME_COUNT,
    FRAME_DEPTH,
    FRAME_KIND,
    FRAME_MAXIMIZING,
    FRAME_MOVE,
    FRAME_NEXT,
    FRAME_PLAYER,
    FRAME_PLY,
    FRAME_SEARCHER,
    FRAME_TT_INDEX,
    FRAME_TT_KEY,
    NODE_LAYER,
    NODE_SEARCH,
    SCRATCH_ROW,
    STAT_CUT,
    STAT_EXTRA,
    STAT_NODES,
    STAT_ROOT,
    STAT_ROOT_DONE,
    TT_DEPTH_BITS,
    TT_EXACT,
    TT_KEY,
    TT_LOWER,
    TT_META,
    TT_MOVE,
    TT_PROVEN,
    TT_UPPER,
    WINDOW_ALPHA,
    WINDOW_ALPHA_IN,
    WINDOW_BEST,
    WINDOW_BETA,
    WINDOW_BETA_IN,
)
from .leaves import leaf_value, quantize
from .ordering import history_index, order_keys, pick, record_cutoff
from .settings import BRS, DEFAULT_GREEDY, MAX_STACK, PICK_FIRST
from .table import enter_subtree, leave_subtree, tt_store


@njit(cache=True)
def _default_move(tag, s, child, mv, n, p, mode, history, scratch, cooperative, w):
    """The fixed move of a non-searching BRS opponent p (first of equals)."""
    best_i = 0
    if mode == DEFAULT_GREEDY:
        best = -np.inf
        for i in range(n):
            copy_into(child, s)
            apply_move(tag, child, mv[i])
            v = leaf_value(tag, child, p, scratch, cooperative, w)
            if v > best:
                best = v
                best_i = i
    else:
        best = history[history_index(mv[0])]
        for i in range(1, n):
            v = history[history_index(mv[i])]
            if v > best:
                best = v
                best_i = i
    return mv[best_i]


@njit(cache=True, inline="always")
def _probe_tt(s, depth, alpha, beta, searcher, buffers, settings, stats):
    """Look the node s up in the transposition table.

    Returns (decided, v, alpha, beta, key, idx, tt_move): decided when the entry settles
    the node, with value v; else the window narrowed by the entry's bound. key and idx
    are the node's hash and slot (0 and -1 without a table), tt_move the entry's best
    move (-1 if none).
    """
    mask = settings.tt_mask
    key = 0
    idx = -1
    tt_move = -1
    if mask >= 0:
        tt = buffers.tt
        key = state_hash(s)
        if searcher >= 0:
            key = salted(key, searcher)
        idx = key & mask
        if tt[idx, TT_KEY] == key and (tt[idx, TT_META] >> 10) == settings.generation:
            meta = tt[idx, TT_META]
            tt_move = tt[idx, TT_MOVE]
            proven = (meta & TT_PROVEN) != 0
            # a proven entry holds at any depth; another may hide depth cuts, so
            # using it never claims a proven result
            if proven or (meta & TT_DEPTH_BITS) >= depth:
                v = buffers.tt_values[idx, 0]
                flag = (meta >> 8) & 3
                if flag == TT_EXACT:
                    if not proven:
                        stats[STAT_CUT] = 1
                    return True, v, alpha, beta, key, idx, tt_move
                if flag == TT_LOWER and v > alpha:
                    alpha = v
                elif flag == TT_UPPER and v < beta:
                    beta = v
                if alpha >= beta:
                    if not proven:
                        stats[STAT_CUT] = 1
                    return True, v, alpha, beta, key, idx, tt_move
    return False, 0.0, alpha, beta, key, idx, tt_move


@njit(cache=True, inline="always")
def _push_frame(frame, window, ply, depth, alpha, beta, key, idx, searcher, p, maximizing, stats):
    """Fill a new node's frame and window (its moves are set up by the caller)."""
    frame[FRAME_PLY] = ply
    frame[FRAME_DEPTH] = depth
    frame[FRAME_NEXT] = 0
    frame[FRAME_TT_KEY] = key
    frame[FRAME_TT_INDEX] = idx
    frame[FRAME_BEST_MOVE] = -1
    frame[FRAME_MOVE] = -1
    frame[FRAME_SEARCHER] = searcher
    frame[FRAME_MAXIMIZING] = 1 if maximizing else 0
    frame[FRAME_PLAYER] = p
    window[WINDOW_ALPHA] = alpha
    window[WINDOW_BETA] = beta
    window[WINDOW_ALPHA_IN] = alpha
    window[WINDOW_BETA_IN] = beta
    window[WINDOW_BEST] = -np.inf if maximizing else np.inf
    enter_subtree(frame, stats)


@njit(cache=True)
def _enter(tag, sp, ply, depth, alpha, beta, searcher, buffers, settings):
    """Enter the node states[ply] with window (alpha, beta).

    Returns (ENTER_VALUE, v) for a leaf or a TT cutoff, (ENTER_ABORT, 0) when out of
    budget, else pushes frame sp and returns (ENTER_FRAME, 0). In BRS the default
    moves of non-searching opponents are played here first (advancing ply, not depth).
    """
    # Most calls are leaves: take from the tuple only what a leaf needs (numba counts a
    # reference for every array taken out of a tuple, a measurable cost per node).
    states = buffers.states
    stats = buffers.stats
    root = stats[STAT_ROOT]
    brs = settings.algorithm == BRS
    while True:
        if over_budget(stats):
            return ENTER_ABORT, 0.0
        s = states[ply]
        if is_terminal(tag, s):
            return ENTER_VALUE, leaf_value(tag, s, root, buffers.values[SCRATCH_ROW],
                                           settings.cooperative, settings.weights)
        if depth <= 0 or ply >= MAX_STACK - 1:
            stats[STAT_CUT] = 1
            return ENTER_VALUE, quantize(heuristic_value(tag, s, root, settings.weights))
        p = current_player(tag, s)
        if p == root:
            searcher = -1
            break
        if not brs or searcher < 0 or p == searcher:
            break
        mv = buffers.moves[ply]
        child = states[ply + 1]
        n = legal_moves(tag, s, mv)
        m = _default_move(tag, s, child, mv, n, p, settings.default_move, buffers.history,
                          buffers.values[SCRATCH_ROW], settings.cooperative, settings.weights)
        if settings.default_move == DEFAULT_GREEDY:
            stats[STAT_EXTRA] += n
        copy_into(child, s)
        apply_move(tag, child, m)
        stats[STAT_NODES] += 1
        ply += 1

    maximizing = p == root
    layer = brs and not maximizing and searcher < 0
    decided, v, alpha, beta, key, idx, tt_move = _probe_tt(s, depth, alpha, beta, searcher, buffers,
                                                           settings, stats)
    if decided:
        return ENTER_VALUE, v
    frame = buffers.frames[sp]
    _push_frame(frame, buffers.windows[sp], ply, depth, alpha, beta, key, idx, searcher, p,
                maximizing, stats)
    if layer:
        frame[FRAME_KIND] = NODE_LAYER
        frame[FRAME_COUNT] = num_players(s)
    else:
        frame[FRAME_KIND] = NODE_SEARCH
        n = legal_moves(tag, s, buffers.moves[ply])
        frame[FRAME_COUNT] = n
        stats[STAT_EXTRA] += order_keys(tag, buffers, ply, n, depth, settings.order_depth,
                                        1.0 if maximizing else -1.0, root, tt_move,
                                        settings.cooperative, settings.weights)
    return ENTER_FRAME, 0.0


# long kernel: one loop over the explicit frame stack, whose locals every step shares; moving
# its steps (root set-up, taking a child's value, the next BRS replier, storing a finished
# node) into inlined helpers cost 6-11% of nodes per CPU second in Forum Romanum's paranoid
# and BRS searches (benchmarks/search.py's bench_minimax, alternating runs), so it stays whole.
@njit(cache=True, inline="always")
def alphabeta_iteration(tag, depth, n_root, buffers, settings):
    """One paranoid / BRS+ iteration over the root moves moves[0, :n_root] in order;
    returns the root value and leaves the best move in frames[0, FRAME_BEST_MOVE]."""
    states = buffers.states
    moves = buffers.moves
    move_keys = buffers.move_keys
    frames = buffers.frames
    windows = buffers.windows
    killers = buffers.killers
    history = buffers.history
    tt = buffers.tt
    tt_values = buffers.tt_values
    stats = buffers.stats
    root = stats[STAT_ROOT]
    frame = frames[0]
    window = windows[0]
    frame[FRAME_PLY] = 0
    frame[FRAME_DEPTH] = depth
    frame[FRAME_NEXT] = 0
    frame[FRAME_COUNT] = n_root
    frame[FRAME_TT_INDEX] = -1
    frame[FRAME_BEST_MOVE] = moves[0, 0]
    frame[FRAME_MOVE] = -1
    frame[FRAME_SEARCHER] = -1
    frame[FRAME_KIND] = NODE_SEARCH
    frame[FRAME_MAXIMIZING] = 1
    frame[FRAME_PLAYER] = root
    window[WINDOW_ALPHA] = -np.inf
    window[WINDOW_BETA] = np.inf
    window[WINDOW_BEST] = -np.inf
    for i in range(n_root):  # decreasing keys: the root keeps the given order
        move_keys[0, i] = n_root - i

    sp = 0
    pending = False
    v = 0.0
    while True:
        frame = frames[sp]
        window = windows[sp]
        if pending:
            pending = False
            if sp == 0:
                stats[STAT_ROOT_DONE] += 1
            if frame[FRAME_KIND] == NODE_LAYER:
                if v < window[WINDOW_BEST]:
                    window[WINDOW_BEST] = v
                    if v < window[WINDOW_BETA]:
                        window[WINDOW_BETA] = v
            elif frame[FRAME_MAXIMIZING]:
                if v > window[WINDOW_BEST]:
                    window[WINDOW_BEST] = v
                    frame[FRAME_BEST_MOVE] = frame[FRAME_MOVE]
                    if v > window[WINDOW_ALPHA]:
                        window[WINDOW_ALPHA] = v
                        if window[WINDOW_ALPHA] >= window[WINDOW_BETA]:
                            record_cutoff(frame[FRAME_MOVE], frame[FRAME_PLY], frame[FRAME_DEPTH],
                                          killers, history)
            else:
                if v < window[WINDOW_BEST]:
                    window[WINDOW_BEST] = v
                    frame[FRAME_BEST_MOVE] = frame[FRAME_MOVE]
                    if v < window[WINDOW_BETA]:
                        window[WINDOW_BETA] = v
                        if window[WINDOW_ALPHA] >= window[WINDOW_BETA]:
                            record_cutoff(frame[FRAME_MOVE], frame[FRAME_PLY], frame[FRAME_DEPTH],
                                          killers, history)

        if window[WINDOW_ALPHA] < window[WINDOW_BETA] and frame[FRAME_NEXT] < frame[FRAME_COUNT]:
            ply = frame[FRAME_PLY]
            status = ENTER_FRAME
            val = 0.0
            if frame[FRAME_KIND] == NODE_SEARCH:
                i = frame[FRAME_NEXT]
                if i < PICK_FIRST or frame[FRAME_DEPTH] >= settings.order_depth:
                    m = pick(moves[ply], move_keys[ply], i, frame[FRAME_COUNT])
                else:  # near the leaves, past the TT move and killers: no O(n^2) sort
                    m = moves[ply, i]
                frame[FRAME_NEXT] = i + 1
                frame[FRAME_MOVE] = m
                child = states[ply + 1]
                copy_into(child, states[ply])
                apply_move(tag, child, m)
                stats[STAT_NODES] += 1
                status, val = _enter(tag, sp + 1, ply + 1, frame[FRAME_DEPTH] - 1,
                                     window[WINDOW_ALPHA], window[WINDOW_BETA],
                                     -1 if frame[FRAME_MAXIMIZING] else frame[FRAME_SEARCHER],
                                     buffers, settings)
            else:
                # next opponent seat after the mover, skipping the root player
                j = -1
                while frame[FRAME_NEXT] < frame[FRAME_COUNT]:
                    j = (frame[FRAME_PLAYER] + frame[FRAME_NEXT]) % frame[FRAME_COUNT]
                    frame[FRAME_NEXT] += 1
                    if j != root:
                        break
                    j = -1
                if j < 0:
                    continue
                status, val = _enter(tag, sp + 1, ply, frame[FRAME_DEPTH], window[WINDOW_ALPHA],
                                     window[WINDOW_BETA], j, buffers, settings)
            if status == ENTER_ABORT:
                return 0.0
            if status == ENTER_VALUE:
                v = val
                pending = True
            else:
                sp += 1
            continue

        # the node is finished
        if sp == 0:
            return window[WINDOW_BEST]
        best = window[WINDOW_BEST]
        proven = leave_subtree(frame, stats)
        if frame[FRAME_TT_INDEX] >= 0:
            if best <= window[WINDOW_ALPHA_IN]:
                flag = TT_UPPER
            elif best >= window[WINDOW_BETA_IN]:
                flag = TT_LOWER
            else:
                flag = TT_EXACT
            tt_store(tt, tt_values, frame[FRAME_TT_INDEX], frame[FRAME_TT_KEY],
                     frame[FRAME_BEST_MOVE], frame[FRAME_DEPTH] | proven, flag,
                     settings.generation, best)
        v = best
        sp -= 1
        pending = True
