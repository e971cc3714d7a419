"""A terminal picture of a Forum Trajanum position (``Game.render``), the picture a
person at one seat sees (:func:`render` with ``seat``: the tiles that seat has seen are
named, the others stay ``[??]``) and the legend of its symbols (:data:`LEGEND`)."""
from __future__ import annotations

import textwrap

import numpy as np

from .data import EAGLE, FCOLOUR, TEMPLES
from .layout import (
    BLD,
    CARD_NAMES,
    CARDS,
    CIT,
    COLOURS,
    CORNER_NAMES,
    CORNERS,
    CRANE,
    CYCLE,
    D_KEPT,
    D_PAID,
    D_TAKE,
    D_TILES,
    DRAWN,
    FCOLS,
    FEMALE,
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
    SP,
    STACK,
    START,
    TILE,
    TO_MOVE,
    TRACK,
    TRACK_NAMES,
    TRAJAN,
    TW_SEEN_SHIFT,
    TW_TYPE,
    TW_UP,
    TYPE_NAMES,
    cell_name,
)
from .moves import (
    ENV_FREE,
    I_CIT,
    I_CONVBUILD,
    I_DRAFT,
    I_ENV,
    I_PAY,
    I_PICK,
    I_SETUP,
    I_TRACK,
    I_USE,
    PK_AREA,
    PK_AREA1,
    PK_CA,
    PK_CT,
    cit_rows,
    item_b,
    item_c,
    item_kind,
)
from .scoring import row_active, total_vp

SEATS = "ABCD"
ROW_NAMES = ("PI ", "PII", "MI ", "MII", "CI ", "CII")
STRUCTURES = {5: "hse", 6: "fnt", 7: "prk", 8: "stb"}  # house r, fountain b, park g, stable y
GREY = {1: "col", 2: "lib", 3: "bas", 4: "mkt"}
CLASSES = ("Patrician", "Merchant", "Craftsman")
COLOUR_WORDS = {"r": "red", "b": "blue", "g": "green", "y": "yellow"}
# what level j of each track gives (index: bas, mkt, lib as in TRACK_NAMES)
TRACK_WORDS = (("basilica", ("1 tribune", "1 assistant", "1 builder", "1 tribune + 1 assistant")),
               ("market", ("1 coin", "1 area bonus", "2 coins", "1 upgrade + 1 coin")),
               ("library", ("1 upgrade", "1 worker of any colour", "1 free envoy", "2 upgrades")))

LEGEND = """\
How to read the Forum Trajanum board (seats are letters: A = seat 0, B = seat 1, ...):
 Forum (shared; a colour area = touching cells of one colour; eagles are in no area)
  r- b- g- y-  empty cell of a red, blue, green or yellow area     #  eagle
  A B C D      an envoy of that seat
 Colonia (each seat's own 6x6 board; rows 1-6, columns a-f)
  [??]  a face-down tile, type unknown to you    TMPL  a temple (never used)
  [B ] builder  [r ] [b ] [g ] [y ] worker of that colour  [A ] assistant
  [C ] coin  [T ] tribune  [U ] upgrade (moves the prestige bar)
  [cP] [cM] [cC]  citizen: Patrician, Merchant, Craftsman
  K:r   an uncovered crane corner and the colour it scores (K:- scored already)
   .    a vacated space: build here       col lib bas mkt  grey buildings
  hse fnt prk stb  structures: house (red), fountain (blue), park (green), stable (yellow)
  citizens: the row's two citizen spaces, A active, i inactive; PI PII MI MII CI CII
            name the rows' abilities (Patrician, Merchant, Craftsman I and II)
  VP victory points   ship  envoys waiting to go to the Forum
  bar   prestige bar 0-8 (basic or merchant side)   tracks bas mkt lib  levels 0-4
  rv    the river tile (you know your own)   held k=kept tile, r=received tile
  res   B builders, r b g y workers, A assistants, C coins, T tribunes
  cranes  the colour each corner's crane scores once its tile is taken
 Round line: column value = VP base of a triumphal column this cycle; street
  cards = this round's two streets (taking a tile in them is free); Trajan cards
  = the task card scored at the end of each cycle (I-1 .. III-4)."""


def card_words(card: int, sep: str = "") -> str:
    """A street card with the street it names: ``R5 (row 5)``, ``Cc (column c)``, or
    with ``sep`` "=": ``R5 = row 5``."""
    name = CARD_NAMES[card]
    street = f"{'row' if name[0] == 'R' else 'column'} {name[1]}"
    return f"{name} {sep} {street}" if sep else f"{name} ({street})"


