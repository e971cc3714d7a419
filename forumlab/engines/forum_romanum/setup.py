"""Forum Romanum's start position: an empty board, every piece in hand, seat 0 to move.

Nothing is random in this game; the seed is only kept in its slot (records, replays).
"""
import numpy as np
from numba import njit

from .layout import (
    FIRST_COLOUR,
    FULL,
    HAND,
    MAX_ROUNDS,
    N_COLOURS,
    N_PLAYERS,
    OPEN_CELLS,
    PIECES,
    PIECES_PER_COLOUR,
    SEED,
    STATE_SIZE,
)

# PIECES_PER_COLOUR as an array indexed by the number of players (numba reads no dicts).
_PIECES_BY_PLAYERS = np.array([PIECES_PER_COLOUR.get(p, 0) for p in range(7)], dtype=np.int64)


@njit(cache=True)
def new_state(players, max_rounds, seed):
    """Initial state for 2-6 players; max_rounds = 0 means no turn cap."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    n_colours = 4 if players == 2 else players
    pieces = _PIECES_BY_PLAYERS[players]
    s[N_PLAYERS] = players
    s[N_COLOURS] = n_colours
    s[PIECES] = pieces
    s[MAX_ROUNDS] = max_rounds
    s[FIRST_COLOUR] = -1
    s[OPEN_CELLS] = FULL
    s[SEED] = seed
    for c in range(n_colours):
        s[HAND + c] = pieces
    return s
