"""Numba kernels of Forma (the game protocol of forumlab.core.game).

Rules: ``shared/rules/forma.md``. Layout of the state and the precomputed tables:
:mod:`forumlab.engines.forma.layout`.

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

Decisions (where the spec leaves a gap; shared with the reference engine)
-------------------------------------------------------------------------
- Enclosure checks after a placement look at the free squares next to the squares
  just covered; one placement may close several, all scored by the mover (+10 and a
  marker each). An enclosed square has no free neighbour, so marking it cannot
  enclose another square (no cascade).
- A free square enclosed by the setup alone scores nobody and stays free (a monomino
  may still cover it).
- A grey stone is claimed (+10, marker on the stone) by the mover when every side of it
  that is not the board edge is a piece square or marker of the mover's colour; it
  is checked when one of its sides is covered or marked during the move. Claimed once.
- The tower (+50) goes to the mover when, after the placement and the markers it
  earned, none of its sides is free. Happens once.
- Markers: 35 per colour (70 for a 2-player pair); an enclosure still scores and is
  still marked when they have run out (``MARKERS_USED`` may exceed the supply).
- 2 players: each owns two sets and the two colours are one colour in every rule, so
  the engine gives that player a double supply (4 monominoes, 2 of every other shape).
- Bridges are scored when the game ends: the maximum number of square-disjoint
  north-south chains of a player's piece squares and markers, and likewise east-west
  (Edmonds-Karp max-flow with unit vertex capacities), +50 each.
"""
import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index, popcount
from ...core.rng import rand_below
from .layout import (
    AVAIL,
    BOARD_PLANE,
    BRIDGES_EW,
    BRIDGES_NS,
    COVER_IDX,
    COVER_START,
    ENCLOSED,
    FORMA_ID,
    FREE,
    GAME_ID,
    MARKERS_USED,
    MARKS,
    MAX_MOVES,  # noqa: F401  (the protocol's move-list bound: forumlab.core.dispatch)
    MOVER_CAN_PLACE,
    N_PLAYERS,
    N_SHAPES,
    NEIGHBOURS,
    NOT_COL_A,
    NOT_COL_T,
    OCC,
    ORIENT_DC,
    ORIENT_DR,
    ORIENT_H,
    ORIENT_NCELLS,
    ORIENT_PL_START,
    ORIENT_VALID,
    ORIENT_W,
    PASS,
    PASSES,
    PIECES,
    PL_CODE,
    PL_MASK,
    PL_WORD,
    PLAYER,
    PLY,
    ROW_MASK,
    ROW_OFF,
    ROW_WORD,
    SCORE,
    SEED,
    SHAPE_COPIES,
    SHAPE_N_ORIENT,
    SHAPE_ORIENT_START,
    SHAPE_PL_COUNT,
    SHAPE_PL_START,
    SHAPE_SIZE,
    SIZE,
    SQUARES,
    SQUARES_PLACED,
    STATE_SIZE,
    STONES,
    STONES_CLAIMED,
    STUCK,
    SUPPLY,
    SUPPLY_SQUARES,
    TERMINAL,
    TOWER,
    TOWER_OWNER,
    WITNESS,
    WORDS,
)

_REJECTION_TRIES = 48  # failed draws before random_move switches to exact sampling
_ENCLOSURE_POINTS = 10
_STONE_POINTS = 10
_TOWER_POINTS = 50
_BRIDGE_POINTS = 50


# ---- bit helpers ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def _bit(s, base, i):
    return (s[base + (i >> 6)] >> (i & 63)) & 1


@njit(cache=True, inline="always")
def _set_bit(s, base, i):
    s[base + (i >> 6)] |= np.int64(1) << (i & 63)


@njit(cache=True, inline="always")
def _row(s, base, r):
    """Row r (20 bits, bit c = column c) of the plane at s[base:base+7]."""
    off = ROW_OFF[r]
    w = ROW_WORD[r]
    x = s[base + w] >> off
    if off > 64 - SIZE:
        x = (x & ((np.int64(1) << (64 - off)) - 1)) | (s[base + w + 1] << (64 - off))
    return x & ROW_MASK