def decision(a: np.ndarray, seat: int) -> str:
    """What ``seat``, to move in position ``a``, has to decide, in words with the form of
    its answer (``moves`` lists the exact plies)."""
    it = int(a[STACK + int(a[SP]) - 1])
    kind, arg = item_kind(it), item_b(it)
    b = SEAT + seat * SEAT_SIZE
    n = int(a[N_PLAYERS])
    if kind == I_SETUP:
        cls = int(a[b + FEMALE])
        others = [CLASSES[c] for c in range(3) if c != cls]
        return (f"setup: your drawn {CLASSES[cls]} citizen goes to row {2 * cls + 1} or {2 * cls + 2}; "
                f"choose crane colours for a1 f1 a6 f6, that row (1 = first) and the corner of your "
                f"{others[0]} citizen ({others[1]} opposite), e.g. setup rbgy/1/a1")
    if kind == I_DRAFT:
        if a[D_TAKE + 2 * seat] < 0:
            cards = ", then ".join(card_words(int(a[CARDS + k]), "=") for k in range(2))
            return (f"draft: take two tiles of your Colonia (take X Y), one for each street card: {cards}. "
                    "A tile in the card's street is free; any other, and rv, costs 1 tribune")
        return (f"draft: keep one of the two tiles you took (keep X); the other goes face down to "
                f"{SEATS[(seat + n - 1) % n]}")
    if kind == I_USE:
        from .notation import tile_words

        kept, received = (tile_words(int(a[b + HELD + j]), seat) for j in range(2))
        return (f"use a tile you hold: use k (kept: {kept}) or use r (received: {received}); "
                "use kr / use rk: both, for 2 tribunes")
    if kind == I_CIT:
        rows = cit_rows(a, seat, arg)
        return (f"place your {CLASSES[arg]} citizen in a row of its class: "
                + " or ".join(f"cit {r + 1} ({ROW_NAMES[r].strip()})" for r in range(6) if (rows >> r) & 1))
    if kind == I_CONVBUILD:
        return "convert (conv ...) or build one tile on vacated spaces (build ...); build - ends your turn"
    if kind == I_TRACK:
        name, gains = TRACK_WORDS[arg]
        top = item_c(it)
        return (f"{name} benefit: choose a level up to {top}: "
                + ", ".join(f"track {j + 1} = {g}" for j, g in enumerate(gains[:top])))
    if kind == I_ENV:
        where = "any empty Forum cell" if arg == ENV_FREE else f"a {COLOUR_WORDS[COLOURS[arg]]} Forum cell"
        return f"send an envoy from your ship to {where} (env X) or not (env -)"
    if kind == I_PICK:
        if arg in (PK_AREA, PK_AREA1):
            two = arg == PK_AREA and row_active(a, seat, 1) > 0
            return ("area bonus" + (" (two different, with PII)" if two else "") +
                    ": T tribune, A assistant, C coin, U upgrade, V 2 VP, e.g. pick "
                    + ("T+V" if two else "T"))
        if arg == PK_CT:
            return "row bonus: pick C (coin) or pick T (tribune)"
        if arg == PK_CA:
            return "row bonus: pick C (coin) or pick A (assistant)"
        return "a worker of any colour: pick r, b, g or y"
    if kind == I_PAY:
        return ("end of the cycle: pay 1 coin per citizen row to keep it active (pay 1,5); "
                "unpaid rows turn inactive (pay - pays none)")
    return "'moves' lists your choices"


def _tile_token(word: int, seat: int | None = None) -> str:
    """``[T ]`` for a tile whose type is shown (face up, or seen by ``seat``), else ``[??]``."""
    seen = seat is not None and (word >> (TW_SEEN_SHIFT + seat)) & 1
    if not word & TW_UP and not seen:
        return "[??]"
    name = TYPE_NAMES[word & TW_TYPE].replace("cit", "c")
    return f"[{name:<2}]"


def _cell_token(a: np.ndarray, b: int, c: int, seat: int | None) -> str:
    word = int(a[b + TILE + c])
    if word:
        return _tile_token(word, seat)
    if c in TEMPLES:
        return "TMPL"
    if c in CORNERS:
        col = int(a[b + CRANE + CORNERS.index(c)])
        return f"K:{COLOURS[col]} " if col >= 0 else "K:- "
    part = int(a[b + BLD + c])
    if part:
        return f"{GREY.get(part) or STRUCTURES[part]} "
    return " .  "


