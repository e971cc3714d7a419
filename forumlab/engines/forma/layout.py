"""Forma's precomputed geometry, state-array slots and move encoding (numba engine).

Conventions (board indexing, the 21 shapes, orientation numbering, notation) come from
:mod:`forumlab.engines.forma.pieces`; this module only turns them into flat tables that
numba kernels can read as compile-time constants.

Bitboards
---------
A *plane* is 400 bits in seven int64 words: square ``i`` (``a1`` = 0, ``t20`` = 399,
row-major) is bit ``i % 64`` of word ``i // 64``; bits 400-447 are always 0. Row ``r``
of a plane is the 20 bits starting at bit ``20 * r`` (``ROW_WORD`` / ``ROW_OFF``); the
move generator works on those 20 row words (bit c = column c), the rest of the engine
on the 7-word planes.

Orientations and placements
---------------------------
The 91 orientations are numbered globally in shape order (``SHAPE_ORIENT_START[s] + k``
is orientation k of shape s). For orientation ``o`` the tables give its height and
width, its cells as (row, col) offsets from the top-left of its bounding box, and
``ORIENT_VALID[o]`` = the 20-bit set of anchor columns where it fits inside the board.

Every (orientation, anchor) that fits inside the board is a *placement*: 30,433 in all
(``N_PLACEMENTS``). Placement ``ORIENT_PL_START[o] + row * (21 - w) + col`` has its
move code in ``PL_CODE`` and a three-word mask ``PL_MASK`` aligned at word ``PL_WORD``
(a piece spans at most 5 rows = 100 bits, so three consecutive words always hold it;
the window is clamped to words 4-6 at the bottom of the board). The placements of one
shape are contiguous: ``SHAPE_PL_START[s]`` .. ``+ SHAPE_PL_COUNT[s]``.

Move code: ``(piece * 8 + orientation) * 400 + anchor``; ``PASS = 21 * 8 * 400``.
"""
import numpy as np

# The notation helpers are re-exported: callers (the game facade, tests) import the
# board's layout and its notation from this one module.
from .pieces import (  # noqa: F401
    BASE_SHAPES,
    COLUMNS,
    COPIES_PER_SET,
    N_PIECES,
    ORIENTATIONS,
    PIECE_NAMES,
    SIZE,
    SQUARES,
    format_placement,
    parse_placement,
    parse_square,
    square_name,
)

FORMA_ID = 2  # slot 0 of every Forma state

WORDS = 7  # int64 words per 400-square plane
ROW_MASK = (1 << SIZE) - 1
N_SHAPES = N_PIECES  # 21
MAX_CELLS = 5
MAX_DIM = 5
PASS = N_SHAPES * 8 * SQUARES  # 67200
MAX_PLAYERS = 4
N_STONES_RANDOM = 25  # grey stones of a random setup (plus the tower)
MAX_STONES = 25
MARKERS_PER_SET = 35

SHAPE_SIZE = np.array([len(BASE_SHAPES[n]) for n in PIECE_NAMES], dtype=np.int64)
SHAPE_COPIES = np.array(COPIES_PER_SET, dtype=np.int64)  # per set (I1 twice)

# ---- orientations -------------------------------------------------------------------
SHAPE_N_ORIENT = np.array([len(ORIENTATIONS[n]) for n in PIECE_NAMES], dtype=np.int64)
SHAPE_ORIENT_START = np.concatenate(([0], np.cumsum(SHAPE_N_ORIENT)[:-1])).astype(np.int64)
N_ORIENT = int(SHAPE_N_ORIENT.sum())  # 91

ORIENT_SHAPE = np.zeros(N_ORIENT, dtype=np.int64)
ORIENT_LOCAL = np.zeros(N_ORIENT, dtype=np.int64)  # orientation number within the shape
ORIENT_H = np.zeros(N_ORIENT, dtype=np.int64)
ORIENT_W = np.zeros(N_ORIENT, dtype=np.int64)
ORIENT_NCELLS = np.zeros(N_ORIENT, dtype=np.int64)
ORIENT_DR = np.zeros((N_ORIENT, MAX_CELLS), dtype=np.int64)
ORIENT_DC = np.zeros((N_ORIENT, MAX_CELLS), dtype=np.int64)
ORIENT_VALID = np.zeros(N_ORIENT, dtype=np.int64)  # anchor columns inside the board
ORIENT_PL_START = np.zeros(N_ORIENT, dtype=np.int64)

_o = 0
for _s, _name in enumerate(PIECE_NAMES):
    for _k, _cells in enumerate(ORIENTATIONS[_name]):
        ORIENT_SHAPE[_o] = _s
        ORIENT_LOCAL[_o] = _k
        ORIENT_H[_o] = max(r for r, _ in _cells) + 1
        ORIENT_W[_o] = max(c for _, c in _cells) + 1
        ORIENT_NCELLS[_o] = len(_cells)
        for _j, (_r, _c) in enumerate(_cells):
            ORIENT_DR[_o, _j] = _r
            ORIENT_DC[_o, _j] = _c
        ORIENT_VALID[_o] = (1 << (SIZE + 1 - ORIENT_W[_o])) - 1
        _o += 1

