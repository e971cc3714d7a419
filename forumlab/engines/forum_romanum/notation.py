"""Forum Romanum move notation: ``d4`` places a piece from the hand, ``d4-e5`` moves one.

Cells are a column a-g and a row 1-7 (``a1`` is cell 0, top-left). In the 2-player game
a move names its *global* colour id 0-3 first (player 0 owns colours 0 and 1, player 1
owns 2 and 3), e.g. ``2:d4`` or ``3:d4-e5``; the prefix may be left out when only one
colour can move (the second sub-move of a turn, and always in 3-6 player games, where
it must equal the mover's seat).
"""
from __future__ import annotations

import numpy as np

from ...core.errors import IllegalMoveError
from .layout import COLUMNS, SIZE, cell_index, colours_for
from .moves import FROM_HAND, MAX_MOVES, decode_move, encode_move, legal_moves


def cell_name(index: int) -> str:
    """Notation of a cell index, e.g. 0 -> 'a1'."""
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def parse_cell(text: str) -> int:
    """Cell index of notation like 'd4'; ValueError if malformed."""
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "1234567":
        raise ValueError(f"bad cell {text!r}")
    return cell_index(COLUMNS.index(text[0]), int(text[1]) - 1)


def format_move(move: int, players: int) -> str:
    """Notation of a move code: ``d4`` (from the hand) or ``d4-e5`` (a move on the
    board); in the 2-player game prefixed by the colour, e.g. ``2:d4``."""
    colour, src, dst = decode_move(int(move))
    text = cell_name(dst) if src == FROM_HAND else f"{cell_name(src)}-{cell_name(dst)}"
    return f"{colour}:{text}" if players == 2 else text


def parse_move(array: np.ndarray, text: str, players: int) -> int:
    """Move code for a notation string (legality is not checked here).

    Args:
        array: the position; without a colour prefix, its only movable colour is used.
        text: ``d4`` or ``d4-e5``, optionally prefixed by a colour id, e.g. ``1:d4``.
        players: the number of players of the game.

    Returns:
        The move code.

    Raises:
        IllegalMoveError: ``text`` is not a string, is malformed, names a colour the game
            does not have, or lacks the prefix while several colours can move.
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move must be text, not {text!r}")
    raw = text.strip()
    colour = None
    body = raw
    if ":" in raw:
        prefix, body = raw.split(":", 1)
        if not (prefix.isascii() and prefix.isdigit()) or int(prefix) >= colours_for(players):
            raise IllegalMoveError(f"malformed move {text!r}: bad colour {prefix!r}")
        colour = int(prefix)
    movable = movable_colours(array)
    if colour is None:
        if len(movable) != 1:
            raise IllegalMoveError(
                f"move {text!r} needs a colour prefix, one of "
                + ", ".join(f"'{c}:'" for c in movable)
            )
        colour = movable[0]
    try:
        if "-" in body:
            a, b = body.split("-", 1)
            src, dst = parse_cell(a), parse_cell(b)
        else:
            src, dst = FROM_HAND, parse_cell(body)
    except ValueError:
        raise IllegalMoveError(
            f"malformed move {text!r} (expected e.g. 'd4' or 'd4-e5'"
            + (", prefixed by a colour such as '1:'" if players == 2 else "")
            + ")"
        ) from None
    return encode_move(colour, src, dst)


def movable_colours(array: np.ndarray) -> list[int]:
    """The colours that have a legal move in the position, ascending."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    legal = out[: legal_moves(array, out)]
    return sorted({decode_move(int(m))[0] for m in legal})
