"""Forma's moves: fitting placements, the legal moves, a random move, playing a move.

Rules: ``shared/rules/forma.md``. State slots: :mod:`.layout`; placements and move
codes: :mod:`.data`; the points a placement earns: :mod:`.scoring`.

Move generation (``legal_moves``)
---------------------------------
Mask-based, per orientation and per board row rather than per placement: the
occupancy plane is cut into 20 row words of free squares, and for orientation ``o``
and anchor row ``a`` the set of anchor columns where the piece fits is

    fit = VALID[o] & AND over the piece's cells (dr, dc) of (free[a + dr] >> dc)

i.e. at most five shifts and ANDs give all (up to 20) anchors of that row at once.
Set bits are emitted in ascending order, so the codes come out sorted without a
sort. All 91 orientations cost about 8,000 simple integer operations, so the time
is dominated by writing the moves themselves (up to 30,433 in the opening); a scan of
the 30,433 precomputed placement masks would cost ~25x more when most of them fail.

Random moves (``random_move``)
------------------------------
Rejection sampling first: draw one of the precomputed placements of the shapes in
the mover's supply uniformly (one random number, a walk over at most 21 per-shape
counts), accept it if its three-word mask misses the occupancy plane. Every legal
placement is one candidate, so an accepted draw is exactly uniform over the legal
moves. In the opening nearly every draw is accepted, so a move costs a few
nanoseconds and no move list is built. Late in the game most candidates are blocked;
after ``_REJECTION_TRIES`` failed draws the kernel falls back to the exact method:
count the fits of every available orientation with the row masks above (popcounts),
draw k uniformly below the total and walk to the k-th fit. The fallback is itself
uniform, and it is taken with a probability that depends only on the position, so
the mixture is uniform too.

Passing and the end
-------------------
After every move the engine decides whether the next seat can place. A shape's
ability to fit anywhere is cached as a *witness* placement per shape (``WITNESS``):
checking it is one three-word AND; only when the witness got covered does the kernel
search for a new one (with the row masks, stopping at the first fit), and a shape
with no fit is dead for good because the board only fills. A player who holds a
monomino can place while any square is free. A player who cannot place is recorded
in ``STUCK`` (also monotone). If the next seat cannot place but someone else can,
its only legal move is ``PASS``; if nobody can (this includes a full board), the
game ends at once and the bridges are scored.
"""
import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index, popcount, select_bit
from ...core.rng import rand_below
from .data import (
    ORIENT_BITS,
    ORIENT_DC,
    ORIENT_DR,
    ORIENT_H,
    ORIENT_NCELLS,
    ORIENT_PL_START,
    ORIENT_SLOT_MASK,
    ORIENT_VALID,
    ORIENT_W,
    PASS,
    PL_CODE,
    PL_MASK,
    PL_WORD,
    SHAPE_N_ORIENT,
    SHAPE_ORIENT_START,
    SHAPE_PL_COUNT,
    SHAPE_PL_START,
)
from .layout import (
    AVAIL,
    FREE,
    MOVER_CAN_PLACE,
    N_PLAYERS,
    OCC,
    PASSES,
    PIECES,
    PLAYER,
    PLY,
    SCORE,
    SIZE,
    SQUARES,
    SQUARES_PLACED,
    STUCK,
    SUPPLY,
    SUPPLY_BITS,
    SUPPLY_COUNT,
    SUPPLY_SQUARES,
    TERMINAL,
    WITNESS,
    WORDS,
)
from .planes import free_rows
from .scoring import finish, score_placement

_REJECTION_TRIES = 48  # failed draws before random_move switches to exact sampling


@njit(cache=True, inline="always")
def fit_row(free, a, o):
    """Anchor columns in row a where orientation o fits on the free squares."""
    f = ORIENT_VALID[o]
    for k in range(ORIENT_NCELLS[o]):
        f &= free[a + ORIENT_DR[o, k]] >> ORIENT_DC[o, k]
    return f


@njit(cache=True, inline="always")
def fits(s, idx):
    """Whether placement idx misses every occupied square."""
    w = OCC + PL_WORD[idx]
    return ((s[w] & PL_MASK[idx, 0]) | (s[w + 1] & PL_MASK[idx, 1]) | (s[w + 2] & PL_MASK[idx, 2])) == 0


