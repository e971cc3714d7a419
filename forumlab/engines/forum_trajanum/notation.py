"""The spec's move notation: move code <-> text, strict (never normalised).

``format_move`` prints a code; ``parse_move`` reads a text back to its code or
raises IllegalMoveError "malformed ..." when the text is not a well-formed ply in
canonical form (legality in the position is checked by the facade).
"""
from __future__ import annotations

import re

from ...core.errors import IllegalMoveError
from .layout import (
    CARDS,
    COLOURS,
    CORNER_NAMES,
    CYCLE,
    D_PAID,
    D_TAKE,
    D_TILES,
    FEMALE,
    HELD,
    N_PLAYERS,
    R_T,
    RES,
    ROUND,
    SEAT,
    SEAT_SIZE,
    SP,
    STACK,
    TILEBB,
    TO_MOVE,
    TRACK,
    TW_SEEN_SHIFT,
    TW_TYPE,
    TW_UP,
    TYPE_NAMES,
    VPS,
    cell_name,
    forum_name,
)
from .moves import (
    BUILD_NONE_PAYLOAD,
    CONV_CI,
    CONV_CII,
    CONV_MII,
    ENV_NONE,
    KIND_SHIFT,
    M_BUILD,
    M_CIT,
    M_CONV,
    M_ENV,
    M_KEEP,
    M_PAY,
    M_PICK,
    M_SETUP,
    M_TAKE,
    M_TRACK,
    M_USE,
    N_SETUP_CODES,
    N_USE_CODES,
    NO_CELL,
    PAYLOAD_MASK,
    PICK_NAMES,
    PIECE_DOUBLE,
    PIECE_MIXED,
    PIECE_STRUCTURE,
    USE_BOTH,
    build_fields,
    build_payload,
    conv_fields,
    conv_payload,
    item_b,
    setup_fields,
    setup_payload,
    take_cells,
    take_payload,
    take_price,
)
from .setup import PERMS

USE_NAMES = ("k", "r", "kr", "rk")
MII_NAMES = "CTA"
GREY_NAMES = ("col", "lib", "bas", "mkt")
_CELL = {cell_name(c): c for c in range(37)}
_FORUM = {forum_name(f): f for f in range(80)}
_PERM = {"".join(COLOURS[k] for k in PERMS[i]): i for i in range(len(PERMS))}


def _code(kind: int, payload: int) -> int:
    return (kind << KIND_SHIFT) | payload


def _split(move: int) -> tuple[int, int]:
    """(kind, payload) of a move code."""
    return int(move) >> KIND_SHIFT, int(move) & PAYLOAD_MASK


def _grey_pay(p: int) -> str:
    return "B" if p == 0 else COLOURS[p - 1] * 2


def _colour_pay(colour: int, p: int) -> str:
    return COLOURS[colour] if p == 0 else COLOURS[p - 1] + "A"


def _format_build(x: int) -> str:
    if x == BUILD_NONE_PAYLOAD:
        return "build -"
    piece, c1, c2, p1, p2 = build_fields(x)
    if piece < PIECE_STRUCTURE:
        return f"build {GREY_NAMES[piece]}@{cell_name(c1)}/{_grey_pay(p1)}"
    if piece < PIECE_MIXED:
        col = piece - PIECE_STRUCTURE
        return f"build {COLOURS[col]}@{cell_name(c1)}/{_colour_pay(col, p1)}"
    if piece < PIECE_DOUBLE:
        g, col = divmod(piece - PIECE_MIXED, 4)
        return (f"build {GREY_NAMES[g]}+{COLOURS[col]}@{cell_name(c1)},{cell_name(c2)}/"
                f"{_grey_pay(p1)},{_colour_pay(col, p2)}")
    col = piece - PIECE_DOUBLE
    return (f"build {COLOURS[col] * 2}@{cell_name(c1)},{cell_name(c2)}/"
            f"{_colour_pay(col, p1)},{_colour_pay(col, p2)}")


