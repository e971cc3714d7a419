"""Generic numba minimax search for 2-6 players: paranoid alpha-beta, max^n and
best-reply search (BRS+), with iterative deepening, move ordering and a
transposition table.

Everything below the Python driver :func:`search` is ``@njit(cache=True)`` and
touches game logic only through :mod:`forumlab.core.dispatch`, with the game's tag
as the first argument, so one implementation serves every registered game and numba
compiles and caches it per game.

Conventions
-----------
- **Depth counts plies**: every call of ``apply_move`` that the search branches on
  is one ply, whoever moves (in Forum Romanum's 2-player game each sub-move is a
  ply; ``current_player`` says who moves). In BRS only *searched* plies count: the
  fixed default moves of non-searching opponents are free (see below).
- **Values** are from the root player's point of view, on the scale of scores:
  non-terminal leaves use the game's ``heuristic(s, p)``; terminal leaves use the
  exact final ``scores`` as ``score[p] - max(score[q] for q != p)``, the same
  "my score minus the best other" margin that Forum Romanum's heuristic estimates,
  so exact and estimated leaves compare on one scale. A proven win is therefore
  not worth more than an estimated lead of the same size; this is deliberate (the
  games are scored, and a margin is what the heuristic predicts). Leaf values are
  rounded to multiples of 2**-20 (:func:`quantize`) so that equal evaluations that
  differ only by float rounding noise are true ties.
- **Nodes** = positions reached by ``apply_move`` during the search, plus the root
  once per iteration (the default moves of BRS count too; the one-ply look-aheads
  used only to order moves or to pick a greedy default move do not, they are
  counted apart as ``extra`` evaluations). Across iterative deepening the counts
  are cumulative.

Algorithms
----------
- **Paranoid** (Sturtevant & Korf 2000): the root player maximizes its value, every
  other player minimizes it, searched with fail-soft alpha-beta.
- **max^n** (Luckhardt & Irani 1986): every node returns a vector with one value per
  player (each the player's own margin); the player to move picks the child that is
  best in its own component. Ties are broken by one fixed total order on vectors
  (own component high, then the other components low, lowest seat first), so the
  value does not depend on the move order. No pruning: our margins are not
  constant-sum, so shallow pruning's bound does not exist; move ordering is thus
  useless and skipped (the TT still catches transpositions). With two players a
  seat's margin is minus the other's, so max^n is minimax and runs as the
  paranoid alpha-beta search (see :func:`search`).
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

Search machinery
----------------
- Transposition table: fixed-size arrays indexed by ``hash & mask`` (Zobrist hash of
  the whole state, :mod:`forumlab.search.hashing`), holding the full key, remaining
  depth, bound flag (exact/lower/upper), best move and a generation stamp; entries
  of earlier searches are treated as empty, so a search never depends on what the
  agent searched before (always-replace). The table persists across the iterations
  of one move, giving the previous iteration's best move first. An entry whose
  subtree had no leaf cut by depth is marked ``PROVEN``: its value (or bound) is the
  game's, so it is used at any remaining depth and does not make the search that
  uses it unproven (which is how a game tree with transpositions is still seen to
  be exhausted).
- Move ordering (paranoid, BRS): TT move first; at nodes with at least
  ``ORDER_DEPTH`` plies left, the rest by a one-ply look-ahead with the evaluation
  (cheap next to the subtree below); nearer the leaves by killer moves (two per ply)
  then the history heuristic. Moves are picked lazily (selection), so a cutoff on the
  first moves costs no full sort; below ``ORDER_DEPTH`` only the first
  ``PICK_FIRST`` moves are picked (TT move, killers, best history), the rest are
  taken in generation order, since an O(n^2) selection over ~190 moves would cost
  more than the evaluations it orders. (Measured on Forum Romanum: the look-ahead
  saves few nodes once iterative deepening supplies TT moves, so it only pays near
  the root.)
- Iterative deepening is driven from Python: depth 1, 2, ... up to the maximum
  depth (``MAX_DEPTH`` when unlimited), until a budget is spent, or until an
  iteration cut no leaf by depth: then every line reached the end of the game, the
  value is proven (``exact``) and deeper iterations could only repeat it. Depth 1
  always completes, whatever the budget. The node budget is checked at every node;
  a time budget (wall clock, or the thread's CPU time) by reading the clock every
  ``CLOCK_EVERY`` units of work inside the kernels (numba has no clock: the read
  goes through object mode, a few microseconds). An iteration interrupted by the
  node budget is discarded, so the move is the one of the last completed depth; one
  interrupted by the clock still counts once it has fully searched its first root
  move, the previous best (``partial``): the best fully searched root move is
  played. See :func:`search`.
- Root ties are broken at random: the root moves are shuffled with the agent's RNG
  before the first iteration, and every iteration keeps the first of equally good
  moves (the previous best is moved to the front). With a node or depth budget the
  result is a pure function of (state, seed, parameters).
- Chance and hidden information: the root state is first passed through
  ``determinize(copy, observer=player to move, rng)`` and the search treats the
  sample as a perfect-information game (a single determinization per move;
  averaging over several is future work). For perfect-information games, such as
  Forum Romanum, ``determinize`` is the identity.
- The searches are loops over an explicit stack of frames, not recursive functions
  (numba cannot safely cache a recursive function called from another cached one).
  Buffers are preallocated per ply: ``states[ply]``, ``moves[ply]``, ``keys[ply]``,
  ``vals[ply]``, and the frames; nothing is allocated per node by the search itself.
"""
from __future__ import annotations

