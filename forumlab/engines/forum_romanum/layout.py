"""Forum Romanum board geometry, regions and state-array slots.

Board: 7x7, cell index = (row-1)*7 + col with columns a..g = 0..6, so ``a1`` = 0
(top-left) and ``g7`` = 48. A bitboard is an int64 with bit i set for cell i.

Regions (ids fixed by the rules spec): 0-6 rows 1..7, 7-13 columns a..g,
14 diagonal a1..g7, 15 diagonal g1..a7, 16-22 sections I..VII.

Colours are global ids: player p owns colours 2p and 2p+1 in the 2-player game;
colour == player otherwise. Move codes: :mod:`.moves`; cell notation: :mod:`.notation`.
"""
import numpy as np

from ...core.layout import HEADER_SIZE, PLAYERS_SLOT

SIZE = 7
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
MAX_COLOURS = 6

COLUMNS = "abcdefg"

# Sections I..VII as (first column, first row, last column, last row), 0-based inclusive.
SECTIONS = (
    (0, 0, 2, 1),  # I   a1:c2
    (3, 0, 6, 1),  # II  d1:g2
    (0, 2, 1, 4),  # III a3:b5
    (2, 2, 4, 4),  # IV  c3:e5
    (5, 2, 6, 4),  # V   f3:g5
    (0, 5, 3, 6),  # VI  a6:d7
    (4, 5, 6, 6),  # VII e6:g7
)
REGION_NAMES = (
    [f"R{r + 1}" for r in range(SIZE)]
    + [f"C{COLUMNS[c]}" for c in range(SIZE)]
    + ["D1", "D2"]
    + [f"S{i + 1}" for i in range(len(SECTIONS))]
)
N_REGIONS = len(REGION_NAMES)  # 23

PIECES_PER_COLOUR = {2: 8, 3: 10, 4: 8, 5: 6, 6: 5}


def cell_index(col: int, row: int) -> int:
    """Index of the cell at 0-based (col, row)."""
    return row * SIZE + col


def _region_cells() -> list[list[int]]:
    regions = [[cell_index(c, r) for c in range(SIZE)] for r in range(SIZE)]
    regions += [[cell_index(c, r) for r in range(SIZE)] for c in range(SIZE)]
    regions.append([cell_index(i, i) for i in range(SIZE)])
    regions.append([cell_index(SIZE - 1 - i, i) for i in range(SIZE)])
    for c0, r0, c1, r1 in SECTIONS:
        regions.append(
            [cell_index(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
        )
    return regions


REGION_CELLS = _region_cells()
REGION_MASKS = np.array([sum(1 << i for i in cells) for cells in REGION_CELLS], dtype=np.int64)
REGION_VALUES = np.array([len(cells) for cells in REGION_CELLS], dtype=np.int64)

# Regions through each cell, padded with -1 (d4 lies in five: row, column, both
# diagonals, section IV).
MAX_REGIONS_PER_CELL = 5
CELL_REGIONS = np.full((CELLS, MAX_REGIONS_PER_CELL), -1, dtype=np.int64)
for _cell in range(CELLS):
    _ids = [r for r, cells in enumerate(REGION_CELLS) if _cell in cells]
    CELL_REGIONS[_cell, : len(_ids)] = _ids

# ---- state-array slots ------------------------------------------------------------
N_PLAYERS = PLAYERS_SLOT  # the core's header (forumlab.core.layout)
N_COLOURS = HEADER_SIZE
PIECES = N_COLOURS + 1  # pieces per colour at the start
MAX_ROUNDS = PIECES + 1  # 0 = no cap
PLY = MAX_ROUNDS + 1  # plies played
PLAYER = PLY + 1  # seat to move
SUBMOVE = PLAYER + 1  # 2 players: 0 before the first sub-move of a turn, 1 before the second
FIRST_COLOUR = SUBMOVE + 1  # 2 players: colour used by the turn's first sub-move (-1 if none)
TURNS = FIRST_COLOUR + 1  # completed turns
TERMINAL = TURNS + 1
TRUNCATED = TERMINAL + 1
SETTLED = TRUNCATED + 1  # bit r set when region r is settled
OCCUPIED = SETTLED + 1  # bitboard of all pieces
OPEN_CELLS = OCCUPIED + 1  # union of the cells of all unsettled regions (for the end test)
SEED = OPEN_CELLS + 1
HAND = SEED + 1  # MAX_COLOURS slots: pieces in hand per colour
BOARD = HAND + MAX_COLOURS  # MAX_COLOURS bitboards
SCORE = BOARD + MAX_COLOURS  # MAX_COLOURS colour scores
STATE_SIZE = SCORE + MAX_COLOURS

ALL_REGIONS = (1 << N_REGIONS) - 1


def colours_for(players: int) -> int:
    """Number of colours in a game with this many players."""
    return 4 if players == 2 else players

