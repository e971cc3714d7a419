"""Tree reuse between moves: the subtree of the position reached, copied into a new tree."""
import numpy as np
from numba import njit

from ..arrays import copy_into
from .tree import (
    F_CHILD,
    F_MOVE,
    F_NCHILD,
    F_NLEGAL,
    F_PARENT,
    F_PERM,
    F_SIBLING,
    order_slots,
    order_width,
    reset_tree,
)


@njit(cache=True, nogil=True)
def reroot(nodes, rewards, meta, pool, path, new_nodes, new_rewards, new_meta, new_pool):
    """Follow ``path`` (moves) from the root; copy that subtree into the new arrays.

    Move orders of kept nodes are copied to the front of ``new_pool`` (both pools
    must have the same row length).

    Returns the number of nodes kept (0 if the path left the tree or the subtree
    does not fit, in which case the new tree is reset to a lone root).
    """
    node = 0
    for i in range(path.shape[0]):
        ch = nodes[node, F_CHILD]
        while ch != -1 and nodes[ch, F_MOVE] != path[i]:
            ch = nodes[ch, F_SIBLING]
        if ch == -1:
            reset_tree(new_nodes, new_meta)
            return 0
        node = ch
    capacity = new_nodes.shape[0]
    width = order_width(pool)
    orders = pool.reshape(pool.size)
    new_orders = new_pool.reshape(new_pool.size)
    # Breadth-first copy; old -> new index map kept in a queue of old indices.
    queue = np.empty(meta[0], dtype=np.int64)
    new_index = np.empty(meta[0], dtype=np.int64)
    queue[0] = node
    new_index[0] = 0
    new_meta[1] = 0
    head = 0
    tail = 1
    while head < tail:
        old = queue[head]
        new = new_index[head]
        head += 1
        parent = new_nodes[new, F_PARENT] if head > 1 else -1
        sibling = new_nodes[new, F_SIBLING] if head > 1 else -1
        copy_into(new_nodes[new], nodes[old])
        copy_into(new_rewards[new], rewards[old])
        new_nodes[new, F_PARENT] = parent
        new_nodes[new, F_SIBLING] = sibling
        new_nodes[new, F_CHILD] = -1
        if nodes[old, F_PERM] < 0:
            if new_meta[1] < order_slots(new_pool):
                at = (-1 - nodes[old, F_PERM]) * width
                new_at = new_meta[1] * width
                copy_into(new_orders[new_at:new_at + width], orders[at:at + width])
                new_nodes[new, F_PERM] = -1 - new_meta[1]
                new_meta[1] += 1
            else:  # no room: forget the order, keep the expanded children as they are
                new_nodes[new, F_NLEGAL] = new_nodes[new, F_NCHILD]
                new_nodes[new, F_PERM] = 0
        # Children are appended in reverse sibling order so prepending keeps the order.
        n_kids = 0
        ch = nodes[old, F_CHILD]
        while ch != -1:
            n_kids += 1
            ch = nodes[ch, F_SIBLING]
        if tail + n_kids > capacity:
            reset_tree(new_nodes, new_meta)
            return 0
        kids = np.empty(n_kids, dtype=np.int64)
        ch = nodes[old, F_CHILD]
        j = 0
        while ch != -1:
            kids[j] = ch
            j += 1
            ch = nodes[ch, F_SIBLING]
        for j in range(n_kids - 1, -1, -1):
            queue[tail] = kids[j]
            new_index[tail] = tail
            new_nodes[tail, F_PARENT] = new
            new_nodes[tail, F_SIBLING] = new_nodes[new, F_CHILD]
            new_nodes[new, F_CHILD] = tail
            tail += 1
    new_meta[0] = tail
    return tail
