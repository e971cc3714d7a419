"""The Objectives module's 18 conditions (spec table, DECISION texts) and their end
scoring with Augur.

Counts of buildings include monuments; "lots" are owned cells, built or not;
contiguous means edge-connected. O4's corners are the city's four corner lots; O12
counts own buildings touching at least one building of another player; O17's
residential and commercial neighbours may be anyone's; O10 reads the silver held
after all other end scoring (the last scoring before this one).
"""
import numpy as np
from numba import njit

from ...core.bits import popcount
from .data import CIVIC, CODE_SIZE, CODE_TYPE, COMMERCIAL, G_AUGUR, OBJECTIVE_VP, RESIDENTIAL
from .layout import (
    CELL_BLD,
    CONSUL_SEAT,
    INSTANCE_STRIDE,
    N_PLAYERS,
    OBJ_FACE_UP,
    OBJ_KEPT,
    OBJ_PUBLIC,
    OWN,
    POP,
    SILVER,
    SIZE,
    SRC_INVOCATIONS,
    SRC_OBJECTIVES,
)
from .scoring import (
    add_vp,
    adjacent_instances,
    grid_step,
    has_ongoing,
    instance_cells,
    instance_code,
    instance_owner,
    markers_on_board,
)

# figures of objective_figures(): indices
F_RES, F_COM, F_CIV, F_BLD, F_BIG, F_TOUCH, F_O17, F_LOTS, F_EMPTY, F_EDGE, F_CORNERS, F_ROW, F_COL, \
    F_LARGEST, F_GROUPS4, F_POP, F_SILVER = range(17)


@njit(cache=True)
def _owns(s, p, cell):
    return (s[OWN + 2 * p + (cell >> 6)] >> (cell & 63)) & 1


@njit(cache=True)
def objective_figures(s, p, f):
    """Seat p's figures that the objectives test, into ``f`` (F_* indices)."""
    f[:] = 0
    _building_figures(s, p, f)
    f[F_LOTS] = popcount(s[OWN + 2 * p]) + popcount(s[OWN + 2 * p + 1])
    f[F_EMPTY] = markers_on_board(s, p)
    _line_figures(s, p, f)
    _group_figures(s, p, f)
    f[F_POP] = s[POP + p]
    f[F_SILVER] = s[SILVER + p]


@njit(cache=True)
def _building_figures(s, p, f):
    """Seat p's buildings by type, its large ones, those touching another player's
    building, and whether a civic one has residential and commercial neighbours (O17)."""
    n = s[SIZE]
    seen = np.zeros((CONSUL_SEAT + 1) * INSTANCE_STRIDE + 1, dtype=np.bool_)
    cells = np.empty(6, dtype=np.int64)
    adj = np.empty(32, dtype=np.int64)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or seen[b] or instance_owner(b) != p:
            continue
        seen[b] = True
        code = instance_code(b)
        t = CODE_TYPE[code]
        if t == RESIDENTIAL:
            f[F_RES] += 1
        elif t == COMMERCIAL:
            f[F_COM] += 1
        else:
            f[F_CIV] += 1
        f[F_BLD] += 1
        if CODE_SIZE[code] >= 4:
            f[F_BIG] += 1
        nc = instance_cells(s, b, cells)
        na = adjacent_instances(s, cells, nc, b, adj)
        touch = False
        res = False
        com = False
        for q in range(na):
            o = instance_owner(adj[q])
            if o != p and o != CONSUL_SEAT:
                touch = True
            ot = CODE_TYPE[instance_code(adj[q])]
            if ot == RESIDENTIAL:
                res = True
            elif ot == COMMERCIAL:
                com = True
        if touch:
            f[F_TOUCH] += 1
        if t == CIVIC and res and com:
            f[F_O17] = 1


