"""State-array slots, codes and board geometry of the Forum Trajanum engine.

Colonia spaces: ``cell = row * 6 + col`` (``a1`` = 0, reading order), the river
``rv`` = 36. Forum cells: ``f = row * 20 + col`` over the five mosaic boards side by
side (columns ``a``..``t``); the boards in use are the first ``4 * (players + 1)``
columns. A *bitboard* is an int64 word (Colonia: bit = cell, rv = bit 36) or, for the
Forum, two words (bit f of word f // 64).

A *tile word* packs one Colonia tile: ``type`` (bits 0-3, T_* below, 0 = none), owner
(bits 4-5), face up (bit 6), the seats that have seen it (bits 8-11) and "placed in a
citizen row" (bit 12, a held citizen waiting for its bonus plies).

State slots (one flat int64 array; per-seat blocks have MAXP = 4 entries):

================  =========  ===================================================
slot               size       holds
================  =========  ===================================================
N_PLAYERS          1          players (the core's ``PLAYERS_SLOT``, slot 0 of every game)
INTRO, FIXED       1 each     options
PLY                1          plies played
ROUND, CYCLE       1 each     rounds begun (0-12), cycle 1-3
START              1          start player of the current round
TO_MOVE            1          seat to act (-1 once over)
OVER               1          1 once the game is over
NCOLS              1          Forum columns in use (12, 16, 20)
PILES              24         the three street-card piles (cards 0-11: R1-R6, Ca-Cf)
DRAWN              3          cards drawn from each pile
CARDS              2          this round's cards (-1 = none)
TRAJAN             3          the card drawn from each pile (1-4)
QUEUE, QLEN        4+1        the draft queue (seats; head first)
DONE, DLEN         4+1        seats that finished drafting, in order
D_TAKE             4*2        per seat: the two spaces taken this round (-1 = none)
D_PAID, D_KEPT     4 each     tribunes paid; index of the kept space (0/1, -1 = not yet)
D_TILES            4*2        the two taken tiles (tile words)
PASSING            4          per receiving seat: the passed tile (0 = none)
CONV_USED          3          conversions of this turn: MII, CI, CII
STACK, SP          64+1       pending work (depth first, see moves.py)
FOCC               80         Forum cell: 1 + seat of the envoy on it, 0 = empty
AREA_FILL          32         envoys in each colour area (data.AREA_ID)
per seat p (``base = SEAT + p * SEAT_SIZE``), offsets:
  RES              8          B r b g y A C T
  VPS              8          VP by source (SOURCE_NAMES)
  PRES, MERCH      1 each     slide bar position, Merchant side
  CIT              12         row r's left/right space: 0 empty, 1 active, 2 inactive
  TILE             37         tile word on each Colonia space and rv
  BLD              36         building part on a cell (B_* codes, 0 = none)
  COLS, SHIP       1 each     triumphal columns built; envoys in the ship
  TRACK            3          buildings of each track type (bas, mkt, lib)
  CRANE            4          crane colour at a1, f1, a6, f6 (0-3; -1 colourless)
  HELD             2          held tiles k and r (tile words)
  FEMALE           1          the drawn female citizen's class (0 P, 1 M, 2 C)
  SET              1          1 once the seat's setup is done
  POOL             31         the shuffled tile pool (until setup)
  ENVBB            2          bitboard of own envoys on the Forum
  TILEBB, BLTBB    1 each     Colonia bitboards: spaces holding a tile / built on
================  =========  ===================================================

Move codes and their payloads: ``moves.py``.
"""
from ...core.layout import HEADER_SIZE, PLAYERS_SLOT

MAXP = 4
RV = 36
FCOLS = 20
FCELLS = 80

# tile types
T_NONE, T_CITP, T_CITM, T_CITC, T_B, T_R, T_BL, T_G, T_Y, T_A, T_C, T_T, T_U = range(13)
TYPE_NAMES = ("", "citP", "citM", "citC", "B", "r", "b", "g", "y", "A", "C", "T", "U")
# resources (RES offsets, the summary's order)
R_B, R_R, R_BL, R_G, R_Y, R_A, R_C, R_T = range(8)
RES_NAMES = ("B", "r", "b", "g", "y", "A", "C", "T")
COLOURS = "rbgy"
# building parts on a cell
B_NONE, B_COL, B_LIB, B_BAS, B_MKT, B_R, B_BL, B_G, B_Y = range(9)
BLD_NAMES = ("", "col", "lib", "bas", "mkt", "r", "b", "g", "y")
TRACK_NAMES = ("bas", "mkt", "lib")
# VP sources
SRC_COLUMN, SRC_TRACK_END, SRC_BONUS, SRC_CRANE, SRC_COLONIA, SRC_EAGLES, SRC_AREA, SRC_TRAJAN = range(8)
SOURCE_NAMES = ("column", "track_end", "bonus", "crane", "colonia", "eagles", "area", "trajan")
CARD_NAMES = ("R1", "R2", "R3", "R4", "R5", "R6", "Ca", "Cb", "Cc", "Cd", "Ce", "Cf")
CORNERS = (0, 5, 30, 35)
CORNER_NAMES = ("a1", "f1", "a6", "f6")

# tile word fields
TW_TYPE = 15
TW_OWNER_SHIFT = 4
TW_UP = 1 << 6
TW_SEEN_SHIFT = 8
TW_PLACED = 1 << 12

# global slots
N_PLAYERS = PLAYERS_SLOT
INTRO, FIXED, PLY, ROUND, CYCLE, START, TO_MOVE, OVER, NCOLS = range(HEADER_SIZE, HEADER_SIZE + 9)
PILES = NCOLS + 1
DRAWN = PILES + 24
CARDS = DRAWN + 3
TRAJAN = CARDS + 2
QUEUE = TRAJAN + 3
QLEN = QUEUE + MAXP
DONE = QLEN + 1
DLEN = DONE + MAXP
D_TAKE = DLEN + 1
D_PAID = D_TAKE + 2 * MAXP
D_KEPT = D_PAID + MAXP
D_TILES = D_KEPT + MAXP
PASSING = D_TILES + 2 * MAXP
CONV_USED = PASSING + MAXP
STACK_ROOM = 64
STACK = CONV_USED + 3
SP = STACK + STACK_ROOM
FOCC = SP + 1
AREA_FILL = FOCC + FCELLS
SEAT = AREA_FILL + 32

# per-seat offsets
RES = 0
VPS = RES + 8
PRES = VPS + 8
MERCH = PRES + 1
CIT = MERCH + 1
TILE = CIT + 12
BLD = TILE + 37
COLS = BLD + 36
SHIP = COLS + 1
TRACK = SHIP + 1
CRANE = TRACK + 3
HELD = CRANE + 4
FEMALE = HELD + 2
SET = FEMALE + 1
POOL = SET + 1
ENVBB = POOL + 31
TILEBB = ENVBB + 2
BLTBB = TILEBB + 1
SEAT_SIZE = BLTBB + 1

STATE_SIZE = SEAT + MAXP * SEAT_SIZE



def cell_name(cell: int) -> str:
    """Notation of a Colonia space (``a1``..``f6``, ``rv``)."""
    return "rv" if cell == RV else "abcdef"[cell % 6] + str(cell // 6 + 1)


def forum_name(f: int) -> str:
    """Notation of a Forum cell (``a1``..``t4``)."""
    return "abcdefghijklmnopqrst"[f % FCOLS] + str(f // FCOLS + 1)
