"""The spec's tables as numpy arrays, built once at import (``shared/rules/foundations-of-rome.md``).

Building codes (``bcode``): 0-19 are the players' buildings in the order
R1 R2 R3L R3I R4O R4I C1 C2 C3L C3I C4O C4I V1F V2F V1L V2L V1M V2M V1G V2G, and
20-38 are the monuments M1-M19 (``bcode = 19 + k`` for ``M<k>``).

Shapes and placements: every shape's distinct orientations (rotations and
reflections, duplicates removed) at every anchor that fits an N x N city, N = 7..10.
The placements of shape ``sh`` on the N-grid are ``PL_BASE[N - 7, sh]`` ..
``+ PL_COUNT[N - 7, sh]`` of the global tables: cells in ascending index
(``PL_CELLS``, padded with -1, ``PL_NCELLS`` of them) and the footprint as a
two-word bitboard (``PL_BB``: cell i is bit i % 64 of word i // 64). Identical cell
sets from different orientations are one placement, so identical copies are one move.

Move codes (int64):

- ``INCOME`` = 0; ``BUY + k`` = Buy from slot k (1-6);
- ``PICK_BASE + lot`` = draft pick ``K:<lot>``;
- ``BUILD_BASE + bcode * MAX_PL_PER_SHAPE + p``: build ``bcode`` on placement p of its
  shape on the N-grid (above).
- ``STEAL_BASE + lot`` (``S:<lot>``); ``USE_BASE + g`` (``U:G<g>``, g < 20: ``G_NUMA``) and
  ``NUMA_BASE + seat`` (``U:G20=<seat>``); ``KEEP_OBJ + k`` (``K:O<k>``), ``KEEP_ROLE + k``
  (``K:P<k>``); ``ANSWER_YES`` / ``ANSWER_NO``; ``TRADE_BASE + (seat * N_ITEMS + give) *
  N_ITEMS + get`` (``T<seat>:<give>/<get>``).

Each range of codes is named once, below; the kernels, the notation and the hidden-move
test decode with these names.
"""
import numpy as np

MAX_SEATS = 5  # the spec: 2-5 players
RESIDENTIAL, COMMERCIAL, CIVIC = 0, 1, 2
TYPE_LETTERS = "RCV"

# shape name -> rows of the base orientation ('#' = cell)
SHAPES = {
    "1": ["#"], "I2": ["##"], "L3": ["##", "#."], "I3": ["###"], "O4": ["##", "##"],
    "I4": ["####"], "T4": ["###", ".#."], "U5": ["#.#", "###"], "R6": ["###", "###"],
}
SHAPE_NAMES = list(SHAPES)
N_SHAPES = len(SHAPE_NAMES)
MAX_CELLS = 6
MAX_PL_PER_SHAPE = 400  # more than any shape has on a 10 x 10 city (L3: 324)

# Civic rules: VP = mult * measure // div, measure one of these (over adjacent buildings).
M_BUILDINGS, M_CITIZENS, M_SILVER, M_CIVIC = 0, 1, 2, 3

# name, type, shape, citizens, silver, tray VP, copies, civic (measure, mult, div)
_PLAYER_BUILDINGS = [
    ("R1", 0, "1", 1, 0, 0, 2, None), ("R2", 0, "I2", 2, 0, 0, 2, None),
    ("R3L", 0, "L3", 4, 0, 0, 1, None), ("R3I", 0, "I3", 4, 0, 0, 1, None),
    ("R4O", 0, "O4", 6, 0, 0, 1, None), ("R4I", 0, "I4", 6, 0, 0, 1, None),
    ("C1", 1, "1", 0, 1, 0, 2, None), ("C2", 1, "I2", 0, 1, 2, 2, None),
    ("C3L", 1, "L3", 0, 2, 3, 1, None), ("C3I", 1, "I3", 0, 2, 3, 1, None),
    ("C4O", 1, "O4", 0, 3, 5, 1, None), ("C4I", 1, "I4", 0, 3, 5, 1, None),
    ("V1F", 2, "1", 0, 0, 0, 1, (M_BUILDINGS, 1, 1)), ("V2F", 2, "I2", 0, 0, 0, 1, (M_BUILDINGS, 1, 1)),
    ("V1L", 2, "1", 0, 0, 0, 1, (M_CITIZENS, 1, 2)), ("V2L", 2, "I2", 0, 0, 0, 1, (M_CITIZENS, 1, 1)),
    ("V1M", 2, "1", 0, 0, 0, 1, (M_SILVER, 1, 1)), ("V2M", 2, "I2", 0, 0, 0, 1, (M_SILVER, 2, 1)),
    ("V1G", 2, "1", 0, 0, 0, 1, (M_CIVIC, 2, 1)), ("V2G", 2, "I2", 0, 0, 0, 1, (M_CIVIC, 3, 1)),
]
N_PLAYER_CODES = len(_PLAYER_BUILDINGS)  # 20

