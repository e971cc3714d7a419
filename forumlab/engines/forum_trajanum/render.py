"""A terminal picture of a Forum Trajanum position (``Game.render``)."""
from __future__ import annotations

import numpy as np

from .data import EAGLE, FCOLOUR, TEMPLES
from .layout import (
    BLD,
    CARD_NAMES,
    CARDS,
    CIT,
    COLOURS,
    CORNERS,
    CRANE,
    CYCLE,
    DRAWN,
    FCOLS,
    FOCC,
    HELD,
    MERCH,
    N_PLAYERS,
    NCOLS,
    OVER,
    PRES,
    RES,
    RES_NAMES,
    ROUND,
    RV,
    SEAT,
    SEAT_SIZE,
    SET,
    SHIP,
    START,
    TILE,
    TO_MOVE,
    TRACK,
    TRACK_NAMES,
    TRAJAN,
    TW_TYPE,
    TW_UP,
    TYPE_NAMES,
)
from .scoring import total_vp

SEATS = "ABCD"
ROW_NAMES = ("PI ", "PII", "MI ", "MII", "CI ", "CII")
STRUCTURES = {5: "hse", 6: "fnt", 7: "prk", 8: "stb"}  # house r, fountain b, park g, stable y
GREY = {1: "col", 2: "lib", 3: "bas", 4: "mkt"}


def _tile_token(word: int) -> str:
    if not word & TW_UP:
        return "[??]"
    name = TYPE_NAMES[word & TW_TYPE].replace("cit", "c")
    return f"[{name:<2}]"


def _cell_token(a: np.ndarray, b: int, c: int) -> str:
    word = int(a[b + TILE + c])
    if word:
        return _tile_token(word)
    if c in TEMPLES:
        return "TMPL"
    if c in CORNERS:
        col = int(a[b + CRANE + CORNERS.index(c)])
        return f"K:{COLOURS[col]} " if col >= 0 else "K:- "
    part = int(a[b + BLD + c])
    if part:
        return f"{GREY.get(part) or STRUCTURES[part]} "
    return " .  "


def _colonia(a: np.ndarray, p: int) -> list[str]:
    b = SEAT + p * SEAT_SIZE
    lines = [f"{SEATS[p]}'s Colonia      a    b    c    d    e    f     citizens (A active, i inactive)"]
    for r in range(6):
        cells = " ".join(_cell_token(a, b, 6 * r + c) for c in range(6))
        cits = " ".join({1: "A", 2: "i"}[int(a[b + CIT + 2 * r + k])] for k in range(2)
                        if a[b + CIT + 2 * r + k])
        lines.append(f"  row {r + 1}         {cells}   {ROW_NAMES[r]} {cits or '-'}")
    rv = int(a[b + TILE + RV])
    held = " ".join(f"{name}={_tile_token(int(a[b + HELD + j]))}" for j, name in enumerate("kr")
                    if a[b + HELD + j])
    res = " ".join(f"{n}{int(a[b + RES + i])}" for i, n in enumerate(RES_NAMES))
    tracks = " ".join(f"{n}{min(4, int(a[b + TRACK + i]))}" for i, n in enumerate(TRACK_NAMES))
    side = "merchant" if a[b + MERCH] else "basic"
    lines.append(f"  rv {_tile_token(rv) if rv else '-'}  held {held or '-'}  ship {int(a[b + SHIP])}  "
                 f"VP {total_vp(a, p)}  res {res}  tracks {tracks}  bar {int(a[b + PRES])} ({side})")
    return lines


def render(a: np.ndarray) -> str:
    """The Forum (envoys as seat letters, eagles ``#``, empty cells ``r-`` etc.),
    each Colonia, supplies, tracks, the column and the street cards.

    Args:
        a: a state array.

    Returns:
        Multi-line text (grid rows start with their row number, so
        ``forumlab.core.display.colourize`` paints the envoys).
    """
    n = int(a[N_PLAYERS])
    ncols = int(a[NCOLS])
    lines = ["Forum   " + "".join(f"{c:<3}" for c in "abcdefghijklmnopqrst"[:ncols]).rstrip()]
    for r in range(4):
        row = []
        for c in range(ncols):
            f = r * FCOLS + c
            if a[FOCC + f]:  # a seat letter alone is a token colourize paints
                row.append(SEATS[int(a[FOCC + f]) - 1] + " ")
            else:
                row.append("# " if EAGLE[f] else "rbgy"[FCOLOUR[f]] + "-")
        lines.append(f"{r + 1:>2}  " + " ".join(row).rstrip())
    cycle = int(a[CYCLE])
    cards = " ".join(CARD_NAMES[int(a[CARDS + k])] for k in range(2) if a[CARDS + k] >= 0) or "-"
    trajan = " ".join(f"{'I' * (pile + 1)}-{int(a[TRAJAN + pile])}" for pile in range(3))
    lines.append(f"round {int(a[ROUND])}/12, cycle {cycle}, column value {4 - cycle}, street cards {cards}, "
                 f"undrawn {8 - int(a[DRAWN + cycle - 1])}, Trajan cards {trajan}, "
                 f"start {SEATS[int(a[START])]}")
    for p in range(n):
        if a[SEAT + p * SEAT_SIZE + SET]:
            lines.extend(_colonia(a, p))
        else:
            lines.append(f"{SEATS[p]}: setup not made yet")
    lines.append("game over" if a[OVER] else f"{SEATS[int(a[TO_MOVE])]} to move")
    return "\n".join(lines)
