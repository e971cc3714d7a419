"""Forma's bot view: the JSON a bot's seat is sent (forumlab-bot/1).

Everything in Forma is public, so the view is the whole position, with squares named as
in the move notation; its schema is documented in ``docs/games/forma.md`` ("Bot view").
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .layout import (
    ENCLOSED,
    MARKERS_USED,
    MARKS,
    N_PLAYERS,
    PASSES,
    PIECES,
    PLAYER,
    PLY,
    SCORE,
    SQUARES,
    SQUARES_PLACED,
    STONES,
    STONES_CLAIMED,
    TERMINAL,
    TOWER,
    TOWER_OWNER,
    WORDS,
    plane_bit,
)
from .pieces import square_name
from .render import pieces_left, supply_counts

# The view's keys in the order they are sent (the docs' schema table lists the same).
VIEW_KEYS = ("game", "seat", "to_move", "ply", "passes", "terminal", "stones", "tower", "tower_owner",
             "seats", "scores")
SEAT_KEYS = ("seat", "pieces", "markers", "supply", "pieces_left", "squares", "enclosures", "stones",
             "markers_used", "score")


def _squares(array: np.ndarray, base: int) -> list[str]:
    """Names of the squares set in the plane at ``base``, in square order (a1, b1, ...)."""
    return [square_name(i) for i in range(SQUARES) if plane_bit(array, base, i)]


def _seat(array: np.ndarray, p: int) -> dict[str, Any]:
    return {
        "seat": p,
        "pieces": _squares(array, PIECES + p * WORDS),
        "markers": _squares(array, MARKS + p * WORDS),
        "supply": {name: int(count) for name, count in supply_counts(array, p).items()},
        "pieces_left": int(pieces_left(array, p)),
        "squares": int(array[SQUARES_PLACED + p]),
        "enclosures": int(array[ENCLOSED + p]),
        "stones": int(array[STONES_CLAIMED + p]),
        "markers_used": int(array[MARKERS_USED + p]),
        "score": int(array[SCORE + p]),
    }


def bot_view(game: Any, array: np.ndarray, seat: int) -> dict[str, Any]:
    """The JSON view of a Forma position for ``seat``.

    Args:
        game: the :class:`~.game.Forma` facade.
        array: the position (all of it is public).
        seat: the seat the view is for.

    Returns:
        A dict with the keys of :data:`VIEW_KEYS`, in that order.
    """
    players = int(array[N_PLAYERS])
    tower = int(array[TOWER])
    return {
        "game": game.name,
        "seat": int(seat),
        "to_move": int(array[PLAYER]),
        "ply": int(array[PLY]),
        "passes": int(array[PASSES]),
        "terminal": bool(array[TERMINAL]),
        "stones": _squares(array, STONES),
        "tower": square_name(tower) if tower >= 0 else "",
        "tower_owner": int(array[TOWER_OWNER]),
        "seats": [_seat(array, p) for p in range(players)],
        "scores": [int(array[SCORE + p]) for p in range(players)],
    }