@njit(cache=True, inline="always")
def _free_rows(s, free):
    for r in range(SIZE):
        free[r] = ~_row(s, OCC, r) & ROW_MASK


@njit(cache=True, inline="always")
def _fit_row(free, a, o):
    """Anchor columns in row a where orientation o fits on the free squares."""
    f = ORIENT_VALID[o]
    for k in range(ORIENT_NCELLS[o]):
        f &= free[a + ORIENT_DR[o, k]] >> ORIENT_DC[o, k]
    return f


@njit(cache=True, inline="always")
def _fits(s, idx):
    """Whether placement idx misses every occupied square."""
    w = OCC + PL_WORD[idx]
    return ((s[w] & PL_MASK[idx, 0]) | (s[w + 1] & PL_MASK[idx, 1]) | (s[w + 2] & PL_MASK[idx, 2])) == 0


# ---- setup ---------------------------------------------------------------------------
@njit(cache=True)
def new_state(players, stones, tower, seed):
    """Initial state: players 2-4, stone squares (int64 array), tower square or -1."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[GAME_ID] = FORMA_ID
    s[N_PLAYERS] = players
    s[TOWER] = tower
    s[TOWER_OWNER] = -1
    s[SEED] = seed
    for i in range(stones.shape[0]):
        _set_bit(s, STONES, stones[i])
        _set_bit(s, OCC, stones[i])
    if tower >= 0:
        _set_bit(s, OCC, tower)
    s[FREE] = SQUARES - stones.shape[0] - (1 if tower >= 0 else 0)
    sets = 2 if players == 2 else 1
    supply = 0
    squares = 0
    for sh in range(N_SHAPES):
        supply |= (SHAPE_COPIES[sh] * sets) << (3 * sh)
        squares += SHAPE_COPIES[sh] * sets * SHAPE_SIZE[sh]
    for p in range(players):
        s[SUPPLY + p] = supply
        s[AVAIL + p] = (1 << N_SHAPES) - 1
        s[SUPPLY_SQUARES + p] = squares
    for sh in range(N_SHAPES):
        s[WITNESS + sh] = _find_witness(s, sh)
    _update_status(s)
    return s


# ---- queries -------------------------------------------------------------------------
@njit(cache=True)
def current_player(s):
    """Seat to move."""
    return s[PLAYER]


@njit(cache=True)
def is_terminal(s):
    """True once nobody can place any more."""
    return s[TERMINAL] != 0


@njit(cache=True)
def _find_witness(s, shape):
    """A placement of shape that fits now, or -1 if it fits nowhere."""
    free = np.empty(SIZE, dtype=np.int64)
    _free_rows(s, free)
    o0 = SHAPE_ORIENT_START[shape]
    for o in range(o0, o0 + SHAPE_N_ORIENT[shape]):
        for a in range(SIZE + 1 - ORIENT_H[o]):
            f = _fit_row(free, a, o)
            if f:
                return ORIENT_PL_START[o] + a * (SIZE + 1 - ORIENT_W[o]) + lowest_bit_index(f)
    return -1


@njit(cache=True)
def _can_place(s, p):
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
        if _fits(s, w):
            return True
        w = _find_witness(s, sh)
        s[WITNESS + sh] = w
        if w >= 0:
            return True
    return False


@njit(cache=True)
def _update_status(s):
    """Decide whether the seat to move can place, must pass, or the game is over."""
    n = s[N_PLAYERS]
    p = s[PLAYER]
    stuck = s[STUCK]
    if not (stuck >> p) & 1:
        if _can_place(s, p):
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
        if _can_place(s, q):
            s[STUCK] = stuck
            return
        stuck |= 1 << q
    s[STUCK] = stuck
    _finish(s)


@njit(cache=True)
def legal_moves(s, out):
    """Write the legal move codes, ascending, to out; return their number."""
    if s[TERMINAL] != 0:
        return 0
    if s[MOVER_CAN_PLACE] == 0:
        out[0] = PASS
        return 1
    free = np.empty(SIZE, dtype=np.int64)
    _free_rows(s, free)
    avail = s[AVAIL + s[PLAYER]]
    n = 0
    while avail:
        sh = lowest_bit_index(avail)
        avail &= avail - 1
        o0 = SHAPE_ORIENT_START[sh]
        for j in range(SHAPE_N_ORIENT[sh]):
            o = o0 + j
            base = (sh * 8 + j) * SQUARES
            for a in range(SIZE + 1 - ORIENT_H[o]):
                f = _fit_row(free, a, o)
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
    _free_rows(s, free)
    avail = s[AVAIL + s[PLAYER]]
    n = 0
    while avail:
        sh = lowest_bit_index(avail)
        avail &= avail - 1
        o0 = SHAPE_ORIENT_START[sh]
        for o in range(o0, o0 + SHAPE_N_ORIENT[sh]):
            for a in range(SIZE + 1 - ORIENT_H[o]):
                n += popcount(_fit_row(free, a, o))
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
    piece = po >> 3
    j = po & 7
    if j >= SHAPE_N_ORIENT[piece] or not (s[AVAIL + s[PLAYER]] >> piece) & 1:
        return False
    o = SHAPE_ORIENT_START[piece] + j
    ar = anchor // SIZE
    ac = anchor - ar * SIZE
    if ar > SIZE - ORIENT_H[o] or ac > SIZE - ORIENT_W[o]:
        return False
    return _fits(s, ORIENT_PL_START[o] + ar * (SIZE + 1 - ORIENT_W[o]) + ac)


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
        if _fits(s, idx):
            return PL_CODE[idx]
    # Exact: count every fit, then walk to a uniformly drawn one.
    free = np.empty(SIZE, dtype=np.int64)
    _free_rows(s, free)
    n = 0
    a = avail
    while a:
        sh = lowest_bit_index(a)
        a &= a - 1
        o0 = SHAPE_ORIENT_START[sh]
        for o in range(o0, o0 + SHAPE_N_ORIENT[sh]):
            for row in range(SIZE + 1 - ORIENT_H[o]):
                n += popcount(_fit_row(free, row, o))
    k = rand_below(rng, n)
    a = avail
    while a:
        sh = lowest_bit_index(a)
        a &= a - 1
        o0 = SHAPE_ORIENT_START[sh]
        for j in range(SHAPE_N_ORIENT[sh]):
            o = o0 + j
            for row in range(SIZE + 1 - ORIENT_H[o]):
                f = _fit_row(free, row, o)
                c = popcount(f)
                if k < c:
                    for _ in range(k):
                        f &= f - 1
                    return (sh * 8 + j) * SQUARES + row * SIZE + lowest_bit_index(f)
                k -= c
    return PASS  # unreachable: MOVER_CAN_PLACE guarantees a fit


_PROPOSAL_TRIES = 16  # placements drawn at the chosen square before falling back


@njit(cache=True, inline="always")
def _draw_free_side(s, sq, rng, hot, seen):
    """Reservoir sampling over the free sides of square sq: (chosen square, count seen)."""
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb >= 0 and not _bit(s, OCC, nb):
            seen += 1
            if rand_below(rng, seen) == 0:
                hot = nb
    return hot, seen


@njit(cache=True, inline="always")
def _covers(idx, sq):
    """Whether placement idx covers square sq."""
    k = (sq >> 6) - PL_WORD[idx]
    return 0 <= k < 3 and (PL_MASK[idx, k] >> (sq & 63)) & 1 == 1


@njit(cache=True)
def tower_take(s, rng):
    """A legal placement of the mover that closes every free side of the unowned tower
    at once, drawn uniformly among them (-1: none, or the tower is owned).

    With three free sides only a U pentomino wrapping the tower takes it, and a uniform
    draw, even one aimed beside the tower, finds that placement about once in hundreds:
    rollouts built from such draws let the +50 sit untaken, so a search never sees that
    leaving three open sides hands the tower to a later seat that holds a U."""
    tower = s[TOWER]
    if tower < 0 or s[TOWER_OWNER] >= 0 or s[MOVER_CAN_PLACE] == 0:
        return -1
    free_sides = np.empty(4, dtype=np.int64)
    k = 0
    for d in range(4):
        nb = NEIGHBOURS[tower, d]
        if nb >= 0 and not _bit(s, OCC, nb):
            free_sides[k] = nb
            k += 1
    if k == 0 or k == 4:
        # four free sides: a piece of at most five squares cannot wrap them without
        # covering the tower, so skip the scan (rollouts call this every ply)
        return -1
    avail = s[AVAIL + s[PLAYER]]
    first = free_sides[0]
    found = -1
    seen = 0
    for j in range(COVER_START[first], COVER_START[first + 1]):
        idx = COVER_IDX[j]
        code = PL_CODE[idx]
        if not (avail >> ((code // SQUARES) >> 3)) & 1:
            continue
        wraps = True
        for i in range(1, k):
            if not _covers(idx, free_sides[i]):
                wraps = False
                break
        if wraps and _fits(s, idx):
            seen += 1
            if rand_below(rng, seen) == 0:
                found = code
    return found


@njit(cache=True)
def proposal_move(s, rng):
    """A random legal move that touches the contested squares, when there are any.

    A rollout proposal (``forumlab.core.dispatch.proposal_move``): uniformly random
    placements almost never land where points are decided, beside a stone or the
    tower or on the last open side of a free square, so rollouts built from them
    leave every race for those points unplayed. This draws a *hot* square — a free
    square next to an unclaimed stone that at most one colour touches, next to the
    unowned tower, or the one free side of a square with a single free side — and
    then a random placement of the mover's shapes covering it (``_PROPOSAL_TRIES``
    draws from ``COVER_IDX``). A placement that takes the tower (``tower_take``) comes
    before all of these: it is worth 50 and a draw beside the tower rarely closes two or
    three sides at once. With no hot square, or no fit found, it returns
    ``random_move``. Not uniform over anything: a proposal, to be filtered by the
    heuristic (``sampled_greedy_move``).
    """
    if s[MOVER_CAN_PLACE] == 0:
        return PASS
    take = tower_take(s, rng)
    if take >= 0:
        return take
    hot = -1
    seen = 0
    for w in range(WORDS):
        stones = s[STONES + w]
        while stones:
            sq = w * 64 + lowest_bit_index(stones)
            stones &= stones - 1
            owner, sides, owned = _stone_sides(s, sq)
            if owner == -2 or owned == sides:  # dead, or claimed
                continue
            hot, seen = _draw_free_side(s, sq, rng, hot, seen)
    tower = s[TOWER]
    if tower >= 0 and s[TOWER_OWNER] < 0:
        hot, seen = _draw_free_side(s, tower, rng, hot, seen)
    for w in range(WORDS):
        threats = _threat_word(s, w)
        while threats:
            sq = w * 64 + lowest_bit_index(threats)
            threats &= threats - 1
            hot, seen = _draw_free_side(s, sq, rng, hot, seen)
    if hot < 0:
        return random_move(s, rng)
    start = COVER_START[hot]
    n = COVER_START[hot + 1] - start
    avail = s[AVAIL + s[PLAYER]]
    for _ in range(_PROPOSAL_TRIES):
        idx = COVER_IDX[start + rand_below(rng, n)]
        code = PL_CODE[idx]
        if (avail >> ((code // SQUARES) >> 3)) & 1 and _fits(s, idx):
            return code
    return random_move(s, rng)


# ---- playing a move ------------------------------------------------------------------
@njit(cache=True, inline="always")
def _enclosed(s, sq):
    """Whether no side of square sq is free."""
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb >= 0 and not _bit(s, OCC, nb):
            return False
    return True


@njit(cache=True)
def _check_obstacle(s, sq, p):
    """Claim the stone or the tower on square sq for p if this move completed it."""
    if sq == s[TOWER]:
        if s[TOWER_OWNER] < 0 and _enclosed(s, sq):
            s[TOWER_OWNER] = p
            s[SCORE + p] += _TOWER_POINTS
        return
    if not _bit(s, STONES, sq) or _bit(s, MARKS + p * WORDS, sq):
        return
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb >= 0 and not (_bit(s, PIECES + p * WORDS, nb) | _bit(s, MARKS + p * WORDS, nb)):
            return
    _set_bit(s, MARKS + p * WORDS, sq)
    s[STONES_CLAIMED + p] += 1
    s[MARKERS_USED + p] += 1
    s[SCORE + p] += _STONE_POINTS


@njit(cache=True)
def apply_move(s, move):
    """Play a legal move in place: place, score enclosures, pass the turn, test the end."""
    p = s[PLAYER]
    if move == PASS:
        s[PASSES] += 1
    else:
        po = move // SQUARES
        anchor = move - po * SQUARES
        piece = po >> 3
        o = SHAPE_ORIENT_START[piece] + (po & 7)
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
        supply = s[SUPPLY + p] - (1 << (3 * piece))
        s[SUPPLY + p] = supply
        if (supply >> (3 * piece)) & 7 == 0:
            s[AVAIL + p] &= ~(1 << piece)
        s[SUPPLY_SQUARES + p] -= size
        s[SQUARES_PLACED + p] += size
        s[SCORE + p] += size
        marks = MARKS + p * WORDS
        # Free squares next to the piece that it closed: marker and +10 each. A stone or
        # the tower next to a new marker may be completed by it: check them at once.
        for k in range(size):
            sq = anchor + ORIENT_DR[o, k] * SIZE + ORIENT_DC[o, k]
            for d in range(4):
                nb = NEIGHBOURS[sq, d]
                if nb >= 0 and not _bit(s, OCC, nb) and _enclosed(s, nb):
                    _set_bit(s, OCC, nb)
                    _set_bit(s, marks, nb)
                    s[FREE] -= 1
                    s[ENCLOSED + p] += 1
                    s[MARKERS_USED + p] += 1
                    s[SCORE + p] += _ENCLOSURE_POINTS
                    for d2 in range(4):
                        nb2 = NEIGHBOURS[nb, d2]
                        if nb2 >= 0:
                            _check_obstacle(s, nb2, p)
        # Stones and the tower next to the piece (after all markers are down).
        for k in range(size):
            sq = anchor + ORIENT_DR[o, k] * SIZE + ORIENT_DC[o, k]
            for d in range(4):
                nb = NEIGHBOURS[sq, d]
                if nb >= 0:
                    _check_obstacle(s, nb, p)
    s[PLY] += 1
    nxt = p + 1
    s[PLAYER] = 0 if nxt == s[N_PLAYERS] else nxt
    _update_status(s)


# ---- end of the game: bridges ---------------------------------------------------------
@njit(cache=True)
def _max_disjoint_paths(member, vertical):
    """Maximum number of square-disjoint edge-connected chains of member squares from
    row 0 to row 19 (vertical) or column 0 to column 19: Edmonds-Karp on the graph with
    every square split into in/out nodes joined by a unit-capacity edge."""
    src = 2 * SQUARES
    snk = src + 1
    n_nodes = snk + 1
    max_edges = 2 * (7 * SQUARES)
    head = np.full(n_nodes, -1, dtype=np.int64)
    nxt = np.empty(max_edges, dtype=np.int64)
    to = np.empty(max_edges, dtype=np.int64)
    cap = np.empty(max_edges, dtype=np.int64)
    ne = 0
    for v in range(SQUARES):
        if not member[v]:
            continue
        r = v // SIZE
        c = v - r * SIZE
        pos = r if vertical else c
        # Edge list: (from, to) with capacity 1 and its reverse with capacity 0.
        for kind in range(7):
            if kind == 0:
                a, b = 2 * v, 2 * v + 1
            elif kind == 1:
                if pos != 0:
                    continue
                a, b = src, 2 * v
            elif kind == 2:
                if pos != SIZE - 1:
                    continue
                a, b = 2 * v + 1, snk
            else:
                u = NEIGHBOURS[v, kind - 3]
                if u < 0 or not member[u]:
                    continue
                a, b = 2 * v + 1, 2 * u
            to[ne] = b
            cap[ne] = 1
            nxt[ne] = head[a]
            head[a] = ne
            ne += 1
            to[ne] = a
            cap[ne] = 0
            nxt[ne] = head[b]
            head[b] = ne
            ne += 1
    parent_edge = np.empty(n_nodes, dtype=np.int64)
    queue = np.empty(n_nodes, dtype=np.int64)
    flow = 0
    while True:
        parent_edge[:] = -1
        queue[0] = src
        qh = 0
        qt = 1
        parent_edge[src] = -2
        while qh < qt and parent_edge[snk] == -1:
            x = queue[qh]
            qh += 1
            e = head[x]
            while e != -1:
                y = to[e]
                if cap[e] > 0 and parent_edge[y] == -1:
                    parent_edge[y] = e
                    queue[qt] = y
                    qt += 1
                e = nxt[e]
        if parent_edge[snk] == -1:
            return flow
        y = snk
        while y != src:
            e = parent_edge[y]
            cap[e] -= 1
            cap[e ^ 1] += 1
            y = to[e ^ 1]
        flow += 1


@njit(cache=True)
def bridges(s, p):
    """(north-south, east-west) bridge counts of player p on the board as it stands."""
    rows = np.empty(SIZE, dtype=np.int64)
    every_row = True
    cols = 0
    for r in range(SIZE):
        x = _row(s, PIECES + p * WORDS, r) | _row(s, MARKS + p * WORDS, r)
        rows[r] = x
        if x == 0:
            every_row = False
        cols |= x
    every_col = cols == ROW_MASK
    if not every_row and not every_col:
        return 0, 0
    member = np.zeros(SQUARES, dtype=np.bool_)
    for r in range(SIZE):
        x = rows[r]
        while x:
            member[r * SIZE + lowest_bit_index(x)] = True
            x &= x - 1
    ns = _max_disjoint_paths(member, True) if every_row else 0
    ew = _max_disjoint_paths(member, False) if every_col else 0
    return ns, ew


@njit(cache=True)
def _finish(s):
    """End the game: score every player's bridges."""
    s[TERMINAL] = 1
    s[MOVER_CAN_PLACE] = 0
    for p in range(s[N_PLAYERS]):
        ns, ew = bridges(s, p)
        s[BRIDGES_NS + p] = ns
        s[BRIDGES_EW + p] = ew
        s[SCORE + p] += _BRIDGE_POINTS * (ns + ew)