import math
import time as _time
from dataclasses import dataclass

import numpy as np
from numba import njit, objmode

from ..core.dispatch import (
    apply_move,
    current_player,
    determinize,
    heuristic,
    is_terminal,
    legal_moves,
    max_moves,
    num_players,
    scores,
)
from ..core.rng import make_rng, rand_below
from .arrays import copy_into
from .hashing import salted, state_hash

PARANOID = 0
MAXN = 1
BRS = 2
ALGORITHMS = {"paranoid": PARANOID, "maxn": MAXN, "brs": BRS}

DEFAULT_GREEDY = 0
DEFAULT_HISTORY = 1
DEFAULT_MOVES = {"greedy": DEFAULT_GREEDY, "history": DEFAULT_HISTORY}

MAX_DEPTH = 64  # largest depth parameter
MAX_STACK = 192  # plies of buffers (BRS default moves add plies beyond the depth)
MAX_PLAYERS = 8  # width of the value-vector buffers
ORDER_DEPTH = 3  # default: nodes with at least this many plies left order by look-ahead
PICK_FIRST = 4  # nearer the leaves only the first moves are picked in order (TT, killers)
# Under a time budget the kernels read the clock each time this much work (nodes plus
# look-ahead evaluations) has been done: a few microseconds per read against roughly
# 0.1-1 ms of search between reads.
CLOCK_EVERY = 256
HISTORY_BITS = 16
_HISTORY_MASK = (1 << HISTORY_BITS) - 1
_SCRATCH = MAX_STACK + 1  # row of `vals` used as scratch for scores

# slots of the int64 `stats` array shared by Python and the kernels
S_NODES = 0  # nodes searched so far for this move (cumulative over iterations)
S_LIMIT = 1  # abort once S_NODES exceeds this (0 = no limit)
S_ABORT = 2  # why the iteration was abandoned: 0 = it was not, ABORT_NODES, ABORT_CLOCK
S_CUT = 3  # set when some leaf was cut by depth (or by an unproven TT entry): not proven
S_GEN = 4  # generation stamp of this search in the TT
S_ROOT = 5  # the root player
S_MASK = 6  # TT index mask, -1 = no TT
S_ALG = 7  # PARANOID / MAXN / BRS
S_DEFAULT = 8  # BRS default-move rule
S_ORDER = 9  # plies left from which moves are ordered by one-ply look-ahead
S_ROOT_DONE = 10  # root moves fully searched in the current iteration
S_EXTRA = 11  # look-ahead evaluations (move ordering, greedy default moves): not nodes
S_CHECK_AT = 12  # read the clock once S_NODES + S_EXTRA reaches this (0 = no clock)
S_DEADLINE = 13  # abort once time.perf_counter_ns() reaches this (0 = no wall-clock budget)
S_CPU_DEADLINE = 14  # abort once time.thread_time_ns() reaches this (0 = no CPU budget)
N_STATS = 15
ABORT_NODES = 1
ABORT_CLOCK = 2

# transposition-table columns and flags
T_KEY = 0
T_MOVE = 1
T_META = 2  # depth | PROVEN | flag << 8 | generation << 10
DEPTH_BITS = 127  # depth < 128 (MAX_DEPTH)
PROVEN = 128  # no leaf of the stored search was cut by depth: the value holds at any depth
EXACT = 1
LOWER = 2
UPPER = 3

_INF = np.inf
_TT_BONUS = 1e300
_KILLER0 = 1e200
_KILLER1 = 1e199


# ---- leaf values ---------------------------------------------------------------------
QUANTUM = 2.0 ** -20  # leaf values are rounded to multiples of this (exact in binary)


@njit(cache=True, inline="always")
def quantize(v):
    """v rounded to a multiple of QUANTUM, so that evaluations equal up to float
    rounding noise (e.g. the same sum taken in another order in a mirrored
    position) are exact ties, broken at random at the root instead of by noise."""
    return np.rint(v * (1.0 / QUANTUM)) * QUANTUM


@njit(cache=True, inline="always")
def _margin(buf, p, n):
    """buf[p] minus the best other entry of buf[:n]."""
    best = -_INF
    for q in range(n):
        if q != p and buf[q] > best:
            best = buf[q]
    return buf[p] - best


@njit(cache=True)
def leaf_value(tag, s, player, scratch):
    """Value of s for player: exact score margin if terminal, else the heuristic."""
    if is_terminal(tag, s):
        scores(tag, s, scratch)
        return quantize(_margin(scratch, player, num_players(s)))
    return quantize(heuristic(tag, s, player))


@njit(cache=True)
def leaf_vector(tag, s, out, scratch):
    """Per-player values of s into out[:n] (exact margins if terminal)."""
    n = num_players(s)
    if is_terminal(tag, s):
        scores(tag, s, scratch)
        for p in range(n):
            out[p] = quantize(_margin(scratch, p, n))
    else:
        for p in range(n):
            out[p] = quantize(heuristic(tag, s, p))


# ---- small helpers ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def _hidx(m):
    return (m ^ (m >> HISTORY_BITS)) & _HISTORY_MASK


