"""Forma's move notation: ``P5/3@h7`` (piece, orientation, top-left square of its
bounding box) and ``pass``.

Squares, pieces and orientation numbers are the shared conventions of
:mod:`forumlab.engines.forma.pieces`; move codes are defined in :mod:`.data`.
"""
from __future__ import annotations

from ...core.errors import IllegalMoveError
from .data import PASS, decode_move, encode_move
from .pieces import format_placement, parse_placement


def format_move(move: int) -> str:
    """Notation of a move code: ``pass`` or piece/orientation@top-left square, e.g. ``P5/3@h7``."""
    move = int(move)
    if move == PASS:
        return "pass"
    return format_placement(*decode_move(move))


def parse_move(text: str) -> int:
    """Move code for a notation string (legality is not checked here).

    Args:
        text: ``pass`` (any case, surrounding spaces allowed) or a placement like ``P5/3@h7``.

    Returns:
        The move code.

    Raises:
        IllegalMoveError: ``text`` is not a string or is malformed.
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move must be text, not {text!r}")
    if text.strip().lower() == "pass":
        return PASS
    try:
        piece, orientation, anchor = parse_placement(text)
    except ValueError as exc:
        raise IllegalMoveError(f"malformed move {text!r}: {exc}") from None
    return encode_move(piece, orientation, anchor)