@njit(cache=True)
def scores(s, out):
    """Score per player (bridges included once the game is over)."""
    for p in range(s[N_PLAYERS]):
        out[p] = s[SCORE + p]


# ---- evaluation ----------------------------------------------------------------------
@njit(cache=True)
def heuristic(s, player):
    """Estimated final score of ``player`` minus the best estimate among the others.

    Estimate = points so far + half the squares still in supply (players who can still
    place; so a big piece placed now beats keeping it) + for the seat to move, the
    enclosure threats it may cash next (free squares with one open side: 7 for the
    first, 2 for each further one) and 35 when the tower has one open side left; every
    player also gets 10 x (share of its sides)**2 for each stone only it still can claim
    (``stone_potential``).
    At 2 players (two sets each, 180 squares) every player also gets bridge progress
    (``bridge_progress``): 50 points times, per direction, 1 for a finished bridge,
    else the squared share of the board's length its chains from the two edges cover.
    A greedy with it scored 56.7% [50.4, 63.0] against one without it in 240 2-player
    games (two runs of 120 on different seeds: 65.8% and 47.5%); at 4 players (90
    squares each, bridges rare) it chased bridges it could not finish and won 6% of 80
    games against three greedy seats without it (docs/notebook/search.md, "Forma
    heuristic: bridges"). The whole estimate costs about 1-2 microseconds; greedy beats
    random play by ~600 to ~130 points in 4-player games. Terminal states return the
    exact margin.
    """
    n = s[N_PLAYERS]
    est = np.zeros(n, dtype=np.float64)
    for q in range(n):
        est[q] = s[SCORE + q]
    if s[TERMINAL] == 0:
        _add_potential(s, est)
    best_other = -1e18
    for q in range(n):
        if q != player and est[q] > best_other:
            best_other = est[q]
    return est[player] - best_other


