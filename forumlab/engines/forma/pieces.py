"""Forma's piece set, orientation numbering and board notation (shared conventions).

Both Forma engines (numba kernels and the plain-Python reference) use these
conventions, which are notation rather than rules: the rules are in
``shared/rules/forma.md``.

Board: 20x20, columns ``a``..``t`` left to right, rows ``1``..``20`` top to bottom;
square index = (row - 1) * 20 + column (a = 0), so ``a1`` = 0 and ``t20`` = 399.

Pieces: 21 distinct shapes; a set holds one of each and a second monomino (22
pieces, 90 squares). Names are a letter and the size: ``I1`` ``I2`` ``I3`` ``V3``
``I4`` ``O4`` ``T4`` ``L4`` ``S4`` ``F5`` ``I5`` ``L5`` ``N5`` ``P5`` ``T5`` ``U5``
``V5`` ``W5`` ``X5`` ``Y5`` ``Z5``.

Orientation numbering: take the base cells below as (row, col) pairs; apply the
eight transforms in this order — identity, rotate 90° clockwise, 180°, 270°, then
the mirror image (col -> -col) followed by the same four rotations; normalise each
result by shifting its minimum row and minimum column to 0 and sorting the cells;
keep the first occurrence of each distinct cell set. Orientation k of a piece is the
k-th kept shape (so every piece has orientation 0 = its base shape). X has 1
orientation, I5 2, F 8; 91 in all.

Move notation: ``P5/3@h7`` = piece P5 in orientation 3 with the top-left corner of
its bounding box on h7.
"""
from __future__ import annotations

SIZE = 20
SQUARES = SIZE * SIZE
COLUMNS = "abcdefghijklmnopqrst"

# name -> base cells (row, col)
BASE_SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "I1": ((0, 0),),
    "I2": ((0, 0), (0, 1)),
    "I3": ((0, 0), (0, 1), (0, 2)),
    "V3": ((0, 0), (1, 0), (1, 1)),
    "I4": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "O4": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "T4": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "L4": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "S4": ((0, 1), (0, 2), (1, 0), (1, 1)),
    "F5": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "I5": ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)),
    "L5": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "N5": ((0, 1), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P5": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "T5": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U5": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V5": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W5": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X5": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y5": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Z5": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}
PIECE_NAMES: tuple[str, ...] = tuple(BASE_SHAPES)
N_PIECES = len(PIECE_NAMES)  # 21 distinct shapes
# Copies of each shape in one set (the monomino twice): 22 pieces, 90 squares.
COPIES_PER_SET: tuple[int, ...] = tuple(2 if n == "I1" else 1 for n in PIECE_NAMES)


def _normalise(cells) -> tuple[tuple[int, int], ...]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def _rotate(cells):
    """90 degrees clockwise: (r, c) -> (c, -r)."""
    return [(c, -r) for r, c in cells]


def orientations(name: str) -> list[tuple[tuple[int, int], ...]]:
    """Distinct orientations of a piece, in the numbering documented above."""
    base = list(BASE_SHAPES[name])
    shapes = []
    for start in (base, [(r, -c) for r, c in base]):
        cells = start
        for _ in range(4):
            shapes.append(_normalise(cells))
            cells = _rotate(cells)
    kept = []
    for shape in shapes:
        if shape not in kept:
            kept.append(shape)
    return kept


ORIENTATIONS: dict[str, list[tuple[tuple[int, int], ...]]] = {n: orientations(n) for n in PIECE_NAMES}


def square_name(index: int) -> str:
    """Notation of a square index, e.g. 0 -> 'a1', 399 -> 't20'."""
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def parse_square(text: str) -> int:
    """Square index of notation like 'h7'; ValueError if malformed."""
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise ValueError(f"bad square {text!r}")
    row = int(text[1:])
    if not 1 <= row <= SIZE or text[1] == "0":
        raise ValueError(f"bad square {text!r}")
    return (row - 1) * SIZE + COLUMNS.index(text[0])


def format_placement(piece: int, orientation: int, anchor: int) -> str:
    """Notation of a placement, e.g. (P5, 3, h7) -> 'P5/3@h7'."""
    return f"{PIECE_NAMES[piece]}/{orientation}@{square_name(anchor)}"


def parse_placement(text: str) -> tuple[int, int, int]:
    """(piece, orientation, anchor) of notation like 'P5/3@h7'; ValueError if malformed."""
    try:
        name_orient, square = text.strip().split("@")
        name, orient = name_orient.split("/")
        piece = PIECE_NAMES.index(name)
        orientation = int(orient)
    except ValueError:
        raise ValueError(f"bad placement {text!r} (expected e.g. 'P5/3@h7')") from None
    if not 0 <= orientation < len(ORIENTATIONS[name]):
        raise ValueError(f"{name} has orientations 0-{len(ORIENTATIONS[name]) - 1}, not {orientation}")
    return piece, orientation, parse_square(square)


assert sum(len(v) for v in ORIENTATIONS.values()) == 91
assert sum(len(BASE_SHAPES[n]) * k for n, k in zip(PIECE_NAMES, COPIES_PER_SET)) == 90
