"""Hidden information (the spec's "Hidden information and chance" section): the full
summary, a seat's observation, and determinize.

A tile is a dict ``{"o": owner, "t": type, "up": public, "seen": [seats that know it]}``.
``up`` is set for corner tiles and for held tiles at the holder's turn; ``seen`` gets the
owner of a river tile, the taker of a tile and the receiver of a passed tile.
"""

from __future__ import annotations

from .catalogue import CORNERS, RIVER, cell_name, forum_name
from .chance import as_chance


def _visible(tile: dict, viewer) -> bool:
    return viewer is None or tile["up"] or viewer in tile["seen"]


def _tile(tile, viewer):
    if tile is None:
        return None
    out = {"o": tile["o"], "t": tile["t"] if _visible(tile, viewer) else "?", "up": tile["up"]}
    if viewer is None:
        out["seen"] = list(tile["seen"])
        out["placed"] = bool(tile.get("placed"))
    return out


def _draft_log(log: dict, viewer):
    if "take" not in log:
        return None
    return {"take": [cell_name(c) for c in log["take"]], "paid": log["paid"],
            "kept": cell_name(log["kept"]) if "kept" in log else None,
            "tiles": [_tile(log["tiles"][c], viewer) for c in log["take"]]}


def summary(state, viewer=None) -> dict:
    """The state as JSON-ready plain data (lists, string keys).

    ``viewer`` None: everything (pile order, tile types, who saw what). A seat: tile types
    it cannot know are ``"?"``, undrawn street cards are a count per pile, and the move
    list is left out."""
    players = []
    for p in state.players:
        players.append({
            "res": dict(p["res"]), "vp": dict(p["vp"]), "prestige": p["prestige"],
            "merchant": p["merchant"], "rows": [list(p["rows"][r]) for r in range(1, 7)],
            "board": {cell_name(c): _tile(t, viewer) for c, t in enumerate(p["board"]) if t is not None},
            "built": {cell_name(c): b for c, b in enumerate(p["built"]) if b is not None},
            "cols": p["cols"], "tracks": dict(p["tracks"]), "ship": p["ship"],
            "crane": {cell_name(c): col for c, col in p["crane"].items()},
            "uncovered": sorted(cell_name(c) for c in p["uncovered"]),
            "held": {slot: _tile(t, viewer) for slot, t in p["held"].items()},
            "female": p["female"], "setup_done": p["setup_done"],
            "pool": None if p["pool"] is None else [_tile(t, viewer) for t in p["pool"]],
        })
    out = {
        "round": state.round, "cycle": state.cycle, "start": state.start,
        "cards": list(state.cards), "trajan": [list(c) for c in state.trajan],
        "queue": list(state.queue), "drafted": list(state.drafted),
        "draft": [_draft_log(state.draft.get(s, {}), viewer) for s in range(state.n)],
        "passing": [_tile(state.passing.get(s), viewer) for s in range(state.n)],
        "envoys": sorted([forum_name(*c), s] for c, s in state.envoys.items()),
        "players": players, "stack": [list(item) for item in state.stack],
        "conv_used": dict(state.conv_used), "terminal": state.terminal,
        "to_move": state.current_player(),
    }
    if viewer is None:
        out["piles"] = [list(p) for p in state.piles]
        out["drawn"] = list(state.drawn)
        out["plies"] = state.plies
    else:
        out["undrawn"] = [len(p) - d for p, d in zip(state.piles, state.drawn)]
    return out


def undo_other_drafts(state, seat: int) -> None:
    """Step (a): undo every draft action this round of seats other than ``seat``."""
    finished = []
    for other in range(state.n):
        log = state.draft.get(other, {})
        if other == seat or "take" not in log:
            continue
        p = state.players[other]
        for cell, tile in log["tiles"].items():
            p["board"][cell] = tile
            if cell not in CORNERS:
                tile["seen"] = [other] if cell == RIVER else []
        for cell in log["uncovered"]:
            p["uncovered"].remove(cell)
        p["res"]["T"] += log["paid"]
        if "kept" in log:
            state.passing.pop((other - 1) % state.n, None)
            finished.append(other)
        state.draft[other] = {}
    for other in [s for s in state.drafted if s in finished]:
        state.drafted.remove(other)
        state.queue.append(other)


def hidden_tiles(state, seat: int, owner: int) -> list[dict]:
    """Tiles of ``owner``'s colour whose type ``seat`` has not seen, in a fixed order:
    board cells (river last), the unplaced pool, held tiles by seat (k, r), passed tiles
    by receiver, draft tiles by seat."""
    p = state.players[owner]
    tiles = [t for t in p["board"] if t is not None and not _visible(t, seat)]
    if p["pool"] is not None:
        tiles += list(p["pool"])  # before the setup ply every pool tile is hidden
    for holder in state.players:
        tiles += [holder["held"][s] for s in ("k", "r") if s in holder["held"]]
    tiles += [state.passing[s] for s in sorted(state.passing)]
    for s in sorted(state.draft):
        tiles += list(state.draft[s].get("tiles", {}).values())
    out, ids = [], set()
    for t in tiles:
        if t["o"] == owner and not _visible(t, seat) and id(t) not in ids:
            ids.add(id(t))
            out.append(t)
    return out


def observation(state, seat: int) -> dict:
    """Everything ``seat`` may see: the summary of the position with the other seats'
    draft of this round undone, seen from ``seat``."""
    view = state.copy()
    undo_other_drafts(view, seat)
    return summary(view, seat)


def determinize(state, seat: int, rng) -> None:
    """Steps (a)-(c) in place. The stream is used in this order: one shuffle of the hidden
    types per owner colour 0..n-1, then one shuffle of the undrawn street cards.

    Args:
        state: the ReferenceState (changed in place).
        seat: the observer.
        rng: a Chance, an int word or a forumlab.core.rng uint64 array.
    """
    chance = as_chance(rng)
    undo_other_drafts(state, seat)
    for owner in range(state.n):
        tiles = hidden_tiles(state, seat, owner)
        kinds = [t["t"] for t in tiles]
        chance.shuffle(kinds)
        for tile, kind in zip(tiles, kinds):
            tile["t"] = kind
    slots = [(i, j) for i, pile in enumerate(state.piles) for j in range(state.drawn[i], len(pile))]
    cards = [state.piles[i][j] for i, j in slots]
    chance.shuffle(cards)
    for (i, j), card in zip(slots, cards):
        state.piles[i][j] = card
