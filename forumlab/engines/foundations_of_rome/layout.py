"""State-array slots and move codes of the Foundations of Rome engine.

Lots: cell ``i = row * N + col`` of the N x N city (``a1`` = 0, row 1 on top). A
*bitboard* is two int64 words: cell i is bit ``i % 64`` of word ``i // 64``.

State slots (one flat int64 array; ``MAXP`` = 5 seats, ``CELLS`` = 100):

==================  ======  ==========================================================
slot                 size    holds
==================  ======  ==========================================================
GAME_ID              1       ``FOR_ID`` (every game's slot 0)
N_PLAYERS            1       players (every game's slot 1)
SIZE                 1       N, the city's side (7-10)
PHASE                1       PH_DRAFT, PH_PLAY, PH_FINAL (final turns) or PH_OVER
PLAYER               1       seat to act
PLY                  1       plies played (draft picks and main actions)
TURNS                1       main actions played (the ``max_turns`` cap counts these)
MAX_TURNS            1       the cap
ERA                  1       1-3
START_PLAYER         1       start player of the current era
FINAL_LEFT           1       final turns still to play after the current one's end
BUYER                1       seat that took the last card of the era (-1 before)
TRUNCATED            1       1 when the cap ended the game
RNG                  1       the engine's SplitMix64 word (no chance after setup in
                             the base game; determinize replaces it)
MODULES              1       bit set of MOD_* (only MOD_MONUMENTS exists yet)
DRAFT                1       1 with the draft variant
DRAFT_ROUND          1       draft round 0-5
SEED                 1       the game's seed
PRICES               6       deed-board slot prices
SLOTS                6       lot on deed-board slot 1-6, -1 = empty
PILE_POS             3       per era pile: index of its top card in PILES
PILE_LEN             3       per era pile: cards it was dealt (size = LEN - POS)
PILES                3*100   era piles, top first (future modules: card ids >= 100)
OWN                  5*2     per seat: bitboard of owned lots (built or not)
BUILT                5*2     per seat: bitboard of lots under its buildings
CELL_BLD             100     building instance on a cell (0 = none): 1 + seat * 64 +
                             slot, slot = 2 * bcode + copy (bcode < 20) or 40 + m
                             (monument M<m+1>)
SILVER, VP, POP      5 each  per seat
MON_LEFT             5       monument markers in supply
SUPPLY               5*20    buildings of each player code in supply
VP_SRC               5*8     VP by source (SRC_*), per seat
DISPLAY              8       displayed monument ids 1-19 in display order, 0 = none
MON_BUILT            1       bit m-1 set once monument M<m> is built
HANDS                5*6     draft hands (lot ids, -1 = empty; held by the seat)
HAND_N               5       cards in each hand
PICK                 5       pending (unrevealed) draft pick, -1 = none
SEEN                 100     per lot: bit set of the seats that have seen it in a hand
==================  ======  ==========================================================

Lot markers are not stored: a seat's markers on the board are its owned unbuilt lots
(``OWN & ~BUILT``) and its supply is 8 minus those.

Move codes (int64):

- ``INCOME`` = 0; ``BUY + k`` = Buy from slot k (1-6);
- ``PICK_BASE + lot`` = draft pick ``K:<lot>``;
- ``BUILD_BASE + bcode * MAX_PL_PER_SHAPE + p``: build ``bcode`` on placement p of its
  shape on the N-grid (:mod:`.data`).
- Reserved for the later modules: ``STEAL_BASE + lot``, ``USE_BASE + card``,
  ``KEEP_BASE + card`` (objectives, roles), ``TRADE_BASE + ...`` and answers.
"""
from .data import MAX_MOVES, MAX_PL_PER_SHAPE, N_CODES, N_PLAYER_CODES  # noqa: F401

FOR_ID = 3
MAXP = 5
CELLS = 100
PILE_ROOM = 100
N_SRC = 8
# VP sources (the result's vp_by_source keys, in this order)
SRC_POPULATION, SRC_CIVIC, SRC_COMMERCIAL, SRC_TRAY, SRC_MONUMENTS, SRC_LOT_MARKERS = range(6)
SOURCE_NAMES = ("population", "civic", "commercial", "tray", "monuments", "lot_markers")
MOD_MONUMENTS = 1

PH_DRAFT, PH_PLAY, PH_FINAL, PH_OVER = 0, 1, 2, 3

GAME_ID = 0
N_PLAYERS = 1
SIZE = 2
PHASE = 3
PLAYER = 4
PLY = 5
TURNS = 6
MAX_TURNS = 7
ERA = 8
START_PLAYER = 9
FINAL_LEFT = 10
BUYER = 11
TRUNCATED = 12
RNG = 13
MODULES = 14
DRAFT = 15
DRAFT_ROUND = 16
SEED = 17
PRICES = 18
SLOTS = PRICES + 6
PILE_POS = SLOTS + 6
PILE_LEN = PILE_POS + 3
PILES = PILE_LEN + 3
OWN = PILES + 3 * PILE_ROOM
BUILT = OWN + 2 * MAXP
CELL_BLD = BUILT + 2 * MAXP
SILVER = CELL_BLD + CELLS
VP = SILVER + MAXP
POP = VP + MAXP
MON_LEFT = POP + MAXP
SUPPLY = MON_LEFT + MAXP
VP_SRC = SUPPLY + MAXP * N_PLAYER_CODES
DISPLAY = VP_SRC + MAXP * N_SRC
MON_BUILT = DISPLAY + 8
HANDS = MON_BUILT + 1
HAND_N = HANDS + 6 * MAXP
PICK = HAND_N + MAXP
SEEN = PICK + MAXP
STATE_SIZE = SEEN + CELLS

INCOME = 0
BUY = 0  # BUY + k, k = 1..6
PICK_BASE = 10
STEAL_BASE = 200  # reserved (stealing)
USE_BASE = 400  # reserved (invocations)
KEEP_BASE = 500  # reserved (objectives, roles)
TRADE_BASE = 600  # reserved (trading), up to BUILD_BASE
BUILD_BASE = 100_000
INSTANCE_STRIDE = 64
MONUMENT_SLOT = 40

COLUMNS = "abcdefghij"


def cell_name(cell: int, n: int) -> str:
    """``c5`` for a cell index on the n x n city."""
    r, c = divmod(int(cell), n)
    return f"{COLUMNS[c]}{r + 1}"


def parse_cell(text: str, n: int) -> int:
    """Cell index of a lot name on the n x n city; ValueError if it is not one."""
    if len(text) < 2 or text[0] not in COLUMNS[:n] or not text[1:].isdigit() or not text[1:].isascii():
        raise ValueError(f"{text!r} is not a lot")
    if text[1] == "0":
        raise ValueError(f"{text!r} is not a lot")
    row = int(text[1:])
    if not 1 <= row <= n:
        raise ValueError(f"{text!r} is not a lot of the {n}x{n} city")
    return (row - 1) * n + COLUMNS.index(text[0])


def encode_build(bcode: int, placement: int) -> int:
    """Move code of building ``bcode`` on its shape's local placement index."""
    return BUILD_BASE + bcode * MAX_PL_PER_SHAPE + placement


def decode_build(move: int) -> tuple[int, int]:
    """(bcode, local placement index) of a build's move code."""
    return divmod(int(move) - BUILD_BASE, MAX_PL_PER_SHAPE)