@njit(cache=True)
def _clock_expired(stats):
    """Read the budget clocks (numba has no clock of its own, hence object mode, a few
    microseconds) and schedule the next reading; True (and S_ABORT set) once a
    deadline has passed."""
    stats[S_CHECK_AT] = stats[S_NODES] + stats[S_EXTRA] + CLOCK_EVERY
    if stats[S_DEADLINE] > 0:
        with objmode(now="int64"):
            now = _time.perf_counter_ns()
        if now >= stats[S_DEADLINE]:
            stats[S_ABORT] = ABORT_CLOCK
            return True
    if stats[S_CPU_DEADLINE] > 0:
        with objmode(now_cpu="int64"):
            now_cpu = _time.thread_time_ns()
        if now_cpu >= stats[S_CPU_DEADLINE]:
            stats[S_ABORT] = ABORT_CLOCK
            return True
    return False


@njit(cache=True, inline="always")
def _over_budget(stats):
    if stats[S_LIMIT] > 0 and stats[S_NODES] > stats[S_LIMIT]:
        stats[S_ABORT] = ABORT_NODES
        return True
    if stats[S_CHECK_AT] > 0 and stats[S_NODES] + stats[S_EXTRA] >= stats[S_CHECK_AT]:
        return _clock_expired(stats)
    return False


@njit(cache=True, inline="always")
def _pick(mv, ky, i, n):
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
def _order_keys(tag, s, child, mv, ky, n, ply, depth, order_depth, sign, root, tt_move, killers,
                history, scratch):
    """Ordering keys (high first): TT move, then one-ply look-ahead value (sign * the
    root player's value) at nodes far from the leaves, else killers and history.
    Returns the number of look-ahead evaluations."""
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
            ky[i] = sign * leaf_value(tag, child, root, scratch)
        elif m == k0:
            ky[i] = _KILLER0
        elif m == k1:
            ky[i] = _KILLER1
        else:
            ky[i] = history[_hidx(m)]
    return n if lookahead else 0


@njit(cache=True, inline="always")
def _record_cutoff(m, ply, depth, killers, history):
    if killers[ply, 0] != m:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = m
    history[_hidx(m)] += depth * depth


# ---- explicit-stack search frames ------------------------------------------------------
# The searches are iterative, with an explicit stack of frames, not recursive: numba
# cannot reliably cache a recursive function that another cached function calls (it
# segfaults on loading, numba issues #6061 and #6713), and the loop also saves the
# call overhead. A frame is one row of `fi` (int64) and `ff` (float64); its position
# on the frame stack (sp) can differ from its state ply in BRS, where default moves
# add plies without frames and an opponent-choice layer shares its state with its
# children.
F_PLY = 0  # row of states / moves / keys holding the node's position
F_DEPTH = 1  # plies left
F_I = 2  # next move index (next seat offset in a BRS layer)
F_N = 3  # number of moves (players in a BRS layer)
F_KEY = 4  # TT key (int64)
F_IDX = 5  # TT index, -1 = do not store
F_BEST_MOVE = 6
F_MOVE = 7  # the move whose subtree is being searched
F_SEARCHER = 8  # BRS: the replying opponent, -1 if none
F_TYPE = 9  # NODE_SEARCH or NODE_LAYER
F_MAX = 10  # 1 if the root player moves (maximizing)
F_P = 11  # player to move
F_CUT = 12  # the parent's S_CUT flag, saved while this node's subtree is searched
N_FI = 13
G_ALPHA = 0
G_BETA = 1
G_A0 = 2  # window on entry (after TT bounds), for the TT flag
G_B0 = 3
G_BEST = 4
N_FF = 5

NODE_SEARCH = 0  # a node searching its own moves (MAX, or MIN in paranoid / by the BRS searcher)
NODE_LAYER = 1  # BRS: the MIN layer choosing which opponent replies

ST_FRAME = 0  # enter: a frame was pushed
ST_VALUE = 1  # enter: the node's value is known at once (leaf or TT cutoff)
ST_ABORT = 2  # enter: the node budget is exhausted


@njit(cache=True, inline="always")
def _tt_store(tt, ttv, idx, key, move, depth, flag, gen, value):
    tt[idx, T_KEY] = key
    tt[idx, T_MOVE] = move
    tt[idx, T_META] = depth | (flag << 8) | (gen << 10)
    ttv[idx, 0] = value


@njit(cache=True, inline="always")
def _enter_subtree(f, stats):
    """A node's frame was pushed: save the cut flag of the search so far and start
    its subtree's own, so that the node learns whether its subtree was proven."""
    f[F_CUT] = stats[S_CUT]
    stats[S_CUT] = 0


@njit(cache=True, inline="always")
def _leave_subtree(f, stats):
    """A node is finished: PROVEN for its TT entry if no leaf below it was cut by
    depth; the cut flag of the search so far then includes its subtree's."""
    cut = stats[S_CUT]
    stats[S_CUT] = cut | f[F_CUT]
    return 0 if cut else PROVEN


# ---- paranoid and BRS+ (one alpha-beta engine) -----------------------------------------
@njit(cache=True)
def _default_move(tag, s, child, mv, n, p, mode, history, scratch):
    """The fixed move of a non-searching BRS opponent p (first of equals)."""
    best_i = 0
    if mode == DEFAULT_GREEDY:
        best = -_INF
        for i in range(n):
            copy_into(child, s)
            apply_move(tag, child, mv[i])
            v = leaf_value(tag, child, p, scratch)
            if v > best:
                best = v
                best_i = i
    else:
        best = history[_hidx(mv[0])]
        for i in range(1, n):
            v = history[_hidx(mv[i])]
            if v > best:
                best = v
                best_i = i
    return mv[best_i]