@njit(cache=True)
def current_player(s):
    """Seat to move."""
    return s[PLAYER]


@njit(cache=True)
def find_witness(s, shape):
    """A placement of shape that fits now, or -1 if it fits nowhere."""
    free = np.empty(SIZE, dtype=np.int64)
    free_rows(s, free)
    o0 = SHAPE_ORIENT_START[shape]
    for o in range(o0, o0 + SHAPE_N_ORIENT[shape]):
        for a in range(SIZE + 1 - ORIENT_H[o]):
            f = fit_row(free, a, o)
            if f:
                return ORIENT_PL_START[o] + a * (SIZE + 1 - ORIENT_W[o]) + lowest_bit_index(f)
    return -1


@njit(cache=True)
def can_place(s, p):
    """Whether player p has any legal placement (refreshes the shape witnesses)."""
    if s[FREE] == 0:
        return False
    avail = s[AVAIL + p]
    if avail & 1:  # a monomino fits on any free square
        return True
    while avail:
        sh = lowest_bit_index(avail)
        avail &= avail - 1
        w = s[WITNESS + sh]
        if w < 0:
            continue
        if fits(s, w):
            return True
        w = find_witness(s, sh)
        s[WITNESS + sh] = w
        if w >= 0:
            return True
    return False


@njit(cache=True)
def update_status(s):
    """Decide whether the seat to move can place, must pass, or the game is over."""
    n = s[N_PLAYERS]
    p = s[PLAYER]
    stuck = s[STUCK]
    if not (stuck >> p) & 1:
        if can_place(s, p):
            s[MOVER_CAN_PLACE] = 1
            return
        stuck |= 1 << p
    s[MOVER_CAN_PLACE] = 0
    for i in range(1, n):
        q = p + i
        if q >= n:
            q -= n
        if (stuck >> q) & 1:
            continue
        if can_place(s, q):
            s[STUCK] = stuck
            return
        stuck |= 1 << q
    s[STUCK] = stuck
    finish(s)


@njit(cache=True)
def legal_moves(s, out):
    """Write the legal move codes, ascending, to out; return their number."""
    if s[TERMINAL] != 0:
        return 0
    if s[MOVER_CAN_PLACE] == 0:
        out[0] = PASS
        return 1
    free = np.empty(SIZE, dtype=np.int64)
    free_rows(s, free)
    avail = s[AVAIL + s[PLAYER]]
    n = 0
    while avail:
        sh = lowest_bit_index(avail)
        avail &= avail - 1
        o0 = SHAPE_ORIENT_START[sh]
        for j in range(SHAPE_N_ORIENT[sh]):
            o = o0 + j
            base = ((sh << ORIENT_BITS) + j) * SQUARES
            for a in range(SIZE + 1 - ORIENT_H[o]):
                f = fit_row(free, a, o)
                row_base = base + a * SIZE
                while f:
                    out[n] = row_base + lowest_bit_index(f)
                    n += 1
                    f &= f - 1
    return n


@njit(cache=True)
def count_moves(s):
    """Number of legal moves, without writing them."""
    if s[TERMINAL] != 0:
        return 0
    if s[MOVER_CAN_PLACE] == 0:
        return 1
    free = np.empty(SIZE, dtype=np.int64)
    free_rows(s, free)
    avail = s[AVAIL + s[PLAYER]]
    n = 0
    while avail:
        sh = lowest_bit_index(avail)
        avail &= avail - 1
        o0 = SHAPE_ORIENT_START[sh]
        for o in range(o0, o0 + SHAPE_N_ORIENT[sh]):
            for a in range(SIZE + 1 - ORIENT_H[o]):
                n += popcount(fit_row(free, a, o))
    return n


