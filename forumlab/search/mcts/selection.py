"""Selection: the descent from the root to the node an iteration adds or scores.

UCT (perfect information): the mover at a node picks the child maximising their own
mean reward plus the UCB1 exploration term (Kocsis & Szepesvari 2006; with a reward
vector per seat, the max^n-style UCT of Sturtevant 2008), mixed with the implicit
minimax value (``imm``) and the progressive-history bonus (``history``).

SO-ISMCTS (hidden information; Cowling, Powley & Whitehouse 2012): the iteration's
determinization decides which children are *available* (their move is legal in it);
UCB counts availability instead of the parent's visits, and a node grows a child for a
legal move it has not seen yet.

Each descent stops when it adds a node (expansion), reaches a finished game or the
depth limit, or finds nothing to open or choose; it returns (node, added, trace length).
"""
import numpy as np
from numba import njit

from ...core.dispatch import apply_move, current_player, is_terminal, legal_moves
from .backup import history_key, trace
from .expansion import (
    children_open,
    expand_first_visit,
    pick_untried,
    sorted_moves,
    stops_at_depth_limit,
    untried_move,
)
from .tree import F_AVAIL, F_CHILD, F_MOVE, F_NCHILD, F_NLEGAL, F_PERM, F_SIBLING, F_VISITS, new_child


@njit(cache=True, inline="always")
def _history_bonus(history, player, move, weight, visits, mean):
    key = history_key(move)
    hv = history[player, key, 0]
    if hv == 0.0:
        return 0.0
    return weight * (history[player, key, 1] / hv) / (visits * (1.0 - mean) + 1.0)


@njit(cache=True, inline="always")
def selection_value(visits, reward_sum, minimax_value, log_parent, c, alpha):
    """UCB1 value of a child for the mover (its ``visits``, the mover's ``reward_sum``
    and implicit minimax value there): mean reward mixed with the minimax value by
    ``alpha`` (``imm``), plus exploration (log_parent = log of the parent's visits, or
    of the child's availability count under ISMCTS).

    Scalars only: this runs once per child at every level of every descent, and numba
    counts a reference for each array handed to an inlined kernel; with the node
    tables passed in, Forum Romanum's rollout=none search ran at a third of its speed
    (docs/notebook/mcts-iteration-cost.md)."""
    q = reward_sum / visits
    val = (1.0 - alpha) * q + alpha * minimax_value
    val += c * np.sqrt(log_parent / visits)
    return val


@njit(cache=True)
def history_bonus(history, player, move, weight, visits, reward_sum):
    """The progressive-history bonus ``w * H(m) / (n_i * (1 - q_i) + 1)`` (Nijssen &
    Winands 2011) of ``player``'s ``move`` at a child with ``visits`` and the player's
    ``reward_sum`` there. A plain call, made only when ``history`` > 0."""
    return _history_bonus(history, player, move, weight, visits, reward_sum / visits)


@njit(cache=True, inline="always")
def select_uct(nodes, rewards, node, mover, n_players, settings, history):
    """The child of ``node`` with the best UCB1 value for ``mover``."""
    log_n = np.log(nodes[node, F_VISITS])
    c = settings.c
    alpha = settings.imm
    use_history = settings.history > 0.0
    best = -1
    best_v = -1e300
    ch = nodes[node, F_CHILD]
    while ch != -1:
        v = nodes[ch, F_VISITS]
        total = rewards[ch, mover]
        val = selection_value(v, total, rewards[ch, n_players + mover], log_n, c, alpha)
        if use_history:
            val += history_bonus(history, mover, nodes[ch, F_MOVE], settings.history, v, total)
        if val > best_v:
            best_v = val
            best = ch
        ch = nodes[ch, F_SIBLING]
    return best