@njit(cache=True)
def _ab_enter(tag, sp, ply, depth, alpha, beta, searcher, states, moves, keys, vals, tt, ttv,
              killers, history, stats, fi, ff):
    """Enter the node states[ply] with window (alpha, beta).

    Returns (ST_VALUE, v) for a leaf or a TT cutoff, (ST_ABORT, 0) when out of
    budget, else pushes frame sp and returns (ST_FRAME, 0). In BRS the default moves
    of non-searching opponents are played here first (advancing ply, not depth).
    """
    root = stats[S_ROOT]
    brs = stats[S_ALG] == BRS
    scratch = vals[_SCRATCH]
    while True:
        if _over_budget(stats):
            return ST_ABORT, 0.0
        s = states[ply]
        if is_terminal(tag, s):
            return ST_VALUE, leaf_value(tag, s, root, scratch)
        if depth <= 0 or ply >= MAX_STACK - 1:
            stats[S_CUT] = 1
            return ST_VALUE, quantize(heuristic(tag, s, root))
        p = current_player(tag, s)
        if p == root:
            searcher = -1
            break
        if not brs or searcher < 0 or p == searcher:
            break
        mv = moves[ply]
        child = states[ply + 1]
        n = legal_moves(tag, s, mv)
        m = _default_move(tag, s, child, mv, n, p, stats[S_DEFAULT], history, scratch)
        if stats[S_DEFAULT] == DEFAULT_GREEDY:
            stats[S_EXTRA] += n
        copy_into(child, s)
        apply_move(tag, child, m)
        stats[S_NODES] += 1
        ply += 1

    maximizing = p == root
    layer = brs and not maximizing and searcher < 0
    mask = stats[S_MASK]
    gen = stats[S_GEN]
    key = 0
    idx = -1
    tt_move = -1
    if mask >= 0:
        key = state_hash(s)
        if searcher >= 0:
            key = salted(key, searcher)
        idx = key & mask
        if tt[idx, T_KEY] == key and (tt[idx, T_META] >> 10) == gen:
            meta = tt[idx, T_META]
            tt_move = tt[idx, T_MOVE]
            proven = (meta & PROVEN) != 0
            # a proven entry holds at any depth; another may hide depth cuts, so
            # using it never claims a proven result
            if proven or (meta & DEPTH_BITS) >= depth:
                v = ttv[idx, 0]
                flag = (meta >> 8) & 3
                if flag == EXACT:
                    if not proven:
                        stats[S_CUT] = 1
                    return ST_VALUE, v
                if flag == LOWER and v > alpha:
                    alpha = v
                elif flag == UPPER and v < beta:
                    beta = v
                if alpha >= beta:
                    if not proven:
                        stats[S_CUT] = 1
                    return ST_VALUE, v

    f = fi[sp]
    g = ff[sp]
    f[F_PLY] = ply
    f[F_DEPTH] = depth
    f[F_I] = 0
    f[F_KEY] = key
    f[F_IDX] = idx
    f[F_BEST_MOVE] = -1
    f[F_MOVE] = -1
    f[F_SEARCHER] = searcher
    f[F_MAX] = 1 if maximizing else 0
    f[F_P] = p
    g[G_ALPHA] = alpha
    g[G_BETA] = beta
    g[G_A0] = alpha
    g[G_B0] = beta
    g[G_BEST] = -_INF if maximizing else _INF
    _enter_subtree(f, stats)
    if layer:
        f[F_TYPE] = NODE_LAYER
        f[F_N] = num_players(s)
    else:
        f[F_TYPE] = NODE_SEARCH
        mv = moves[ply]
        n = legal_moves(tag, s, mv)
        f[F_N] = n
        stats[S_EXTRA] += _order_keys(tag, s, states[ply + 1], mv, keys[ply], n, ply, depth,
                                      stats[S_ORDER], 1.0 if maximizing else -1.0, root,
                                      tt_move, killers, history, scratch)
    return ST_FRAME, 0.0