# Monument requirements (checked before the build): a bit set of these tests.
REQ_CIVIC2 = 1        # own >= 2 civic buildings
REQ_POP6 = 2          # population >= 6
REQ_LOTS14 = 4        # own >= 14 lots (owned cells)
REQ_COMM4 = 8         # own >= 4 commercial buildings
REQ_RES4 = 16         # own >= 4 residential buildings
REQ_SIZE3 = 32        # own a building of size >= 3
REQ_SILVER3 = 64      # silver of own commercial buildings >= 3
REQ_EDGE = 128        # the footprint contains an edge lot
REQ_SIZE4 = 256       # own a building of size >= 4
REQ_BLD6 = 512        # own >= 6 buildings
REQ_SILVER4 = 1024    # silver of own commercial buildings >= 4
REQ_RES3 = 2048       # own >= 3 residential buildings

# On-build effects of monuments.
ON_BUILD_NONE, ON_BUILD_VP2, ON_BUILD_SILVER3 = 0, 1, 2

# id, name, shape, type, citizens, silver, VP, civic, requirement, on-build
_MONUMENTS = [
    (1, "Pantheon", "I3", 2, 0, 0, 0, (M_CIVIC, 3, 1), REQ_CIVIC2, 0),
    (2, "Forum Romanum", "I3", 2, 0, 0, 0, (M_SILVER, 2, 1), REQ_POP6, 0),
    (3, "Circus Maximus", "I3", 2, 0, 0, 0, (M_CITIZENS, 1, 1), REQ_LOTS14, 0),
    (4, "Temple of Vulcan", "T4", 1, 0, 2, 3, None, REQ_COMM4, 0),
    (5, "Temple of Minerva", "U5", 0, 8, 0, 0, None, REQ_RES4, 0),
    (6, "Tower of Wonders", "1", 1, 0, 0, 3, None, REQ_SIZE3, 0),
    (7, "Temple of Mars", "L3", 0, 5, 0, 0, None, REQ_SIZE3 | REQ_SILVER3, 0),
    (8, "Temple of Neptune", "L3", 1, 0, 1, 5, None, REQ_CIVIC2 | REQ_EDGE, 0),
    (9, "Lighthouse", "1", 2, 0, 0, 0, (M_SILVER, 2, 1), REQ_SIZE4 | REQ_EDGE, 0),
    (10, "Observation Tower", "1", 2, 0, 0, 0, (M_CITIZENS, 1, 1), REQ_EDGE, 0),
    (11, "Temple of Jupiter", "O4", 2, 0, 0, 0, (M_SILVER, 2, 1), 0, ON_BUILD_VP2),
    (12, "Colosseum", "O4", 2, 0, 0, 0, (M_CITIZENS, 1, 1), 0, ON_BUILD_SILVER3),
    (13, "Royal Cellar", "R6", 1, 0, 4, 8, None, 0, 0),
    (14, "Regia", "R6", 0, 9, 0, 0, None, 0, 0),
    (15, "Statue of Romulus", "O4", 2, 0, 0, 0, (M_BUILDINGS, 2, 1), REQ_BLD6, 0),
    (16, "Temple of Venus", "I2", 0, 4, 0, 0, None, REQ_SILVER4, 0),
    (17, "Temple of Apollo", "I2", 1, 0, 2, 2, None, REQ_RES3, 0),
    (18, "Triumphal Arch", "I4", 0, 7, 0, 0, None, REQ_EDGE, 0),
    (19, "Imperial Port", "I4", 1, 0, 3, 7, None, REQ_EDGE, 0),
]
N_MONUMENTS = len(_MONUMENTS)  # 19
N_CODES = N_PLAYER_CODES + N_MONUMENTS  # 39
MONUMENT_NAMES = [m[1] for m in _MONUMENTS]
MONUMENT_MARKERS = 6
LOT_MARKERS = 8

