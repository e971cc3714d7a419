"""Move codes, legal moves and their effects: the round/turn/cycle machine.

Pending work is a stack of items (STACK, depth first, top = last): a *decision* item
waits for a ply of its seat; every other item is done at once by :func:`advance`,
which also applies a decision automatically when it has a single option (the
spec's "decision points with a single legal option are not plies") and drops one
with none. Item word: ``kind | a << 8 | b << 16 | c << 24`` (``item``; fields ``item_kind``, ``item_a``,
``item_b``, ``item_c``).

Move codes: ``kind << KIND_SHIFT | payload`` (kinds ``M_*``); each payload's fields are
named below (``*_STEP``, ``*_SHIFT``), with an encoder and a decoder per kind:

- setup: ``perm * 8 + row_choice * 4 + corner`` (perm: index in setup.PERMS);
- take: ``x * 64 + y`` (x < y, rv = 36 last); keep: the space;
- use: 0 ``k``, 1 ``r``, 2 ``kr``, 3 ``rk``; cit: row 1-6; track: level 1-4;
- conv: ``kind * 16 + from * 4 + to`` (MII: resources C, T, A as 0-2; CI: to = worker
  colour; CII: 0);
- build: ``piece << 18 | c1 << 12 | c2 << 6 | pay1 << 3 | pay2`` with piece 0-3 grey
  single (col lib bas mkt), 4-7 structure single (r b g y), 8 + 4 * grey + colour a
  grey+colour double (grey part on c1), 24 + colour a double of 2 structures (c1 <
  c2); c2 of a single is ``NO_CELL``; a grey payment is 0 ``B`` or 1 + x ``xx``; a
  colour payment is 0 plain or 1 + x ``xA``; ``BUILD_NONE_PAYLOAD`` is ``build -``;
- env: the Forum cell, ENV_NONE for ``env -``; pick: a bit set of PICK_NAMES; pay: a
  bit set of rows.
"""
import numpy as np
from numba import njit

from ...core.bits import popcount
from ...core.movelist import contains
from ...core.rng import rand_below
from .data import (
    ADJ_PAIRS,
    AREA_COLOUR,
    AREA_ID,
    AREA_SIZE,
    BUILDABLE,
    FCOLOUR,
    N_AREAS,
    STREET_BB,
)
from .layout import (
    AREA_FILL,
    B_COL,
    B_R,
    BLD,
    BLTBB,
    CARDS,
    CIT,
    COLS,
    CONV_USED,
    CYCLE,
    D_KEPT,
    D_PAID,
    D_TAKE,
    D_TILES,
    DLEN,
    DONE,
    DRAWN,
    ENVBB,
    FCOLS,
    FIXED,
    FOCC,
    HELD,
    MERCH,
    N_PLAYERS,
    NCOLS,
    OVER,
    PASSING,
    PILES,
    PLY,
    QLEN,
    QUEUE,
    R_A,
    R_B,
    R_C,
    R_R,
    R_T,
    RES,
    ROUND,
    RV,
    SHIP,
    SP,
    SRC_BONUS,
    SRC_COLUMN,
    SRC_TRACK_END,
    STACK,
    START,
    T_A,
    T_B,
    T_C,
    T_CITC,
    T_CITP,
    T_T,
    T_U,
    TILE,
    TILEBB,
    TO_MOVE,
    TRACK,
    TW_OWNER_SHIFT,
    TW_PLACED,
    TW_SEEN_SHIFT,
    TW_TYPE,
    TW_UP,
    VPS,
)
from .scoring import column_points, row_active, score_cycle, seat_base, upgrade
from .setup import PERMS, fill_board

