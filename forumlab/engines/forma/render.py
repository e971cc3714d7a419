"""Forma's board read from a state: the text display and per-square lists.

``render_board`` draws the board (players A-D, lowercase markers, ``#`` stones, ``T`` tower)
with scores, pieces left, markers used and the seat to move; ``board_contents`` and
``marker_owners`` give the squares in the reference engine's terms, for comparisons.
"""
from __future__ import annotations

import numpy as np

from .layout import (
    MARKERS_PER_SET,
    MARKERS_USED,
    MARKS,
    N_PLAYERS,
    N_SHAPES,
    OCC,
    PIECES,
    PLAYER,
    SCORE,
    SIZE,
    SQUARES,
    STONES,
    SUPPLY,
    SUPPLY_BITS,
    SUPPLY_COUNT,
    TERMINAL,
    TOWER,
    TOWER_OWNER,
    WORDS,
    plane_bit,
)
from .pieces import COLUMNS, PIECE_NAMES, square_name

PLAYER_SYMBOLS = "ABCD"


def render_board(array: np.ndarray) -> str:
    """The board (players A-D, lowercase markers, ``#`` stones, ``T`` tower) with scores,
    pieces left, markers used and the seat to move.

    Args:
        array: the position.

    Returns:
        Multi-line text.
    """
    n = int(array[N_PLAYERS])
    board = board_symbols(array)
    lines = ["    " + " ".join(COLUMNS)]
    for row in range(SIZE):
        lines.append(f"{row + 1:>2}  " + " ".join(board[row * SIZE:(row + 1) * SIZE]))
    owner = int(array[TOWER_OWNER])
    lines.append(
        "    " + ", ".join(f"{PLAYER_SYMBOLS[p]}=player {p}" for p in range(n))
        + "; lowercase = marker, # = stone, T = tower, . = free"
    )
    markers_per_player = MARKERS_PER_SET * (2 if n == 2 else 1)
    scores = " ".join(f"{PLAYER_SYMBOLS[p]}{int(array[SCORE + p])}" for p in range(n))
    pieces = " ".join(f"{PLAYER_SYMBOLS[p]}{pieces_left(array, p)}" for p in range(n))
    markers = " ".join(f"{PLAYER_SYMBOLS[p]}{int(array[MARKERS_USED + p])}/{markers_per_player}"
                       for p in range(n))
    lines.append(f"    scores: {scores}   pieces left: {pieces}   markers: {markers}")
    tower = int(array[TOWER])
    status = "game over" if array[TERMINAL] else f"to move: {PLAYER_SYMBOLS[int(array[PLAYER])]}"
    tower_text = "" if tower < 0 else (
        f"   tower {square_name(tower)}: " + (PLAYER_SYMBOLS[owner] if owner >= 0 else "open"))
    lines.append(f"    {status}{tower_text}")
    return "\n".join(lines)


def pieces_left(array: np.ndarray, player: int) -> int:
    """Pieces still in a player's supply."""
    supply = int(array[SUPPLY + player])
    return sum((supply >> (SUPPLY_BITS * s)) & SUPPLY_COUNT for s in range(N_SHAPES))


def supply_counts(array: np.ndarray, player: int) -> dict[str, int]:
    """Pieces of each shape still in a player's supply, by name."""
    supply = int(array[SUPPLY + player])
    return {PIECE_NAMES[s]: (supply >> (SUPPLY_BITS * s)) & SUPPLY_COUNT for s in range(N_SHAPES)}


def board_symbols(array: np.ndarray) -> list[str]:
    """One character per square: player letter, lowercase marker, '#', 'T' or '.'."""
    n = int(array[N_PLAYERS])
    tower = int(array[TOWER])
    out = []
    for i in range(SQUARES):
        ch = "."
        if i == tower:
            ch = "T"
        elif plane_bit(array, STONES, i):
            ch = "#"
        for p in range(n):
            if plane_bit(array, PIECES + p * WORDS, i):
                ch = PLAYER_SYMBOLS[p]
            elif plane_bit(array, MARKS + p * WORDS, i):
                ch = PLAYER_SYMBOLS[p].lower()
        out.append(ch)
    return out


def board_contents(array: np.ndarray) -> list[int]:
    """400 entries like the reference engine's board(): -1 free, -2 stone, -3 tower,
    p for a piece of player p (markers are not shown here; see marker_owners)."""
    n = int(array[N_PLAYERS])
    tower = int(array[TOWER])
    out = []
    for i in range(SQUARES):
        v = -1
        if i == tower:
            v = -3
        elif plane_bit(array, STONES, i):
            v = -2
        for p in range(n):
            if plane_bit(array, PIECES + p * WORDS, i):
                v = p
        out.append(v)
    return out


def marker_owners(array: np.ndarray) -> list[int]:
    """400 entries: the player whose marker lies on the square, else -1."""
    n = int(array[N_PLAYERS])
    out = [-1] * SQUARES
    for p in range(n):
        for i in range(SQUARES):
            if plane_bit(array, MARKS + p * WORDS, i):
                out[i] = p
    return out


def is_free(array: np.ndarray, square: int) -> bool:
    """Whether a square is free (no piece, obstacle or marker)."""
    return not plane_bit(array, OCC, square)