@njit(cache=True, inline="always")
def _alphabeta_iteration(tag, depth, n_root, states, moves, keys, vals, tt, ttv, killers, history,
                         stats, fi, ff):
    """One paranoid / BRS+ iteration over the root moves moves[0, :n_root] in order;
    returns the root value and leaves the best move in fi[0, F_BEST_MOVE]."""
    root = stats[S_ROOT]
    f = fi[0]
    g = ff[0]
    f[F_PLY] = 0
    f[F_DEPTH] = depth
    f[F_I] = 0
    f[F_N] = n_root
    f[F_IDX] = -1
    f[F_BEST_MOVE] = moves[0, 0]
    f[F_MOVE] = -1
    f[F_SEARCHER] = -1
    f[F_TYPE] = NODE_SEARCH
    f[F_MAX] = 1
    f[F_P] = root
    g[G_ALPHA] = -_INF
    g[G_BETA] = _INF
    g[G_BEST] = -_INF
    for i in range(n_root):  # decreasing keys: the root keeps the given order
        keys[0, i] = n_root - i

    sp = 0
    pending = False
    v = 0.0
    while True:
        f = fi[sp]
        g = ff[sp]
        if pending:
            pending = False
            if sp == 0:
                stats[S_ROOT_DONE] += 1
            if f[F_TYPE] == NODE_LAYER:
                if v < g[G_BEST]:
                    g[G_BEST] = v
                    if v < g[G_BETA]:
                        g[G_BETA] = v
            elif f[F_MAX]:
                if v > g[G_BEST]:
                    g[G_BEST] = v
                    f[F_BEST_MOVE] = f[F_MOVE]
                    if v > g[G_ALPHA]:
                        g[G_ALPHA] = v
                        if g[G_ALPHA] >= g[G_BETA]:
                            _record_cutoff(f[F_MOVE], f[F_PLY], f[F_DEPTH], killers, history)
            else:
                if v < g[G_BEST]:
                    g[G_BEST] = v
                    f[F_BEST_MOVE] = f[F_MOVE]
                    if v < g[G_BETA]:
                        g[G_BETA] = v
                        if g[G_ALPHA] >= g[G_BETA]:
                            _record_cutoff(f[F_MOVE], f[F_PLY], f[F_DEPTH], killers, history)

        if g[G_ALPHA] < g[G_BETA] and f[F_I] < f[F_N]:
            ply = f[F_PLY]
            st = ST_FRAME
            val = 0.0
            if f[F_TYPE] == NODE_SEARCH:
                i = f[F_I]
                if i < PICK_FIRST or f[F_DEPTH] >= stats[S_ORDER]:
                    m = _pick(moves[ply], keys[ply], i, f[F_N])
                else:  # near the leaves, past the TT move and killers: no O(n^2) sort
                    m = moves[ply, i]
                f[F_I] = i + 1
                f[F_MOVE] = m
                child = states[ply + 1]
                copy_into(child, states[ply])
                apply_move(tag, child, m)
                stats[S_NODES] += 1
                st, val = _ab_enter(tag, sp + 1, ply + 1, f[F_DEPTH] - 1, g[G_ALPHA], g[G_BETA],
                                    -1 if f[F_MAX] else f[F_SEARCHER], states, moves, keys,
                                    vals, tt, ttv, killers, history, stats, fi, ff)
            else:
                # next opponent seat after the mover, skipping the root player
                j = -1
                while f[F_I] < f[F_N]:
                    j = (f[F_P] + f[F_I]) % f[F_N]
                    f[F_I] += 1
                    if j != root:
                        break
                    j = -1
                if j < 0:
                    continue
                st, val = _ab_enter(tag, sp + 1, ply, f[F_DEPTH], g[G_ALPHA], g[G_BETA], j, states,
                                    moves, keys, vals, tt, ttv, killers, history, stats, fi, ff)
            if st == ST_ABORT:
                return 0.0
            if st == ST_VALUE:
                v = val
                pending = True
            else:
                sp += 1
            continue

        # the node is finished
        if sp == 0:
            return g[G_BEST]
        best = g[G_BEST]
        proven = _leave_subtree(f, stats)
        if f[F_IDX] >= 0:
            flag = UPPER if best <= g[G_A0] else (LOWER if best >= g[G_B0] else EXACT)
            _tt_store(tt, ttv, f[F_IDX], f[F_KEY], f[F_BEST_MOVE], f[F_DEPTH] | proven, flag,
                      stats[S_GEN], best)
        v = best
        sp -= 1
        pending = True


# ---- max^n -----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _maxn_better(a, b, p, n):
    """Whether player p prefers value vector a to b (a fixed total order, so ties
    between different vectors never depend on the move order)."""
    if a[p] != b[p]:
        return a[p] > b[p]
    for q in range(n):
        if q != p and a[q] != b[q]:
            return a[q] < b[q]
    return False


@njit(cache=True, inline="always")
def _maxn_enter(tag, ply, depth, states, moves, vals, tt, ttv, stats, fi):
    """Enter states[ply]: ST_VALUE with its vector in vals[ply] (leaf or TT hit),
    ST_ABORT, or push frame ply (ST_FRAME)."""
    if _over_budget(stats):
        return ST_ABORT
    s = states[ply]
    out = vals[ply]
    if is_terminal(tag, s):
        leaf_vector(tag, s, out, vals[_SCRATCH])
        return ST_VALUE
    if depth <= 0 or ply >= MAX_STACK - 1:
        stats[S_CUT] = 1
        leaf_vector(tag, s, out, vals[_SCRATCH])
        return ST_VALUE
    mask = stats[S_MASK]
    key = 0
    idx = -1
    if mask >= 0:
        key = state_hash(s)
        idx = key & mask
        meta = tt[idx, T_META]
        proven = (meta & PROVEN) != 0
        if (tt[idx, T_KEY] == key and (meta >> 10) == stats[S_GEN]
                and (proven or (meta & DEPTH_BITS) >= depth)):
            for q in range(num_players(s)):
                out[q] = ttv[idx, q]
            if not proven:
                stats[S_CUT] = 1
            return ST_VALUE
    f = fi[ply]
    f[F_PLY] = ply
    f[F_DEPTH] = depth
    f[F_I] = 0
    f[F_N] = legal_moves(tag, s, moves[ply])
    f[F_KEY] = key
    f[F_IDX] = idx
    f[F_BEST_MOVE] = -1
    f[F_P] = current_player(tag, s)
    _enter_subtree(f, stats)
    return ST_FRAME