_BRIDGE_WEIGHT = 50.0  # points of a bridge; progress counts as its squared share
_SUPPLY_WEIGHT = 0.5  # expected share of the squares still in supply that get placed
# A live stone's worth to the colour building round it: 10 x (its share of the sides)**2.
# Greedy with it won 38.1% of 240 4-player games against three greedy seats without it
# and 58.8% of 240 2-player games (weights 5 and 20 did worse; docs/notebook/search.md).
_STONE_WEIGHT = 10.0
_THREAT_FIRST = 7.0  # value to the seat to move of a free square it can close
_THREAT_MORE = 2.0
_LOW20 = (1 << SIZE) - 1
_LOW44 = (1 << (64 - SIZE)) - 1
_LOW63 = (1 << 63) - 1


@njit(cache=True, inline="always")
def _threat_bits(f_prev, f, f_next, i):
    """Squares of word i of the free plane ``f`` with exactly one free side (given
    the free words before and after it)."""
    up = (f << SIZE) | ((f_prev >> (64 - SIZE)) & _LOW20)
    down = ((f >> SIZE) & _LOW44) | (f_next << (64 - SIZE))
    left = ((f << 1) | ((f_prev >> 63) & 1)) & NOT_COL_A[i]
    right = (((f >> 1) & _LOW63) | (f_next << 63)) & NOT_COL_T[i]
    x1 = up ^ down
    x2 = left ^ right
    return f & (x1 ^ x2) & ~((up & down) | (left & right))


