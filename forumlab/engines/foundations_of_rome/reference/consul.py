"""The Will of the Consul: its token piles, its deterministic token placement and its
price floor (spec, "Will of the Consul"). Its turn order and scoring live in ``state``
and ``scoring``.

Tokens are buildings of owner ``CONSUL`` with code ``X<id>`` (``catalogue.CONSUL_TOKENS``);
``state.consul_piles[k-1]`` is the face-down pile of size k (index 0 on top) and
``state.consul_discards[k-1]`` its discard list.
"""

from __future__ import annotations

from .catalogue import COMMERCIAL, CONSUL, CONSUL_EMPTY_PILE_VP, CONSUL_TOKENS, PIECES


def token_size(tid: int) -> int:
    return CONSUL_TOKENS[tid].size


def setup_piles(state) -> None:
    """One pile per size, ids ascending, each shuffled (sizes 1, 2, 3, 4 in turn)."""
    state.consul_piles = [[tid for tid, t in enumerate(CONSUL_TOKENS) if t.size == k] for k in range(1, 5)]
    for pile in state.consul_piles:
        state.rng.shuffle(pile)
    state.consul_discards = [[] for _ in range(4)]


def bfs_order(state, cells: set[int], start: int) -> list[int]:
    """``cells`` reachable from ``start`` inside ``cells``, in breadth-first order with
    neighbours taken up, left, right, down."""
    order, seen, i = [start], {start}, 0
    while i < len(order):
        for nb in state.grid.neighbours[order[i]]:
            if nb in cells and nb not in seen:
                seen.add(nb)
                order.append(nb)
        i += 1
    return order


def _draw(state, size: int) -> int | None:
    """The top token of the size's pile (refilled from its discards, shuffled, when
    empty), or None if the size has no token left anywhere."""
    pile = state.consul_piles[size - 1]
    if not pile:
        discards = state.consul_discards[size - 1]
        if not discards:
            return None
        pile.extend(discards)
        discards.clear()
        state.rng.shuffle(pile)
    return pile.pop(0)


def _token_on(state, tid: int, cells: list[int]) -> None:
    bid = state.next_building
    state.next_building += 1
    state.buildings[bid] = (CONSUL, f"X{tid}", tuple(sorted(cells)))
    for c in cells:
        state.built[c] = bid


def place(state, x: int) -> None:
    """The Consul's token placement after it gained lot ``x`` (spec's DECISION rule):
    cover the first min(4, |C|) cells of a BFS of x's Consul group, discarding the
    tokens it overlaps, then re-cover the freed cells group by group; 7 VP instead of a
    token when a size has none left."""
    group = {c for c in range(state.grid.cells) if state.owner[c] == CONSUL}
    region = bfs_order(state, group, x)
    target = region[:min(4, len(region))]
    tid = _draw(state, len(target))
    if tid is None:
        state.consul_vp += CONSUL_EMPTY_PILE_VP
        return
    overlapped = sorted({int(state.buildings[state.built[c]][1][1:]) for c in target if state.built[c] >= 0})
    freed: set[int] = set()
    for old in overlapped:
        bid = next(b for b, (o, code, _) in state.buildings.items() if o == CONSUL and code == f"X{old}")
        _, _, cells = state.buildings.pop(bid)
        for c in cells:
            state.built[c] = -1
        freed |= set(cells) - set(target)
        state.consul_discards[token_size(old) - 1].append(old)
    _token_on(state, tid, target)
    tried: set[int] = set()
    while True:
        open_cells = {c for c in freed if state.built[c] < 0 and c not in tried}
        if not open_cells:
            return
        y = min(open_cells)
        cells = bfs_order(state, open_cells, y)
        cells = cells[:min(4, len(cells))]
        tried |= set(cells)
        tid = _draw(state, len(cells))
        if tid is None:
            state.consul_vp += CONSUL_EMPTY_PILE_VP
        else:
            _token_on(state, tid, cells)


def token_silver(state) -> int:
    """S: the silver shown by the Consul's commercial tokens on the board."""
    return sum(PIECES[code].silver for owner, code, _ in state.buildings.values()
               if owner == CONSUL and PIECES[code].kind == COMMERCIAL)