def format_move(move: int) -> str:
    """The notation of a move code.

    Args:
        move: a move code of this engine.

    Returns:
        The ply's text, e.g. ``take c2 rv``.

    Raises:
        ValueError: not a move code.
    """
    kind, x = _split(move)
    if kind == M_SETUP and x < N_SETUP_CODES:
        perm, row_choice, corner = setup_fields(x)
        colours = "".join(COLOURS[k] for k in PERMS[perm])
        return f"setup {colours}/{row_choice + 1}/{CORNER_NAMES[corner]}"
    if kind == M_TAKE:
        sx, sy = take_cells(x)
        return f"take {cell_name(sx)} {cell_name(sy)}"
    if kind == M_KEEP:
        return f"keep {cell_name(x)}"
    if kind == M_USE and x < N_USE_CODES:
        return f"use {USE_NAMES[x]}"
    if kind == M_CIT:
        return f"cit {x}"
    if kind == M_TRACK:
        return f"track {x}"
    if kind == M_CONV:
        ck, a, b = conv_fields(x)
        if ck == CONV_MII:
            return f"conv {MII_NAMES[a]}>{MII_NAMES[b]}"
        if ck == CONV_CI:
            return f"conv A>{COLOURS[b]}"
        return "conv A>B"
    if kind == M_ENV:
        return "env -" if x == ENV_NONE else f"env {forum_name(x)}"
    if kind == M_PICK:
        return "pick " + "+".join(PICK_NAMES[i] for i in range(len(PICK_NAMES)) if (x >> i) & 1)
    if kind == M_PAY:
        return "pay " + (",".join(str(r + 1) for r in range(6) if (x >> r) & 1) or "-")
    if kind == M_BUILD:
        return _format_build(x)
    raise ValueError(f"{move} is not a Forum Trajanum move code")


def move_note(array, move: int) -> str:
    """What a list of legal moves shows beside ``move``: the tribunes a ``take`` costs
    the seat to move ("free", "1 tribune", "2 tribunes"); "" for other moves."""
    kind, x = _split(move)
    if kind != M_TAKE:
        return ""
    cost = int(take_price(array, x))
    return "free" if cost == 0 else f"{cost} tribune{'s' if cost > 1 else ''}"


def _malformed(text: str, why: str) -> IllegalMoveError:
    return IllegalMoveError(f"{text!r} is malformed: {why}")


def _parse_grey_pay(text: str, pay: str) -> int:
    if pay == "B":
        return 0
    if len(pay) == 2 and pay[0] == pay[1] and pay[0] in COLOURS:
        return 1 + COLOURS.index(pay[0])
    raise _malformed(text, f"a grey part is paid B or xx, not {pay!r}")


def _parse_colour_pay(text: str, colour: int, pay: str) -> int:
    if pay == COLOURS[colour]:
        return 0
    if len(pay) == 2 and pay[1] == "A" and pay[0] in COLOURS and pay[0] != COLOURS[colour]:
        return 1 + COLOURS.index(pay[0])
    raise _malformed(text, f"a {COLOURS[colour]} part is paid {COLOURS[colour]} or xA (x another colour), "
                           f"not {pay!r}")


_BUILD = re.compile(r"^([a-z]+)(?:\+([rbgy]))?@([a-f][1-6])(?:,([a-f][1-6]))?/([A-Za-z]+)(?:,([A-Za-z]+))?$")


def _parse_build(text: str, arg: str) -> int:
    if arg == "-":
        return _code(M_BUILD, BUILD_NONE_PAYLOAD)
    m = _BUILD.match(arg)
    if not m:
        raise _malformed(text, "expected build <piece>@<cells>/<payment> or build -")
    name, plus, a, b, pa, pb = m.groups()
    c1, c2 = _CELL[a], _CELL[b] if b else None
    if name in GREY_NAMES and plus is None:
        if c2 is not None or pb is not None:
            raise _malformed(text, "a single tile covers one space and has one payment")
        pay = _parse_grey_pay(text, pa)
        return _code(M_BUILD, build_payload(GREY_NAMES.index(name), c1, NO_CELL, pay, 0))
    if name in COLOURS and len(name) == 1 and plus is None:
        if c2 is not None or pb is not None:
            raise _malformed(text, "a single tile covers one space and has one payment")
        col = COLOURS.index(name)
        pay = _parse_colour_pay(text, col, pa)
        return _code(M_BUILD, build_payload(PIECE_STRUCTURE + col, c1, NO_CELL, pay, 0))
    if c2 is None or pb is None:
        raise _malformed(text, "a double covers two spaces and has two payments")
    if name in GREY_NAMES and plus is not None:
        g, col = GREY_NAMES.index(name), COLOURS.index(plus)
        q1 = _parse_grey_pay(text, pa)
        q2 = _parse_colour_pay(text, col, pb)
        return _code(M_BUILD, build_payload(PIECE_MIXED + 4 * g + col, c1, c2, q1, q2))
    if len(name) == 2 and name[0] == name[1] and name[0] in COLOURS and plus is None:
        col = COLOURS.index(name[0])
        q1, q2 = _parse_colour_pay(text, col, pa), _parse_colour_pay(text, col, pb)
        if c1 >= c2:
            raise _malformed(text, "a double of 2 structures lists its cells in reading order")
        if q1 > q2:
            raise _malformed(text, "payment groups go plain first, then xA by x in the order r, b, g, y")
        return _code(M_BUILD, build_payload(PIECE_DOUBLE + col, c1, c2, q1, q2))
    raise _malformed(text, f"unknown piece {name + ('+' + plus if plus else '')!r}")