@njit(cache=True, inline="always")
def _free_word(s, i):
    if i < 0 or i >= WORDS:
        return 0
    return ~s[OCC + i] & BOARD_PLANE[i]


@njit(cache=True)
def _threat_word(s, i):
    """Word i of the plane of free squares with exactly one free side."""
    return _threat_bits(_free_word(s, i - 1), _free_word(s, i), _free_word(s, i + 1), i)


@njit(cache=True)
def enclosure_threats(s):
    """Free squares with exactly one free side (covering that side would enclose them).

    Neighbour planes are the free plane shifted by a row (20 bits) or a column (1 bit),
    carrying bits across the seven words; "exactly one of four" is a bit-sliced count.
    """
    threats = 0
    f_prev = 0
    f = _free_word(s, 0)
    for i in range(WORDS):
        f_next = _free_word(s, i + 1)
        threats += popcount(_threat_bits(f_prev, f, f_next, i))
        f_prev = f
        f = f_next
    return threats


@njit(cache=True, inline="always")
def _row_fill(x, seed):
    """The runs of row ``x`` (20 bits) that hold a bit of ``seed``."""
    s = seed & x
    while True:
        t = (s | (s << 1) | (s >> 1)) & x
        if t == s:
            return s
        s = t


@njit(cache=True)
def _fill(rows, reach):
    """Grow ``reach`` (per-row seeds) to everything of ``rows`` joined to it along edges.

    Alternating downward and upward sweeps until nothing changes: a chain that turns
    back on itself needs one more pair of sweeps per turn, so this is exact.
    """
    changed = True
    while changed:
        changed = False
        for r in range(SIZE):
            seed = reach[r]
            if r > 0:
                seed |= reach[r - 1]
            x = _row_fill(rows[r], seed)
            if x != reach[r]:
                reach[r] = x
                changed = True
        for r in range(SIZE - 2, -1, -1):
            x = _row_fill(rows[r], reach[r] | reach[r + 1])
            if x != reach[r]:
                reach[r] = x
                changed = True