# ---- move codes: kind << KIND_SHIFT | payload ---------------------------------------------
M_SETUP, M_TAKE, M_KEEP, M_USE, M_CIT, M_CONV, M_BUILD, M_TRACK, M_ENV, M_PICK, M_PAY = range(1, 12)
KIND_SHIFT = 32
PAYLOAD_MASK = (1 << KIND_SHIFT) - 1
# setup: perm * SETUP_PERM_STEP + row_choice * SETUP_ROW_STEP + corner
SETUP_ROW_STEP = 4
SETUP_PERM_STEP = 2 * SETUP_ROW_STEP
N_SETUP_CODES = len(PERMS) * SETUP_PERM_STEP  # PERMS: the 24 orders of the 4 crane colours
# a Colonia space in a take or build payload
CELL_BITS = 6
CELL_MASK = (1 << CELL_BITS) - 1
NO_CELL = CELL_MASK  # the second space of a single tile
# use: the kept tile, the received one, both (kept first), both (received first)
USE_BOTH = 2
N_USE_CODES = 4
# conv: kind * CONV_KIND_STEP + from * CONV_FROM_STEP + to
CONV_MII, CONV_CI, CONV_CII = range(3)
CONV_FROM_STEP = 4
CONV_KIND_STEP = 4 * CONV_FROM_STEP
# build: piece << PIECE_SHIFT | c1 << C1_SHIFT | c2 << C2_SHIFT | pay1 << PAY_BITS | pay2
PAY_BITS = 3
PAY_MASK = (1 << PAY_BITS) - 1
C2_SHIFT = 2 * PAY_BITS
C1_SHIFT = C2_SHIFT + CELL_BITS
PIECE_SHIFT = C1_SHIFT + CELL_BITS
PIECE_STRUCTURE = 4  # + colour: a structure single (0-3: the grey singles)
PIECE_MIXED = 8  # + 4 * grey + colour: a grey+colour double
PIECE_DOUBLE = 24  # + colour: a double of 2 structures
BUILD_NONE_PAYLOAD = (1 << 31) - 1
ENV_NONE = 127
# the longest move list: a build (grey+colour doubles on ordered adjacent pairs: 16 pieces
# x 5 grey x 4 colour payments; colour doubles: 4 colours x 10 payment multisets;
# singles: 4 x 5 + 4 x 4 per space; conversions 6 + 4 + 1; "build -"), a take (pairs of
# 33 spaces) or the setup
_BUILD_BOUND = 2 * len(ADJ_PAIRS) * 16 * 20 + len(ADJ_PAIRS) * 4 * 10 + len(BUILDABLE) * 36 + 12
MAX_MOVES = max(_BUILD_BOUND, 33 * 32 // 2, N_SETUP_CODES)
# pick items, in the notation's order T A C U V then workers r b g y
PICK_NAMES = ("T", "A", "C", "U", "V", "r", "b", "g", "y")

# stack items: kind | a << ITEM_BITS | b << 2 * ITEM_BITS | c << 3 * ITEM_BITS
ITEM_BITS = 8
ITEM_FIELD = (1 << ITEM_BITS) - 1
I_SETUP, I_ROUND_START, I_DRAFT, I_TURN, I_USE, I_TILE, I_TILE_DONE, I_CIT = range(1, 9)
I_PICK, I_ENV, I_CONVBUILD, I_GREY, I_TRACK, I_TRACKEND, I_ROUND_END, I_PAY = range(9, 17)
I_CYCLE_SCORE, I_NEXT_ROUND, I_PASS_START = range(17, 20)
# pick kinds
PK_AREA, PK_AREA1, PK_CT, PK_CA, PK_WORKER = range(5)
ENV_FREE = 4
# pick item bits (PICK_NAMES order T A C U V r b g y)
P_T, P_A, P_C, P_U, P_V = 1, 2, 4, 8, 16
WORKER_BITS = 0x1E0
AREA_BITS = 0x1F
BUILDABLE_BB = np.int64(0)
for _c in BUILDABLE:
    BUILDABLE_BB |= np.int64(1) << np.int64(_c)
MII_RES = np.array([R_C, R_T, R_A], dtype=np.int64)
RANDOM_WINDOW = 64  # random_move's buffer: longer lists are sampled by index, not listed


@njit(cache=True, inline="always")
def item(kind, a, b, c):
    """A stack item word: kind and three small arguments."""
    return kind | (a << ITEM_BITS) | (b << (2 * ITEM_BITS)) | (c << (3 * ITEM_BITS))


@njit(cache=True, inline="always")
def item_kind(it):
    """A stack item's kind (I_*)."""
    return it & ITEM_FIELD


@njit(cache=True, inline="always")
def item_a(it):
    """A stack item's first argument."""
    return (it >> ITEM_BITS) & ITEM_FIELD


@njit(cache=True, inline="always")
def item_b(it):
    """A stack item's second argument."""
    return (it >> (2 * ITEM_BITS)) & ITEM_FIELD


@njit(cache=True, inline="always")
def item_c(it):
    """A stack item's third argument."""
    return (it >> (3 * ITEM_BITS)) & ITEM_FIELD


@njit(cache=True, inline="always")
def push(s, it):
    """Push a pending item onto the stack."""
    s[STACK + s[SP]] = it
    s[SP] += 1


@njit(cache=True, inline="always")
def mv(kind, payload):
    """A move code from its kind (M_*) and payload."""
    return (np.int64(kind) << KIND_SHIFT) | payload


@njit(cache=True, inline="always")
def setup_payload(perm, row_choice, corner):
    """A ``setup`` payload from its crane order (index in setup.PERMS), row choice and corner."""
    return perm * SETUP_PERM_STEP + row_choice * SETUP_ROW_STEP + corner


@njit(cache=True, inline="always")
def setup_fields(x):
    """(perm, row_choice, corner) of a ``setup`` payload."""
    return x // SETUP_PERM_STEP, (x // SETUP_ROW_STEP) % 2, x % SETUP_ROW_STEP


@njit(cache=True, inline="always")
def take_payload(x, y):
    """A ``take`` payload from its two spaces (x < y)."""
    return (x << CELL_BITS) | y


@njit(cache=True, inline="always")
def take_cells(x):
    """The two spaces of a ``take`` payload."""
    return x >> CELL_BITS, x & CELL_MASK


@njit(cache=True, inline="always")
def conv_payload(kind, src, dst):
    """A ``conv`` payload from its conversion (CONV_*) and what it turns into what."""
    return kind * CONV_KIND_STEP + src * CONV_FROM_STEP + dst


@njit(cache=True, inline="always")
def conv_fields(x):
    """(kind, from, to) of a ``conv`` payload."""
    return x // CONV_KIND_STEP, (x // CONV_FROM_STEP) % 4, x % CONV_FROM_STEP


@njit(cache=True, inline="always")
def build_payload(piece, c1, c2, pay1, pay2):
    """A ``build`` payload from its piece, spaces and payments."""
    return (piece << PIECE_SHIFT) | (c1 << C1_SHIFT) | (c2 << C2_SHIFT) | (pay1 << PAY_BITS) | pay2


@njit(cache=True, inline="always")
def build_fields(x):
    """(piece, c1, c2, pay1, pay2) of a ``build`` payload."""
    return (x >> PIECE_SHIFT, (x >> C1_SHIFT) & CELL_MASK, (x >> C2_SHIFT) & CELL_MASK,
            (x >> PAY_BITS) & PAY_MASK, x & PAY_MASK)


# ---- small helpers ----------------------------------------------------------------------------
@njit(cache=True)
def gain_tile(s, p, t):
    """A resource tile's item (an upgrade moves the bar)."""
    b = seat_base(p)
    if t == T_U:
        upgrade(s, p)
    elif t == T_B:
        s[b + RES + R_B] += 1
    elif t == T_A:
        s[b + RES + R_A] += 1
    elif t == T_C:
        s[b + RES + R_C] += 1
    elif t == T_T:
        s[b + RES + R_T] += 1
    else:  # workers r b g y
        s[b + RES + R_R + t - 5] += 1


@njit(cache=True)
def gain_picks(s, p, mask):
    """The items of a ``pick`` (T A C U V r b g y)."""
    b = seat_base(p)
    if mask & P_T:
        s[b + RES + R_T] += 1
    if mask & P_A:
        s[b + RES + R_A] += 1
    if mask & P_C:
        s[b + RES + R_C] += 1
    if mask & P_U:
        upgrade(s, p)
    if mask & P_V:
        s[b + VPS + SRC_BONUS] += 2
    for x in range(4):
        if mask & (1 << (5 + x)):
            s[b + RES + R_R + x] += 1


@njit(cache=True)
def take_cost(tiles, x, y, c1, c2):
    """Tribunes for taking x for card c1 and then y for card c2."""
    cost = 0
    for k in range(2):
        sp = x if k == 0 else y
        street = STREET_BB[c1 if k == 0 else c2]
        if sp == RV:
            cost += 1
        elif (street >> sp) & 1:
            pass
        elif (tiles & street) == 0:
            pass
        else:
            cost += 1
        tiles &= ~(np.int64(1) << sp)
    return cost


@njit(cache=True)
def pair_cost(s, tiles, x, y):
    """Tribunes a ``take x y`` costs: the cheaper of its two card assignments."""
    c1 = s[CARDS]
    c2 = s[CARDS + 1]
    return min(take_cost(tiles, x, y, c1, c2), take_cost(tiles, y, x, c1, c2))


@njit(cache=True)
def take_price(s, x):
    """The tribunes the seat to move pays for the ``take`` payload ``x``."""
    sx, sy = take_cells(x)
    return pair_cost(s, s[seat_base(s[TO_MOVE]) + TILEBB], sx, sy)


@njit(cache=True)
def env_cells(s, p, mode, out):
    """Legal Forum cells of an envoy placement (mode 0-3 a colour, ENV_FREE free)."""
    ncols = s[NCOLS]
    n = 0
    if mode == ENV_FREE:
        for f in range(80):
            if f % FCOLS < ncols and s[FOCC + f] == 0:
                out[n] = f
                n += 1
        return n
    pi = row_active(s, p, 0) > 0
    ix = s[N_PLAYERS] - 2
    forced = False
    if not pi:
        for a in range(N_AREAS[ix]):
            if AREA_COLOUR[ix, a] == mode and 0 < s[AREA_FILL + a] < AREA_SIZE[ix, a]:
                forced = True
                break
    for f in range(80):
        if f % FCOLS >= ncols or s[FOCC + f] != 0 or FCOLOUR[f] != mode:
            continue
        a = AREA_ID[ix, f]
        if forced and s[AREA_FILL + a] == 0:
            continue
        out[n] = f
        n += 1
    return n


@njit(cache=True)
def cit_rows(s, p, cls):
    """Bit set of the rows (0-5) of a class with a free space."""
    b = seat_base(p) + CIT
    m = 0
    for row in range(2 * cls, 2 * cls + 2):
        if s[b + 2 * row + 1] == 0:
            m |= 1 << row
    return m


# ---- build enumeration ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _emit(out, n, offset, code):
    k = n - offset
    if 0 <= k < len(out):
        out[k] = code
    return n + 1


@njit(cache=True)
def _grey_need(pay, need):
    if pay == 0:
        need[4] += 1
    else:
        need[pay - 1] += 2


@njit(cache=True)
def _colour_need(colour, pay, need):
    if pay == 0:
        need[colour] += 1
    else:
        need[pay - 1] += 1
        need[5] += 1


@njit(cache=True)
def _affordable(s, b, need):
    for x in range(4):
        if need[x] > s[b + RES + R_R + x]:
            return False
    return need[4] <= s[b + RES + R_B] and need[5] <= s[b + RES + R_A]


@njit(cache=True)
def _payments(s, b):
    """The affordable payments, once per position (they do not depend on the cells):
    grey singles (gp), structure singles (colour, cp), grey+colour doubles (gp, colour,
    cp) and doubles of 2 structures (colour, p1 <= p2), as rows of small arrays."""
    need = np.zeros(6, dtype=np.int64)  # workers r b g y, builders, assistants
    grey = np.empty(5, dtype=np.int64)
    ng = 0
    for gp in range(5):
        need[:] = 0
        _grey_need(gp, need)
        if _affordable(s, b, need):
            grey[ng] = gp
            ng += 1
    colour = np.empty((16, 2), dtype=np.int64)
    nc = 0
    pair = np.empty((40, 2), dtype=np.int64)
    npair = 0
    for col in range(4):
        for cp in range(5):
            if cp == col + 1:
                continue
            need[:] = 0
            _colour_need(col, cp, need)
            if _affordable(s, b, need):
                colour[nc, 0] = col
                colour[nc, 1] = cp
                nc += 1
            for p2 in range(cp, 5):
                if p2 == col + 1:
                    continue
                need[:] = 0
                _colour_need(col, cp, need)
                _colour_need(col, p2, need)
                if _affordable(s, b, need):
                    pair[npair, 0] = col
                    pair[npair, 1] = (cp << PAY_BITS) | p2  # the payments' two fields
                    npair += 1
    mixed = np.empty((80, 3), dtype=np.int64)
    nm = 0
    for gp in range(5):
        for col in range(4):
            for cp in range(5):
                if cp == col + 1:
                    continue
                need[:] = 0
                _grey_need(gp, need)
                _colour_need(col, cp, need)
                if _affordable(s, b, need):
                    mixed[nm, 0] = gp
                    mixed[nm, 1] = col
                    mixed[nm, 2] = cp
                    nm += 1
    return grey[:ng], colour[:nc], mixed[:nm], pair[:npair]


@njit(cache=True)
def build_moves(s, p, out, n, offset):
    """Append every affordable build (window [offset, offset + len(out)) of the list).
    Blocks of moves wholly outside the window are counted, not produced, so counting
    a long list costs one pass over the cells."""
    b = seat_base(p)
    vac = BUILDABLE_BB & ~s[b + TILEBB] & ~s[b + BLTBB]
    if vac == 0:
        return n
    grey, colour, mixed, pair = _payments(s, b)
    end = offset + len(out)
    block = 4 * len(grey) + len(colour)
    for c in BUILDABLE:
        if not (vac >> c) & 1:
            continue
        if n + block <= offset or n >= end:
            n += block
            continue
        for i in range(len(grey)):
            for g in range(4):
                n = _emit(out, n, offset, mv(M_BUILD, build_payload(g, c, NO_CELL, grey[i], 0)))
        for i in range(len(colour)):
            piece = PIECE_STRUCTURE + colour[i, 0]
            n = _emit(out, n, offset, mv(M_BUILD, build_payload(piece, c, NO_CELL, colour[i, 1], 0)))
    block = 2 * 4 * len(mixed) + len(pair)
    for i in range(len(ADJ_PAIRS)):
        x = ADJ_PAIRS[i, 0]
        y = ADJ_PAIRS[i, 1]
        if not ((vac >> x) & 1 and (vac >> y) & 1):
            continue
        if n + block <= offset or n >= end:
            n += block
            continue
        for o in range(2):
            c1 = x if o == 0 else y
            c2 = y if o == 0 else x
            for j in range(len(mixed)):
                for g in range(4):
                    piece = PIECE_MIXED + 4 * g + mixed[j, 1]
                    payload = build_payload(piece, c1, c2, mixed[j, 0], mixed[j, 2])
                    n = _emit(out, n, offset, mv(M_BUILD, payload))
        for j in range(len(pair)):
            payload = build_payload(PIECE_DOUBLE + pair[j, 0], x, y, 0, pair[j, 1])
            n = _emit(out, n, offset, mv(M_BUILD, payload))
    return n


@njit(cache=True)
def conv_moves(s, p, out, n, offset):
    """Append the conversions allowed now."""
    b = seat_base(p)
    if row_active(s, p, 3) > 0 and s[CONV_USED + CONV_MII] < 1:
        for i in range(3):
            if s[b + RES + MII_RES[i]] > 0:
                for j in range(3):
                    if j != i:
                        n = _emit(out, n, offset, mv(M_CONV, conv_payload(CONV_MII, i, j)))
    if s[b + RES + R_A] > 0:
        if row_active(s, p, 4) > 0 and s[CONV_USED + CONV_CI] < 2:
            for x in range(4):
                n = _emit(out, n, offset, mv(M_CONV, conv_payload(CONV_CI, 0, x)))
        if row_active(s, p, 5) > 0 and s[CONV_USED + CONV_CII] < 1:
            n = _emit(out, n, offset, mv(M_CONV, conv_payload(CONV_CII, 0, 0)))
    return n


@njit(cache=True)
def _can_conv_or_build(s, p):
    """Whether the turn offers more than ``build -``: a conversion, or a vacated space
    and a builder or a worker (every double costs more than some single tile)."""
    one = np.empty(1, dtype=np.int64)
    if conv_moves(s, p, one, 0, 0) > 0:
        return True
    b = seat_base(p)
    if (BUILDABLE_BB & ~s[b + TILEBB] & ~s[b + BLTBB]) == 0:
        return False
    for i in range(5):  # B r b g y
        if s[b + RES + R_B + i] > 0:
            return True
    return False


# ---- legal moves ------------------------------------------------------------------------------
@njit(cache=True)
def take_moves(s, p, out, n, offset, stop=1 << 30):
    """Append the affordable ``take`` pairs (counting stops once ``stop`` are found)."""
    b = seat_base(p)
    tiles = s[b + TILEBB]
    tribunes = s[b + RES + R_T]
    if tribunes >= 2 and stop > 2:  # a pair costs at most 2: every pair, by block of x
        k = popcount(tiles)
        end = offset + len(out)
        for x in range(37):
            if not (tiles >> x) & 1:
                continue
            k -= 1  # spaces after x that hold a tile
            if n + k <= offset or n >= end:
                n += k
                continue
            for y in range(x + 1, 37):
                if (tiles >> y) & 1:
                    n = _emit(out, n, offset, mv(M_TAKE, take_payload(x, y)))
        return n
    for x in range(37):
        if not (tiles >> x) & 1:
            continue
        for y in range(x + 1, 37):
            if (tiles >> y) & 1 and pair_cost(s, tiles, x, y) <= tribunes:
                n = _emit(out, n, offset, mv(M_TAKE, take_payload(x, y)))
                if n >= stop:
                    return n
    return n


@njit(cache=True)
def pay_moves(s, p, out, n, offset):
    """Append the ``pay`` plies: every set of citizen rows the coins cover."""
    b = seat_base(p) + CIT
    rows = 0
    for r in range(6):
        if s[b + 2 * r] != 0 or s[b + 2 * r + 1] != 0:
            rows |= 1 << r
    coins = s[seat_base(p) + RES + R_C]
    for m in range(64):
        if m & ~rows == 0 and popcount(m) <= coins:
            n = _emit(out, n, offset, mv(M_PAY, m))
    return n


@njit(cache=True)
def pick_moves(s, p, kind, out, n, offset):
    """Append the ``pick`` plies of a pick kind (PK_*); PII makes area bonuses pairs."""
    if kind == PK_AREA or kind == PK_AREA1:
        if kind == PK_AREA and row_active(s, p, 1) > 0:
            for i in range(5):
                for j in range(i + 1, 5):
                    n = _emit(out, n, offset, mv(M_PICK, (1 << i) | (1 << j)))
        else:
            for i in range(5):
                n = _emit(out, n, offset, mv(M_PICK, 1 << i))
    elif kind == PK_CT:
        n = _emit(out, n, offset, mv(M_PICK, P_T))
        n = _emit(out, n, offset, mv(M_PICK, P_C))
    elif kind == PK_CA:
        n = _emit(out, n, offset, mv(M_PICK, P_A))
        n = _emit(out, n, offset, mv(M_PICK, P_C))
    else:
        for x in range(4):
            n = _emit(out, n, offset, mv(M_PICK, 1 << (5 + x)))
    return n


@njit(cache=True)
def moves_window(s, out, offset):
    """The legal moves with index in [offset, offset + len(out)), written to out;
    returns the number of all legal moves (0 once the game is over)."""
    if s[OVER] or s[SP] == 0:
        return 0
    it = s[STACK + s[SP] - 1]
    kind = item_kind(it)
    a = item_a(it)
    bb = item_b(it)
    n = 0
    if kind == I_SETUP:
        for code in range(N_SETUP_CODES):
            n = _emit(out, n, offset, mv(M_SETUP, code))
    elif kind == I_DRAFT:
        p = s[QUEUE]
        if s[D_TAKE + 2 * p] < 0:
            n = take_moves(s, p, out, n, offset)
        else:
            n = _emit(out, n, offset, mv(M_KEEP, s[D_TAKE + 2 * p]))
            n = _emit(out, n, offset, mv(M_KEEP, s[D_TAKE + 2 * p + 1]))
    elif kind == I_USE:
        n = _emit(out, n, offset, mv(M_USE, 0))
        n = _emit(out, n, offset, mv(M_USE, 1))
        if s[seat_base(a) + RES + R_T] >= 2:
            n = _emit(out, n, offset, mv(M_USE, 2))
            n = _emit(out, n, offset, mv(M_USE, 3))
    elif kind == I_CIT:
        rows = cit_rows(s, a, bb)
        for r in range(6):
            if (rows >> r) & 1:
                n = _emit(out, n, offset, mv(M_CIT, r + 1))
    elif kind == I_PICK:
        n = pick_moves(s, a, bb, out, n, offset)
    elif kind == I_ENV:
        cells = np.empty(80, dtype=np.int64)
        k = env_cells(s, a, bb, cells)
        for i in range(k):
            n = _emit(out, n, offset, mv(M_ENV, cells[i]))
        n = _emit(out, n, offset, mv(M_ENV, ENV_NONE))
    elif kind == I_CONVBUILD:
        n = conv_moves(s, a, out, n, offset)
        n = _emit(out, n, offset, mv(M_BUILD, BUILD_NONE_PAYLOAD))
        n = build_moves(s, a, out, n, offset)
    elif kind == I_TRACK:
        for j in range(1, item_c(it) + 1):
            n = _emit(out, n, offset, mv(M_TRACK, j))
    elif kind == I_PAY:
        n = pay_moves(s, a, out, n, offset)
    return n


@njit(cache=True)
def legal_moves(s, out):
    """Write the legal moves to out[:n]; return n."""
    return moves_window(s, out, 0)


@njit(cache=True)
def current_player(s):
    """Seat to act (-1 once the game is over)."""
    return s[TO_MOVE]


@njit(cache=True)
def is_legal(s, move):
    """Whether ``move`` is one of ``legal_moves(s)`` (the optional protocol kernel,
    :data:`forumlab.core.dispatch.OPTIONAL`): the move lists are short, so by generating
    them; one kernel call from Python, cheaper there than a scan of the list."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    return contains(out, legal_moves(s, out), move)


@njit(cache=True)
def random_move(s, rng):
    """A uniformly random legal move: a short list is read whole, a long one (a
    build) is counted and only the drawn index is produced."""
    out = np.empty(RANDOM_WINDOW, dtype=np.int64)
    n = moves_window(s, out, 0)
    k = rand_below(rng, n)
    if k < RANDOM_WINDOW:
        return out[k]
    moves_window(s, out[:1], k)
    return out[0]


# ---- effects ----------------------------------------------------------------------------------
@njit(cache=True)
def _place_envoy(s, p, f):
    b = seat_base(p)
    s[FOCC + f] = p + 1
    s[b + ENVBB + (f >> 6)] |= np.int64(1) << (f & 63)
    s[b + SHIP] -= 1
    a = AREA_ID[s[N_PLAYERS] - 2, f]
    if a >= 0:
        s[AREA_FILL + a] += 1
        if s[AREA_FILL + a] == AREA_SIZE[s[N_PLAYERS] - 2, a]:
            push(s, item(I_PICK, p, PK_AREA, 0))


@njit(cache=True)
def _place_citizen(s, p, row, slot):
    b = seat_base(p) + CIT + 2 * row
    s[seat_base(p) + HELD + slot] |= TW_PLACED
    if s[b] == 0:
        s[b] = 1
    else:
        s[b + 1] = 1
        if row == 0:
            push(s, item(I_ENV, p, ENV_FREE, 0))
        elif row == 1:
            push(s, item(I_PICK, p, PK_AREA1, 0))
        elif row == 2:
            push(s, item(I_PICK, p, PK_CT, 0))
        elif row == 3:
            push(s, item(I_PICK, p, PK_CA, 0))
        elif row == 4:
            push(s, item(I_PICK, p, PK_WORKER, 0))
        else:
            s[seat_base(p) + RES + R_B] += 1
    if row == 2:  # MI a): the Merchant side, for good
        s[seat_base(p) + MERCH] = 1


@njit(cache=True)
def _track_benefit(s, p, t, j):
    b = seat_base(p)
    if t == 0:  # basilica
        if j == 1:
            s[b + RES + R_T] += 1
        elif j == 2:
            s[b + RES + R_A] += 1
        elif j == 3:
            s[b + RES + R_B] += 1
        else:
            s[b + RES + R_T] += 1
            s[b + RES + R_A] += 1
    elif t == 1:  # market
        if j == 1:
            s[b + RES + R_C] += 1
        elif j == 2:
            push(s, item(I_PICK, p, PK_AREA, 0))
        elif j == 3:
            s[b + RES + R_C] += 2
        else:
            upgrade(s, p)
            s[b + RES + R_C] += 1
    else:  # library
        if j == 1:
            upgrade(s, p)
        elif j == 2:
            push(s, item(I_PICK, p, PK_WORKER, 0))
        elif j == 3:
            push(s, item(I_ENV, p, ENV_FREE, 0))
        else:
            upgrade(s, p)
            upgrade(s, p)


@njit(cache=True)
def _grey_pay(s, b, pay):
    if pay == 0:
        s[b + RES + R_B] -= 1
    else:
        s[b + RES + R_R + pay - 1] -= 2


@njit(cache=True)
def _colour_pay(s, b, colour, pay):
    if pay == 0:
        s[b + RES + R_R + colour] -= 1
    else:
        s[b + RES + R_R + pay - 1] -= 1
        s[b + RES + R_A] -= 1


@njit(cache=True)
def _build(s, p, payload):
    b = seat_base(p)
    piece, c1, c2, p1, p2 = build_fields(payload)
    if piece < PIECE_STRUCTURE:
        _grey_pay(s, b, p1)
        parts = (piece + 1, -1)
    elif piece < PIECE_MIXED:
        _colour_pay(s, b, piece - PIECE_STRUCTURE, p1)
        parts = (B_R + piece - PIECE_STRUCTURE, -1)
    elif piece < PIECE_DOUBLE:
        g = (piece - PIECE_MIXED) // 4
        col = (piece - PIECE_MIXED) % 4
        _grey_pay(s, b, p1)
        _colour_pay(s, b, col, p2)
        parts = (g + 1, B_R + col)
    else:
        col = piece - PIECE_DOUBLE
        _colour_pay(s, b, col, p1)
        _colour_pay(s, b, col, p2)
        parts = (B_R + col, B_R + col)
    s[b + BLD + c1] = parts[0]
    s[b + BLTBB] |= np.int64(1) << c1
    if parts[1] >= 0:
        s[b + BLD + c2] = parts[1]
        s[b + BLTBB] |= np.int64(1) << c2
    # benefits: grey part first, then each colour part in cell order (pushed in reverse)
    if parts[1] >= B_R:
        push(s, item(I_ENV, p, parts[1] - B_R, 0))
    if parts[0] >= B_R:
        push(s, item(I_ENV, p, parts[0] - B_R, 0))
    else:
        push(s, item(I_GREY, p, parts[0], 0))


@njit(cache=True)
def _grey_benefit(s, p, g):
    b = seat_base(p)
    if g == B_COL:
        s[b + COLS] += 1
        s[b + VPS + SRC_COLUMN] += column_points(s, p)
        return
    t = 2 if g == 2 else g - 3  # track index: bas 0, mkt 1, lib 2
    s[b + TRACK + t] += 1
    level = s[b + TRACK + t]
    if level <= 4:
        if level == 4:
            push(s, item(I_TRACKEND, p, 0, 0))
        push(s, item(I_TRACK, p, t, level))


@njit(cache=True)
def _tile_done(s, p, slot):
    b = seat_base(p)
    w = s[b + HELD + slot]
    if w != 0 and not (w & TW_PLACED) and ((w >> TW_OWNER_SHIFT) & 3) == p:
        s[b + SHIP] += 1
    s[b + HELD + slot] = 0


@njit(cache=True)
def _start_round(s):
    n = s[N_PLAYERS]
    s[ROUND] += 1
    s[CYCLE] = (s[ROUND] - 1) // 4 + 1
    pile = s[CYCLE] - 1
    for k in range(2):
        s[CARDS + k] = s[PILES + 8 * pile + s[DRAWN + pile]]
        s[DRAWN + pile] += 1
    for i in range(n):
        s[QUEUE + i] = (s[START] + i) % n
    s[QLEN] = n
    s[DLEN] = 0
    push(s, item(I_ROUND_END, 0, 0, 0))
    for i in range(n - 1, -1, -1):
        push(s, item(I_TURN, (s[START] + i) % n, 0, 0))
    push(s, item(I_DRAFT, 0, 0, 0))


@njit(cache=True)
def _end_draft(s):
    n = s[N_PLAYERS]
    for p in range(n):
        b = seat_base(p)
        kept = s[D_KEPT + p]
        s[b + HELD] = s[D_TILES + 2 * p + kept]
        s[b + HELD + 1] = s[PASSING + p] | (np.int64(1) << (TW_SEEN_SHIFT + p))
        s[PASSING + p] = 0
        s[D_TAKE + 2 * p] = -1
        s[D_TAKE + 2 * p + 1] = -1
        s[D_PAID + p] = 0
        s[D_KEPT + p] = -1
        s[D_TILES + 2 * p] = 0
        s[D_TILES + 2 * p + 1] = 0
    s[DLEN] = 0


@njit(cache=True)
def _do_item(s, it):
    """Do an automatic (non-decision) item that has been popped."""
    kind = item_kind(it)
    a = item_a(it)
    bb = item_b(it)
    n = s[N_PLAYERS]
    if kind == I_ROUND_START:
        _start_round(s)
    elif kind == I_TURN:
        b = seat_base(a)
        s[b + HELD] |= TW_UP
        s[b + HELD + 1] |= TW_UP
        s[CONV_USED] = 0
        s[CONV_USED + 1] = 0
        s[CONV_USED + 2] = 0
        push(s, item(I_CONVBUILD, a, 0, 0))
        push(s, item(I_USE, a, 0, 0))
    elif kind == I_TILE:
        push(s, item(I_TILE_DONE, a, bb, 0))
        t = s[seat_base(a) + HELD + bb] & TW_TYPE
        if T_CITP <= t <= T_CITC:
            push(s, item(I_CIT, a, t - T_CITP, bb))
        else:
            gain_tile(s, a, t)
    elif kind == I_TILE_DONE:
        _tile_done(s, a, bb)
    elif kind == I_GREY:
        _grey_benefit(s, a, bb)
    elif kind == I_TRACKEND:
        s[seat_base(a) + VPS + SRC_TRACK_END] += column_points(s, a)
    elif kind == I_ROUND_END:
        push(s, item(I_NEXT_ROUND, 0, 0, 0))
        if s[ROUND] % 4 == 0:
            push(s, item(I_CYCLE_SCORE, 0, 0, 0))
            push(s, item(I_PASS_START, 0, 0, 0))
            for i in range(n - 1, -1, -1):
                push(s, item(I_PAY, (s[START] + i) % n, 0, 0))
        else:
            push(s, item(I_PASS_START, 0, 0, 0))
    elif kind == I_PASS_START:
        s[START] = (s[START] + n - 1) % n
    elif kind == I_CYCLE_SCORE:
        score_cycle(s)
    elif kind == I_NEXT_ROUND:
        s[CARDS] = -1
        s[CARDS + 1] = -1
        if s[ROUND] < 12:
            push(s, item(I_ROUND_START, 0, 0, 0))


@njit(cache=True)
def _decision_seat(s, it):
    if item_kind(it) == I_DRAFT:
        return s[QUEUE]
    return item_a(it)


@njit(cache=True)
def advance(s):
    """Do pending automatic work until a decision with 2+ options (or the end)."""
    one = np.empty(2, dtype=np.int64)
    while True:
        if s[SP] == 0:
            s[OVER] = 1
            s[TO_MOVE] = -1
            return
        it = s[STACK + s[SP] - 1]
        kind = item_kind(it)
        a = item_a(it)
        bb = item_b(it)
        if kind == I_DRAFT:
            if s[QLEN] == 0:
                s[SP] -= 1
                _end_draft(s)
                continue
            p = s[QUEUE]
            if s[D_TAKE + 2 * p] < 0:
                k = take_moves(s, p, one, 0, 0, 2)
                if k == 1:
                    apply_core(s, one[0])
                    continue
            s[TO_MOVE] = p
            return
        if kind == I_SETUP or kind == I_USE or kind == I_PICK:
            s[TO_MOVE] = a
            return
        if kind == I_CIT:
            rows = cit_rows(s, a, bb)
            if rows == 0:
                s[SP] -= 1
                continue
            if popcount(rows) == 1:
                r = 0
                while not (rows >> r) & 1:
                    r += 1
                apply_core(s, mv(M_CIT, r + 1))
                continue
            s[TO_MOVE] = a
            return
        if kind == I_ENV:
            cells = np.empty(80, dtype=np.int64)
            if s[seat_base(a) + SHIP] == 0 or env_cells(s, a, bb, cells) == 0:
                s[SP] -= 1
                continue
            s[TO_MOVE] = a
            return
        if kind == I_CONVBUILD:
            if not _can_conv_or_build(s, a):
                s[SP] -= 1
                continue
            s[TO_MOVE] = a
            return
        if kind == I_TRACK:
            if item_c(it) == 1:
                apply_core(s, mv(M_TRACK, 1))
                continue
            s[TO_MOVE] = a
            return
        if kind == I_PAY:
            b = seat_base(a)
            has_cit = False
            for i in range(12):
                if s[b + CIT + i] != 0:
                    has_cit = True
            if s[b + RES + R_C] == 0 or not has_cit:
                apply_core(s, mv(M_PAY, 0))
                continue
            s[TO_MOVE] = a
            return
        s[SP] -= 1
        _do_item(s, it)


@njit(cache=True)
def apply_core(s, move):
    """Play a move's effect on the pending decision (no ply count, no advance)."""
    kind = move >> KIND_SHIFT
    x = move & PAYLOAD_MASK
    it = s[STACK + s[SP] - 1]
    p = _decision_seat(s, it)
    b = seat_base(p)
    if kind == M_SETUP:
        s[SP] -= 1
        perm, row_choice, corner = setup_fields(x)
        fill_board(s, p, perm, row_choice, corner)
    elif kind == M_TAKE:
        sx, sy = take_cells(x)
        cost = pair_cost(s, s[b + TILEBB], sx, sy)
        s[b + RES + R_T] -= cost
        s[D_TAKE + 2 * p] = sx
        s[D_TAKE + 2 * p + 1] = sy
        s[D_PAID + p] = cost
        seen = np.int64(1) << (TW_SEEN_SHIFT + p)
        s[D_TILES + 2 * p] = s[b + TILE + sx] | seen
        s[D_TILES + 2 * p + 1] = s[b + TILE + sy] | seen
        s[b + TILE + sx] = 0
        s[b + TILE + sy] = 0
        s[b + TILEBB] &= ~((np.int64(1) << sx) | (np.int64(1) << sy))
    elif kind == M_KEEP:
        k = 0 if s[D_TAKE + 2 * p] == x else 1
        s[D_KEPT + p] = k
        n = s[N_PLAYERS]
        s[PASSING + (p + n - 1) % n] = s[D_TILES + 2 * p + 1 - k]
        for i in range(s[QLEN] - 1):
            s[QUEUE + i] = s[QUEUE + i + 1]
        s[QLEN] -= 1
        s[DONE + s[DLEN]] = p
        s[DLEN] += 1
    elif kind == M_USE:
        s[SP] -= 1
        if x >= 2:
            s[b + RES + R_T] -= 2
            first = x - 2
            push(s, item(I_TILE, p, 1 - first, 0))
            push(s, item(I_TILE, p, first, 0))
        else:
            push(s, item(I_TILE_DONE, p, 1 - x, 0))
            push(s, item(I_TILE, p, x, 0))
    elif kind == M_CIT:
        s[SP] -= 1
        _place_citizen(s, p, x - 1, item_c(it))
    elif kind == M_PICK:
        s[SP] -= 1
        gain_picks(s, p, x)
    elif kind == M_ENV:
        s[SP] -= 1
        if x != ENV_NONE:
            _place_envoy(s, p, x)
    elif kind == M_CONV:
        ck, src, dst = conv_fields(x)
        s[CONV_USED + ck] += 1
        if ck == CONV_MII:
            s[b + RES + MII_RES[src]] -= 1
            s[b + RES + MII_RES[dst]] += 1
        elif ck == CONV_CI:
            s[b + RES + R_A] -= 1
            s[b + RES + R_R + dst] += 1
        else:
            s[b + RES + R_A] -= 1
            s[b + RES + R_B] += 1
    elif kind == M_BUILD:
        s[SP] -= 1
        if x != BUILD_NONE_PAYLOAD:
            _build(s, p, x)
    elif kind == M_TRACK:
        s[SP] -= 1
        _track_benefit(s, p, item_b(it), x)
    elif kind == M_PAY:
        s[SP] -= 1
        s[b + RES + R_C] -= popcount(x)
        for r in range(6):
            for k in range(2):
                if s[b + CIT + 2 * r + k] != 0:
                    s[b + CIT + 2 * r + k] = 1 if (x >> r) & 1 else 2


@njit(cache=True)
def apply_move(s, move):
    """Play a legal move in place: its effect, then every automatic step after it."""
    apply_core(s, move)
    s[PLY] += 1
    advance(s)


@njit(cache=True)
def start_game(s):
    """Queue the setup plies (or play the fixed setup) and the first round; advance."""
    n = s[N_PLAYERS]
    push(s, item(I_ROUND_START, 0, 0, 0))
    if s[FIXED]:
        for p in range(n):
            fill_board(s, p, 0, 0, 0)
    else:
        for p in range(n - 1, -1, -1):
            push(s, item(I_SETUP, p, 0, 0))
    advance(s)

