"""Scoring kernels, one per rule of the spec's "Era scoring" and "End of the game", the
end of the game and its result.

Buildings on the board are *instances* (``CELL_BLD``, see :mod:`.layout`); the
adjacent buildings of an instance are the distinct other instances (any owner,
monuments included) with a cell sharing an edge with one of its cells.
"""
from collections.abc import Sequence
from typing import Any

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
    G_MINERVA,
    G_QUIRINUS,
    INVOCATION_VP,
    M_BUILDINGS,
    M_CITIZENS,
    M_CIVIC,
    N_ALL_CODES,
    N_CODES,
    N_INVOCATIONS,
    N_PLAYER_CODES,
    P_AEDILIS,
    P_CENSOR,
    P_NEGOTIATOR,
    P_PONTIFEX,
    P_PRAETOR,
    P_QUAESTOR,
    P_TRIBUNUS,
    RESIDENTIAL,
)
from .layout import (
    BUILT,
    CELL_BLD,
    CONSUL,
    CONSUL_SEAT,
    CONSUL_VP,
    ERA,
    INSTANCE_STRIDE,
    INV_HOLDER,
    INV_ONGOING,
    INV_STATUS,
    INV_UNUSED,
    MOD_INVOCATIONS,
    MOD_POP,
    MOD_ROLES,
    MOD_STEALING,
    MOD_TRADING,
    MODULES,
    MONUMENT_SLOT,
    N_PLAYERS,
    N_SRC,
    OWN,
    PH_OVER,
    PHASE,
    POP,
    ROLE,
    SILVER,
    SIZE,
    SOURCE_NAMES,
    SRC_CIVIC,
    SRC_COMMERCIAL,
    SRC_FAVOR,
    SRC_INVOCATIONS,
    SRC_LOT_MARKERS,
    SRC_MONUMENTS,
    SRC_POPULATION,
    SRC_ROLES,
    SRC_TRAY,
    TOKENS2,
    TOKENS4,
    TURNS,
    VP,
    VP_SRC,
)

ERA_BONUS = np.array([0, 4, 7, 10], dtype=np.int64)
ONES = np.ones(N_ALL_CODES, dtype=np.int64)


@njit(cache=True, inline="always")
def instance_owner(inst):
    """Seat owning building instance ``inst`` (> 0); CONSUL_SEAT for a Consul token."""
    return (inst - 1) // INSTANCE_STRIDE


@njit(cache=True, inline="always")
def instance_code(inst):
    """bcode (:mod:`.data`) of building instance ``inst`` (> 0); a Consul token's is
    N_CODES + its id."""
    slot = (inst - 1) % INSTANCE_STRIDE
    if inst > CONSUL_SEAT * INSTANCE_STRIDE:
        return N_CODES + slot
    if slot < MONUMENT_SLOT:
        return slot >> 1
    return N_PLAYER_CODES + slot - MONUMENT_SLOT


@njit(cache=True, inline="always")
def add_vp(s, p, source, points):
    """Credit VP to seat p under a VP source."""
    s[VP + p] += points
    s[VP_SRC + p * N_SRC + source] += points


@njit(cache=True, inline="always")
def grid_step(cell, d, n):
    """The cell next to ``cell`` on an n x n city in direction d (0 up, 1 left, 2 right,
    3 down: reading order), or -1 off the board."""
    r = cell // n
    c = cell - r * n
    if d == 0:
        return cell - n if r > 0 else -1
    if d == 1:
        return cell - 1 if c > 0 else -1
    if d == 2:
        return cell + 1 if c < n - 1 else -1
    return cell + n if r < n - 1 else -1


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
    """Seat p's population: citizens of its residential buildings (monuments included)
    plus its modifiers (Vesta, Patronus)."""
    return _own_total(s, p, RESIDENTIAL, CODE_CITIZENS) + s[MOD_POP + p]


@njit(cache=True)
def commercial_silver(s, p):
    """Silver shown by seat p's commercial buildings and commercial monuments."""
    return _own_total(s, p, COMMERCIAL, CODE_SILVER)


@njit(cache=True, inline="always")
def role_of(s, p):
    """Role card seat p holds (0 before the reveal or without the module)."""
    return s[ROLE + p]


@njit(cache=True, inline="always")
def has_ongoing(s, p, g):
    """Whether seat p holds invocation G<g> in play (ongoing)."""
    return s[INV_HOLDER + g] == p and s[INV_STATUS + g] == INV_ONGOING


@njit(cache=True)
def count_type(s, p, kind):
    """Seat p's buildings of a type on the board (monuments included)."""
    return _own_total(s, p, kind, ONES)