@njit(cache=True)
def _edge_reach(rows, reach, side):
    """How far (in rows or columns) the chains of ``rows`` from one board edge reach.

    side 0 = north, 1 = south, 2 = west, 3 = east.
    """
    for r in range(SIZE):
        reach[r] = 0
    if side == 0:
        reach[0] = rows[0]
    elif side == 1:
        reach[SIZE - 1] = rows[SIZE - 1]
    else:
        edge = 1 if side == 2 else 1 << (SIZE - 1)
        for r in range(SIZE):
            reach[r] = rows[r] & edge
    _fill(rows, reach)
    span = 0
    if side < 2:
        for r in range(SIZE):
            if reach[r]:
                span = max(span, r + 1 if side == 0 else SIZE - r)
        return span
    cols = 0
    for r in range(SIZE):
        cols |= reach[r]
    if cols == 0:
        return 0
    if side == 2:
        while cols >> span:
            span += 1
        return span
    return SIZE - lowest_bit_index(cols)


@njit(cache=True)
def bridge_progress(s, q):
    """Bridge progress of player q in [0, 2]: per direction 1 for a finished bridge,
    else (share of the board's length covered by the chains from the two edges, at most
    19/20)**2.
    """
    rows = np.empty(SIZE, dtype=np.int64)
    reach = np.empty(SIZE, dtype=np.int64)
    for r in range(SIZE):
        rows[r] = _row(s, PIECES + q * WORDS, r) | _row(s, MARKS + q * WORDS, r)
    total = 0.0
    for first in (0, 2):
        a = _edge_reach(rows, reach, first)
        if a == SIZE:
            total += 1.0
            continue
        # Chains from both edges that overlap without joining are not a bridge yet.
        share = min(SIZE - 1, a + _edge_reach(rows, reach, first + 1)) / SIZE
        total += share * share
    return total


