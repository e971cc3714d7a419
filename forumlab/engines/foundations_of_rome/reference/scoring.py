"""What buildings are worth: adjacency, population, income, era scoring and end scoring.

Every function reads a ``ReferenceState`` (``state.py``) and, for the scoring steps, adds
VP by source to ``state.vp_by_source[seat]``.
"""

from __future__ import annotations

from .catalogue import CIVIC, COMMERCIAL, ERA_BONUS, INCOME_BASE, PIECES, RESIDENTIAL

# VP sources of the result, in the order the rules award them.
VP_SOURCES = ("population", "civic", "commercial", "tray", "monuments", "lot_markers")


def adjacent_buildings(state, bid: int) -> set[int]:
    """Ids of the distinct other buildings (any owner, monuments included) with a cell
    sharing an edge with building ``bid``; each counts once however often it touches."""
    _, _, cells = state.buildings[bid]
    out = set()
    for cell in cells:
        for nb in state.grid.neighbours[cell]:
            other = state.built[nb]
            if other >= 0 and other != bid:
                out.add(other)
    return out


def citizens(state, seat: int) -> int:
    """Citizens on the seat's residential buildings and monuments."""
    return sum(PIECES[code].citizens for owner, code, _ in state.buildings.values()
               if owner == seat and PIECES[code].kind == RESIDENTIAL)


def population(state, seat: int) -> int:
    """Citizens plus population modifiers (none in the base game and Monuments)."""
    return citizens(state, seat)


def commercial_silver(state, seat: int) -> int:
    """Silver shown by the seat's commercial buildings and commercial monuments."""
    return sum(PIECES[code].silver for owner, code, _ in state.buildings.values()
               if owner == seat and PIECES[code].kind == COMMERCIAL)


def income(state, seat: int) -> int:
    """Silver an Income action gives: 5 + own commercial silver."""
    return INCOME_BASE + commercial_silver(state, seat)


def civic_value(state, bid: int) -> int:
    """VP one civic building or civic monument scores at an era scoring."""
    _, code, _ = state.buildings[bid]
    measure, factor, divisor = PIECES[code].rule
    total = 0
    for other in adjacent_buildings(state, bid):
        piece = PIECES[state.buildings[other][1]]
        if measure == "buildings":
            total += 1
        elif measure == "citizens":
            total += piece.citizens if piece.kind == RESIDENTIAL else 0
        elif measure == "silver":
            total += piece.silver if piece.kind == COMMERCIAL else 0
        else:  # "civic"
            total += 1 if piece.kind == CIVIC else 0
    return factor * total // divisor


def population_points(populations: list[int], era: int) -> list[int]:
    """Population step of an era scoring: leaders (ties friendly) score their population
    plus the era bonus; every other player scores the smallest population higher than
    its own; a player with population 0 scores nothing (leader or not)."""
    best = max(populations)
    out = []
    for pop in populations:
        if pop < 1:
            out.append(0)
        elif pop == best:
            out.append(pop + ERA_BONUS[era])
        else:
            out.append(min(p for p in populations if p > pop))
    return out


def era_scoring(state) -> None:
    """Score the current era for all players at once: population, civic, commercial."""
    n = state.options.players
    points = population_points([population(state, s) for s in range(n)], state.era)
    for seat in range(n):
        state.vp_by_source[seat]["population"] += points[seat]
    for bid in sorted(state.buildings):
        owner, code, _ = state.buildings[bid]
        piece = PIECES[code]
        if piece.kind == CIVIC:
            source = "monuments" if piece.monument else "civic"
            state.vp_by_source[owner][source] += civic_value(state, bid)
    for seat in range(n):
        silver = commercial_silver(state, seat)
        if state.era < 3:
            state.silver[seat] += silver
        else:
            state.vp_by_source[seat]["commercial"] += silver
    for owner, code, _ in state.buildings.values():
        piece = PIECES[code]
        if piece.kind == COMMERCIAL:
            if piece.monument:
                state.vp_by_source[owner]["monuments"] += piece.vp
            else:
                state.vp_by_source[owner]["tray"] += piece.tray


def end_scoring(state) -> None:
    """After the era-3 scoring: +1 VP per own lot marker on the board."""
    for seat in range(state.options.players):
        state.vp_by_source[seat]["lot_markers"] += state.markers_on_board(seat)
