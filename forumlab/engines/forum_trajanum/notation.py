"""The spec's move notation: move code <-> text, strict (never normalised).

``format_move`` prints a code; ``parse_move`` reads a text back to its code or
raises IllegalMoveError "malformed ..." when the text is not a well-formed ply in
canonical form (legality in the position is checked by the facade).
"""
from __future__ import annotations

import re

from ...core.errors import IllegalMoveError
from .layout import (
    BUILD_NONE_PAYLOAD,
    COLOURS,
    CONV_CI,
    CONV_CII,
    CONV_MII,
    CORNER_NAMES,
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
    PICK_NAMES,
    cell_name,
    forum_name,
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


def _grey_pay(p: int) -> str:
    return "B" if p == 0 else COLOURS[p - 1] * 2


def _colour_pay(colour: int, p: int) -> str:
    return COLOURS[colour] if p == 0 else COLOURS[p - 1] + "A"


def format_move(move: int) -> str:
    """The notation of a move code.

    Args:
        move: a move code of this engine.

    Returns:
        The ply's text, e.g. ``take c2 rv``.

    Raises:
        ValueError: not a move code.
    """
    kind, x = int(move) >> KIND_SHIFT, int(move) & 0xFFFFFFFF
    if kind == M_SETUP and x < 192:
        perm = "".join(COLOURS[k] for k in PERMS[x // 8])
        return f"setup {perm}/{(x // 4) % 2 + 1}/{CORNER_NAMES[x % 4]}"
    if kind == M_TAKE:
        return f"take {cell_name(x >> 6)} {cell_name(x & 63)}"
    if kind == M_KEEP:
        return f"keep {cell_name(x)}"
    if kind == M_USE and x < 4:
        return f"use {USE_NAMES[x]}"
    if kind == M_CIT:
        return f"cit {x}"
    if kind == M_TRACK:
        return f"track {x}"
    if kind == M_CONV:
        ck, a, b = x // 16, (x // 4) % 4, x % 4
        if ck == CONV_MII:
            return f"conv {MII_NAMES[a]}>{MII_NAMES[b]}"
        if ck == CONV_CI:
            return f"conv A>{COLOURS[b]}"
        return "conv A>B"
    if kind == M_ENV:
        return "env -" if x == ENV_NONE else f"env {forum_name(x)}"
    if kind == M_PICK:
        return "pick " + "+".join(PICK_NAMES[i] for i in range(9) if (x >> i) & 1)
    if kind == M_PAY:
        return "pay " + (",".join(str(r + 1) for r in range(6) if (x >> r) & 1) or "-")
    if kind == M_BUILD:
        if x == BUILD_NONE_PAYLOAD:
            return "build -"
        piece, c1, c2, p1, p2 = x >> 18, (x >> 12) & 63, (x >> 6) & 63, (x >> 3) & 7, x & 7
        if piece < 4:
            return f"build {GREY_NAMES[piece]}@{cell_name(c1)}/{_grey_pay(p1)}"
        if piece < 8:
            return f"build {COLOURS[piece - 4]}@{cell_name(c1)}/{_colour_pay(piece - 4, p1)}"
        if piece < 24:
            g, col = divmod(piece - 8, 4)
            return (f"build {GREY_NAMES[g]}+{COLOURS[col]}@{cell_name(c1)},{cell_name(c2)}/"
                    f"{_grey_pay(p1)},{_colour_pay(col, p2)}")
        col = piece - 24
        return (f"build {COLOURS[col] * 2}@{cell_name(c1)},{cell_name(c2)}/"
                f"{_colour_pay(col, p1)},{_colour_pay(col, p2)}")
    raise ValueError(f"{move} is not a Forum Trajanum move code")


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
        return _code(M_BUILD, (GREY_NAMES.index(name) << 18) | (c1 << 12) | (63 << 6)
                     | (_parse_grey_pay(text, pa) << 3))
    if name in COLOURS and len(name) == 1 and plus is None:
        if c2 is not None or pb is not None:
            raise _malformed(text, "a single tile covers one space and has one payment")
        col = COLOURS.index(name)
        pay = _parse_colour_pay(text, col, pa)
        return _code(M_BUILD, ((4 + col) << 18) | (c1 << 12) | (63 << 6) | (pay << 3))
    if c2 is None or pb is None:
        raise _malformed(text, "a double covers two spaces and has two payments")
    if name in GREY_NAMES and plus is not None:
        g, col = GREY_NAMES.index(name), COLOURS.index(plus)
        return _code(M_BUILD, ((8 + 4 * g + col) << 18) | (c1 << 12) | (c2 << 6)
                     | (_parse_grey_pay(text, pa) << 3) | _parse_colour_pay(text, col, pb))
    if len(name) == 2 and name[0] == name[1] and name[0] in COLOURS and plus is None:
        col = COLOURS.index(name[0])
        q1, q2 = _parse_colour_pay(text, col, pa), _parse_colour_pay(text, col, pb)
        if c1 >= c2:
            raise _malformed(text, "a double of 2 structures lists its cells in reading order")
        if q1 > q2:
            raise _malformed(text, "payment groups go plain first, then xA by x in the order r, b, g, y")
        return _code(M_BUILD, ((24 + col) << 18) | (c1 << 12) | (c2 << 6) | (q1 << 3) | q2)
    raise _malformed(text, f"unknown piece {name + ('+' + plus if plus else '')!r}")


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
    if word == "setup":
        m = re.match(r"^([rbgy]{4})/([12])/(a1|f1|a6|f6)$", arg)
        if not m or m.group(1) not in _PERM:
            raise _malformed(text, "expected setup <rbgy permutation>/<1|2>/<a1|f1|a6|f6>")
        row, corner = int(m.group(2)) - 1, CORNER_NAMES.index(m.group(3))
        return _code(M_SETUP, _PERM[m.group(1)] * 8 + row * 4 + corner)
    if word == "take":
        parts = arg.split(" ")
        if len(parts) != 2 or not all(p in _CELL for p in parts):
            raise _malformed(text, "expected take X Y (Colonia spaces or rv)")
        x, y = _CELL[parts[0]], _CELL[parts[1]]
        if x >= y:
            raise _malformed(text, "the pair is written in reading order with rv last")
        return _code(M_TAKE, x * 64 + y)
    if word == "keep":
        if arg not in _CELL:
            raise _malformed(text, "expected keep <space>")
        return _code(M_KEEP, _CELL[arg])
    if word == "use":
        if arg not in USE_NAMES:
            raise _malformed(text, "expected use k, r, kr or rk")
        return _code(M_USE, USE_NAMES.index(arg))
    if word in ("cit", "track"):
        top = 6 if word == "cit" else 4
        if len(arg) != 1 or not "1" <= arg <= str(top):
            raise _malformed(text, f"expected {word} 1-{top}")
        return _code(M_CIT if word == "cit" else M_TRACK, int(arg))
    if word == "conv":
        m = re.match(r"^([CTA])>([CTArbgyB])$", arg)
        if m and m.group(1) in MII_NAMES and m.group(2) in MII_NAMES and m.group(1) != m.group(2):
            src, dst = MII_NAMES.index(m.group(1)), MII_NAMES.index(m.group(2))
            return _code(M_CONV, CONV_MII * 16 + src * 4 + dst)
        if m and m.group(1) == "A" and m.group(2) in COLOURS:
            return _code(M_CONV, CONV_CI * 16 + COLOURS.index(m.group(2)))
        if arg == "A>B":
            return _code(M_CONV, CONV_CII * 16)
        raise _malformed(text, "expected conv C>T, A>g or A>B")
    if word == "build":
        return _parse_build(text, arg)
    if word == "env":
        if arg == "-":
            return _code(M_ENV, ENV_NONE)
        if arg not in _FORUM:
            raise _malformed(text, "expected env <Forum cell a1..t4> or env -")
        return _code(M_ENV, _FORUM[arg])
    if word == "pick":
        items = arg.split("+")
        if not all(i in PICK_NAMES for i in items) or len(items) > 2:
            raise _malformed(text, "expected pick <T A C U V r b g y> or a pair like T+V")
        idx = [PICK_NAMES.index(i) for i in items]
        if len(idx) == 2 and not (idx[0] < idx[1] < 5):
            raise _malformed(text, "a pair is two area bonuses in the order T A C U V")
        return _code(M_PICK, sum(1 << i for i in idx))
    if word == "pay":
        if arg == "-":
            return _code(M_PAY, 0)
        rows = arg.split(",")
        if not all(len(r) == 1 and "1" <= r <= "6" for r in rows):
            raise _malformed(text, "expected pay <rows 1-6 ascending, comma-separated> or pay -")
        nums = [int(r) for r in rows]
        if any(a >= b for a, b in zip(nums, nums[1:])):
            raise _malformed(text, "rows are listed in ascending order")
        return _code(M_PAY, sum(1 << (r - 1) for r in nums))
    raise _malformed(text, f"unknown ply {word!r}")