def _parse_setup(text: str, arg: str) -> int:
    m = re.match(r"^([rbgy]{4})/([12])/(a1|f1|a6|f6)$", arg)
    if not m or m.group(1) not in _PERM:
        raise _malformed(text, "expected setup <rbgy permutation>/<1|2>/<a1|f1|a6|f6>")
    row, corner = int(m.group(2)) - 1, CORNER_NAMES.index(m.group(3))
    return _code(M_SETUP, setup_payload(_PERM[m.group(1)], row, corner))


def _parse_take(text: str, arg: str) -> int:
    parts = arg.split(" ")
    if len(parts) != 2 or not all(p in _CELL for p in parts):
        raise _malformed(text, "expected take X Y (Colonia spaces or rv)")
    x, y = _CELL[parts[0]], _CELL[parts[1]]
    if x >= y:
        raise _malformed(text, "the pair is written in reading order with rv last")
    return _code(M_TAKE, take_payload(x, y))


def _parse_keep(text: str, arg: str) -> int:
    if arg not in _CELL:
        raise _malformed(text, "expected keep <space>")
    return _code(M_KEEP, _CELL[arg])


def _parse_use(text: str, arg: str) -> int:
    if arg not in USE_NAMES:
        raise _malformed(text, "expected use k, r, kr or rk")
    return _code(M_USE, USE_NAMES.index(arg))


def _parse_level(text: str, arg: str, word: str, kind: int, top: int) -> int:
    """``cit <row 1-6>`` or ``track <level 1-4>``."""
    if len(arg) != 1 or not "1" <= arg <= str(top):
        raise _malformed(text, f"expected {word} 1-{top}")
    return _code(kind, int(arg))


def _parse_cit(text: str, arg: str) -> int:
    return _parse_level(text, arg, "cit", M_CIT, 6)


def _parse_track(text: str, arg: str) -> int:
    return _parse_level(text, arg, "track", M_TRACK, 4)


def _parse_conv(text: str, arg: str) -> int:
    m = re.match(r"^([CTA])>([CTArbgyB])$", arg)
    if m and m.group(1) in MII_NAMES and m.group(2) in MII_NAMES and m.group(1) != m.group(2):
        src, dst = MII_NAMES.index(m.group(1)), MII_NAMES.index(m.group(2))
        return _code(M_CONV, conv_payload(CONV_MII, src, dst))
    if m and m.group(1) == "A" and m.group(2) in COLOURS:
        return _code(M_CONV, conv_payload(CONV_CI, 0, COLOURS.index(m.group(2))))
    if arg == "A>B":
        return _code(M_CONV, conv_payload(CONV_CII, 0, 0))
    raise _malformed(text, "expected conv C>T, A>g or A>B")


def _parse_env(text: str, arg: str) -> int:
    if arg == "-":
        return _code(M_ENV, ENV_NONE)
    if arg not in _FORUM:
        raise _malformed(text, "expected env <Forum cell a1..t4> or env -")
    return _code(M_ENV, _FORUM[arg])


def _parse_pick(text: str, arg: str) -> int:
    items = arg.split("+")
    if not all(i in PICK_NAMES for i in items) or len(items) > 2:
        raise _malformed(text, "expected pick <T A C U V r b g y> or a pair like T+V")
    idx = [PICK_NAMES.index(i) for i in items]
    if len(idx) == 2 and not (idx[0] < idx[1] < 5):
        raise _malformed(text, "a pair is two area bonuses in the order T A C U V")
    return _code(M_PICK, sum(1 << i for i in idx))


def _parse_pay(text: str, arg: str) -> int:
    if arg == "-":
        return _code(M_PAY, 0)
    rows = arg.split(",")
    if not all(len(r) == 1 and "1" <= r <= "6" for r in rows):
        raise _malformed(text, "expected pay <rows 1-6 ascending, comma-separated> or pay -")
    nums = [int(r) for r in rows]
    if any(a >= b for a, b in zip(nums, nums[1:])):
        raise _malformed(text, "rows are listed in ascending order")
    return _code(M_PAY, sum(1 << (r - 1) for r in nums))


