"""The search tree: a preallocated int64 node table, its float64 reward rows, and the
pool of best-first move orders.

Nodes are created one per iteration and hang off a first-child / next-sibling list.
Untried moves of a perfect-information node are visited in a pseudo-random order
without storing them: child k takes legal move ``(a + k * b) mod n`` where b is a prime
larger than any move count (so the map is a permutation of 0..n-1) and a is drawn when
the node is first expanded. ``meta`` holds the nodes in use and the order-pool slots in
use.
"""
import numpy as np
from numba import njit

# Node fields (columns of the int64 node table).
F_MOVE = 0  # move that leads here from the parent
F_PARENT = 1
F_CHILD = 2  # first child, -1 if none
F_SIBLING = 3  # next sibling, -1 if none
F_NCHILD = 4  # children created so far
F_NLEGAL = 5  # number of legal moves (-1 until first expanded; perfect information only)
F_VISITS = 6
F_AVAIL = 7  # ISMCTS availability count
F_MOVER = 8  # player who made F_MOVE
F_PERM = 9  # untried-move permutation: offset * 16 + stride index; -1 - slot for a best-first order
N_FIELDS = 10

# Primes above every game's move-list bound (Forma's is 30,433): a prime stride larger
# than n is coprime with n, so k -> (a + k * stride) mod n is a permutation of 0..n-1.
_STRIDE_PRIMES = np.array([65537, 65539, 65543, 65551, 65557, 65563, 65579, 65581, 65587, 65599,
                           65609, 65617], dtype=np.int64)
# Longest best-first move order kept per node. The pool's rows are cut into slots of
# this width, so a game with a long move list (Forma: 30,433) orders hundreds of nodes
# instead of the 34 its full-length rows held; an ordered node then considers only its
# best ORDER_WIDTH moves, which progressive unpruning at widen=1 would not open before
# about a million visits anyway.
ORDER_WIDTH = 1024


@njit(cache=True, inline="always")
def order_width(pool):
    """Moves kept per best-first order in ``pool`` (a slot's length)."""
    return min(pool.shape[1], ORDER_WIDTH)


@njit(cache=True, inline="always")
def order_slots(pool):
    """Best-first orders that ``pool`` can hold."""
    return (pool.shape[0] * pool.shape[1]) // order_width(pool)


@njit(cache=True, nogil=True)
def reset_tree(nodes, meta):
    """Make the tree a lone root."""
    nodes[0, F_MOVE] = -1
    nodes[0, F_PARENT] = -1
    nodes[0, F_CHILD] = -1
    nodes[0, F_SIBLING] = -1
    nodes[0, F_NCHILD] = 0
    nodes[0, F_NLEGAL] = -1
    nodes[0, F_VISITS] = 0
    nodes[0, F_AVAIL] = 0
    nodes[0, F_MOVER] = -1
    nodes[0, F_PERM] = 0
    meta[0] = 1  # nodes in use
    meta[1] = 0  # slots of the move-ordering pool in use


@njit(cache=True, inline="always")
def new_child(nodes, rewards, meta, parent, move, mover):
    """Add a child of ``parent`` reached by ``move`` of ``mover``, first in the sibling
    list; return its index (the caller checks that the table has room)."""
    idx = meta[0]
    meta[0] = idx + 1
    nodes[idx, F_MOVE] = move
    nodes[idx, F_PARENT] = parent
    nodes[idx, F_CHILD] = -1
    nodes[idx, F_SIBLING] = nodes[parent, F_CHILD]
    nodes[idx, F_NCHILD] = 0
    nodes[idx, F_NLEGAL] = -1
    nodes[idx, F_VISITS] = 0
    nodes[idx, F_AVAIL] = 0
    nodes[idx, F_MOVER] = mover
    nodes[idx, F_PERM] = 0
    rewards[idx, :] = 0.0
    nodes[parent, F_CHILD] = idx
    nodes[parent, F_NCHILD] += 1
    return idx


@njit(cache=True, inline="always")
def untried_index(perm, k, n):
    """Index in the legal move list of a node's k-th child (perm = offset * 16 + stride id)."""
    return (perm // 16 + k * _STRIDE_PRIMES[perm % 16]) % n


@njit(cache=True)
def root_totals(nodes, rewards, out_moves, out_visits, out_rewards):
    """Moves, visit counts and summed rewards (for the root's mover) of the root's children.

    Writes at most len(out_moves) children and returns how many it wrote.
    """
    k = 0
    ch = nodes[0, F_CHILD]
    while ch != -1 and k < out_moves.shape[0]:
        out_moves[k] = nodes[ch, F_MOVE]
        out_visits[k] = nodes[ch, F_VISITS]
        out_rewards[k] = rewards[ch, nodes[ch, F_MOVER]]
        k += 1
        ch = nodes[ch, F_SIBLING]
    return k


@njit(cache=True)
def root_children(nodes, rewards, out_moves, out_visits, out_means):
    """Moves, visit counts and mean rewards (for the root's mover) of the root's children.

    Writes at most len(out_moves) children and returns how many it wrote.
    """
    k = root_totals(nodes, rewards, out_moves, out_visits, out_means)
    for i in range(k):
        out_means[i] /= max(out_visits[i], 1)
    return k
