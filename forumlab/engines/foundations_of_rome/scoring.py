"""Scoring kernels, one per rule of the spec's "Era scoring" and "End of the game".

Buildings on the board are *instances* (``CELL_BLD``, see :mod:`.layout`); the
adjacent buildings of an instance are the distinct other instances (any owner,
monuments included) with a cell sharing an edge with one of its cells.
"""
import numpy as np
from numba import njit

from ...core.bits import popcount
from .data import (
    CIVIC,
    CIVIC_DIV,
    CIVIC_MEASURE,
    CIVIC_MULT,
    CODE_CITIZENS,
    CODE_MON_VP,
    CODE_SILVER,
    CODE_TRAY,
    CODE_TYPE,
    COMMERCIAL,
    M_BUILDINGS,
    M_CITIZENS,
    M_CIVIC,
    N_PLAYER_CODES,
    RESIDENTIAL,
)
from .layout import (
    BUILT,
    CELL_BLD,
    INSTANCE_STRIDE,
    MONUMENT_SLOT,
    N_PLAYERS,
    N_SRC,
    OWN,
    POP,
    SILVER,
    SIZE,
    SRC_CIVIC,
    SRC_COMMERCIAL,
    SRC_LOT_MARKERS,
    SRC_MONUMENTS,
    SRC_POPULATION,
    SRC_TRAY,
    VP,
    VP_SRC,
)

ERA_BONUS = np.array([0, 4, 7, 10], dtype=np.int64)


@njit(cache=True, inline="always")
def instance_owner(inst):
    """Seat owning building instance ``inst`` (> 0)."""
    return (inst - 1) // INSTANCE_STRIDE


@njit(cache=True, inline="always")
def instance_code(inst):
    """bcode (:mod:`.data`) of building instance ``inst`` (> 0)."""
    slot = (inst - 1) % INSTANCE_STRIDE
    if slot < MONUMENT_SLOT:
        return slot >> 1
    return N_PLAYER_CODES + slot - MONUMENT_SLOT


@njit(cache=True, inline="always")
def add_vp(s, p, source, points):
    """Credit VP to seat p under a VP source."""
    s[VP + p] += points
    s[VP_SRC + p * N_SRC + source] += points


@njit(cache=True)
def adjacent_instances(s, cells, ncells, exclude, out):
    """Distinct building instances adjacent to the given cells, other than
    ``exclude``; written to ``out``, their number returned."""
    n = s[SIZE]
    k = 0
    for j in range(ncells):
        cell = cells[j]
        r = cell // n
        c = cell - r * n
        for d in range(4):
            if d == 0:
                if r == 0:
                    continue
                nb = cell - n
            elif d == 1:
                if r == n - 1:
                    continue
                nb = cell + n
            elif d == 2:
                if c == 0:
                    continue
                nb = cell - 1
            else:
                if c == n - 1:
                    continue
                nb = cell + 1
            b = s[CELL_BLD + nb]
            if b == 0 or b == exclude:
                continue
            dup = False
            for q in range(k):
                if out[q] == b:
                    dup = True
                    break
            if not dup:
                out[k] = b
                k += 1
    return k


@njit(cache=True)
def instance_cells(s, inst, cells):
    """Cells of an instance (ascending) into ``cells``; returns their number."""
    n = s[SIZE]
    k = 0
    for cell in range(n * n):
        if s[CELL_BLD + cell] == inst:
            cells[k] = cell
            k += 1
    return k


@njit(cache=True)
def civic_value(s, inst):
    """VP that a civic building or civic monument scores for its owner at an era scoring."""
    code = instance_code(inst)
    cells = np.empty(6, dtype=np.int64)
    adj = np.empty(32, dtype=np.int64)
    nc = instance_cells(s, inst, cells)
    na = adjacent_instances(s, cells, nc, inst, adj)
    measure = CIVIC_MEASURE[code]
    total = 0
    for q in range(na):
        other = instance_code(adj[q])
        if measure == M_BUILDINGS:
            total += 1
        elif measure == M_CITIZENS:
            total += CODE_CITIZENS[other]
        elif measure == M_CIVIC:
            if CODE_TYPE[other] == CIVIC:
                total += 1
        else:
            total += CODE_SILVER[other]
    return CIVIC_MULT[code] * total // CIVIC_DIV[code]