@njit(cache=True, inline="always")
def _maxn_iteration(tag, depth, n_root, states, moves, vals, tt, ttv, stats, fi):
    """One max^n iteration over moves[0, :n_root]; the root vector ends in vals[0]
    and the best move in fi[0, F_BEST_MOVE]; returns the root player's component."""
    root = stats[S_ROOT]
    n_players = num_players(states[0])
    gen = stats[S_GEN]
    f = fi[0]
    f[F_PLY] = 0
    f[F_DEPTH] = depth
    f[F_I] = 0
    f[F_N] = n_root
    f[F_IDX] = -1
    f[F_BEST_MOVE] = moves[0, 0]
    f[F_P] = root
    ply = 0
    pending = False
    while True:
        f = fi[ply]
        if pending:
            pending = False
            if ply == 0:
                stats[S_ROOT_DONE] += 1
            if f[F_I] == 1 or _maxn_better(vals[ply + 1], vals[ply], f[F_P], n_players):
                for q in range(n_players):
                    vals[ply, q] = vals[ply + 1, q]
                f[F_BEST_MOVE] = f[F_MOVE]
        if f[F_I] < f[F_N]:
            m = moves[ply, f[F_I]]
            f[F_I] += 1
            f[F_MOVE] = m
            child = states[ply + 1]
            copy_into(child, states[ply])
            apply_move(tag, child, m)
            stats[S_NODES] += 1
            st = _maxn_enter(tag, ply + 1, f[F_DEPTH] - 1, states, moves, vals, tt, ttv, stats, fi)
            if st == ST_ABORT:
                return 0.0
            if st == ST_VALUE:
                pending = True
            else:
                ply += 1
            continue
        if ply == 0:
            return vals[0, root]
        idx = f[F_IDX]
        proven = _leave_subtree(f, stats)
        if idx >= 0:
            tt[idx, T_KEY] = f[F_KEY]
            tt[idx, T_MOVE] = f[F_BEST_MOVE]
            tt[idx, T_META] = f[F_DEPTH] | proven | (EXACT << 8) | (gen << 10)
            for q in range(n_players):
                ttv[idx, q] = vals[ply, q]
        ply -= 1
        pending = True


# ---- root ------------------------------------------------------------------------------
@njit(cache=True)
def prepare_root(tag, array, rng, states, moves, history, killers):
    """Determinize a copy of array into states[0] (observer = player to move), write
    its legal moves shuffled with rng to moves[0], clear the ordering tables; return
    the number of root moves."""
    s = states[0]
    copy_into(s, array)
    determinize(tag, s, current_player(tag, s), rng)
    n = legal_moves(tag, s, moves[0])
    mv = moves[0]
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        m = mv[i]
        mv[i] = mv[j]
        mv[j] = m
    history[:] = 0.0
    killers[:] = -1
    return n


@njit(cache=True)
def search_iteration(tag, depth, n_root, states, moves, keys, vals, tt, ttv, killers, history,
                     stats, fi, ff):
    """One iteration of iterative deepening from states[0] over the root moves
    moves[0, :n_root] (in that order). Returns the root player's value. When it
    completes (stats[S_ABORT] == 0) the best move (the first of equals) is moved to
    moves[0, 0]; for max^n the root value vector is left in vals[0]. When it is
    abandoned, the best of the stats[S_ROOT_DONE] root moves searched in full is
    fi[0, F_BEST_MOVE] with value ff[0, G_BEST] (max^n: vals[0])."""
    stats[S_ROOT] = current_player(tag, states[0])
    stats[S_ABORT] = 0
    stats[S_CUT] = 0
    stats[S_ROOT_DONE] = 0
    stats[S_NODES] += 1
    if stats[S_ALG] == MAXN:
        value = _maxn_iteration(tag, depth, n_root, states, moves, vals, tt, ttv, stats, fi)
    else:
        value = _alphabeta_iteration(tag, depth, n_root, states, moves, keys, vals, tt, ttv,
                                     killers, history, stats, fi, ff)
    if stats[S_ABORT]:
        return 0.0
    best = fi[0, F_BEST_MOVE]
    mv = moves[0]
    k = 0
    while mv[k] != best:
        k += 1
    for j in range(k, 0, -1):
        mv[j] = mv[j - 1]
    mv[0] = best
    return value

# ---- Python driver ---------------------------------------------------------------------
@dataclass(frozen=True)
class SearchResult:
    """Outcome of one search.

    ``value`` is the root player's value at the last completed depth (for max^n its
    own component; ``values`` then holds the whole root vector). ``nodes`` counts
    every iteration, including an abandoned last one. ``exact`` means no leaf was cut
    by depth, so the value is the game's true (paranoid / max^n / BRS) value.
    ``partial`` means the move and value come from an iteration one deeper than
    ``depth`` that the time budget interrupted after its first root moves.
    ``seconds`` is wall-clock time, ``cpu_seconds`` the calling thread's CPU time.
    ``extra`` counts the one-ply look-ahead evaluations (move ordering, greedy BRS
    default moves), which are work but not nodes.
    """

    move: int
    value: float
    nodes: int
    depth: int
    seconds: float
    exact: bool = False
    partial: bool = False
    values: tuple[float, ...] | None = None
    extra: int = 0
    cpu_seconds: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        """Search speed of this call."""
        return self.nodes / self.seconds if self.seconds > 0 else float("nan")


