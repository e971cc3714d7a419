"""The 18 objective cards of the Objectives module: whether a seat meets each (spec,
"Objectives"). Checked once, at the game end, after all other scoring.

"Lots" are the cells a seat owns, built or not; "contiguous"/"connected" is edge-connected;
buildings count monuments as buildings of their type.
"""

from __future__ import annotations

from .catalogue import CIVIC, COMMERCIAL, PIECES, RESIDENTIAL
from .scoring import adjacent_buildings, population


def _groups(state, cells: set[int]) -> list[int]:
    """Sizes of the edge-connected groups of ``cells``."""
    sizes, left = [], set(cells)
    while left:
        stack, size = [left.pop()], 1
        while stack:
            for nb in state.grid.neighbours[stack.pop()]:
                if nb in left:
                    left.remove(nb)
                    stack.append(nb)
                    size += 1
        sizes.append(size)
    return sizes


def meets(state, seat: int, oid: int) -> bool:
    """True iff ``seat`` meets objective ``O<oid>`` in the current position."""
    n = state.grid.n
    lots = {c for c in range(state.grid.cells) if state.owner[c] == seat}
    empty = [c for c in lots if state.built[c] < 0]
    own = [bid for bid, (owner, _, _) in state.buildings.items() if owner == seat]
    kinds = [PIECES[state.buildings[b][1]].kind for b in own]
    if oid == 1:
        return any(size >= 10 for size in _groups(state, lots))
    if oid == 2:
        return sum(1 for size in _groups(state, lots) if size >= 4) >= 2
    if oid == 3:
        return len(lots & state.grid.edge) >= 6
    if oid == 4:
        return len(lots & {0, n - 1, n * (n - 1), n * n - 1}) >= 2
    if oid in (5, 6, 7):
        return kinds.count({5: RESIDENTIAL, 6: COMMERCIAL, 7: CIVIC}[oid]) >= 4
    if oid == 8:
        return all(kinds.count(kind) >= 2 for kind in (RESIDENTIAL, COMMERCIAL, CIVIC))
    if oid == 9:
        return population(state, seat) >= 14
    if oid == 10:
        return state.silver[seat] >= 15
    if oid == 11:
        return sum(1 for b in own if PIECES[state.buildings[b][1]].size >= 4) >= 2
    if oid == 12:
        return sum(1 for b in own if any(state.buildings[a][0] != seat
                                         for a in adjacent_buildings(state, b))) >= 4
    if oid in (13, 14):
        lines = [0] * n
        for c in lots:
            lines[c // n if oid == 13 else c % n] += 1
        return max(lines) >= 5
    if oid == 15:
        return len(own) >= 10
    if oid == 16:
        return len(empty) >= 4
    if oid == 17:
        for b in own:
            if PIECES[state.buildings[b][1]].kind != CIVIC:
                continue
            around = {PIECES[state.buildings[a][1]].kind for a in adjacent_buildings(state, b)}
            if RESIDENTIAL in around and COMMERCIAL in around:
                return True
        return False
    if oid == 18:
        return len(lots) >= 10 and not empty
    raise ValueError(f"no objective O{oid}")


def scored_objectives(state, seat: int) -> list[int]:
    """The objectives ``seat`` scores: its kept card (hidden) or every face-up card
    (public), if met."""
    if state.options.hidden_objectives:
        cards = [state.obj_kept[seat]] if state.obj_kept[seat] is not None else []
    else:
        cards = list(state.public_objectives)
    return [oid for oid in cards if meets(state, seat, oid)]