# the first word of a ply -> its reader, ``reader(text, arguments) -> code``
_PARSERS = {
    "setup": _parse_setup, "take": _parse_take, "keep": _parse_keep, "use": _parse_use,
    "cit": _parse_cit, "track": _parse_track, "conv": _parse_conv, "build": _parse_build,
    "env": _parse_env, "pick": _parse_pick, "pay": _parse_pay,
}


def parse_move(text: str) -> int:
    """The move code of a ply's text (canonical notation only).

    Args:
        text: e.g. ``take c2 rv``, ``build lib+y@c4,d4/gg,y``, ``pick T+V``.

    Returns:
        The move code (not checked for legality).

    Raises:
        IllegalMoveError: the text is not a well-formed ply.
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move must be text, not {text!r}")
    word, sep, arg = text.partition(" ")
    if not sep or not arg or " " in arg and word != "take":
        raise _malformed(text, "expected '<word> <arguments>'")
    reader = _PARSERS.get(word)
    if reader is None:
        raise _malformed(text, f"unknown ply {word!r}")
    return reader(text, arg)


# ---- moves and their effects in words, for a person at the table ---------------------
_ROW_NAMES = ("PI", "PII", "MI", "MII", "CI", "CII")
_CLASSES = ("Patrician", "Merchant", "Craftsman")
_COLOUR_WORDS = {"r": "red", "b": "blue", "g": "green", "y": "yellow"}
_STRUCTURE_WORDS = ("house", "fountain", "park", "stable")  # r b g y
_GREY_WORDS = ("triumphal column", "library", "basilica", "market")
_PICK_WORDS = {"T": "a tribune", "A": "an assistant", "C": "a coin", "U": "an upgrade", "V": "2 VP",
               "r": "a red worker", "b": "a blue worker", "g": "a green worker", "y": "a yellow worker"}
_MII_WORDS = {"C": "a coin", "T": "a tribune", "A": "an assistant"}
_SEATS = "ABCD"
# VP sources added at a cycle's end (layout.SOURCE_NAMES order)
_CYCLE_SOURCES = ((3, "cranes"), (4, "Colonia"), (5, "eagles"), (6, "Forum areas"), (7, "Trajan"))


def _seat_base(p: int) -> int:
    return SEAT + p * SEAT_SIZE


def tile_words(word: int, seat: int) -> str:
    """A tile's type in words when ``seat`` may know it, else "a face-down tile"."""
    if word and (word & TW_UP or (word >> (TW_SEEN_SHIFT + seat)) & 1):
        name = TYPE_NAMES[word & TW_TYPE]
        if name.startswith("cit"):
            return f"a {_CLASSES['PMC'.index(name[3])]} citizen"
        return {"B": "a builder", "A": "an assistant", "C": "a coin", "T": "a tribune",
                "U": "an upgrade"}.get(name) or f"a {_COLOUR_WORDS[name]} worker"
    return "a face-down tile"


def _pay_words(grey: bool, colour: int, pay: int) -> str:
    if grey:
        return "a builder" if pay == 0 else f"2 {_COLOUR_WORDS[COLOURS[pay - 1]]} workers"
    if pay == 0:
        return f"a {_COLOUR_WORDS[COLOURS[colour]]} worker"
    return f"a {_COLOUR_WORDS[COLOURS[pay - 1]]} worker + an assistant"


def _build_words(x: int) -> str:
    piece, c1, c2, p1, p2 = build_fields(x)
    if piece < PIECE_STRUCTURE:
        return f"builds a {_GREY_WORDS[piece]} on {cell_name(c1)}, paying {_pay_words(True, 0, p1)}"
    if piece < PIECE_MIXED:
        col = piece - PIECE_STRUCTURE
        return (f"builds a {_STRUCTURE_WORDS[col]} ({_COLOUR_WORDS[COLOURS[col]]}) on {cell_name(c1)}, "
                f"paying {_pay_words(False, col, p1)}")
    if piece < PIECE_DOUBLE:
        g, col = divmod(piece - PIECE_MIXED, 4)
        return (f"builds a {_GREY_WORDS[g]} on {cell_name(c1)} and a {_STRUCTURE_WORDS[col]} "
                f"({_COLOUR_WORDS[COLOURS[col]]}) on {cell_name(c2)}, paying {_pay_words(True, 0, p1)} "
                f"and {_pay_words(False, col, p2)}")
    col = piece - PIECE_DOUBLE
    return (f"builds two {_STRUCTURE_WORDS[col]}s ({_COLOUR_WORDS[COLOURS[col]]}) on {cell_name(c1)} and "
            f"{cell_name(c2)}, paying {_pay_words(False, col, p1)} and {_pay_words(False, col, p2)}")


