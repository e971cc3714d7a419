"""Forma's state-array slots, bitboard planes and board geometry (numba engine).

Conventions (board indexing, the 21 shapes, orientation numbering, notation) come from
:mod:`forumlab.engines.forma.pieces`; the piece catalogue as tables and the move codes
are in :mod:`.data`. This module holds the state's slots and the board's tables, as
compile-time constants for the numba kernels.

Bitboards
---------
A *plane* is 400 bits in seven int64 words: square ``i`` (``a1`` = 0, ``t20`` = 399,
row-major) is bit ``i % 64`` of word ``i // 64``; bits 400-447 are always 0. Row ``r``
of a plane is the 20 bits starting at bit ``20 * r`` (``ROW_WORD`` / ``ROW_OFF``); the
move generator works on those 20 row words (bit c = column c), the rest of the engine
on the 7-word planes (:mod:`.planes` reads and writes them in kernels).
"""
import numpy as np

from ...core.layout import HEADER_SIZE, PLAYERS_SLOT
from .pieces import N_PIECES, SIZE, SQUARES

WORDS = 7  # int64 words per 400-square plane
ROW_MASK = (1 << SIZE) - 1
N_SHAPES = N_PIECES  # 21
MAX_PLAYERS = 4
N_STONES_RANDOM = 25  # grey stones of a random setup (plus the tower)
MAX_STONES = 25
MARKERS_PER_SET = 35
SUPPLY_BITS = 3  # bits per shape in a SUPPLY word: the count of that shape left (at most 4)
SUPPLY_COUNT = (1 << SUPPLY_BITS) - 1

# ---- rows of a plane ----------------------------------------------------------------
ROW_WORD = np.array([(20 * r) >> 6 for r in range(SIZE)], dtype=np.int64)
ROW_OFF = np.array([(20 * r) & 63 for r in range(SIZE)], dtype=np.int64)


def _plane(squares) -> np.ndarray:
    words = [0] * WORDS
    for i in squares:
        words[i >> 6] |= 1 << (i & 63)
    return np.array(words, dtype=np.uint64).view(np.int64)


# Neighbour offsets of every square (-1 = off the board), N, S, W, E.
NEIGHBOURS = np.full((SQUARES, 4), -1, dtype=np.int64)
for _i in range(SQUARES):
    _r, _c = divmod(_i, SIZE)
    if _r > 0:
        NEIGHBOURS[_i, 0] = _i - SIZE
    if _r < SIZE - 1:
        NEIGHBOURS[_i, 1] = _i + SIZE
    if _c > 0:
        NEIGHBOURS[_i, 2] = _i - 1
    if _c < SIZE - 1:
        NEIGHBOURS[_i, 3] = _i + 1

BOARD_PLANE = _plane(range(SQUARES))
NOT_COL_A = _plane(i for i in range(SQUARES) if i % SIZE != 0)
NOT_COL_T = _plane(i for i in range(SQUARES) if i % SIZE != SIZE - 1)

# ---- state-array slots --------------------------------------------------------------
N_PLAYERS = PLAYERS_SLOT  # the core's header (forumlab.core.layout)
PLAYER = HEADER_SIZE  # seat to move
PLY = PLAYER + 1  # plies played (placements and passes)
TERMINAL = PLY + 1
MOVER_CAN_PLACE = TERMINAL + 1  # 1 if the seat to move has a placement (else its only move is PASS)
FREE = MOVER_CAN_PLACE + 1  # free squares (no piece, obstacle or marker)
TOWER = FREE + 1  # tower square, -1 if none
TOWER_OWNER = TOWER + 1  # player who closed the tower, -1 if nobody yet
STUCK = TOWER_OWNER + 1  # bit p: player p can never place again (cache; monotone)
PASSES = STUCK + 1  # passes played
SEED = PASSES + 1
OCC = SEED + 1  # plane: pieces, stones, tower, markers on free squares
STONES = OCC + WORDS  # plane: grey stones
PIECES = STONES + WORDS  # MAX_PLAYERS planes: piece squares per player
MARKS = PIECES + MAX_PLAYERS * WORDS  # MAX_PLAYERS planes: markers (free squares and stones)
SUPPLY = MARKS + MAX_PLAYERS * WORDS  # per player: 3 bits per shape, count of that shape left
AVAIL = SUPPLY + MAX_PLAYERS  # per player: bit s set while shape s is in supply
SUPPLY_SQUARES = AVAIL + MAX_PLAYERS  # per player: squares left in supply
SQUARES_PLACED = SUPPLY_SQUARES + MAX_PLAYERS
ENCLOSED = SQUARES_PLACED + MAX_PLAYERS  # free squares enclosed
STONES_CLAIMED = ENCLOSED + MAX_PLAYERS
MARKERS_USED = STONES_CLAIMED + MAX_PLAYERS
BRIDGES_NS = MARKERS_USED + MAX_PLAYERS  # set when the game ends
BRIDGES_EW = BRIDGES_NS + MAX_PLAYERS
SCORE = BRIDGES_EW + MAX_PLAYERS  # points so far (bridges added at the end)
WITNESS = SCORE + MAX_PLAYERS  # per shape: a placement that fitted when last checked, -1 = shape fits nowhere
STATE_SIZE = WITNESS + N_SHAPES


def plane_bit(array: np.ndarray, base: int, i: int) -> bool:
    """Whether square ``i`` is set in the plane at ``array[base:base + WORDS]`` (Python side)."""
    return bool((int(array[base + (i >> 6)]) >> (i & 63)) & 1)