class Workspace:
    """Preallocated buffers of one searcher: per-ply stacks, TT, killers, history.

    Everything is allocated here, at construction (the TT pages are written, so
    committed, now rather than faulted in during the first search), except the
    per-ply state stack, which is sized from the first state seen. Buffers are reused
    for every later search; the TT is invalidated between searches by a generation
    stamp rather than cleared. TT memory: 2**tt_bits entries of 32 bytes (max^n: 88,
    one value per player up to MAX_PLAYERS).
    """

    def __init__(self, algorithm: int = PARANOID, tt_bits: int = 18,
                 default_move: int = DEFAULT_HISTORY, order_depth: int = ORDER_DEPTH):
        if algorithm not in ALGORITHMS.values():
            raise ValueError(f"unknown algorithm {algorithm!r}")
        if not 0 <= tt_bits <= 28:
            raise ValueError(f"tt_bits must be in 0..28, not {tt_bits}")
        if default_move not in DEFAULT_MOVES.values():
            raise ValueError(f"unknown default-move rule {default_move!r}")
        if order_depth < 1:
            raise ValueError(f"order_depth must be >= 1, not {order_depth}")
        self.algorithm = algorithm
        self.tt_bits = tt_bits
        self.default_move = default_move
        self.order_depth = order_depth
        self.generation = 0
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.killers = np.full((MAX_STACK + 1, 2), -1, dtype=np.int64)
        self.history = np.zeros(1 << HISTORY_BITS, dtype=np.float64)
        # Move buffers are sized per game by ensure(): Forma's bound is ~60x Forum Romanum's.
        self.moves = np.zeros((MAX_STACK + 1, 0), dtype=np.int64)
        self.keys = np.zeros((MAX_STACK + 1, 0), dtype=np.float64)
        self.vals = np.zeros((MAX_STACK + 2, MAX_PLAYERS), dtype=np.float64)
        self.fi = np.zeros((MAX_STACK + 1, N_FI), dtype=np.int64)
        self.ff = np.zeros((MAX_STACK + 1, N_FF), dtype=np.float64)
        size = 1 << tt_bits if tt_bits > 0 else 1
        cols = MAX_PLAYERS if algorithm == MAXN else 1
        self.tt = np.empty((size, 3), dtype=np.int64)
        self.tt.fill(0)
        self.ttv = np.empty((size, cols), dtype=np.float64)
        self.ttv.fill(0.0)
        self.states = np.zeros((MAX_STACK + 1, 0), dtype=np.int64)

    def ensure(self, state_len: int, n_players: int, max_moves: int) -> None:
        """Size the per-ply state stack and move buffers for this game."""
        if n_players > MAX_PLAYERS:
            raise ValueError(f"at most {MAX_PLAYERS} players are supported")
        if self.states.shape[1] != state_len:
            self.states = np.zeros((MAX_STACK + 1, state_len), dtype=np.int64)
        if self.moves.shape[1] != max_moves:
            self.moves = np.zeros((MAX_STACK + 1, max_moves), dtype=np.int64)
            self.keys = np.zeros((MAX_STACK + 1, max_moves), dtype=np.float64)

    def _begin(self) -> None:
        self.generation += 1
        if self.generation >= 1 << 40:  # never in practice; keep the meta word in range
            self.tt[:] = 0
            self.generation = 1
        st = self.stats
        st[:] = 0
        st[S_GEN] = self.generation
        st[S_MASK] = (1 << self.tt_bits) - 1 if self.tt_bits > 0 else -1
        st[S_ALG] = self.algorithm
        st[S_DEFAULT] = self.default_move
        st[S_ORDER] = self.order_depth

    def _iterate(self, tag, depth: int, n_root: int) -> float:
        return search_iteration(tag, depth, n_root, self.states, self.moves, self.keys, self.vals,
                                self.tt, self.ttv, self.killers, self.history, self.stats,
                                self.fi, self.ff)


_compiled: set = set()  # game tags whose kernels this process has compiled or loaded


def _ensure_compiled(tag, array: np.ndarray) -> None:
    """Compile (or load from the disk cache) the game's kernels before any clock starts."""
    if tag in _compiled:
        return
    ws = Workspace(PARANOID, tt_bits=0)
    ws.ensure(array.shape[0], int(array[1]), int(max_moves(tag)))
    ws._begin()
    n = prepare_root(tag, array, make_rng(0), ws.states, ws.moves, ws.history, ws.killers)
    if n > 0:
        ws._iterate(tag, 1, n)
    _compiled.add(tag)


def _deadlines(stats: np.ndarray, t_start: int, c_start: int, time: float, cpu_time: float) -> bool:
    """Arm the kernels' clock checks for the next iteration; False if a budget is
    already spent (then no iteration should start)."""
    wall = t_start + int(time * 1e9) if time > 0 else 0
    cpu = c_start + int(cpu_time * 1e9) if cpu_time > 0 else 0
    if (wall and _time.perf_counter_ns() >= wall) or (cpu and _time.thread_time_ns() >= cpu):
        return False
    stats[S_DEADLINE] = wall
    stats[S_CPU_DEADLINE] = cpu
    # the first node of the iteration reads the clock; then every CLOCK_EVERY units of work
    stats[S_CHECK_AT] = 1 if (wall or cpu) else 0
    return True