def describe_move(before, after, move: int, seat: int) -> str:
    """A ply in words, as told to ``seat``, with the VP it gained at once (a column, a
    finished track, a ``V`` bonus; a cycle's scoring is :func:`ply_news`'s).

    Args and Returns: as :func:`_move_words`.
    """
    words = _move_words(before, after, move, seat)
    b = _seat_base(int(before[TO_MOVE]))
    gained = sum(int(after[b + VPS + i]) - int(before[b + VPS + i]) for i in range(3))
    return f"{words} (+{gained} VP)" if words and gained else words


def _setup_words(before, after, x: int, seat: int) -> str:
    perm, row_choice, corner = setup_fields(x)
    colours = [COLOURS[k] for k in PERMS[perm]]
    cls = int(before[_seat_base(int(before[TO_MOVE])) + FEMALE])
    low, high = [c for c in range(3) if c != cls]
    cranes = ", ".join(f"{CORNER_NAMES[k]} {_COLOUR_WORDS[colours[k]]}" for k in range(4))
    return (f"cranes {cranes}; its drawn {_CLASSES[cls]} citizen in row {2 * cls + row_choice + 1}; "
            f"a {_CLASSES[low]} citizen on {CORNER_NAMES[corner]}, a {_CLASSES[high]} one on "
            f"{CORNER_NAMES[3 - corner]}")


def _take_words(before, after, x: int, seat: int) -> str:
    mover = int(before[TO_MOVE])
    paid = int(after[D_PAID + mover])
    tiles = " and ".join(f"{cell_name(int(after[D_TAKE + 2 * mover + k]))} "
                         f"({tile_words(int(after[D_TILES + 2 * mover + k]), seat)})" for k in range(2))
    return f"takes {tiles}, paying {paid} tribune{'s' if paid != 1 else ''}"


def _keep_words(before, after, x: int, seat: int) -> str:
    mover = int(before[TO_MOVE])
    k = 0 if int(before[D_TAKE + 2 * mover]) == x else 1
    n = int(before[N_PLAYERS])
    other = int(before[D_TAKE + 2 * mover + 1 - k])
    return (f"keeps {cell_name(x)} ({tile_words(int(before[D_TILES + 2 * mover + k]), seat)}), passes "
            f"{cell_name(other)} ({tile_words(int(before[D_TILES + 2 * mover + 1 - k]), seat)}) "
            f"to {_SEATS[(mover + n - 1) % n]}")


def _use_words(before, after, x: int, seat: int) -> str:
    b = _seat_base(int(before[TO_MOVE]))
    held = [tile_words(int(before[b + HELD + j]), seat) for j in range(2)]
    if x < USE_BOTH:
        return f"uses its {('kept', 'received')[x]} tile: {held[x]}"
    first = x - USE_BOTH
    return (f"pays 2 tribunes and uses both tiles: {('kept', 'received')[first]} {held[first]}, then "
            f"{('kept', 'received')[1 - first]} {held[1 - first]}")


def _cit_words(before, after, x: int, seat: int) -> str:
    return f"places the citizen in row {x} ({_ROW_NAMES[x - 1]})"


def _conv_words(before, after, x: int, seat: int) -> str:
    ck, src, dst = conv_fields(x)
    if ck == CONV_MII:
        return f"converts {_MII_WORDS[MII_NAMES[src]]} into {_MII_WORDS[MII_NAMES[dst]]} (MII)"
    if ck == CONV_CI:
        return f"converts an assistant into a {_COLOUR_WORDS[COLOURS[dst]]} worker (CI)"
    return "converts an assistant into a builder (CII)"


def _build_move_words(before, after, x: int, seat: int) -> str:
    if x == BUILD_NONE_PAYLOAD:
        return "builds nothing; its turn ends"
    from .render import TRACK_WORDS

    b = _seat_base(int(before[TO_MOVE]))
    words = _build_words(x)
    for t, (name, gains) in enumerate(TRACK_WORDS):  # level 1's benefit is taken at once
        if int(before[b + TRACK + t]) == 0 and int(after[b + TRACK + t]) == 1:
            words += f"; {name} track level 1: {gains[0]}"
    return words


