"""State-array slots, board geometry and constants of the Foundations of Rome engine (the
move codes: :mod:`.data`).

Lots: cell ``i = row * N + col`` of the N x N city (``a1`` = 0, row 1 on top). A
*bitboard* is two int64 words: cell i is bit ``i % 64`` of word ``i // 64``.

State slots (one flat int64 array; ``MAXP`` = 5 seats, ``CELLS`` = 100):

==================  ======  ==========================================================
slot                 size    holds
==================  ======  ==========================================================
N_PLAYERS            1       players (the core's ``PLAYERS_SLOT``, slot 0 of every game)
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
RNG                  1       the engine's SplitMix64 word (later chance: the Consul's
                             discard reshuffles; determinize replaces it)
MODULES              1       bit set of MOD_*
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
SEEN                 128     per card (lot, or 100 + g for invocation G<g>): bit set of
                             the seats that have seen it in a hand
MAX_TRADES_OPT       1       the ``max_trades`` option
OBJ_PUBLIC           1       1 with ``objectives="public"``
CONSUL               1       0 (off), CONSUL_STANDARD, CONSUL_HARD, CONSUL_CHALLENGE
RESUME               1       phase to return to after a trade answer
TOKENS2, TOKENS4     5 each  favor tokens per seat, 2-VP and 4-VP side up
TOKEN_POOL           1       favor tokens left in the general supply (2-VP side)
OFFER                4       pending offer: proposer (-1 = none), partner, item given,
                             item asked (item codes: ITEM_*)
OFFERS               1       offers made this turn
EFFECTS              1       "this turn" effects (EF_*)
INV_HOLDER           21      per invocation G<g> (index g): holding seat, -1 = none
INV_STATUS           21      per invocation: INV_UNUSED, INV_ONGOING or INV_SPENT
SPARE                20      eligible invocations dealt into no pile (ids ascending)
SPARE_N              1       their number
OBJ_DEALT            5*2     dealt objective pair per seat (ids 1-18, 0 = none)
OBJ_KEPT             5       kept objective per seat (0 = not yet)
OBJ_FACE_UP          5       public objectives (0 = none)
ROLE_DEALT           5*2     dealt role pair per seat (ids 1-15)
ROLE_PICK            5       chosen role per seat (0 = not yet)
ROLE                 5       role card held since the reveal (0 = before)
EXTRA_MARKERS        5       lot markers beyond 8 (ongoing Mars 1, Dominus 2)
MOD_POP              5       population modifiers (Vesta 2, Patronus 2)
CONSUL_VP            1       the Consul's VP
CONSUL_HOLDER        1       seat holding the Consul card
CONSUL_OWN           2       bitboard of the Consul's lots
CPILE                4*12    Consul token piles by size 1-4, top first
CPILE_N              4       their sizes
CDISC                4*12    Consul discards by size, in discard order
CDISC_N              4       their sizes
==================  ======  ==========================================================

Lot markers are not stored: a seat's markers on the board are its owned unbuilt lots
(``OWN & ~BUILT``) and its supply is 8 (+ EXTRA_MARKERS) minus those. Consul tokens are
building instances of the pseudo-seat ``MAXP`` (``1 + MAXP * 64 + token id``).
"""
from ...core.layout import HEADER_SIZE, PLAYERS_SLOT
from .data import MAX_SEATS, N_PLAYER_CODES

MAXP = MAX_SEATS  # per-seat room in the state
CELLS = 100
PILE_ROOM = 100
N_SRC = 12
# VP sources (the result's vp_by_source keys, in this order; the last five only with
# their module: favor tokens with trading or stealing, start with the Consul)
(SRC_POPULATION, SRC_CIVIC, SRC_COMMERCIAL, SRC_TRAY, SRC_MONUMENTS, SRC_LOT_MARKERS, SRC_FAVOR,
 SRC_INVOCATIONS, SRC_ROLES, SRC_OBJECTIVES, SRC_START) = range(11)
