"""Forma's bridges: the exact count when the game ends, and progress for the heuristic.

A bridge is a chain of one colour's piece squares and markers joining opposite board
edges; bridges in one direction share no square, so a colour's count is the maximum
number of square-disjoint chains (a max-flow with unit vertex capacities). The
heuristic's ``bridge_progress`` estimates cheaply how far the chains from each edge
reach.
"""
import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index
from .layout import MARKS, NEIGHBOURS, PIECES, ROW_MASK, SIZE, SQUARES, WORDS
from .planes import plane_row


@njit(cache=True)
def _max_disjoint_paths(member, vertical):
    """Maximum number of square-disjoint edge-connected chains of member squares from
    row 0 to row 19 (vertical) or column 0 to column 19: Edmonds-Karp on the graph with
    every square split into in/out nodes joined by a unit-capacity edge."""
    src = 2 * SQUARES
    snk = src + 1
    n_nodes = snk + 1
    max_edges = 2 * (7 * SQUARES)
    head = np.full(n_nodes, -1, dtype=np.int64)
    nxt = np.empty(max_edges, dtype=np.int64)
    to = np.empty(max_edges, dtype=np.int64)
    cap = np.empty(max_edges, dtype=np.int64)
    ne = 0
    for v in range(SQUARES):
        if not member[v]:
            continue
        r = v // SIZE
        c = v - r * SIZE
        pos = r if vertical else c
        # Edge list: (from, to) with capacity 1 and its reverse with capacity 0.
        for kind in range(7):
            if kind == 0:
                a, b = 2 * v, 2 * v + 1
            elif kind == 1:
                if pos != 0:
                    continue
                a, b = src, 2 * v
            elif kind == 2:
                if pos != SIZE - 1:
                    continue
                a, b = 2 * v + 1, snk
            else:
                u = NEIGHBOURS[v, kind - 3]
                if u < 0 or not member[u]:
                    continue
                a, b = 2 * v + 1, 2 * u
            to[ne] = b
            cap[ne] = 1
            nxt[ne] = head[a]
            head[a] = ne
            ne += 1
            to[ne] = a
            cap[ne] = 0
            nxt[ne] = head[b]
            head[b] = ne
            ne += 1
    parent_edge = np.empty(n_nodes, dtype=np.int64)
    queue = np.empty(n_nodes, dtype=np.int64)
    flow = 0
    while True:
        parent_edge[:] = -1
        queue[0] = src
        qh = 0
        qt = 1
        parent_edge[src] = -2
        while qh < qt and parent_edge[snk] == -1:
            x = queue[qh]
            qh += 1
            e = head[x]
            while e != -1:
                y = to[e]
                if cap[e] > 0 and parent_edge[y] == -1:
                    parent_edge[y] = e
                    queue[qt] = y
                    qt += 1
                e = nxt[e]
        if parent_edge[snk] == -1:
            return flow
        y = snk
        while y != src:
            e = parent_edge[y]
            cap[e] -= 1
            cap[e ^ 1] += 1
            y = to[e ^ 1]
        flow += 1


@njit(cache=True)
def bridges(s, p):
    """(north-south, east-west) bridge counts of player p on the board as it stands."""
    rows = np.empty(SIZE, dtype=np.int64)
    every_row = True
    cols = 0
    for r in range(SIZE):
        x = plane_row(s, PIECES + p * WORDS, r) | plane_row(s, MARKS + p * WORDS, r)
        rows[r] = x
        if x == 0:
            every_row = False
        cols |= x
    every_col = cols == ROW_MASK
    if not every_row and not every_col:
        return 0, 0
    member = np.zeros(SQUARES, dtype=np.bool_)
    for r in range(SIZE):
        x = rows[r]
        while x:
            member[r * SIZE + lowest_bit_index(x)] = True
            x &= x - 1
    ns = _max_disjoint_paths(member, True) if every_row else 0
    ew = _max_disjoint_paths(member, False) if every_col else 0
    return ns, ew


@njit(cache=True, inline="always")
def _row_fill(x, seed):
    """The runs of row ``x`` (20 bits) that hold a bit of ``seed``."""
    s = seed & x
    while True:
        t = (s | (s << 1) | (s >> 1)) & x
        if t == s:
            return s
        s = t


@njit(cache=True)
def _fill(rows, reach):
    """Grow ``reach`` (per-row seeds) to everything of ``rows`` joined to it along edges.

    Alternating downward and upward sweeps until nothing changes: a chain that turns
    back on itself needs one more pair of sweeps per turn, so this is exact.
    """
    changed = True
    while changed:
        changed = False
        for r in range(SIZE):
            seed = reach[r]
            if r > 0:
                seed |= reach[r - 1]
            x = _row_fill(rows[r], seed)
            if x != reach[r]:
                reach[r] = x
                changed = True
        for r in range(SIZE - 2, -1, -1):
            x = _row_fill(rows[r], reach[r] | reach[r + 1])
            if x != reach[r]:
                reach[r] = x
                changed = True


@njit(cache=True)
def _edge_reach(rows, reach, side):
    """How far (in rows or columns) the chains of ``rows`` from one board edge reach.

    side 0 = north, 1 = south, 2 = west, 3 = east.
    """
    for r in range(SIZE):
        reach[r] = 0
    if side == 0:
        reach[0] = rows[0]
    elif side == 1:
        reach[SIZE - 1] = rows[SIZE - 1]
    else:
        edge = 1 if side == 2 else 1 << (SIZE - 1)
        for r in range(SIZE):
            reach[r] = rows[r] & edge
    _fill(rows, reach)
    span = 0
    if side < 2:
        for r in range(SIZE):
            if reach[r]:
                span = max(span, r + 1 if side == 0 else SIZE - r)
        return span
    cols = 0
    for r in range(SIZE):
        cols |= reach[r]
    if cols == 0:
        return 0
    if side == 2:
        while cols >> span:
            span += 1
        return span
    return SIZE - lowest_bit_index(cols)


@njit(cache=True)
def bridge_progress(s, q):
    """Bridge progress of player q in [0, 2]: per direction 1 for a finished bridge,
    else (share of the board's length covered by the chains from the two edges, at most
    19/20)**2.
    """
    rows = np.empty(SIZE, dtype=np.int64)
    reach = np.empty(SIZE, dtype=np.int64)
    for r in range(SIZE):
        rows[r] = plane_row(s, PIECES + q * WORDS, r) | plane_row(s, MARKS + q * WORDS, r)
    total = 0.0
    for first in (0, 2):
        a = _edge_reach(rows, reach, first)
        if a == SIZE:
            total += 1.0
            continue
        # Chains from both edges that overlap without joining are not a bridge yet.
        share = min(SIZE - 1, a + _edge_reach(rows, reach, first + 1)) / SIZE
        total += share * share
    return total