def _track_words(before, after, x: int, seat: int) -> str:
    from .render import TRACK_WORDS

    top = int(before[STACK + int(before[SP]) - 1])  # the track item: its track type is argument b
    name, gains = TRACK_WORDS[item_b(top)]
    return f"takes level {x} of the {name} track: {gains[x - 1]}"


def _env_words(before, after, x: int, seat: int) -> str:
    if x == ENV_NONE:
        return "sends no envoy"
    return f"sends an envoy to Forum cell {forum_name(x)}"


def _pick_words(before, after, x: int, seat: int) -> str:
    return "takes " + " and ".join(_PICK_WORDS[PICK_NAMES[i]] for i in range(len(PICK_NAMES)) if (x >> i) & 1)


def _pay_rows_words(before, after, x: int, seat: int) -> str:
    rows = [r + 1 for r in range(6) if (x >> r) & 1]
    if not rows:
        return "pays for no citizen row: its citizens turn inactive"
    plural = "s" if len(rows) > 1 else ""
    return (f"pays {len(rows)} coin{plural} to keep row{plural} {', '.join(map(str, rows))} active; "
            "its other rows' citizens turn inactive")


# a move kind -> its words, ``words(before, after, payload, seat)``
_WORDS = {
    M_SETUP: _setup_words, M_TAKE: _take_words, M_KEEP: _keep_words, M_USE: _use_words,
    M_CIT: _cit_words, M_CONV: _conv_words, M_BUILD: _build_move_words, M_TRACK: _track_words,
    M_ENV: _env_words, M_PICK: _pick_words, M_PAY: _pay_rows_words,
}


def _move_words(before, after, move: int, seat: int) -> str:
    """A ply in words, as told to ``seat``.

    Args:
        before: what ``seat`` observes of the position before the ply
            (``hidden.observation``: nothing hidden from it is left in it).
        after: what ``seat`` observes of the position after it.
        move: the ply's move code (one ``seat`` may see).
        seat: the seat being told.

    Returns:
        A short phrase, e.g. ``"uses its kept tile: a coin"``; "" for a code of no kind.
    """
    kind, x = _split(move)
    words = _WORDS.get(kind)
    return words(before, after, x, seat) if words else ""


def ply_news(before, after, seat: int) -> list[str]:
    """What became public in a ply besides the move itself, as told to ``seat``: the
    spaces each seat drafted once the draft ends, the tile ``seat`` received, the
    points of a cycle's scoring and the street cards of a new round.

    Args:
        before: what ``seat`` observes of the position before the ply.
        after: what ``seat`` observes after it (both ``hidden.observation``).
        seat: the seat being told.

    Returns:
        Lines of text (none when nothing else happened).
    """
    n = int(before[N_PLAYERS])
    lines = []
    drafted = []
    for q in range(n):
        b = _seat_base(q)
        gone = int(before[b + TILEBB]) & ~int(after[b + TILEBB])
        if q == seat:
            continue
        spaces = [cell_name(c) for c in range(37) if (gone >> c) & 1]
        paid = int(before[b + RES + R_T]) - int(after[b + RES + R_T])
        if spaces and int(after[ROUND]) == int(before[ROUND]) and int(after[D_TAKE + 2 * q]) < 0:
            cost = f"{paid} tribune{'s' if paid != 1 else ''}"
            drafted.append(f"{_SEATS[q]} took {' and '.join(spaces)} ({cost})")
    if drafted:
        received = int(after[_seat_base(seat) + HELD + 1])
        lines.append("draft over: " + "; ".join(drafted)
                     + (f"; you received {tile_words(received, seat)}" if received else ""))
    scored = []
    for q in range(n):
        b = _seat_base(q)
        parts = [(name, int(after[b + VPS + i]) - int(before[b + VPS + i])) for i, name in _CYCLE_SOURCES]
        if any(v for _, v in parts):
            total = sum(v for _, v in parts)
            scored.append(f"{_SEATS[q]} +{total} ({', '.join(f'{name} {v}' for name, v in parts)})")
    if scored:
        cycle = "I" * int(before[CYCLE])
        lines.append(f"cycle {cycle} scored: " + "; ".join(scored))
    if int(after[ROUND]) > int(before[ROUND]):
        from .render import card_words

        cards = " then ".join(card_words(int(after[CARDS + k])) for k in range(2))
        lines.append(f"round {int(after[ROUND])} begins: street cards {cards}")
    return lines