@njit(cache=True)
def _line_figures(s, p, f):
    """Seat p's most lots in one row and in one column, its edge lots and corners."""
    n = s[SIZE]
    for r in range(n):
        row = 0
        col = 0
        for c in range(n):
            row += _owns(s, p, r * n + c)
            col += _owns(s, p, c * n + r)
        f[F_ROW] = max(f[F_ROW], row)
        f[F_COL] = max(f[F_COL], col)
    for cell in range(n * n):
        if _owns(s, p, cell):
            r = cell // n
            c = cell - r * n
            if r == 0 or c == 0 or r == n - 1 or c == n - 1:
                f[F_EDGE] += 1
                if (r == 0 or r == n - 1) and (c == 0 or c == n - 1):
                    f[F_CORNERS] += 1


@njit(cache=True)
def _group_figures(s, p, f):
    """Seat p's connected groups of own lots: the largest, and how many have 4+ lots."""
    n = s[SIZE]
    mark = np.zeros(n * n, dtype=np.bool_)
    stack = np.empty(n * n, dtype=np.int64)
    for start in range(n * n):
        if mark[start] or not _owns(s, p, start):
            continue
        mark[start] = True
        stack[0] = start
        top = 1
        size = 0
        while top > 0:
            top -= 1
            cell = stack[top]
            size += 1
            for d in range(4):
                nb = grid_step(cell, d, n)
                if nb < 0:
                    continue
                if not mark[nb] and _owns(s, p, nb):
                    mark[nb] = True
                    stack[top] = nb
                    top += 1
        f[F_LARGEST] = max(f[F_LARGEST], size)
        if size >= 4:
            f[F_GROUPS4] += 1


@njit(cache=True)
def objective_met(k, f):
    """Whether figures ``f`` meet objective O<k>."""
    if k == 1:
        return f[F_LARGEST] >= 10
    if k == 2:
        return f[F_GROUPS4] >= 2
    if k == 3:
        return f[F_EDGE] >= 6
    if k == 4:
        return f[F_CORNERS] >= 2
    if k == 5:
        return f[F_RES] >= 4
    if k == 6:
        return f[F_COM] >= 4
    if k == 7:
        return f[F_CIV] >= 4
    if k == 8:
        return f[F_RES] >= 2 and f[F_COM] >= 2 and f[F_CIV] >= 2
    if k == 9:
        return f[F_POP] >= 14
    if k == 10:
        return f[F_SILVER] >= 15
    if k == 11:
        return f[F_BIG] >= 2
    if k == 12:
        return f[F_TOUCH] >= 4
    if k == 13:
        return f[F_ROW] >= 5
    if k == 14:
        return f[F_COL] >= 5
    if k == 15:
        return f[F_BLD] >= 10
    if k == 16:
        return f[F_EMPTY] >= 4
    if k == 17:
        return f[F_O17] == 1
    return f[F_LOTS] >= 10 and f[F_EMPTY] == 0


@njit(cache=True)
def objectives_met(s, p, f):
    """How many objectives seat p scores (its kept card, or every face-up card it
    meets) and their VP, as (count, vp); ``f`` is a work buffer."""
    objective_figures(s, p, f)
    count = 0
    vp = 0
    if s[OBJ_PUBLIC]:
        for j in range(5):
            k = s[OBJ_FACE_UP + j]
            if k > 0 and objective_met(k, f):
                count += 1
                vp += OBJECTIVE_VP[k]
    else:
        k = s[OBJ_KEPT + p]
        if k > 0 and objective_met(k, f):
            count = 1
            vp = OBJECTIVE_VP[k]
    return count, vp


@njit(cache=True)
def score_objectives(s):
    """The last end scoring: each seat's objectives, then Augur (+3 VP per objective
    scored) for its holder."""
    f = np.zeros(17, dtype=np.int64)
    for p in range(s[N_PLAYERS]):
        count, vp = objectives_met(s, p, f)
        add_vp(s, p, SRC_OBJECTIVES, vp)
        if has_ongoing(s, p, G_AUGUR):
            add_vp(s, p, SRC_INVOCATIONS, 3 * count)
