"""The engine's state as plain JSON data, field for field the reference engine's
``summary()`` (without its internal pending-work stack), so the differential test
can compare the two engines' states at every ply."""
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
    CORNERS,
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
    POOL,
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
    TW_PLACED,
    TW_SEEN_SHIFT,
    TW_TYPE,
    TW_UP,
    TYPE_NAMES,
    VPS,
    cell_name,
    forum_name,
)

CLASS_NAMES = "PMC"


def tile(word: int) -> dict[str, Any] | None:
    """A tile word as the reference's tile dict (None for no tile)."""
    word = int(word)
    if word == 0:
        return None
    return {"o": (word >> TW_OWNER_SHIFT) & 3, "t": TYPE_NAMES[word & TW_TYPE], "up": bool(word & TW_UP),
            "seen": [q for q in range(4) if (word >> (TW_SEEN_SHIFT + q)) & 1],
            "placed": bool(word & TW_PLACED)}


def _seat(a: np.ndarray, p: int) -> dict[str, Any]:
    b = SEAT + p * SEAT_SIZE
    done = bool(a[b + SET])
    rows = []
    for r in range(6):
        rows.append([bool(a[b + CIT + 2 * r + k] == 1) for k in range(2) if a[b + CIT + 2 * r + k]])
    return {
        "res": {name: int(a[b + RES + i]) for i, name in enumerate(RES_NAMES)},
        "vp": {name: int(a[b + VPS + i]) for i, name in enumerate(SOURCE_NAMES)},
        "prestige": int(a[b + PRES]),
        "merchant": bool(a[b + MERCH]),
        "rows": rows,
        "board": {cell_name(c): tile(a[b + TILE + c]) for c in range(37) if a[b + TILE + c]},
        "built": {cell_name(c): BLD_NAMES[a[b + BLD + c]] for c in range(36) if a[b + BLD + c]},
        "cols": int(a[b + COLS]),
        "tracks": {name: int(a[b + TRACK + i]) for i, name in enumerate(TRACK_NAMES)},
        "ship": int(a[b + SHIP]),
        "crane": ({CORNER_NAMES[k]: (COLOURS[a[b + CRANE + k]] if a[b + CRANE + k] >= 0 else None)
                   for k in range(4)} if done else {}),
        # listed a1, a6, f1, f6 (sorted by name), as the reference does
        "uncovered": ([CORNER_NAMES[k] for k in (0, 2, 1, 3) if not a[b + TILE + CORNERS[k]]]
                      if done else []),
        "held": {name: tile(a[b + HELD + j]) for j, name in enumerate("kr") if a[b + HELD + j]},
        "female": CLASS_NAMES[a[b + FEMALE]],
        "setup_done": done,
        "pool": None if done else [tile(a[b + POOL + i]) for i in range(31)],
    }


def _draft(a: np.ndarray, p: int) -> dict[str, Any] | None:
    if a[D_TAKE + 2 * p] < 0:
        return None
    kept = int(a[D_KEPT + p])
    return {"take": [cell_name(a[D_TAKE + 2 * p + k]) for k in range(2)], "paid": int(a[D_PAID + p]),
            "kept": cell_name(a[D_TAKE + 2 * p + kept]) if kept >= 0 else None,
            "tiles": [tile(a[D_TILES + 2 * p + k]) for k in range(2)]}


def summary(a: np.ndarray) -> dict[str, Any]:
    """The position as the reference's summary (minus ``stack``).

    Args:
        a: a state array.

    Returns:
        JSON data: round, cycle, cards, draft queue, Forum envoys, per-seat Colonia
        and supplies, piles.
    """
    n = int(a[N_PLAYERS])
    envoys = sorted([forum_name(f), int(a[FOCC + f]) - 1] for f in range(80) if a[FOCC + f])
    return {
        "round": int(a[ROUND]),
        "cycle": int(a[CYCLE]),
        "start": int(a[START]),
        "cards": [CARD_NAMES[a[CARDS + k]] for k in range(2) if a[CARDS + k] >= 0],
        "trajan": [[pile + 1, int(a[TRAJAN + pile])] for pile in range(3)],
        "queue": [int(a[QUEUE + i]) for i in range(a[QLEN])],
        "drafted": [int(a[DONE + i]) for i in range(a[DLEN])],
        "draft": [_draft(a, p) for p in range(n)],
        "passing": [tile(a[PASSING + p]) for p in range(n)],
        "envoys": envoys,
        "players": [_seat(a, p) for p in range(n)],
        "conv_used": ({name: int(a[CONV_USED + i]) for i, name in enumerate(("MII", "CI", "CII"))}
                      if a[CONV_USED] >= 0 else {}),
        "terminal": bool(a[OVER]),
        "to_move": int(a[TO_MOVE]),
        "piles": [[CARD_NAMES[a[PILES + 8 * pile + i]] for i in range(8)] for pile in range(3)],
        "drawn": [int(a[DRAWN + pile]) for pile in range(3)],
        "plies": int(a[PLY]),
    }