@njit(cache=True, inline="always")
def _colour_at(s, sq):
    """The player whose piece square or marker is on occupied square sq (-1: none)."""
    for q in range(s[N_PLAYERS]):
        if _bit(s, PIECES + q * WORDS, sq) | _bit(s, MARKS + q * WORDS, sq):
            return q
    return -1


@njit(cache=True, inline="always")
def _stone_sides(s, sq):
    """(owner, sides, owned) of the grey stone on sq: its sides on the board, and the
    one colour on its occupied sides with how many it holds (owner -1: no side
    occupied; -2: dead, touched by two colours or an obstacle, the counts then partial)."""
    owner = -1
    sides = 0
    owned = 0
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb < 0:
            continue
        sides += 1
        if not _bit(s, OCC, nb):
            continue
        q = _colour_at(s, nb)
        if q < 0 or (owner >= 0 and q != owner):
            return -2, sides, owned
        owner = q
        owned += 1
    return owner, sides, owned


@njit(cache=True)
def stone_potential(s, est, weight):
    """Add to ``est`` each live unclaimed stone's worth to the colour building round it.

    A stone is live for q when every occupied side of it is q's (piece square or
    marker) and at least one side is: only q can still claim it. It adds ``weight`` x
    (q's sides / the stone's sides)**2 to q's estimate, if q can still place. A stone
    touched by two colours can never be claimed and adds nothing.
    """
    for w in range(WORDS):
        bits = s[STONES + w]
        while bits:
            low = bits & -bits
            sq = w * 64 + lowest_bit_index(low)
            bits ^= low
            owner, sides, owned = _stone_sides(s, sq)
            if owner < 0 or owned == sides or (s[STUCK] >> owner) & 1:
                continue
            share = owned / sides
            est[owner] += weight * share * share


@njit(cache=True)
def _add_potential(s, est):
    n = s[N_PLAYERS]
    for q in range(n):
        if n == 2:  # see heuristic(): it pays at 2 players only
            est[q] += _BRIDGE_WEIGHT * bridge_progress(s, q)
        if not (s[STUCK] >> q) & 1:
            est[q] += _SUPPLY_WEIGHT * s[SUPPLY_SQUARES + q]
    stone_potential(s, est, _STONE_WEIGHT)
    # Free squares with exactly one free side: whoever covers that side encloses them,
    # most likely the seat to move.
    threats = enclosure_threats(s)
    if threats > 0:
        mover = s[PLAYER]
        est[mover] += _THREAT_FIRST + _THREAT_MORE * (threats - 1)
    tower = s[TOWER]
    if tower >= 0 and s[TOWER_OWNER] < 0:
        open_sides = 0
        for d in range(4):
            nb = NEIGHBOURS[tower, d]
            if nb >= 0 and not _bit(s, OCC, nb):
                open_sides += 1
        if open_sides == 1:
            est[s[PLAYER]] += 0.7 * _TOWER_POINTS


@njit(cache=True)
def determinize(s, observer, rng):
    """Forma has perfect information: nothing to resample."""
    return None