def search(tag, array: np.ndarray, workspace: Workspace, rng: np.ndarray, depth: int,
           nodes: int = 0, time: float = 0.0, cpu_time: float = 0.0) -> SearchResult:
    """Iterative-deepening search of the position ``array`` of the game ``tag`` (a
    :class:`~forumlab.core.dispatch.GameTag`) for the player to move.

    Args:
        tag: the game's tag (``state.game.kernels.tag``): selects its compiled kernels.
        array: the position (a game's state array).
        workspace: the searcher's buffers (algorithm, TT, ordering tables).
        rng: a uint64[1] SplitMix64 state; drives the determinization and the root
            tie-breaks.
        depth: maximum plies, ``1..MAX_DEPTH``; 0 = no limit other than the budgets
            and ``MAX_DEPTH`` (then a budget is required).
        nodes: node budget for the whole move (0 = none).
        time: wall-clock seconds for the whole move (0 = none), ``time.perf_counter``.
        cpu_time: CPU seconds of the calling thread for the whole move (0 = none),
            ``time.thread_time``: unlike ``time``, it does not shrink when other
            processes share the cores.

    Returns:
        The :class:`SearchResult`.

    Raises ValueError for a bad depth, depth 0 without a budget, or a position
    without legal moves.

    Iterations run at depth 1, 2, ... until ``depth``, a budget is spent, or an
    iteration saw no leaf cut by depth (the game tree below the root is exhausted:
    ``exact``; deeper iterations would search the same tree). Depth 1 always
    completes, whatever the budget. The kernels check the node budget at every node
    and read the clocks every ``CLOCK_EVERY`` units of work (nodes plus look-ahead
    evaluations), about every millisecond of search; one node's move generation and
    ordering are not interrupted (in Forma's opening: up to ~8 ms CPU past a budget,
    against ~0.3 ms in Forum Romanum).

    What an interrupted iteration contributes: under a node budget, nothing (the
    move of the last completed depth is played, so a node budget gives the same move
    as that depth alone). Under a time budget, its best *fully searched* root move
    is played if it finished at least one (``partial``). That is safe because every
    iteration searches the previous iteration's best move first: the first finished
    root move is the old principal variation searched one ply deeper, and any later
    root move can only replace it with a value proven better at the new depth (at
    the root the window has no upper bound, so such a value is exact).
    """
    if depth < 0 or depth > MAX_DEPTH:
        raise ValueError(f"depth must be in 0..{MAX_DEPTH}, not {depth}")
    if depth == 0 and nodes <= 0 and time <= 0 and cpu_time <= 0:
        raise ValueError("depth=0 (unlimited) needs a nodes, time or cpu_time budget")
    array = np.ascontiguousarray(array, dtype=np.int64)
    timed = time > 0 or cpu_time > 0
    if timed:
        _ensure_compiled(tag, array)
    t_start = _time.perf_counter_ns()
    c_start = _time.thread_time_ns()
    ws = workspace
    ws.ensure(array.shape[0], int(array[1]), int(max_moves(tag)))
    ws._begin()
    st = ws.stats
    n_root = prepare_root(tag, array, rng, ws.states, ws.moves, ws.history, ws.killers)
    if n_root == 0:
        raise ValueError("no legal moves: the game is over")
    n_players = int(array[1])
    # max^n with two players is minimax: values are score margins, so the second
    # player's value is minus the first's (a constant sum of 0) and alpha-beta prunes
    # max^n exactly, which max^n's own, unpruned path cannot (at 0.2 s per move it
    # reached 2 plies in Forum Romanum's 2-player moving phase, the mover's own two
    # sub-moves only, against paranoid's 4).
    maxn = ws.algorithm == MAXN and n_players > 2
    if ws.algorithm == MAXN and not maxn:
        st[S_ALG] = PARANOID

    best_move = int(ws.moves[0, 0])
    value = math.nan
    values = None
    completed = 0
    exact = partial = False
    max_depth = depth if depth > 0 else MAX_DEPTH
    for d in range(1, max_depth + 1):
        if d > 1:  # depth 1 runs unbudgeted
            if nodes > 0 and st[S_NODES] >= nodes:
                break
            if timed and not _deadlines(st, t_start, c_start, time, cpu_time):
                break
            st[S_LIMIT] = nodes
        v = ws._iterate(tag, d, n_root)
        if st[S_ABORT]:
            if st[S_ABORT] == ABORT_CLOCK and st[S_ROOT_DONE] > 0:
                best_move = int(ws.fi[0, F_BEST_MOVE])
                if maxn:
                    values = tuple(float(x) for x in ws.vals[0, :n_players])
                    value = values[int(st[S_ROOT])]
                else:
                    value = float(ws.ff[0, G_BEST])
                partial = True
            break
        completed = d
        best_move = int(ws.moves[0, 0])
        value = float(v)
        if maxn:
            values = tuple(float(x) for x in ws.vals[0, :n_players])
        if not st[S_CUT]:
            exact = True
            break
    if ws.algorithm == MAXN and not maxn and not math.isnan(value):
        values = tuple(value if p == int(st[S_ROOT]) else -value for p in range(n_players))
    return SearchResult(move=best_move, value=value, nodes=int(st[S_NODES]), depth=completed,
                        seconds=(_time.perf_counter_ns() - t_start) / 1e9, exact=exact,
                        partial=partial, values=values, extra=int(st[S_EXTRA]),
                        cpu_seconds=(_time.thread_time_ns() - c_start) / 1e9)
