"""The MCTS driver: each iteration determinizes (ISMCTS), descends and expands
(selection.py, expansion.py), scores the leaf (evaluation.py) and backs the reward up
(backup.py).

The phases are numba-inlined into this one compiled loop (``inline="always"``). Plain
calls between cached kernels are not inlined by LLVM: with every phase a plain call,
Forum Romanum ran 12% fewer iterations per CPU second than the one-piece kernel this
replaced (``python -m benchmarks.mcts_phases``). Inlined, the kernels that the descent
calls once per tree level take scalars where they can, since numba counts a reference
for every array handed to an inlined kernel.
"""
import numpy as np
from numba import njit

from ...core.dispatch import current_player, determinize, max_moves, num_players
from ..arrays import copy_into
from ..rewards import heuristic_base
from .backup import MAX_TRACE, backpropagate, update_history
from .evaluation import evaluate_leaf
from .selection import descend_ismcts, descend_uct
from .tree import order_slots, order_width


@njit(cache=True, nogil=True)
def run_iterations(tag, root, n_iter, tree, history, rng, settings):
    """Run n_iter MCTS iterations from ``root`` (a state of the game ``tag``) on
    ``tree`` = (nodes, rewards, meta, order pool); return iterations done.

    ``history`` is the per-player progressive-history table, ``rng`` the search's RNG
    stream (advanced in place), ``settings`` a :class:`~.options.Settings`.

    The tree must already hold ``root`` at node 0 (see reset_tree). When the node
    table is full, iterations still run (selection + rollout) but add no nodes.
    """
    nodes, rewards, meta, order_pool = tree
    searcher = current_player(tag, root)
    width = order_width(order_pool)
    slots = order_slots(order_pool)
    orders = order_pool.reshape(order_pool.size)  # slot i = orders[i * width:(i + 1) * width]
    n_players = num_players(root)  # rewards holds n_players sums, then n_players minimax values
    s = root.copy()
    buf = np.empty(max_moves(tag), dtype=np.int64)
    matched = np.zeros(max_moves(tag), dtype=np.bool_)
    reward = np.zeros(n_players, dtype=np.float64)
    leaf_value = np.zeros(n_players, dtype=np.float64)
    trace_player = np.empty(MAX_TRACE, dtype=np.int64)
    trace_move = np.empty(MAX_TRACE, dtype=np.int64)
    hbase = np.zeros(n_players, dtype=np.float64)
    heuristic_base(tag, root, settings.hrelative, hbase, settings.weights)
    for _ in range(n_iter):
        copy_into(s, root)
        if settings.ismcts:
            determinize(tag, s, settings.observer, rng)
            node, added, n_trace = descend_ismcts(tag, s, nodes, rewards, meta, history, rng, settings,
                                                  n_players, buf, matched, trace_player, trace_move)
        else:
            node, added, n_trace = descend_uct(tag, s, nodes, rewards, meta, history, rng, settings,
                                               searcher, n_players, buf, orders, width, slots,
                                               trace_player, trace_move)
        n_trace = evaluate_leaf(tag, s, rewards, node, added, rng, settings, n_players, hbase, leaf_value,
                                reward, trace_player, trace_move, n_trace)
        backpropagate(nodes, rewards, node, reward, n_players, settings.imm > 0.0)
        if settings.history > 0.0:
            update_history(history, trace_player, trace_move, n_trace, reward)
    return n_iter