@njit(cache=True, inline="always")
def descend_uct(tag, s, nodes, rewards, meta, history, rng, settings, searcher, n_players,
                buf, orders, width, slots, trace_player, trace_move):
    """Walk from the root (``s`` holds its position) to the node this iteration scores."""
    node = 0
    depth = 0
    n_trace = 0
    added = False
    capacity = nodes.shape[0]
    use_history = settings.history > 0.0
    while not is_terminal(tag, s):
        if stops_at_depth_limit(depth, nodes[node, F_NLEGAL], nodes[node, F_VISITS], meta[1], slots,
                                settings):
            break
        mover = current_player(tag, s)
        if nodes[node, F_NLEGAL] < 0:
            expand_first_visit(tag, s, nodes, meta, node, depth, mover, buf, orders, width, slots, rng,
                               settings)
        k = nodes[node, F_NCHILD]
        n = children_open(nodes[node, F_NLEGAL], nodes[node, F_PERM], nodes[node, F_VISITS], mover, searcher,
                          settings)
        if k < n and meta[0] < capacity:
            move = untried_move(tag, s, nodes, node, k, n, buf, orders, width)
            node = new_child(nodes, rewards, meta, node, move, mover)
            apply_move(tag, s, move)
            added = True
            if use_history:
                n_trace = trace(trace_player, trace_move, n_trace, mover, move)
            break
        if k == 0:
            break  # table full and nothing expanded here: roll out
        node = select_uct(nodes, rewards, node, mover, n_players, settings, history)
        depth += 1
        apply_move(tag, s, nodes[node, F_MOVE])
        if use_history:
            n_trace = trace(trace_player, trace_move, n_trace, mover, nodes[node, F_MOVE])
    return node, added, n_trace


@njit(cache=True, inline="always")
def mark_available(nodes, node, moves, n, matched):
    """Count each child of ``node`` whose move is in the sorted ``moves[:n]`` as
    available (``matched`` marks those moves); return how many moves have no child."""
    matched[:n] = False
    ch = nodes[node, F_CHILD]
    while ch != -1:
        i = np.searchsorted(moves, nodes[ch, F_MOVE])
        if i < n and moves[i] == nodes[ch, F_MOVE]:
            matched[i] = True
            nodes[ch, F_AVAIL] += 1
        ch = nodes[ch, F_SIBLING]
    untried = 0
    for i in range(n):
        if not matched[i]:
            untried += 1
    return untried


@njit(cache=True, inline="always")
def select_ismcts(nodes, rewards, node, mover, n_players, moves, n, settings, history):
    """The available child of ``node`` (move in the sorted ``moves[:n]``) with the best
    UCB1 value for ``mover`` by availability counts; -1 if none is available."""
    best = -1
    best_v = -1e300
    ch = nodes[node, F_CHILD]
    while ch != -1:
        i = np.searchsorted(moves, nodes[ch, F_MOVE])
        if i < n and moves[i] == nodes[ch, F_MOVE]:
            v = nodes[ch, F_VISITS]
            total = rewards[ch, mover]
            val = selection_value(v, total, rewards[ch, n_players + mover], np.log(nodes[ch, F_AVAIL]),
                                  settings.c, settings.imm)
            if settings.history > 0.0:
                val += history_bonus(history, mover, nodes[ch, F_MOVE], settings.history, v, total)
            if val > best_v:
                best_v = val
                best = ch
        ch = nodes[ch, F_SIBLING]
    return best


@njit(cache=True, inline="always")
def descend_ismcts(tag, s, nodes, rewards, meta, history, rng, settings, n_players,
                   buf, matched, trace_player, trace_move):
    """Walk from the root (``s`` holds this iteration's determinization) to the node
    this iteration scores."""
    node = 0
    depth = 0
    n_trace = 0
    use_history = settings.history > 0.0
    while not is_terminal(tag, s):
        if stops_at_depth_limit(depth, 0, 0, 0, 0, settings):
            break
        mover = current_player(tag, s)
        n = legal_moves(tag, s, buf)
        moves = sorted_moves(buf, n)
        untried = mark_available(nodes, node, moves, n, matched)
        if untried > 0 and meta[0] < nodes.shape[0]:
            move = pick_untried(rng, moves, n, matched, untried)
            node = new_child(nodes, rewards, meta, node, move, mover)
            nodes[node, F_AVAIL] = 1
            apply_move(tag, s, move)
            if use_history:
                n_trace = trace(trace_player, trace_move, n_trace, mover, move)
            return node, True, n_trace
        best = select_ismcts(nodes, rewards, node, mover, n_players, moves, n, settings, history)
        if best < 0:
            break
        node = best
        depth += 1
        apply_move(tag, s, nodes[node, F_MOVE])
        if use_history:
            n_trace = trace(trace_player, trace_move, n_trace, mover, nodes[node, F_MOVE])
    return node, False, n_trace
