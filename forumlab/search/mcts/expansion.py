"""Expansion and ordering: how a perfect-information node opens its children.

A node visited for the first time counts its legal moves and fixes the order in which
its children will be opened: best-first by the mover's one-ply heuristic near the root
(``order_depth``) and where deepening grows the tree below ``tree_depth`` (orders kept
in slots of the tree's order pool), else a pseudo-random permutation (tree.py). A
best-first node opens only ``1 + widen * sqrt(visits)`` of its best children
(progressive unpruning, Chaslot et al. 2008) and, at another seat than the searcher's,
at most ``replies`` (an opponent model). A node at the depth limit gets no children
until deepening lets it grow.
"""
import numpy as np
from numba import njit

from ...core.dispatch import apply_move, legal_moves
from ...core.rng import rand_below
from ..arrays import copy_into, stable_argsort
from ..weighted import heuristic_value
from .tree import _STRIDE_PRIMES, F_NLEGAL, F_PERM, untried_index


@njit(cache=True, inline="always")
def order_moves(tag, s, buf, n, mover, out, w=None):
    """Write buf[:n] sorted by the mover's one-ply heuristic (term weights ``w``), best
    first, to out (the first len(out) of them)."""
    values = np.empty(n, dtype=np.float64)
    child = s.copy()
    for i in range(n):
        copy_into(child, s)
        apply_move(tag, child, buf[i])
        values[i] = -heuristic_value(tag, child, mover, w)
    order = stable_argsort(values)
    for i in range(min(n, out.shape[0])):
        out[i] = buf[order[i]]


@njit(cache=True, inline="always")
def stops_at_depth_limit(depth, n_legal, visits, slots_used, slots, settings):
    """Whether the descent ends at a node at ``depth`` (with ``n_legal`` = F_NLEGAL and
    ``visits``; ``slots_used`` of the order pool's ``slots`` taken) because of ``tree_depth``.

    Such a node is a leaf for now: the rollout (or the heuristic) scores it every visit.
    With ``deepen`` a leaf at depth ``tree_depth * k`` that the search keeps returning
    to grows another ``tree_depth`` plies once it has ``deepen`` visits (the plies
    between open at their second visit), so more time buys depth on the lines that
    matter and the leaves keep the parity the limit was tuned for; never under ISMCTS,
    and only while the order pool has a free slot. (Scalars, not the node table: an
    array handed to an inlined kernel costs reference counting in the descent's loop.)
    """
    limit = settings.tree_depth
    deepen = settings.deepen
    return limit > 0 and depth >= limit and (
        settings.ismcts or n_legal < 0
        and (deepen <= 0 or slots_used >= slots
             or visits < (deepen if (depth - limit) % limit == 0 else 1)))


@njit(cache=True, inline="always")
def expand_first_visit(tag, s, nodes, meta, node, depth, mover, buf, orders, width, slots, rng, settings):
    """Count a new node's legal moves and fix the order its children open in."""
    nodes[node, F_NLEGAL] = legal_moves(tag, s, buf)
    if (depth < settings.order_depth or 0 < settings.tree_depth <= depth) and meta[1] < slots:
        # Near the root (and where deepening grows the tree), expand children
        # best-first by the one-ply heuristic so refutations are found within a few visits.
        slot = orders[meta[1] * width:(meta[1] + 1) * width]
        n_order = nodes[node, F_NLEGAL]
        order_moves(tag, s, buf, n_order, mover, slot, settings.weights)
        nodes[node, F_NLEGAL] = min(n_order, width)
        nodes[node, F_PERM] = -1 - meta[1]
        meta[1] += 1
    else:
        # Offset and stride of the untried-move permutation, packed.
        nodes[node, F_PERM] = (
            rand_below(rng, nodes[node, F_NLEGAL]) * 16
            + rand_below(rng, _STRIDE_PRIMES.shape[0])
        )


@njit(cache=True, inline="always")
def children_open(n_legal, perm, visits, mover, searcher, settings):
    """How many of a node's children may be open now (its F_NLEGAL, F_PERM and visits)."""
    n = n_legal
    if perm < 0:
        if settings.widen > 0.0:
            # Progressive unpruning: best-first children open one by one as visits grow.
            n = min(n, 1 + np.int64(settings.widen * np.sqrt(visits)))
        if settings.replies > 0 and mover != searcher:
            # An opponent model: another seat's best-first node opens only its
            # ``replies`` best moves by that seat's one-ply heuristic (1: the seat is
            # expected to play greedy's move), so the budget goes to the searcher's own
            # alternatives and the tree can span a whole round.
            n = min(n, settings.replies)
    return n


@njit(cache=True, inline="always")
def untried_move(tag, s, nodes, node, k, n, buf, orders, width):
    """The move of a node's k-th child, of the n it may open."""
    perm = nodes[node, F_PERM]
    if perm < 0:
        return orders[(-1 - perm) * width + k]
    legal_moves(tag, s, buf)
    return buf[untried_index(perm, k, n)]


@njit(cache=True)
def sorted_moves(buf, n):
    """buf[:n] sorted ascending, as a new array."""
    order = stable_argsort(buf[:n])
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = buf[order[i]]
    return out


@njit(cache=True, inline="always")
def pick_untried(rng, moves, n, matched, untried):
    """A uniformly drawn move of moves[:n] that is not ``matched`` (``untried`` of them)."""
    pick = rand_below(rng, untried)
    for i in range(n):
        if not matched[i]:
            if pick == 0:
                return moves[i]
            pick -= 1
    return -1
