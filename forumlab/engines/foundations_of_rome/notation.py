"""Move text of Foundations of Rome (the spec's notation): a move code's text and the
code of a text.

``I``, ``D3``, ``K:c4``, ``R3L@c3,c4,d4``, ``M12@e4,f4,e5,f5``, ``T2:d3/$4``, ``Y``, ``N``,
``S:d4``, ``U:G3``, ``U:G20=1``, ``K:O16``, ``K:P10``; cells in ascending index, lot names
with the row number as written (``a10``); seats and amounts are decimals without leading
zeros. A module's notation is malformed without the module. Move codes: :mod:`.data`.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.errors import IllegalMoveError
from .data import (
    ANSWER_NO,
    ANSWER_YES,
    BUILD_BASE,
    BUY,
    BUY_CODES,
    CODE_NAMES,
    CODE_SHAPE,
    G_NUMA,
    INCOME,
    ITEM_CARD,
    ITEM_F2,
    ITEM_F4,
    ITEM_LOT,
    ITEM_NONE,
    ITEM_SILVER,
    KEEP_OBJ,
    KEEP_OBJ_CODES,
    KEEP_ROLE,
    KEEP_ROLE_CODES,
    N_INVOCATIONS,
    N_ITEMS,
    NUMA_BASE,
    NUMA_CODES,
    PICK_BASE,
    PL_BASE,
    PL_CELLS,
    PL_NCELLS,
    PLACEMENT_INDEX,
    SILVER_ITEMS,
    STEAL_BASE,
    TRADE_BASE,
    TRADE_CODES,
    USE_BASE,
    USE_CODES,
    decode_build,
    encode_build,
)
from .layout import SIZE, cell_name, parse_cell

CODE_BY_NAME = {name: code for code, name in enumerate(CODE_NAMES)}


def _decimal(text: str) -> bool:
    """A decimal without a leading zero (``0`` itself allowed)."""
    return text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


def _parse_card(text: str) -> int:
    if not text.startswith("G") or not _decimal(text[1:]) or not 1 <= int(text[1:]) <= N_INVOCATIONS:
        raise ValueError(f"{text!r} is not an invocation G1-G{N_INVOCATIONS}")
    return int(text[1:])


def format_item(item: int, n: int) -> str:
    """A trade item's notation: ``-``, a lot, ``$n``, ``F2``/``F4`` or ``G<g>``."""
    if item == ITEM_NONE:
        return "-"
    if item <= ITEM_SILVER:
        return cell_name(item - ITEM_LOT, n)
    if item <= ITEM_SILVER + SILVER_ITEMS:
        return f"${item - ITEM_SILVER}"
    if item == ITEM_F2:
        return "F2"
    if item == ITEM_F4:
        return "F4"
    return f"G{item - ITEM_CARD}"


def _parse_item(text: str, n: int) -> int:
    if text == "-":
        return ITEM_NONE
    if text in ("F2", "F4"):
        return ITEM_F2 if text == "F2" else ITEM_F4
    if text.startswith("$"):
        if not _decimal(text[1:]) or not 1 <= int(text[1:]) <= SILVER_ITEMS:
            raise ValueError(f"{text!r}: silver is $1 to ${SILVER_ITEMS}")
        return ITEM_SILVER + int(text[1:])
    if text.startswith("G"):
        return ITEM_CARD + _parse_card(text)
    return ITEM_LOT + parse_cell(text, n)


def format_offer(seat: int, give: int, get: int, n: int) -> str:
    """An offer's text ``T<seat>:<give>/<get>`` (also how the board shows a pending one)."""
    return f"T{seat}:{format_item(give, n)}/{format_item(get, n)}"


def format_move(array: np.ndarray, move: int) -> str:
    """The notation of move code ``move`` in the position ``array``.

    Raises:
        ValueError: ``move`` is no move code.
    """
    move = int(move)
    n = int(array[SIZE])
    if move == INCOME:
        return "I"
    if move in BUY_CODES:
        return f"D{move - BUY}"
    if PICK_BASE <= move < PICK_BASE + n * n:
        return f"K:{cell_name(move - PICK_BASE, n)}"
    if STEAL_BASE <= move < STEAL_BASE + n * n:
        return f"S:{cell_name(move - STEAL_BASE, n)}"
    if move in USE_CODES:
        return f"U:G{move - USE_BASE}"
    if move in NUMA_CODES:
        return f"U:G{G_NUMA}={move - NUMA_BASE}"
    if move in KEEP_OBJ_CODES:
        return f"K:O{move - KEEP_OBJ}"
    if move in KEEP_ROLE_CODES:
        return f"K:P{move - KEEP_ROLE}"
    if move == ANSWER_YES:
        return "Y"
    if move == ANSWER_NO:
        return "N"
    if move in TRADE_CODES:
        seat, rest = divmod(move - TRADE_BASE, N_ITEMS * N_ITEMS)
        give, get = divmod(rest, N_ITEMS)
        return format_offer(seat, give, get, n)
    bcode, loc = decode_build(move)
    if move < BUILD_BASE or not 0 <= bcode < len(CODE_NAMES):
        raise ValueError(f"{move} is not a move code")
    pl = int(PL_BASE[n - 7, CODE_SHAPE[bcode]]) + loc
    cells = PL_CELLS[pl, :PL_NCELLS[pl]]
    return f"{CODE_NAMES[bcode]}@" + ",".join(cell_name(c, n) for c in cells)