@njit(cache=True)
def score_population(s, era):
    """Step 1: leaders score population + era bonus, the others the next higher
    population; players without citizens score nothing. Censor +3 to a leader (even
    with 0 citizens), Tribunus +2 to a scoring non-leader."""
    np_ = s[N_PLAYERS]
    best = 0
    for p in range(np_):
        best = max(best, s[POP + p])
    for p in range(np_):
        pop = s[POP + p]
        role = s[ROLE + p]
        if role == P_CENSOR and pop == best:
            add_vp(s, p, SRC_ROLES, 3)
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
            if role == P_TRIBUNUS:
                add_vp(s, p, SRC_ROLES, 2)


@njit(cache=True)
def consul_population(s):
    """Citizens on the Consul's residential tokens."""
    return _own_total(s, CONSUL_SEAT, RESIDENTIAL, CODE_CITIZENS)


@njit(cache=True)
def consul_silver(s):
    """S: the silver shown by the Consul's commercial tokens."""
    return _own_total(s, CONSUL_SEAT, COMMERCIAL, CODE_SILVER)


@njit(cache=True)
def score_population_consul(s, era):
    """Step 1 with the Consul: the highest population (the Consul's included) scores the
    era bonus only, every other (the Consul too) loses the difference."""
    np_ = s[N_PLAYERS]
    cpop = consul_population(s)
    best = cpop
    for p in range(np_):
        best = max(best, s[POP + p])
    for p in range(np_):
        pop = s[POP + p]
        add_vp(s, p, SRC_POPULATION, ERA_BONUS[era] if pop == best else pop - best)
    s[CONSUL_VP] += ERA_BONUS[era] if cpop == best else cpop - best