@njit(cache=True)
def is_legal(s, move):
    """Whether ``move`` is one of ``legal_moves(s)``, without generating them.

    The optional protocol kernel (:data:`forumlab.core.dispatch.OPTIONAL`): decode the
    code as ``apply_move`` does, check that it names an orientation of a shape in the
    mover's supply at an anchor inside the board, then test that one placement's mask
    against the occupancy plane (one three-word AND). ``PASS`` is legal exactly when the
    mover cannot place. Any int64 may be asked: codes that name no placement are not
    legal.
    """
    if s[TERMINAL] != 0:
        return False
    if s[MOVER_CAN_PLACE] == 0:
        return move == PASS
    if move < 0 or move >= PASS:
        return False
    po = move // SQUARES
    anchor = move - po * SQUARES
    piece = po >> ORIENT_BITS
    j = po & ORIENT_SLOT_MASK
    if j >= SHAPE_N_ORIENT[piece] or not (s[AVAIL + s[PLAYER]] >> piece) & 1:
        return False
    o = SHAPE_ORIENT_START[piece] + j
    ar = anchor // SIZE
    ac = anchor - ar * SIZE
    if ar > SIZE - ORIENT_H[o] or ac > SIZE - ORIENT_W[o]:
        return False
    return fits(s, ORIENT_PL_START[o] + ar * (SIZE + 1 - ORIENT_W[o]) + ac)


@njit(cache=True)
def random_move(s, rng):
    """A uniformly random legal move (rejection sampling, exact fallback; see module doc)."""
    if s[MOVER_CAN_PLACE] == 0:
        return PASS
    avail = s[AVAIL + s[PLAYER]]
    total = 0
    a = avail
    while a:
        total += SHAPE_PL_COUNT[lowest_bit_index(a)]
        a &= a - 1
    for _ in range(_REJECTION_TRIES):
        r = rand_below(rng, total)
        a = avail
        while True:
            sh = lowest_bit_index(a)
            c = SHAPE_PL_COUNT[sh]
            if r < c:
                break
            r -= c
            a &= a - 1
        idx = SHAPE_PL_START[sh] + r
        if fits(s, idx):
            return PL_CODE[idx]
    # Exact: count every fit, then walk to a uniformly drawn one.
    free = np.empty(SIZE, dtype=np.int64)
    free_rows(s, free)
    n = 0
    a = avail
    while a:
        sh = lowest_bit_index(a)
        a &= a - 1
        o0 = SHAPE_ORIENT_START[sh]
        for o in range(o0, o0 + SHAPE_N_ORIENT[sh]):
            for row in range(SIZE + 1 - ORIENT_H[o]):
                n += popcount(fit_row(free, row, o))
    k = rand_below(rng, n)
    a = avail
    while a:
        sh = lowest_bit_index(a)
        a &= a - 1
        o0 = SHAPE_ORIENT_START[sh]
        for j in range(SHAPE_N_ORIENT[sh]):
            o = o0 + j
            for row in range(SIZE + 1 - ORIENT_H[o]):
                f = fit_row(free, row, o)
                c = popcount(f)
                if k < c:
                    return ((sh << ORIENT_BITS) + j) * SQUARES + row * SIZE + select_bit(f, k)
                k -= c
    return PASS  # unreachable: MOVER_CAN_PLACE guarantees a fit


@njit(cache=True)
def apply_move(s, move):
    """Play a legal move in place: place, score enclosures, pass the turn, test the end."""
    p = s[PLAYER]
    if move == PASS:
        s[PASSES] += 1
    else:
        po = move // SQUARES
        anchor = move - po * SQUARES
        piece = po >> ORIENT_BITS
        o = SHAPE_ORIENT_START[piece] + (po & ORIENT_SLOT_MASK)
        ar = anchor // SIZE
        ac = anchor - ar * SIZE
        idx = ORIENT_PL_START[o] + ar * (SIZE + 1 - ORIENT_W[o]) + ac
        w = PL_WORD[idx]
        own = PIECES + p * WORDS
        for k in range(3):
            m = PL_MASK[idx, k]
            s[OCC + w + k] |= m
            s[own + w + k] |= m
        size = ORIENT_NCELLS[o]
        s[FREE] -= size
        supply = s[SUPPLY + p] - (1 << (SUPPLY_BITS * piece))
        s[SUPPLY + p] = supply
        if (supply >> (SUPPLY_BITS * piece)) & SUPPLY_COUNT == 0:
            s[AVAIL + p] &= ~(1 << piece)
        s[SUPPLY_SQUARES + p] -= size
        s[SQUARES_PLACED + p] += size
        s[SCORE + p] += size
        score_placement(s, p, o, anchor)
    s[PLY] += 1
    nxt = p + 1
    s[PLAYER] = 0 if nxt == s[N_PLAYERS] else nxt
    update_status(s)