@njit(cache=True)
def _own_total(s, p, kind, values):
    """Sum of ``values[code]`` over seat p's buildings of type ``kind`` on the board
    (monuments included), each building once however many cells it covers."""
    n = s[SIZE]
    total = 0
    seen = np.int64(0)  # bit set of the instance slots already counted
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b != 0 and instance_owner(b) == p:
            bit = np.int64(1) << ((b - 1) % INSTANCE_STRIDE)
            if not seen & bit:
                seen |= bit
                code = instance_code(b)
                if CODE_TYPE[code] == kind:
                    total += values[code]
    return total


@njit(cache=True)
def population_of(s, p):
    """Citizens of seat p's residential buildings (monuments included)."""
    return _own_total(s, p, RESIDENTIAL, CODE_CITIZENS)


@njit(cache=True)
def commercial_silver(s, p):
    """Silver shown by seat p's commercial buildings and commercial monuments."""
    return _own_total(s, p, COMMERCIAL, CODE_SILVER)


@njit(cache=True)
def score_population(s, era):
    """Step 1: leaders score population + era bonus, the others the next higher
    population; players without citizens score nothing."""
    np_ = s[N_PLAYERS]
    best = 0
    for p in range(np_):
        best = max(best, s[POP + p])
    for p in range(np_):
        pop = s[POP + p]
        if pop <= 0:
            continue
        if pop == best:
            add_vp(s, p, SRC_POPULATION, pop + ERA_BONUS[era])
        else:
            nxt = best
            for q in range(np_):
                if pop < s[POP + q] < nxt:
                    nxt = s[POP + q]
            add_vp(s, p, SRC_POPULATION, nxt)


@njit(cache=True)
def score_civic(s):
    """Step 2: every civic building (to "civic") and civic monument (to "monuments")
    scores its rule for its owner."""
    n = s[SIZE]
    done = np.zeros(s[N_PLAYERS] * INSTANCE_STRIDE + 1, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or done[b]:
            continue
        done[b] = True
        code = instance_code(b)
        if CODE_TYPE[code] != CIVIC:
            continue
        add_vp(s, instance_owner(b), SRC_MONUMENTS if code >= N_PLAYER_CODES else SRC_CIVIC,
               civic_value(s, b))


@njit(cache=True)
def score_commercial(s, era):
    """Step 3: silver of commercial buildings (VP in era 3, to "commercial"), tray VP
    of commercial buildings ("tray") and commercial monuments' VP ("monuments")."""
    n = s[SIZE]
    done = np.zeros(s[N_PLAYERS] * INSTANCE_STRIDE + 1, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or done[b]:
            continue
        done[b] = True
        code = instance_code(b)
        if CODE_TYPE[code] != COMMERCIAL:
            continue
        p = instance_owner(b)
        if era == 3:
            add_vp(s, p, SRC_COMMERCIAL, CODE_SILVER[code])
        else:
            s[SILVER + p] += CODE_SILVER[code]
        if CODE_TRAY[code] > 0:
            add_vp(s, p, SRC_TRAY, CODE_TRAY[code])
        if CODE_MON_VP[code] > 0:
            add_vp(s, p, SRC_MONUMENTS, CODE_MON_VP[code])


@njit(cache=True)
def score_era(s, era):
    """Era scoring in the spec's order: population, civic, commercial."""
    score_population(s, era)
    score_civic(s)
    score_commercial(s, era)


@njit(cache=True)
def score_end(s):
    """End of the game: +1 VP per own lot marker on the board."""
    for p in range(s[N_PLAYERS]):
        markers = popcount(s[OWN + 2 * p] & ~s[BUILT + 2 * p]) + popcount(
            s[OWN + 2 * p + 1] & ~s[BUILT + 2 * p + 1])
        add_vp(s, p, SRC_LOT_MARKERS, markers)