@njit(cache=True)
def score_civic(s):
    """Step 2: every civic building (to "civic") and civic monument (to "monuments")
    scores its rule for its owner (a Consul civic token for the Consul); then Minerva
    and Aedilis, +1 VP per own civic building."""
    n = s[SIZE]
    done = np.zeros((CONSUL_SEAT + 1) * INSTANCE_STRIDE + 1, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or done[b]:
            continue
        done[b] = True
        code = instance_code(b)
        if CODE_TYPE[code] != CIVIC:
            continue
        owner = instance_owner(b)
        if owner == CONSUL_SEAT:
            s[CONSUL_VP] += civic_value(s, b)
        else:
            add_vp(s, owner, SRC_MONUMENTS if code >= N_PLAYER_CODES else SRC_CIVIC, civic_value(s, b))
    if s[MODULES] & (MOD_INVOCATIONS | MOD_ROLES):
        for p in range(s[N_PLAYERS]):
            if has_ongoing(s, p, G_MINERVA):
                add_vp(s, p, SRC_INVOCATIONS, count_type(s, p, CIVIC))
            if s[ROLE + p] == P_AEDILIS:
                add_vp(s, p, SRC_ROLES, count_type(s, p, CIVIC))


@njit(cache=True)
def score_commercial(s, era):
    """Step 3: silver of commercial buildings (VP in era 3, to "commercial"), tray VP
    of commercial buildings ("tray") and commercial monuments' VP ("monuments");
    Negotiator +1 VP per own commercial building; the Consul's S VP in era 3."""
    n = s[SIZE]
    done = np.zeros((CONSUL_SEAT + 1) * INSTANCE_STRIDE + 1, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or done[b]:
            continue
        done[b] = True
        code = instance_code(b)
        if CODE_TYPE[code] != COMMERCIAL:
            continue
        p = instance_owner(b)
        if p == CONSUL_SEAT:
            if era == 3:
                s[CONSUL_VP] += CODE_SILVER[code]
            continue
        if era == 3:
            add_vp(s, p, SRC_COMMERCIAL, CODE_SILVER[code])
        else:
            s[SILVER + p] += CODE_SILVER[code]
        if CODE_TRAY[code] > 0:
            add_vp(s, p, SRC_TRAY, CODE_TRAY[code])
        if CODE_MON_VP[code] > 0:
            add_vp(s, p, SRC_MONUMENTS, CODE_MON_VP[code])
    if s[MODULES] & MOD_ROLES:
        for p in range(s[N_PLAYERS]):
            if s[ROLE + p] == P_NEGOTIATOR:
                add_vp(s, p, SRC_ROLES, count_type(s, p, COMMERCIAL))


@njit(cache=True)
def score_era(s, era):
    """Era scoring in the spec's order: population, civic, commercial."""
    if s[CONSUL] != 0:
        score_population_consul(s, era)
    else:
        score_population(s, era)
    score_civic(s)
    score_commercial(s, era)


@njit(cache=True)
def markers_on_board(s, p):
    """Seat p's lot markers on the board: its owned unbuilt lots."""
    return popcount(s[OWN + 2 * p] & ~s[BUILT + 2 * p]) + popcount(s[OWN + 2 * p + 1] & ~s[BUILT + 2 * p + 1])


@njit(cache=True)
def score_end(s):
    """End of the game, in this order: lot markers (2 VP each with Praetor or an
    ongoing Quirinus), favor tokens, unused invocations' VP, Quaestor, Pontifex,
    then :func:`.objectives.score_objectives` (objectives, Augur)."""
    mods = s[MODULES]
    for p in range(s[N_PLAYERS]):
        markers = markers_on_board(s, p)
        double = s[ROLE + p] == P_PRAETOR or has_ongoing(s, p, G_QUIRINUS)
        add_vp(s, p, SRC_LOT_MARKERS, 2 * markers if double else markers)
        if mods & (MOD_TRADING | MOD_STEALING):
            add_vp(s, p, SRC_FAVOR, 2 * s[TOKENS2 + p] + 4 * s[TOKENS4 + p])
        if mods & MOD_INVOCATIONS:
            for g in range(1, N_INVOCATIONS + 1):
                if s[INV_HOLDER + g] == p and s[INV_STATUS + g] == INV_UNUSED:
                    add_vp(s, p, SRC_INVOCATIONS, INVOCATION_VP[g])
        role = s[ROLE + p]
        if role == P_QUAESTOR:
            add_vp(s, p, SRC_ROLES, s[SILVER + p] // 3)
        elif role == P_PONTIFEX:
            add_vp(s, p, SRC_ROLES, 2 * count_type(s, p, CIVIC))


# ---- the end of the game and its result --------------------------------------------
@njit(cache=True)
def is_terminal(s):
    """True once the game is over (after era 3's end scoring or at the cap)."""
    return s[PHASE] == PH_OVER


@njit(cache=True)
def consul_margin(s):
    """A Consul game's shared value: min over seats of (VP - the Consul's VP)."""
    m = s[VP] - s[CONSUL_VP]
    for p in range(1, s[N_PLAYERS]):
        m = min(m, s[VP + p] - s[CONSUL_VP])
    return m


@njit(cache=True)
def scores(s, out):
    """VP per seat (ties are broken by silver in the ranks: ``Game.rank_keys``); in a
    Consul game every seat gets the shared value, min over seats of (VP - Consul VP)."""
    if s[CONSUL] != 0:
        m = consul_margin(s)
        for p in range(s[N_PLAYERS]):
            out[p] = m
        return
    for p in range(s[N_PLAYERS]):
        out[p] = s[VP + p]


def result_details(array: np.ndarray, modules: Sequence[str], consul: int) -> dict[str, Any]:
    """The game-specific fields of a result (``Game.details``): VP, silver, population,
    VP by source (the module sources only with their module, ``start`` only with the
    Consul), era and main actions played; in a Consul game (``consul`` > 0) the
    cooperative result's fields too."""
    n = int(array[N_PLAYERS])
    names = SOURCE_NAMES[:6] + tuple(
        name for name, on in (("favor_tokens", "trading" in modules or "stealing" in modules),
                              ("invocations", "invocations" in modules),
                              ("roles", "roles" in modules),
                              ("objectives", "objectives" in modules),
                              ("start", bool(consul))) if on)
    out = {
        "vp": [int(array[VP + p]) for p in range(n)],
        "silver": [int(array[SILVER + p]) for p in range(n)],
        "population": [int(array[POP + p]) for p in range(n)],
        "vp_by_source": [{name: int(array[VP_SRC + p * N_SRC + SOURCE_NAMES.index(name)])
                          for name in names}
                         for p in range(n)],
        "era": int(array[ERA]),
        "turns": int(array[TURNS]),
    }
    if consul:
        # The cooperative result (spec): scores are the players' VP (the kernel's
        # scores are the shared margin), every rank 1 (rank_keys), winners every
        # seat iff the margin is > 0 (Game.team_won, also in a truncated game).
        out["scores"] = out["vp"]
        out["consul_vp"] = int(array[CONSUL_VP])
        out["consul_margin"] = int(consul_margin(array))
    return out


def tie_break_keys(array: np.ndarray, scores: Sequence, consul: int) -> list:
    """The ranking key per seat (``Game.rank_keys``): (VP, silver), the spec's tie-break
    (more silver left, then shared); in a Consul game (``consul`` > 0) one shared key, so
    every rank is 1 (the team wins or loses together)."""
    if consul:
        return [0] * len(scores)
    return [(score, int(array[SILVER + p])) for p, score in enumerate(scores)]
