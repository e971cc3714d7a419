"""Forum Romanum's bot view: the JSON a bot's seat is sent (forumlab-bot/1).

Everything in Forum Romanum is public, so the view is the whole position in the game's
notation; its schema is documented in ``docs/games/forum-romanum.md`` ("Bot view").
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .layout import (
    BOARD,
    CELLS,
    FIRST_COLOUR,
    HAND,
    N_COLOURS,
    N_PLAYERS,
    PLAYER,
    PLY,
    REGION_NAMES,
    SCORE,
    SUBMOVE,
    TERMINAL,
    TRUNCATED,
    TURNS,
)
from .notation import cell_name
from .scoring import deadlocked_regions, settled_regions

# The view's keys in the order they are sent (the docs' schema table lists the same).
VIEW_KEYS = ("game", "seat", "to_move", "ply", "turns", "submove", "first_colour", "terminal",
             "truncated", "your_colours", "board", "colours", "scores", "settled", "deadlocked")
COLOUR_KEYS = ("colour", "owner", "in_hand", "score")


def colour_owner(colour: int, players: int) -> int:
    """The seat owning a global colour id (two colours a seat in the 2-player game)."""
    return colour // 2 if players == 2 else colour


def bot_view(game: Any, array: np.ndarray, seat: int) -> dict[str, Any]:
    """The JSON view of a Forum Romanum position for ``seat``.

    Args:
        game: the :class:`~.game.ForumRomanum` facade.
        array: the position (all of it is public).
        seat: the seat the view is for.

    Returns:
        A dict with the keys of :data:`VIEW_KEYS`, in that order.
    """
    players, n_colours = int(array[N_PLAYERS]), int(array[N_COLOURS])
    board = {}
    for cell in range(CELLS):
        for colour in range(n_colours):
            if (int(array[BOARD + colour]) >> cell) & 1:
                board[cell_name(cell)] = colour
    colours = [{"colour": c, "owner": colour_owner(c, players), "in_hand": int(array[HAND + c]),
                "score": int(array[SCORE + c])} for c in range(n_colours)]
    scores = [0] * players
    for c in range(n_colours):
        scores[colour_owner(c, players)] += int(array[SCORE + c])
    return {
        "game": game.name,
        "seat": int(seat),
        "to_move": int(array[PLAYER]),
        "ply": int(array[PLY]),
        "turns": int(array[TURNS]),
        "submove": int(array[SUBMOVE]),
        "first_colour": int(array[FIRST_COLOUR]),
        "terminal": bool(array[TERMINAL]),
        "truncated": bool(array[TRUNCATED]),
        "your_colours": [c for c in range(n_colours) if colour_owner(c, players) == seat],
        "board": board,
        "colours": colours,
        "scores": scores,
        "settled": [REGION_NAMES[r] for r in settled_regions(array)],
        "deadlocked": [REGION_NAMES[r] for r in deadlocked_regions(array)],
    }