# ---- placements ---------------------------------------------------------------------
_anchor_counts = (SIZE + 1 - ORIENT_H) * (SIZE + 1 - ORIENT_W)
ORIENT_PL_START[:] = np.concatenate(([0], np.cumsum(_anchor_counts)[:-1]))
N_PLACEMENTS = int(_anchor_counts.sum())  # 30,433
MAX_MOVES = N_PLACEMENTS  # a pass is only legal when no placement is

SHAPE_PL_START = ORIENT_PL_START[SHAPE_ORIENT_START].copy()
SHAPE_PL_COUNT = np.array(
    [_anchor_counts[ORIENT_SHAPE == s].sum() for s in range(N_SHAPES)], dtype=np.int64
)


def _placement_tables():
    code = np.zeros(N_PLACEMENTS, dtype=np.int64)
    word = np.zeros(N_PLACEMENTS, dtype=np.int64)
    mask = np.zeros((N_PLACEMENTS, 3), dtype=np.uint64)
    for o in range(N_ORIENT):
        h, w = int(ORIENT_H[o]), int(ORIENT_W[o])
        rows, cols = np.meshgrid(np.arange(SIZE + 1 - h), np.arange(SIZE + 1 - w), indexing="ij")
        anchors = (rows * SIZE + cols).ravel()
        idx = ORIENT_PL_START[o] + np.arange(anchors.size)
        code[idx] = (ORIENT_SHAPE[o] * 8 + ORIENT_LOCAL[o]) * SQUARES + anchors
        w0 = np.minimum(anchors >> 6, WORDS - 3)
        word[idx] = w0
        for j in range(ORIENT_NCELLS[o]):
            bits = anchors + ORIENT_DR[o, j] * SIZE + ORIENT_DC[o, j]
            mask[idx, (bits >> 6) - w0] |= np.uint64(1) << (bits & 63).astype(np.uint64)
    return code, word, mask.view(np.int64)


PL_CODE, PL_WORD, PL_MASK = _placement_tables()


def _cover_tables():
    """Per square, the placements covering it: ``COVER_IDX[COVER_START[sq]:COVER_START[sq + 1]]``
    (placement indices, as in ``PL_CODE``, ascending). 137,444 entries; used to propose
    moves at a chosen square (``proposal_move`` in the kernels)."""
    squares, placements = [], []
    for o in range(N_ORIENT):
        h, w = int(ORIENT_H[o]), int(ORIENT_W[o])
        rows, cols = np.meshgrid(np.arange(SIZE + 1 - h), np.arange(SIZE + 1 - w), indexing="ij")
        idx = ORIENT_PL_START[o] + np.arange(rows.size)
        for j in range(ORIENT_NCELLS[o]):
            squares.append(((rows + ORIENT_DR[o, j]) * SIZE + cols + ORIENT_DC[o, j]).ravel())
            placements.append(idx)
    squares, placements = np.concatenate(squares), np.concatenate(placements)
    order = np.lexsort((placements, squares))
    start = np.zeros(SQUARES + 1, dtype=np.int64)
    start[1:] = np.cumsum(np.bincount(squares, minlength=SQUARES))
    # int32: numba will not cache a kernel that freezes a global array of 1 MB or more.
    return start, placements[order].astype(np.int32)


COVER_START, COVER_IDX = _cover_tables()

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
GAME_ID = 0  # every game's slot 0: the game's id (generic code dispatches on a GameTag)
N_PLAYERS = 1  # every game's slot 1
PLAYER = 2  # seat to move
PLY = 3  # plies played (placements and passes)
TERMINAL = 4
MOVER_CAN_PLACE = 5  # 1 if the seat to move has a placement (else its only move is PASS)
FREE = 6  # free squares (no piece, obstacle or marker)
TOWER = 7  # tower square, -1 if none
TOWER_OWNER = 8  # player who closed the tower, -1 if nobody yet
STUCK = 9  # bit p: player p can never place again (cache; monotone)
PASSES = 10  # passes played
SEED = 11
OCC = 12  # plane: pieces, stones, tower, markers on free squares
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


def encode_move(piece: int, orientation: int, anchor: int) -> int:
    """Move code of a placement."""
    return (piece * 8 + orientation) * SQUARES + anchor


def decode_move(move: int) -> tuple[int, int, int]:
    """(piece, orientation, anchor) of a placement's move code."""
    po, anchor = divmod(int(move), SQUARES)
    return po >> 3, po & 7, anchor


def placement_squares(move: int) -> list[int]:
    """Squares covered by a placement."""
    piece, orientation, anchor = decode_move(move)
    return [anchor + r * SIZE + c for r, c in ORIENTATIONS[PIECE_NAMES[piece]][orientation]]