def parse_move(array: np.ndarray, text: str, players: int, modules: Sequence[str]) -> int:
    """The move code of ``text`` in the position ``array`` of a game of ``players``
    seats with ``modules``; legality is not checked.

    Raises:
        IllegalMoveError: ``text`` is not a move of this game's notation.
    """
    # No ply number here: replay and play prefix it ("ply 12: illegal move ...").
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move must be text, not {text!r}")
    n = int(array[SIZE])
    if text == "I":
        return INCOME
    if len(text) == 2 and text[0] == "D" and text[1] in "0123456789" and BUY + int(text[1]) in BUY_CODES:
        return BUY + int(text[1])
    try:
        module_move = _parse_module_move(text, n, players, modules)
        if module_move is not None:
            return module_move
        if text.startswith("K:"):
            return PICK_BASE + parse_cell(text[2:], n)
        name, at, cells_text = text.partition("@")
        if not at or name not in CODE_BY_NAME:
            raise ValueError(f"expected I, D1-D{len(BUY_CODES)}, K:<lot> or <building>@<lots>")
        cells = [parse_cell(c, n) for c in cells_text.split(",")]
    except ValueError as exc:
        raise IllegalMoveError(f"malformed move {text!r}: {exc}") from None
    if any(a >= b for a, b in zip(cells, cells[1:])):
        raise IllegalMoveError(f"malformed move {text!r}: lots must be in ascending order")
    bcode = CODE_BY_NAME[name]
    loc = PLACEMENT_INDEX.get((n, int(CODE_SHAPE[bcode]), tuple(cells)))
    if loc is None:
        raise IllegalMoveError(f"{text!r}: the lots are not the shape of {name}")
    return encode_build(bcode, loc)


def _parse_seat(text: str, players: int) -> int:
    if not _decimal(text) or int(text) >= players:
        raise ValueError(f"{text!r} is not a seat 0-{players - 1}")
    return int(text)


def _parse_keep(text: str, modules: Sequence[str]) -> int:
    """``K:O<k>`` / ``K:P<k>``; ValueError if malformed or without its module."""
    kind, number = text[2], text[3:]
    base, codes, module = ((KEEP_OBJ, KEEP_OBJ_CODES, "objectives") if kind == "O"
                           else (KEEP_ROLE, KEEP_ROLE_CODES, "roles"))
    if module not in modules:
        raise ValueError(f"no {module} in this game")
    if not _decimal(number) or base + int(number) not in codes:
        raise ValueError(f"expected K:{kind}1 to K:{kind}{len(codes)}")
    return base + int(number)


def _parse_use(text: str, players: int) -> int:
    """``U:G<g>`` or ``U:G20=<seat>`` (Numa names a seat); ValueError if malformed."""
    card, eq, seat = text[2:].partition("=")
    g = _parse_card(card)
    if g == G_NUMA:
        if not eq:
            raise ValueError(f"Numa names a seat: U:G{G_NUMA}=<seat>")
        return NUMA_BASE + _parse_seat(seat, players)
    if eq:
        raise ValueError(f"only U:G{G_NUMA} names a seat")
    return USE_BASE + g


def _parse_offer(text: str, n: int, players: int) -> int:
    """``T<seat>:<give>/<get>``; ValueError if malformed."""
    seat, colon, rest = text[1:].partition(":")
    give, slash, get = rest.partition("/")
    if not colon or not slash:
        raise ValueError("expected T<seat>:<give>/<get>")
    q = _parse_seat(seat, players)
    return TRADE_BASE + (q * N_ITEMS + _parse_item(give, n)) * N_ITEMS + _parse_item(get, n)


def _parse_module_move(text: str, n: int, players: int, modules: Sequence[str]) -> int | None:
    """Move code of a module's notation, None for other notation; ValueError if malformed."""
    if text in ("Y", "N"):
        if "trading" not in modules:
            raise ValueError("no trading in this game")
        return ANSWER_YES if text == "Y" else ANSWER_NO
    if text.startswith("K:O") or text.startswith("K:P"):
        return _parse_keep(text, modules)
    if text.startswith("S:"):
        if "stealing" not in modules:
            raise ValueError("no stealing in this game")
        return STEAL_BASE + parse_cell(text[2:], n)
    if text.startswith("U:"):
        if "invocations" not in modules:
            raise ValueError("no invocations in this game")
        return _parse_use(text, players)
    if text.startswith("T"):
        if "trading" not in modules:
            raise ValueError("no trading in this game")
        return _parse_offer(text, n, players)
    return None