SOURCE_NAMES = ("population", "civic", "commercial", "tray", "monuments", "lot_markers", "favor_tokens",
                "invocations", "roles", "objectives", "start")
MOD_MONUMENTS = 1
MOD_TRADING = 2
MOD_STEALING = 4
MOD_OBJECTIVES = 8
MOD_INVOCATIONS = 16
MOD_ROLES = 32
MODULE_BITS = {"monuments": MOD_MONUMENTS, "trading": MOD_TRADING, "stealing": MOD_STEALING,
               "objectives": MOD_OBJECTIVES, "invocations": MOD_INVOCATIONS, "roles": MOD_ROLES}
FREE_ACTION_MODULES = MOD_TRADING | MOD_STEALING | MOD_INVOCATIONS | MOD_ROLES
CONSUL_STANDARD, CONSUL_HARD, CONSUL_CHALLENGE = 1, 2, 3
CONSUL_SEAT = 5  # the pseudo-seat of the Consul's building instances (= MAXP)

# PH_OBJ / PH_ROLE: the setup keeps; PH_ANSWER: a trade partner answers
PH_DRAFT, PH_PLAY, PH_FINAL, PH_OVER, PH_OBJ, PH_ROLE, PH_ANSWER = 0, 1, 2, 3, 4, 5, 6

# "this turn" effects
EF_IANUS, EF_VULCANUS, EF_DISCORDIA, EF_FLAMEN = 1, 2, 4, 8
EFFECT_NAMES = ((EF_IANUS, "ianus"), (EF_VULCANUS, "vulcanus"), (EF_DISCORDIA, "discordia"),
                (EF_FLAMEN, "flamen"))
INV_UNUSED, INV_ONGOING, INV_SPENT = 0, 1, 2
INVOCATION_CARD = 100  # card id of invocation G<g> in slots and piles: 100 + g

N_PLAYERS = PLAYERS_SLOT
(SIZE, PHASE, PLAYER, PLY, TURNS, MAX_TURNS, ERA, START_PLAYER, FINAL_LEFT, BUYER, TRUNCATED, RNG,
 MODULES, DRAFT, DRAFT_ROUND, SEED) = range(HEADER_SIZE, HEADER_SIZE + 16)
PRICES = SEED + 1
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
MAX_TRADES_OPT = SEEN + 128
OBJ_PUBLIC = MAX_TRADES_OPT + 1
CONSUL = OBJ_PUBLIC + 1
RESUME = CONSUL + 1
TOKENS2 = RESUME + 1
TOKENS4 = TOKENS2 + MAXP
TOKEN_POOL = TOKENS4 + MAXP
OFFER = TOKEN_POOL + 1
OFFERS = OFFER + 4
EFFECTS = OFFERS + 1
INV_HOLDER = EFFECTS + 1
INV_STATUS = INV_HOLDER + 21
SPARE = INV_STATUS + 21
SPARE_N = SPARE + 20
OBJ_DEALT = SPARE_N + 1
OBJ_KEPT = OBJ_DEALT + 2 * MAXP
OBJ_FACE_UP = OBJ_KEPT + MAXP
ROLE_DEALT = OBJ_FACE_UP + MAXP
ROLE_PICK = ROLE_DEALT + 2 * MAXP
ROLE = ROLE_PICK + MAXP
EXTRA_MARKERS = ROLE + MAXP
MOD_POP = EXTRA_MARKERS + MAXP
CONSUL_VP = MOD_POP + MAXP
CONSUL_HOLDER = CONSUL_VP + 1
CONSUL_OWN = CONSUL_HOLDER + 1
CPILE = CONSUL_OWN + 2
CPILE_N = CPILE + 4 * 12
CDISC = CPILE_N + 4
CDISC_N = CDISC + 4 * 12
STATE_SIZE = CDISC_N + 4

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
