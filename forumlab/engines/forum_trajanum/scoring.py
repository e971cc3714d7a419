"""Scoring kernels, one per rule of the spec's "End of a cycle" and "Prestige"
sections, and the numbers the Trajan tasks measure."""
import numpy as np
from numba import njit

from ...core.bits import popcount
from .data import (
    AREA_POINTS,
    COLUMN_VALUE,
    CRANE_VALUE,
    DIAG_EAGLE,
    EAGLE,
    ORTHO_EAGLE,
    S_ACT,
    S_COLOURS,
    S_COLS,
    S_EAGLE,
    S_ENV,
    S_FULL,
    S_GRP,
    S_LVL2,
    S_MAXCOL,
    S_RES,
    S_ROWTYPES,
    S_TYPES,
    TRAJAN_TASKS,
)
from .layout import (
    B_COL,
    B_MKT,
    B_R,
    BLD,
    CIT,
    COLS,
    CORNERS,
    CRANE,
    CYCLE,
    ENVBB,
    FCOLS,
    FOCC,
    INTRO,
    MERCH,
    N_PLAYERS,
    NCOLS,
    OVER,
    PRES,
    RES,
    RES_NAMES,
    SEAT,
    SEAT_SIZE,
    SOURCE_NAMES,
    SRC_AREA,
    SRC_COLONIA,
    SRC_CRANE,
    SRC_EAGLES,
    SRC_TRAJAN,
    TILE,
    TRACK,
    TRAJAN,
    VPS,
)


@njit(cache=True, inline="always")
def seat_base(p):
    """First slot of seat p's block."""
    return SEAT + p * SEAT_SIZE


@njit(cache=True)
def row_active(s, p, row):
    """Active citizens in row (0-5) of seat p."""
    b = seat_base(p) + CIT + 2 * row
    return np.int64(s[b] == 1) + np.int64(s[b + 1] == 1)


@njit(cache=True)
def active_citizens(s, p):
    """All of seat p's active citizens."""
    n = 0
    b = seat_base(p) + CIT
    for i in range(12):
        if s[b + i] == 1:
            n += 1
    return n


@njit(cache=True)
def resources(s, p):
    """``res``: builders + workers + assistants + coins + tribunes."""
    b = seat_base(p) + RES
    n = 0
    for i in range(8):
        n += s[b + i]
    return n


@njit(cache=True)
def column_points(s, p):
    """A column's VP: column value + own active citizens."""
    return COLUMN_VALUE[s[CYCLE]] + active_citizens(s, p)


@njit(cache=True)
def upgraded_position(s, p):
    """Where an upgrade would move the slide bar: +1, or to the next cypress with MI
    active; capped at 8."""
    pres = s[seat_base(p) + PRES]
    if row_active(s, p, 2) > 0:
        return min(8, pres + 2 - (pres & 1))
    return min(8, pres + 1)


@njit(cache=True)
def upgrade(s, p):
    """Move the slide bar (:func:`upgraded_position`)."""
    s[seat_base(p) + PRES] = upgraded_position(s, p)


@njit(cache=True)
def prestige_bonus(s, p):
    """p + m (the bar position plus 2 on the Merchant side)."""
    b = seat_base(p)
    return s[b + PRES] + 2 * s[b + MERCH]


@njit(cache=True)
def largest_group(s, p):
    """Size of seat p's largest edge-joined group of envoys on the Forum."""
    ncols = s[NCOLS]
    seen = np.zeros(80, dtype=np.bool_)
    stack = np.empty(80, dtype=np.int64)
    best = 0
    for f0 in range(80):
        if s[FOCC + f0] != p + 1 or seen[f0]:
            continue
        seen[f0] = True
        stack[0] = f0
        top = 1
        size = 0
        while top > 0:
            top -= 1
            f = stack[top]
            size += 1
            r = f // FCOLS
            c = f % FCOLS
            for d in range(4):
                rr = r + (d == 1) - (d == 0)
                cc = c + (d == 3) - (d == 2)
                if 0 <= rr < 4 and 0 <= cc < ncols:
                    g = rr * FCOLS + cc
                    if not seen[g] and s[FOCC + g] == p + 1:
                        seen[g] = True
                        stack[top] = g
                        top += 1
        if size > best:
            best = size
    return best


@njit(cache=True)
def on_forum(s, p):
    """Whether seat p has at least one envoy on the Forum (a largest group above 0,
    without the flood fill)."""
    for f in range(80):
        if s[FOCC + f] == p + 1:
            return True
    return False


@njit(cache=True)
def area_points(s, p):
    """Largest group on the prestige bar: AREA[min(s,10)] + p + m, 0 without envoys."""
    g = largest_group(s, p)
    if g == 0:
        return 0
    return AREA_POINTS[min(g, 10)] + prestige_bonus(s, p)


@njit(cache=True)
def eagle_points(s, p):
    """2 on an eagle, else 1 orthogonally next to one; +1 diagonally next to one with PI."""
    pi = row_active(s, p, 0) > 0
    pts = 0
    for f in range(80):
        if s[FOCC + f] != p + 1:
            continue
        if EAGLE[f]:
            pts += 2
        elif ORTHO_EAGLE[f]:
            pts += 1
        if pi and DIAG_EAGLE[f]:
            pts += 1
    return pts


@njit(cache=True)
def row_grey_types(s, p, row):
    """Distinct grey types built in a Colonia row."""
    b = seat_base(p) + BLD + 6 * row
    mask = 0
    for c in range(6):
        t = s[b + c]
        if B_COL <= t <= B_MKT:
            mask |= 1 << t
    return popcount(mask)


