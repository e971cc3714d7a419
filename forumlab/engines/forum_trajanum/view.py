"""Forum Trajanum's bot view: the JSON a bot's seat is sent (forumlab-bot/1).

The view is built from the seat's determinization (``state.view_for(seat)``), whose hidden
parts are random samples (:mod:`.hidden`): the types of face-down tiles the seat has not
seen (on the Colonias, held, passed, in a draft, the pools before setup), the other seats'
draft of the current round (undone in the view) and the order of the undrawn street
cards. A tile's type is sent only when it is face up or the seat has seen it (the tile
word's flags say so, and the determinization never changes them); the pools and the
undrawn cards are never sent. Schema: ``docs/games/forum-trajanum.md`` ("Bot view").
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .layout import (
    BLD,
    BLD_NAMES,
    CARD_NAMES,
    CARDS,
    CIT,
    COLOURS,
    COLS,
    CONV_USED,
    CORNER_NAMES,
    CRANE,
    CYCLE,
    D_KEPT,
    D_PAID,
    D_TAKE,
    D_TILES,
    DLEN,
    DONE,
    DRAWN,
    FEMALE,
    FOCC,
    HELD,
    MERCH,
    N_PLAYERS,
    OVER,
    PASSING,
    PILES,
    PLY,
    PRES,
    QLEN,
    QUEUE,
    RES,
    RES_NAMES,
    ROUND,
    SEAT,
    SEAT_SIZE,
    SET,
    SHIP,
    SOURCE_NAMES,
    START,
    TILE,
    TO_MOVE,
    TRACK,
    TRACK_NAMES,
    TRAJAN,
    TW_OWNER_SHIFT,
    TW_SEEN_SHIFT,
    TW_TYPE,
    TW_UP,
    TYPE_NAMES,
    VPS,
    cell_name,
    forum_name,
)
from .render import decision

CLASS_NAMES = "PMC"
CITIZEN_STATES = ("", "active", "inactive")
UNKNOWN = "?"
# The view's keys in the order they are sent (the docs' schema table lists the same).
VIEW_KEYS = ("game", "seat", "to_move", "decision", "ply", "round", "cycle", "start_player", "terminal",
             "cards", "trajan", "drawn", "queue", "drafted", "passing", "conversions_used", "envoys",
             "seats", "scores")
SEAT_KEYS = ("seat", "setup_done", "vp", "vp_by_source", "resources", "prestige", "merchant", "citizens",
             "female", "tiles", "built", "columns", "tracks", "ship", "cranes", "held", "draft")


def tile_view(word: int, seat: int) -> dict[str, Any]:
    """A tile as ``seat`` sees it: its type only when face up or seen by the seat."""
    word = int(word)
    known = bool(word & TW_UP) or bool((word >> (TW_SEEN_SHIFT + seat)) & 1)
    return {"tile": TYPE_NAMES[word & TW_TYPE] if known else UNKNOWN, "up": bool(word & TW_UP),
            "owner": (word >> TW_OWNER_SHIFT) & 3}


def _draft(a: np.ndarray, p: int, seat: int) -> dict[str, Any]:
    """Seat p's draft of this round as the view holds it (another seat's is undone there
    until the draft ends); empty ``take`` when it has not taken."""
    if a[D_TAKE + 2 * p] < 0:
        return {"take": [], "paid": 0, "kept": "", "tiles": []}
    kept = int(a[D_KEPT + p])
    return {"take": [cell_name(int(a[D_TAKE + 2 * p + k])) for k in range(2)], "paid": int(a[D_PAID + p]),
            "kept": cell_name(int(a[D_TAKE + 2 * p + kept])) if kept >= 0 else "",
            "tiles": [tile_view(a[D_TILES + 2 * p + k], seat) for k in range(2)]}


def _seat(a: np.ndarray, p: int, seat: int) -> dict[str, Any]:
    """Seat p's public holdings and Colonia (tiles named as ``seat`` may see them)."""
    b = SEAT + p * SEAT_SIZE
    done = bool(a[b + SET])
    return {
        "seat": p,
        "setup_done": done,
        "vp": sum(int(a[b + VPS + i]) for i in range(len(SOURCE_NAMES))),
        "vp_by_source": {name: int(a[b + VPS + i]) for i, name in enumerate(SOURCE_NAMES)},
        "resources": {name: int(a[b + RES + i]) for i, name in enumerate(RES_NAMES)},
        "prestige": int(a[b + PRES]),
        "merchant": bool(a[b + MERCH]),
        "citizens": [[CITIZEN_STATES[int(a[b + CIT + 2 * r + k])] for k in range(2) if a[b + CIT + 2 * r + k]]
                     for r in range(6)],
        "female": CLASS_NAMES[int(a[b + FEMALE])],
        "tiles": {cell_name(c): tile_view(a[b + TILE + c], seat) for c in range(37) if a[b + TILE + c]},
        "built": {cell_name(c): BLD_NAMES[int(a[b + BLD + c])] for c in range(36) if a[b + BLD + c]},
        "columns": int(a[b + COLS]),
        "tracks": {name: int(a[b + TRACK + i]) for i, name in enumerate(TRACK_NAMES)},
        "ship": int(a[b + SHIP]),
        "cranes": {CORNER_NAMES[k]: (COLOURS[int(a[b + CRANE + k])] if done and a[b + CRANE + k] >= 0 else "")
                   for k in range(4)},
        "held": {name: tile_view(a[b + HELD + j], seat) for j, name in enumerate("kr") if a[b + HELD + j]},
        "draft": _draft(a, p, seat),
    }


def bot_view(game: Any, a: np.ndarray, seat: int) -> dict[str, Any]:
    """The JSON view of seat ``seat``'s determinization ``a`` (module docstring).

    Args:
        game: the :class:`~.game.ForumTrajanum` facade.
        a: ``state.view_for(seat).array``: of its hidden parts only what the seat has seen
            is read.
        seat: the seat the view is for.

    Returns:
        A dict with the keys of :data:`VIEW_KEYS`, in that order.
    """
    n, seat = int(a[N_PLAYERS]), int(seat)
    to_move, over = int(a[TO_MOVE]), bool(a[OVER])
    seats = [_seat(a, p, seat) for p in range(n)]
    return {
        "game": game.name,
        "seat": seat,
        "to_move": to_move,
        "decision": decision(a, seat) if to_move == seat and not over else "",
        "ply": int(a[PLY]),
        "round": int(a[ROUND]),
        "cycle": int(a[CYCLE]),
        "start_player": int(a[START]),
        "terminal": over,
        "cards": [CARD_NAMES[int(a[CARDS + k])] for k in range(2) if a[CARDS + k] >= 0],
        "trajan": [int(a[TRAJAN + pile]) for pile in range(3)],
        # the cards drawn so far from each pile (their order is history; the rest is hidden)
        "drawn": [[CARD_NAMES[int(a[PILES + 8 * pile + i])] for i in range(int(a[DRAWN + pile]))]
                  for pile in range(3)],
        "queue": [int(a[QUEUE + i]) for i in range(int(a[QLEN]))],
        "drafted": [int(a[DONE + i]) for i in range(int(a[DLEN]))],
        "passing": [tile_view(a[PASSING + p], seat) if a[PASSING + p] else {} for p in range(n)],
        "conversions_used": ({name: int(a[CONV_USED + i]) for i, name in enumerate(("MII", "CI", "CII"))}
                             if a[CONV_USED] >= 0 else {}),
        "envoys": {forum_name(f): int(a[FOCC + f]) - 1 for f in range(80) if a[FOCC + f]},
        "seats": seats,
        "scores": [s["vp"] for s in seats],
    }
