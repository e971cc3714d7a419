"""Will of the Consul: its token piles, its deterministic token placement and its price
floor (the spec's "Will of the Consul").

Placement: x = the new lot, C = its connected group of Consul lots, T = the first
min(4, |C|) cells of a breadth-first search of C from x (neighbours up, left, right,
down). The top token of that size is drawn (an empty pile is first refilled from its
discards, in discard order, then shuffled with the state's RNG; with none the Consul
takes 7 VP instead); tokens overlapping T go to their discards (ascending ids); the new
token covers T. Then the cells freed in this step (the discarded tokens' cells outside
T) are re-covered: while one is uncovered and untried, y = the lowest, E = its group
among those cells, cover the first min(4, |E|) cells of a BFS of E from y the same way.
"""
import numpy as np
from numba import njit

from ...core.rng import rand_below
from .data import TOKEN_SIZE
from .layout import (
    CDISC,
    CDISC_N,
    CELL_BLD,
    CONSUL_OWN,
    CONSUL_SEAT,
    CONSUL_VP,
    CPILE,
    CPILE_N,
    INSTANCE_STRIDE,
    PRICES,
    RNG,
    SIZE,
)
from .scoring import consul_silver, grid_step

TOKEN_BASE = 1 + CONSUL_SEAT * INSTANCE_STRIDE  # instance of token t: TOKEN_BASE + t


@njit(cache=True, inline="always")
def _bit(s, base, cell):
    return (s[base + (cell >> 6)] >> (cell & 63)) & 1


@njit(cache=True)
def _bfs(s, n, start, allowed, out):
    """Breadth-first order from ``start`` over cells with allowed[cell] (neighbours up,
    left, right, down) into out; returns the count."""
    seen = np.zeros(n * n, dtype=np.bool_)
    seen[start] = True
    out[0] = start
    head = 0
    tail = 1
    while head < tail:
        cell = out[head]
        head += 1
        for d in range(4):
            nb = grid_step(cell, d, n)
            if nb < 0:
                continue
            if allowed[nb] and not seen[nb]:
                seen[nb] = True
                out[tail] = nb
                tail += 1
    return tail


@njit(cache=True)
def _draw(s, size):
    """Top token of a size's pile (refilled from its discards first if empty), or -1."""
    pile = CPILE + 12 * (size - 1)
    if s[CPILE_N + size - 1] == 0:
        nd = s[CDISC_N + size - 1]
        if nd == 0:
            return -1
        disc = CDISC + 12 * (size - 1)
        for k in range(nd):
            s[pile + k] = s[disc + k]
        s[CDISC_N + size - 1] = 0
        s[CPILE_N + size - 1] = nd
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = np.uint64(s[RNG])
        for i in range(nd - 1, 0, -1):
            j = rand_below(rng, i + 1)
            s[pile + i], s[pile + j] = s[pile + j], s[pile + i]
        s[RNG] = np.int64(rng[0])
    t = s[pile]
    cnt = s[CPILE_N + size - 1]
    for k in range(cnt - 1):
        s[pile + k] = s[pile + k + 1]
    s[CPILE_N + size - 1] = cnt - 1
    return t


@njit(cache=True)
def _cover(s, cells, k, freed):
    """Cover ``cells[:k]`` with a drawn size-k token (7 VP if none), discarding the
    tokens under it; their other cells are flagged in ``freed``."""
    n = s[SIZE]
    t = _draw(s, k)
    if t < 0:
        s[CONSUL_VP] += 7
        return
    under = np.zeros(30, dtype=np.bool_)
    for j in range(k):
        b = s[CELL_BLD + cells[j]]
        if b != 0:
            under[b - TOKEN_BASE] = True
    for old in range(30):
        if not under[old]:
            continue
        size = TOKEN_SIZE[old]
        s[CDISC + 12 * (size - 1) + s[CDISC_N + size - 1]] = old
        s[CDISC_N + size - 1] += 1
        for cell in range(n * n):
            if s[CELL_BLD + cell] == TOKEN_BASE + old:
                s[CELL_BLD + cell] = 0
                freed[cell] = True
    for j in range(k):
        s[CELL_BLD + cells[j]] = TOKEN_BASE + t
        freed[cells[j]] = False


@njit(cache=True)
def consul_place(s, x):
    """The Consul places a token after taking lot x (module docstring)."""
    n = s[SIZE]
    mine = np.zeros(n * n, dtype=np.bool_)
    for cell in range(n * n):
        mine[cell] = _bit(s, CONSUL_OWN, cell) == 1
    order = np.empty(n * n, dtype=np.int64)
    cnt = _bfs(s, n, x, mine, order)
    freed = np.zeros(n * n, dtype=np.bool_)
    _cover(s, order, min(4, cnt), freed)
    tried = np.zeros(n * n, dtype=np.bool_)
    open_ = np.zeros(n * n, dtype=np.bool_)
    while True:
        y = -1
        for cell in range(n * n):
            open_[cell] = freed[cell] and s[CELL_BLD + cell] == 0 and not tried[cell]
            if open_[cell] and y < 0:
                y = cell
        if y < 0:
            return
        cnt = _bfs(s, n, y, open_, order)
        k = min(4, cnt)
        for j in range(k):
            tried[order[j]] = True
        _cover(s, order, k, freed)


@njit(cache=True)
def consul_floor(s):
    """The Consul's minimum slot price: deed_prices[0] + floor(S / 2)."""
    return s[PRICES] + consul_silver(s) // 2