CODE_NAMES = [b[0] for b in _PLAYER_BUILDINGS] + [f"M{m[0]}" for m in _MONUMENTS]
CODE_TYPE = np.zeros(N_CODES, dtype=np.int64)
CODE_SHAPE = np.zeros(N_CODES, dtype=np.int64)
CODE_SIZE = np.zeros(N_CODES, dtype=np.int64)
CODE_CITIZENS = np.zeros(N_CODES, dtype=np.int64)
CODE_SILVER = np.zeros(N_CODES, dtype=np.int64)
CODE_TRAY = np.zeros(N_CODES, dtype=np.int64)  # tray VP of a player's commercial building
CODE_MON_VP = np.zeros(N_CODES, dtype=np.int64)  # VP of a commercial monument, every era
CODE_COPIES = np.zeros(N_CODES, dtype=np.int64)
CIVIC_MEASURE = np.full(N_CODES, -1, dtype=np.int64)
CIVIC_MULT = np.zeros(N_CODES, dtype=np.int64)
CIVIC_DIV = np.ones(N_CODES, dtype=np.int64)
MON_REQ = np.zeros(N_CODES, dtype=np.int64)
MON_ON_BUILD = np.zeros(N_CODES, dtype=np.int64)


def _shape_cells(rows):
    return [(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "#"]


for _i, (_name, _t, _sh, _cit, _sil, _tray, _copies, _civ) in enumerate(_PLAYER_BUILDINGS):
    CODE_TYPE[_i], CODE_SHAPE[_i] = _t, SHAPE_NAMES.index(_sh)
    CODE_SIZE[_i] = len(_shape_cells(SHAPES[_sh]))
    CODE_CITIZENS[_i], CODE_SILVER[_i], CODE_TRAY[_i], CODE_COPIES[_i] = _cit, _sil, _tray, _copies
    if _civ is not None:
        CIVIC_MEASURE[_i], CIVIC_MULT[_i], CIVIC_DIV[_i] = _civ
for _k, (_id, _name, _sh, _t, _cit, _sil, _vp, _civ, _req, _eff) in enumerate(_MONUMENTS):
    _i = N_PLAYER_CODES + _k
    CODE_TYPE[_i], CODE_SHAPE[_i] = _t, SHAPE_NAMES.index(_sh)
    CODE_SIZE[_i] = len(_shape_cells(SHAPES[_sh]))
    CODE_CITIZENS[_i], CODE_SILVER[_i], CODE_MON_VP[_i], CODE_COPIES[_i] = _cit, _sil, _vp, 1
    MON_REQ[_i], MON_ON_BUILD[_i] = _req, _eff
    if _civ is not None:
        CIVIC_MEASURE[_i], CIVIC_MULT[_i], CIVIC_DIV[_i] = _civ


def _orientations(cells):
    """Distinct orientations (8 symmetries, normalised to the top-left corner)."""
    seen = []
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            r0, c0 = min(r for r, _ in pts), min(c for _, c in pts)
            norm = sorted((r - r0, c - c0) for r, c in pts)
            if norm not in seen:
                seen.append(norm)
    return seen


def _placements(shape, n):
    """Distinct footprints (sorted cell tuples) of a shape on the n x n city, sorted."""
    out = set()
    for orient in _orientations(_shape_cells(SHAPES[shape])):
        h = max(r for r, _ in orient) + 1
        w = max(c for _, c in orient) + 1
        for r in range(n - h + 1):
            for c in range(n - w + 1):
                out.add(tuple(sorted((r + dr) * n + c + dc for dr, dc in orient)))
    return sorted(out)


SIZES = (7, 8, 9, 10)
PL_BASE = np.zeros((len(SIZES), N_SHAPES), dtype=np.int64)
PL_COUNT = np.zeros((len(SIZES), N_SHAPES), dtype=np.int64)
_all = []
for _ni, _n in enumerate(SIZES):
    for _s, _shape in enumerate(SHAPE_NAMES):
        _pls = _placements(_shape, _n)
        assert len(_pls) <= MAX_PL_PER_SHAPE
        PL_BASE[_ni, _s] = len(_all)
        PL_COUNT[_ni, _s] = len(_pls)
        _all.extend(_pls)
N_PLACEMENTS = len(_all)
PL_CELLS = np.full((N_PLACEMENTS, MAX_CELLS), -1, dtype=np.int64)
PL_NCELLS = np.zeros(N_PLACEMENTS, dtype=np.int64)
PL_BB = np.zeros((N_PLACEMENTS, 2), dtype=np.uint64)
for _p, _cells in enumerate(_all):
    PL_NCELLS[_p] = len(_cells)
    for _j, _cell in enumerate(_cells):
        PL_CELLS[_p, _j] = _cell
        PL_BB[_p, _cell >> 6] |= np.uint64(1) << np.uint64(_cell & 63)
PL_BB = PL_BB.view(np.int64)

# Placements are sorted by their cells, so those whose lowest cell is c are contiguous:
# local indices MIN_START[N - 7, sh, c] .. + MIN_COUNT[N - 7, sh, c] (move generation
# walks the owned lots instead of every placement).
MIN_START = np.zeros((len(SIZES), N_SHAPES, 100), dtype=np.int64)
MIN_COUNT = np.zeros((len(SIZES), N_SHAPES, 100), dtype=np.int64)
for _ni in range(len(SIZES)):
    for _s in range(N_SHAPES):
        for _k in range(PL_COUNT[_ni, _s] - 1, -1, -1):
            _first = _all[PL_BASE[_ni, _s] + _k][0]
            MIN_START[_ni, _s, _first] = _k
            MIN_COUNT[_ni, _s, _first] += 1

# Placement lookup for the notation: (N, shape, cells) -> local placement index.
PLACEMENT_INDEX = {
    (_n, _s, tuple(_all[PL_BASE[_ni, _s] + _k])): _k
    for _ni, _n in enumerate(SIZES) for _s in range(N_SHAPES) for _k in range(PL_COUNT[_ni, _s])
}

# Longest legal-move list: Income, six buys and every code on every placement of the
# 10 x 10 city (a bound: at most players + 3 <= 8 monuments are displayed).
_per_code = sorted((int(PL_COUNT[3, CODE_SHAPE[c]]) for c in range(N_PLAYER_CODES, N_CODES)), reverse=True)
MAX_BUILD_MOVES = 7 + sum(int(PL_COUNT[3, CODE_SHAPE[c]]) for c in range(N_PLAYER_CODES)) + sum(_per_code[:8])

# ---- Will of the Consul: its 30 tokens (the spec's DECISION table) -----------------
# Token id t has the pseudo-code N_CODES + t in the CODE_* tables (never buildable):
# sizes 1: 4 R (1 citizen), 4 C (1 silver), 4 V; 2: 3 R (2), 3 C (1), 3 V; 3: 2 R (4),
# 2 C (2), 2 V; 4: R (6), C (3), V. Civic tokens score 1 VP (sizes 1-2) or 2 VP (3-4)
# per adjacent building.
N_TOKENS = 30
_TOKEN_GROUPS = [(1, 4, 1, 1), (2, 3, 2, 1), (3, 2, 4, 2), (4, 1, 6, 3)]  # size, copies, citizens, silver
TOKEN_SIZE = np.zeros(N_TOKENS, dtype=np.int64)
TOKEN_TYPE = np.zeros(N_TOKENS, dtype=np.int64)
TOKEN_FIRST = np.zeros(5, dtype=np.int64)  # first token id of each size (index = size)
TOKEN_COUNT = np.zeros(5, dtype=np.int64)
N_ALL_CODES = N_CODES + N_TOKENS
_tokens = []
for _size, _copies, _cit, _sil in _TOKEN_GROUPS:
    TOKEN_FIRST[_size] = len(_tokens)
    TOKEN_COUNT[_size] = 3 * _copies
    for _t in (RESIDENTIAL, COMMERCIAL, CIVIC):
        for _ in range(_copies):
            _tokens.append((_size, _t, _cit if _t == RESIDENTIAL else 0, _sil if _t == COMMERCIAL else 0))


def _extend(a, fill=0):
    out = np.full(N_ALL_CODES, fill, dtype=np.int64)
    out[:N_CODES] = a
    return out


CODE_TYPE, CODE_SHAPE, CODE_SIZE = _extend(CODE_TYPE), _extend(CODE_SHAPE, -1), _extend(CODE_SIZE)
CODE_CITIZENS, CODE_SILVER, CODE_TRAY = _extend(CODE_CITIZENS), _extend(CODE_SILVER), _extend(CODE_TRAY)
CODE_MON_VP, CIVIC_MEASURE = _extend(CODE_MON_VP), _extend(CIVIC_MEASURE, -1)
CIVIC_MULT, CIVIC_DIV = _extend(CIVIC_MULT), _extend(CIVIC_DIV, 1)
for _t, (_size, _type, _cit, _sil) in enumerate(_tokens):
    _c = N_CODES + _t
    TOKEN_SIZE[_t], TOKEN_TYPE[_t] = _size, _type
    CODE_TYPE[_c], CODE_SIZE[_c], CODE_CITIZENS[_c], CODE_SILVER[_c] = _type, _size, _cit, _sil
    if _type == CIVIC:
        CIVIC_MEASURE[_c], CIVIC_MULT[_c] = M_BUILDINGS, 1 if _size <= 2 else 2
ALL_CODE_NAMES = CODE_NAMES + [f"X{t}" for t in range(N_TOKENS)]

# ---- Objectives, invocations, roles ------------------------------------------------
N_OBJECTIVES = 18
OBJECTIVE_VP = np.array([0, 6, 5, 4, 4, 4, 4, 4, 5, 5, 4, 5, 4, 4, 4, 5, 3, 3, 5], dtype=np.int64)
N_INVOCATIONS = 20
# VP shown on each card G<g> (index g), scored at the end if never used
INVOCATION_VP = np.array([0, 1, 0, 2, 0, 0, 0, 1, 1, 0, 0, 2, 0, 1, 0, 0, 1, 2, 2, 0, 1], dtype=np.int64)
# Ongoing cards: Ceres, Vesta, Minerva, Mars, Apollo, Quirinus, Augur
INVOCATION_ONGOING = np.zeros(N_INVOCATIONS + 1, dtype=np.bool_)
for _g in (4, 5, 6, 9, 10, 14, 19):
    INVOCATION_ONGOING[_g] = True
(G_MERCURIUS, G_FORTUNA, G_IANUS, G_CERES, G_VESTA, G_MINERVA, G_VULCANUS, G_PLUTO, G_MARS, G_APOLLO,
 G_IUNO, G_BACCHUS, G_SATURNUS, G_QUIRINUS, G_TERMINUS, G_CONCORDIA, G_DISCORDIA, G_FLAMEN, G_AUGUR,
 G_NUMA) = range(1, 21)
N_ROLES = 15
(P_MERCATOR, P_ARGENTARIUS, P_AGRIMENSOR, P_ARCHITECTUS, P_DOMINUS, P_PATRONUS, P_AEDILIS, P_NEGOTIATOR,
 P_CENSOR, P_PRAETOR, P_QUAESTOR, P_PONTIFEX, P_TRIBUNUS, P_LEGATUS, P_FABER) = range(1, 16)
FAVOR_TOKENS = 10


# ---- Move codes (int64; the module docstring) --------------------------------------
INCOME = 0
BUY = 0  # BUY + k, k = 1..DEED_SLOTS
PICK_BASE = 10  # + lot
STEAL_BASE = 200  # + lot
USE_BASE = 400  # + g, g = 1..G_NUMA - 1
NUMA_BASE = 430  # + seat
KEEP_OBJ = 500  # + objective id 1..N_OBJECTIVES
KEEP_ROLE = 520  # + role id 1..N_ROLES
ANSWER_YES = 590
ANSWER_NO = 591
TRADE_BASE = 600  # up to 600 + 5 * 133 * 133 < BUILD_BASE
BUILD_BASE = 100_000

# Trade items: nothing, a lot, silver, a favor token, an invocation card
ITEM_NONE = 0
ITEM_LOT = 1  # + lot: 1..100 (so a lot item is <= ITEM_SILVER)
ITEM_SILVER = 100  # + n, n = 1..SILVER_ITEMS
SILVER_ITEMS = 10  # an offer moves $1 to $10
ITEM_F2 = 111
ITEM_F4 = 112
ITEM_CARD = 112  # + g, g = 1..N_INVOCATIONS
N_ITEMS = 133

# Each range of move codes (the lot ranges depend on the city: ``PICK_BASE + lot``,
# ``STEAL_BASE + lot``).
DEED_SLOTS = 6
BUY_CODES = range(BUY + 1, BUY + DEED_SLOTS + 1)
USE_CODES = range(USE_BASE + 1, USE_BASE + G_NUMA)  # U:G1 .. U:G19
NUMA_CODES = range(NUMA_BASE, NUMA_BASE + MAX_SEATS)  # U:G20=<seat>
KEEP_OBJ_CODES = range(KEEP_OBJ + 1, KEEP_OBJ + N_OBJECTIVES + 1)
KEEP_ROLE_CODES = range(KEEP_ROLE + 1, KEEP_ROLE + N_ROLES + 1)
TRADE_CODES = range(TRADE_BASE, TRADE_BASE + MAX_SEATS * N_ITEMS * N_ITEMS)

# Longest legal-move list: the builds, Income and buys, plus the free actions: trades
# (4 partners x at most 34 items given x 34 asked: '-', 11 unbuilt lots, $1-$10, 2
# token sides, 9 cards held, with room), steals (a lot each) and uses.
MAX_MOVES = MAX_BUILD_MOVES + 4 * 40 * 40 + 100 + 30


def encode_build(bcode: int, placement: int) -> int:
    """Move code of building ``bcode`` on its shape's local placement index."""
    return BUILD_BASE + bcode * MAX_PL_PER_SHAPE + placement


def decode_build(move: int) -> tuple[int, int]:
    """(bcode, local placement index) of a build's move code."""
    return divmod(int(move) - BUILD_BASE, MAX_PL_PER_SHAPE)