@njit(cache=True)
def colonia_points(s, p):
    """Sum over rows: distinct grey types x (1 + active citizens of the row)."""
    pts = 0
    for row in range(6):
        pts += row_grey_types(s, p, row) * (1 + row_active(s, p, row))
    return pts


@njit(cache=True)
def structures_of(s, p, colour):
    """Own structure cells of a colour (a double of 2 structures counts 2)."""
    b = seat_base(p) + BLD
    n = 0
    for c in range(36):
        if s[b + c] == B_R + colour:
            n += 1
    return n


@njit(cache=True)
def score_cranes(s, p):
    """Each uncovered crane still showing its colour scores, then turns colourless."""
    b = seat_base(p)
    for k in range(4):
        col = s[b + CRANE + k]
        if col >= 0 and s[b + TILE + CORNERS[k]] == 0:
            s[b + VPS + SRC_CRANE] += CRANE_VALUE[s[CYCLE]] * structures_of(s, p, col)
            s[b + CRANE + k] = -1


@njit(cache=True)
def measure(s, p, symbol):
    """The number a Trajan symbol measures for seat p."""
    b = seat_base(p)
    if symbol == S_COLS:
        return s[b + COLS]
    if symbol == S_TYPES or symbol == S_ROWTYPES:
        best = 0
        allm = 0
        for row in range(6):
            m = 0
            for c in range(6):
                t = s[b + BLD + 6 * row + c]
                if B_COL <= t <= B_MKT:
                    m |= 1 << t
            allm |= m
            best = max(best, popcount(m))
        return popcount(allm) if symbol == S_TYPES else best
    if symbol == S_COLOURS or symbol == S_MAXCOL:
        best = 0
        kinds = 0
        for col in range(4):
            n = structures_of(s, p, col)
            if n > 0:
                kinds += 1
            best = max(best, n)
        return kinds if symbol == S_COLOURS else best
    if symbol == S_ACT:
        return active_citizens(s, p)
    if symbol == S_FULL:
        n = 0
        for row in range(6):
            if row_active(s, p, row) == 2:
                n += 1
        return n
    if symbol == S_ENV:
        return popcount(s[b + ENVBB]) + popcount(s[b + ENVBB + 1])
    if symbol == S_GRP:
        return largest_group(s, p)
    if symbol == S_EAGLE:
        n = 0
        for f in range(80):
            if s[FOCC + f] == p + 1 and (EAGLE[f] or ORTHO_EAGLE[f]):
                n += 1
        return n
    if symbol == S_RES:
        return resources(s, p)
    # S_LVL2 / S_LVL4: tracks at level >= 2 / at level 4
    need = 2 if symbol == S_LVL2 else 4
    n = 0
    for t in range(3):
        if min(4, s[b + TRACK + t]) >= need:
            n += 1
    return n


@njit(cache=True)
def task_met(s, p, symbol, threshold):
    """Whether seat p meets one Trajan task (``=4`` tasks are maxima, so >= is =)."""
    return measure(s, p, symbol) >= threshold


@njit(cache=True)
def score_trajan(s, p, pile):
    """Trajan value (3 + p + m) per task of the pile's drawn card that p meets."""
    card = s[TRAJAN + pile] - 1
    value = 3 + prestige_bonus(s, p)
    for k in range(2):
        if task_met(s, p, TRAJAN_TASKS[pile, card, k, 0], TRAJAN_TASKS[pile, card, k, 1]):
            s[seat_base(p) + VPS + SRC_TRAJAN] += value


@njit(cache=True)
def score_cycle(s):
    """Steps 2-5 of the end of a cycle, for every seat (payment is a ply before)."""
    cyc = s[CYCLE]
    for p in range(s[N_PLAYERS]):
        b = seat_base(p)
        score_cranes(s, p)
        s[b + VPS + SRC_COLONIA] += colonia_points(s, p)
        s[b + VPS + SRC_EAGLES] += eagle_points(s, p)
        s[b + VPS + SRC_AREA] += area_points(s, p)
        if s[INTRO] == 0:
            score_trajan(s, p, cyc - 1)
        elif cyc == 3:
            score_trajan(s, p, 2)


@njit(cache=True)
def total_vp(s, p):
    """A seat's VP (the sum of its sources)."""
    b = seat_base(p) + VPS
    n = 0
    for i in range(8):
        n += s[b + i]
    return n


@njit(cache=True)
def is_terminal(s):
    """True once cycle III has been scored."""
    return s[OVER] != 0


@njit(cache=True)
def scores(s, out):
    """VP per seat (ties are broken by active citizens, then resources: ``Game.rank_keys``)."""
    for p in range(s[N_PLAYERS]):
        out[p] = total_vp(s, p)


def tie_break_keys(array, scores: list) -> list:
    """(VP, active citizens, resources) per seat: the rulebook's tie-breaks."""
    return [(score, int(active_citizens(array, p)), int(resources(array, p)))
            for p, score in enumerate(scores)]


def result_details(array) -> dict:
    """A result's details per seat: its resources, active citizens and VP by source."""
    n = int(array[N_PLAYERS])
    bases = [SEAT + p * SEAT_SIZE for p in range(n)]
    return {
        "resources": [{name: int(array[b + RES + i]) for i, name in enumerate(RES_NAMES)} for b in bases],
        "active_citizens": [int(active_citizens(array, p)) for p in range(n)],
        "vp_by_source": [{name: int(array[b + VPS + i]) for i, name in enumerate(SOURCE_NAMES)}
                         for b in bases],
    }
