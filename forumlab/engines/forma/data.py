"""Forma's piece catalogue as flat tables: shapes, orientations, placements, move codes.

Conventions (the 21 shapes, orientation numbering, notation) come from
:mod:`forumlab.engines.forma.pieces`; this module turns them into tables that numba
kernels read as compile-time constants. Planes and state slots: :mod:`.layout`.

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

Move codes
----------
A placement's code is ``((piece << ORIENT_BITS) + orientation) * 400 + anchor``, i.e.
``(piece * 8 + orientation) * 400 + anchor``: eight orientation slots per shape, the
most any shape has. ``PASS = 21 * 8 * 400`` = 67,200 follows the last placement code.
These definitions are the only place the encoding is written down.
"""
import numpy as np

from .layout import N_SHAPES, WORDS
from .pieces import BASE_SHAPES, COPIES_PER_SET, ORIENTATIONS, PIECE_NAMES, SIZE, SQUARES

MAX_CELLS = 5  # squares of the largest shape

# ---- move codes ---------------------------------------------------------------------
ORIENT_BITS = 3  # a code's orientation field: slots 0-7 (F5 uses all eight)
ORIENT_SLOT_MASK = (1 << ORIENT_BITS) - 1
PASS = (N_SHAPES << ORIENT_BITS) * SQUARES  # 67200


def encode_move(piece, orientation, anchor):
    """Move code of a placement (also applied to numpy arrays of anchors)."""
    return ((piece << ORIENT_BITS) + orientation) * SQUARES + anchor


def decode_move(move: int) -> tuple[int, int, int]:
    """(piece, orientation, anchor) of a placement's move code."""
    po, anchor = divmod(int(move), SQUARES)
    return po >> ORIENT_BITS, po & ORIENT_SLOT_MASK, anchor


def placement_squares(move: int) -> list[int]:
    """Squares covered by a placement."""
    piece, orientation, anchor = decode_move(move)
    return [anchor + r * SIZE + c for r, c in ORIENTATIONS[PIECE_NAMES[piece]][orientation]]

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
    """Per placement: its move code, the first of its three plane words, its mask there."""
    code = np.zeros(N_PLACEMENTS, dtype=np.int64)
    word = np.zeros(N_PLACEMENTS, dtype=np.int64)
    mask = np.zeros((N_PLACEMENTS, 3), dtype=np.uint64)
    for o in range(N_ORIENT):
        h, w = int(ORIENT_H[o]), int(ORIENT_W[o])
        rows, cols = np.meshgrid(np.arange(SIZE + 1 - h), np.arange(SIZE + 1 - w), indexing="ij")
        anchors = (rows * SIZE + cols).ravel()
        idx = ORIENT_PL_START[o] + np.arange(anchors.size)
        code[idx] = encode_move(ORIENT_SHAPE[o], ORIENT_LOCAL[o], anchors)
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
    moves at a chosen square (:mod:`.proposals`)."""
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
