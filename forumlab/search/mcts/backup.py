"""Backup: an iteration's reward vector added along its path, the implicit minimax
values (Lanctot, Winands, Pepels & Sturtevant 2014) recomputed on the way, and the
progressive-history table (Nijssen & Winands 2011) updated for every move played."""
from numba import njit

from .tree import F_CHILD, F_MOVER, F_PARENT, F_SIBLING, F_VISITS

HISTORY_BITS = 16
_HISTORY_MASK = (1 << HISTORY_BITS) - 1
MAX_TRACE = 4096  # moves of one iteration remembered for progressive history


@njit(cache=True, inline="always")
def history_key(move):
    """A move's row in the progressive-history table."""
    return (move ^ (move >> HISTORY_BITS)) & _HISTORY_MASK


@njit(cache=True, inline="always")
def trace(trace_player, trace_move, n_trace, mover, move):
    """Remember (mover, move) of this iteration for progressive history; new length."""
    if n_trace < trace_move.shape[0]:
        trace_player[n_trace] = mover
        trace_move[n_trace] = move
        return n_trace + 1
    return n_trace


@njit(cache=True)
def backup_implicit_minimax(nodes, rewards, node, n_players):
    """Set node's minimax value vector to that of its best child for the mover there."""
    ch = nodes[node, F_CHILD]
    mover = nodes[ch, F_MOVER]
    best = ch
    while ch != -1:
        if rewards[ch, n_players + mover] > rewards[best, n_players + mover]:
            best = ch
        ch = nodes[ch, F_SIBLING]
    for p in range(n_players):
        rewards[node, n_players + p] = rewards[best, n_players + p]


@njit(cache=True, inline="always")
def backpropagate(nodes, rewards, node, reward, n_players, use_imm):
    """Add ``reward`` to every node from ``node`` up to the root, one visit each."""
    while node != -1:
        nodes[node, F_VISITS] += 1
        for p in range(n_players):
            rewards[node, p] += reward[p]
        if use_imm and nodes[node, F_CHILD] != -1:
            backup_implicit_minimax(nodes, rewards, node, n_players)
        node = nodes[node, F_PARENT]


@njit(cache=True, inline="always")
def update_history(history, trace_player, trace_move, n_trace, reward):
    """Count the iteration's reward for each (player, move) it played."""
    for t in range(n_trace):
        key = history_key(trace_move[t])
        history[trace_player[t], key, 0] += 1.0
        history[trace_player[t], key, 1] += reward[trace_player[t]]