def _summary(a: np.ndarray, p: int, seat: int | None) -> list[str]:
    """The two lines under a Colonia: VP, ship, bar, tracks, river and held tiles;
    resources and cranes."""
    b = SEAT + p * SEAT_SIZE
    rv = int(a[b + TILE + RV])
    held = " ".join(f"{name}={_tile_token(int(a[b + HELD + j]), seat)}" for j, name in enumerate("kr")
                    if a[b + HELD + j])
    res = " ".join(f"{n}{int(a[b + RES + i])}" for i, n in enumerate(RES_NAMES))
    tracks = " ".join(f"{n}{min(4, int(a[b + TRACK + i]))}" for i, n in enumerate(TRACK_NAMES))
    side = "merchant" if a[b + MERCH] else "basic"
    cranes = " ".join(f"{CORNER_NAMES[k]}:{COLOURS[int(a[b + CRANE + k])] if a[b + CRANE + k] >= 0 else '-'}"
                      for k in range(4))
    return [f"  VP {total_vp(a, p)}  ship {int(a[b + SHIP])}  bar {int(a[b + PRES])} ({side})  "
            f"tracks {tracks}  rv {_tile_token(rv, seat) if rv else '-'}  held {held or '-'}",
            f"  res {res}  cranes {cranes}"]


def _draft(a: np.ndarray, p: int, seat: int | None) -> list[str]:
    """Seat p's draft of this round so far (in a seat's view only its own is left)."""
    if a[D_TAKE + 2 * p] < 0:
        return []
    n = int(a[N_PLAYERS])
    right = SEATS[(p + n - 1) % n]
    took = [f"{cell_name(int(a[D_TAKE + 2 * p + k]))} {_tile_token(int(a[D_TILES + 2 * p + k]), seat)}"
            for k in range(2)]
    paid = int(a[D_PAID + p])
    cost = f"{paid} tribune{'s' if paid != 1 else ''}"
    kept = int(a[D_KEPT + p])
    if kept < 0:
        return [f"  drafting: took {took[0]} and {took[1]} ({cost}); keeps one, passes the other to {right}"]
    return [f"  drafted: took {took[0]} and {took[1]} ({cost}); keeps {took[kept]}, "
            f"passes {took[1 - kept]} to {right}"]


def _colonia(a: np.ndarray, p: int, seat: int | None = None) -> list[str]:
    b = SEAT + p * SEAT_SIZE
    who = f"Your Colonia ({SEATS[p]})" if p == seat else f"{SEATS[p]}'s Colonia"
    lines = [f"{who:<17}a    b    c    d    e    f     citizens (A active, i inactive)"]
    for r in range(6):
        cells = " ".join(_cell_token(a, b, 6 * r + c, seat) for c in range(6))
        cits = " ".join({1: "A", 2: "i"}[int(a[b + CIT + 2 * r + k])] for k in range(2)
                        if a[b + CIT + 2 * r + k])
        lines.append(f"  row {r + 1}         {cells}   {ROW_NAMES[r]} {cits or '-'}")
    lines.extend(_summary(a, p, seat))
    lines.extend(_draft(a, p, seat))
    return lines


def _brief(a: np.ndarray, p: int, seat: int | None) -> list[str]:
    """Another seat in two lines (its Colonia is drawn by the full picture)."""
    b = SEAT + p * SEAT_SIZE
    cits = " ".join(f"{ROW_NAMES[r].strip()}:" + "".join({1: "A", 2: "i"}[int(a[b + CIT + 2 * r + k])]
                                                        for k in range(2) if a[b + CIT + 2 * r + k])
                    for r in range(6) if a[b + CIT + 2 * r])
    first, second = _summary(a, p, seat)
    return [f"{SEATS[p]}:{first[1:]}", f"  {second.strip()}  citizens {cits or '-'}"] + _draft(a, p, seat)


def render(a: np.ndarray, seat: int | None = None, brief: bool = False) -> str:
    """The Forum (envoys as seat letters, eagles ``#``, empty cells ``r-`` etc.),
    each Colonia, supplies, tracks, the column and the street cards.

    Args:
        a: a state array (for a person, the view of their seat).
        seat: the seat looking, or None: tiles that seat has seen (its river tile, its
            draft, the tiles it holds or passed) are named as well as face-up ones, and
            the last line says what it has to decide.
        brief: with ``seat``: draw only that seat's Colonia, the others in two lines each.

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
    lines.append(f"round {int(a[ROUND])}/12, cycle {cycle}, column value {4 - cycle}, "
                 f"start player {SEATS[int(a[START])]}, Trajan cards {trajan}")
    lines.append(f"street cards {cards} ({8 - int(a[DRAWN + cycle - 1])} left in this cycle's pile)")
    for p in range(n):
        if not a[SEAT + p * SEAT_SIZE + SET]:
            lines.append(f"{SEATS[p]}: setup not made yet")
        elif brief and seat is not None and p != seat:
            lines.extend(_brief(a, p, seat))
        else:
            lines.extend(_colonia(a, p, seat))
    if a[OVER]:
        lines.append("game over")
    elif seat is not None and int(a[TO_MOVE]) == seat:
        lines.extend(textwrap.wrap(f"{SEATS[seat]} (you) to move: {decision(a, seat)}", width=88,
                                   subsequent_indent="  "))
    else:
        lines.append(f"{SEATS[int(a[TO_MOVE])]} to move")
    return "\n".join(lines)
