"""What buildings are worth: adjacency, population, income, era scoring and end scoring.

Every function reads a ``ReferenceState`` (``state.py``) and, for the scoring steps, adds
VP by source to ``state.vp_by_source[seat]``.
"""

from __future__ import annotations

from .catalogue import (
    CIVIC,
    COMMERCIAL,
    CONSUL,
    CONSUL_START_VP,
    ERA_BONUS,
    INCOME_BASE,
    INVOCATIONS,
    OBJECTIVE_VP,
    PIECES,
    RESIDENTIAL,
)

# VP sources of the result, in the order the rules award them (the base game's).
VP_SOURCES = ("population", "civic", "commercial", "tray", "monuments", "lot_markers")


def vp_sources(options) -> tuple[str, ...]:
    """The base sources plus one per module that awards VP (only those in play, so a
    base game's result is unchanged): ``favor_tokens``, ``invocations`` (effects, Augur
    and unused cards' VP), ``roles``, ``objectives``, ``start`` (the Consul game's 5 VP)."""
    extra = []
    if options.favor_tokens:
        extra.append("favor_tokens")
    if options.invocations:
        extra.append("invocations")
    if options.roles:
        extra.append("roles")
    if options.objectives_module:
        extra.append("objectives")
    if options.consul:
        extra.append("start")
    return VP_SOURCES + tuple(extra)


def start_vp(options) -> int:
    """VP every player starts with: 5 in a Consul game, else 0."""
    return CONSUL_START_VP if options.consul else 0


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
    """Citizens plus population modifiers: Vesta (ongoing G5) +2, Patronus (P6) +2."""
    return citizens(state, seat) + 2 * state.ongoing(seat, 5) + 2 * (state.role_of(seat) == 6)


def own_count(state, seat: int, kind: str) -> int:
    """Own buildings (monuments included) of a kind on the board."""
    return sum(1 for owner, code, _ in state.buildings.values()
               if owner == seat and PIECES[code].kind == kind)


def commercial_silver(state, seat: int) -> int:
    """Silver shown by the seat's commercial buildings and commercial monuments."""
    return sum(PIECES[code].silver for owner, code, _ in state.buildings.values()
               if owner == seat and PIECES[code].kind == COMMERCIAL)


def income(state, seat: int) -> int:
    """Silver an Income action gives: 5 + own commercial silver (+2 Ceres, +2 Mercator)."""
    return (INCOME_BASE + commercial_silver(state, seat) + 2 * state.ongoing(seat, 4)
            + 2 * (state.role_of(seat) == 1))


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


def consul_population_points(populations: list[int], consul: int, era: int) -> tuple[list[int], int]:
    """The Consul game's population step: the highest population, the Consul's included,
    scores the era bonus only (every leader, even at 0 citizens); every other (the Consul
    too) loses the difference. Returns (players' points, the Consul's)."""
    best = max(populations + [consul])
    points = [ERA_BONUS[era] if pop == best else pop - best for pop in populations]
    return points, ERA_BONUS[era] if consul == best else consul - best


def era_scoring(state) -> None:
    """Score the current era for all players at once: population, civic, commercial;
    the modules' era effects (Censor, Tribunus, Aedilis, Negotiator, Minerva) and the
    Consul's scoring come with the step they belong to."""
    n = state.options.players
    pops = [population(state, s) for s in range(n)]
    if state.options.consul:
        consul_pop = sum(PIECES[code].citizens for owner, code, _ in state.buildings.values()
                         if owner == CONSUL and PIECES[code].kind == RESIDENTIAL)
        points, consul_points = consul_population_points(pops, consul_pop, state.era)
        state.consul_vp += consul_points
    else:
        points = population_points(pops, state.era)
    for seat in range(n):
        state.vp_by_source[seat]["population"] += points[seat]
        role = state.role_of(seat)
        if role == 9 and pops[seat] == max(pops):  # Censor: a leader, even at 0 citizens
            state.vp_by_source[seat]["roles"] += 3
        if role == 13 and pops[seat] >= 1 and pops[seat] != max(pops):  # Tribunus
            state.vp_by_source[seat]["roles"] += 2
    for bid in sorted(state.buildings):
        owner, code, _ = state.buildings[bid]
        piece = PIECES[code]
        if piece.kind == CIVIC:
            if owner == CONSUL:
                state.consul_vp += civic_value(state, bid)
                continue
            source = "monuments" if piece.monument else "civic"
            state.vp_by_source[owner][source] += civic_value(state, bid)
    for seat in range(n):
        civics = own_count(state, seat, CIVIC)
        if state.ongoing(seat, 6):  # Minerva
            state.vp_by_source[seat]["invocations"] += civics
        if state.role_of(seat) == 7:  # Aedilis
            state.vp_by_source[seat]["roles"] += civics
    for seat in range(n):
        silver = commercial_silver(state, seat)
        if state.era < 3:
            state.silver[seat] += silver
        else:
            state.vp_by_source[seat]["commercial"] += silver
        if state.role_of(seat) == 8:  # Negotiator
            state.vp_by_source[seat]["roles"] += own_count(state, seat, COMMERCIAL)
    if state.options.consul and state.era == 3:
        state.consul_vp += sum(PIECES[code].silver for owner, code, _ in state.buildings.values()
                               if owner == CONSUL and PIECES[code].kind == COMMERCIAL)
    for owner, code, _ in state.buildings.values():
        piece = PIECES[code]
        if piece.kind == COMMERCIAL and owner != CONSUL:
            if piece.monument:
                state.vp_by_source[owner]["monuments"] += piece.vp
            else:
                state.vp_by_source[owner]["tray"] += piece.tray


def end_scoring(state) -> None:
    """After the era-3 scoring: +1 VP per own lot marker on the board (2 with Praetor or
    an ongoing Quirinus; they do not stack), then the modules' end scoring in this order:
    favor tokens, unused invocations' VP, Quaestor and Pontifex, objectives, Augur."""
    from .objectives import scored_objectives  # objectives reads this module

    for seat in range(state.options.players):
        per_marker = 2 if state.role_of(seat) == 10 or state.ongoing(seat, 14) else 1
        state.vp_by_source[seat]["lot_markers"] += per_marker * state.markers_on_board(seat)
        vp = state.vp_by_source[seat]
        if state.options.favor_tokens:
            vp["favor_tokens"] += 2 * state.tokens[seat][0] + 4 * state.tokens[seat][1]
        if state.options.invocations:
            vp["invocations"] += sum(INVOCATIONS[g].vp for g, status in state.held[seat].items()
                                     if status == "unused")
        if state.role_of(seat) == 11:  # Quaestor
            vp["roles"] += state.silver[seat] // 3
        if state.role_of(seat) == 12:  # Pontifex
            vp["roles"] += 2 * own_count(state, seat, CIVIC)
        if state.options.objectives_module:
            met = scored_objectives(state, seat)
            vp["objectives"] += sum(OBJECTIVE_VP[o] for o in met)
            if state.ongoing(seat, 19):  # Augur
                vp["invocations"] += 3 * len(met)
