"""Numba kernels of Forum Romanum (the game protocol of forumlab.core.game).

One int64 bitboard per colour plus an occupancy board; region tests are a mask
and a compare, majority counts are popcounts. After a ply only the (at most five)
regions through the destination cell can have filled, so settlement looks at those
alone; the end test is one AND against the union of the still-unsettled regions.
"""
import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index, nth_set_bit, popcount
from ...core.rng import rand_below
from .layout import (
    BOARD,
    CELL_REGIONS,
    CELLS,
    FIRST_COLOUR,
    FORUM_ROMANUM_ID,
    FROM_HAND,
    FULL,
    GAME_ID,
    HAND,
    MAX_COLOURS,
    MAX_MOVES,  # noqa: F401  (the protocol's move-list bound: forumlab.core.dispatch)
    MAX_REGIONS_PER_CELL,
    MAX_ROUNDS,
    N_COLOURS,
    N_PLAYERS,
    N_REGIONS,
    OCCUPIED,
    OPEN_CELLS,
    PIECES,
    PLAYER,
    PLY,
    REGION_MASKS,
    REGION_VALUES,
    SCORE,
    SEED,
    SETTLED,
    STATE_SIZE,
    SUBMOVE,
    TERMINAL,
    TRUNCATED,
    TURNS,
)

_POTENTIAL = 0.75  # weight of an open region's present outcome when it is full
_PIECES_BY_PLAYERS = np.array([0, 0, 8, 10, 8, 6, 5], dtype=np.int64)


@njit(cache=True)
def new_state(players, max_rounds, seed):
    """Initial state for 2-6 players; max_rounds = 0 means no turn cap."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    n_colours = 4 if players == 2 else players
    pieces = _PIECES_BY_PLAYERS[players]
    s[GAME_ID] = FORUM_ROMANUM_ID
    s[N_PLAYERS] = players
    s[N_COLOURS] = n_colours
    s[PIECES] = pieces
    s[MAX_ROUNDS] = max_rounds
    s[FIRST_COLOUR] = -1
    s[OPEN_CELLS] = FULL
    s[SEED] = seed
    for c in range(n_colours):
        s[HAND + c] = pieces
    return s


@njit(cache=True, inline="always")
def current_player(s):
    """Seat to move."""
    return s[PLAYER]


@njit(cache=True, inline="always")
def is_terminal(s):
    """True once the game has ended (naturally or by the turn cap)."""
    return s[TERMINAL] != 0


@njit(cache=True, inline="always")
def _first_colour_to_move(s):
    """(first colour, number of colours) that may move this ply."""
    if s[N_PLAYERS] == 2:
        if s[SUBMOVE] == 0:
            return 2 * s[PLAYER], 2
        return s[FIRST_COLOUR] ^ 1, 1
    return s[PLAYER], 1


@njit(cache=True)
def legal_moves(s, out):
    """Write the legal move codes, ascending, to out; return their number."""
    if s[TERMINAL] != 0:
        return 0
    c0, nc = _first_colour_to_move(s)
    empty = ~s[OCCUPIED] & FULL
    n = 0
    for c in range(c0, c0 + nc):
        base = c << 12
        if s[HAND + c] > 0:
            e = empty
            while e:
                out[n] = base | (FROM_HAND << 6) | lowest_bit_index(e)
                n += 1
                e &= e - 1
        else:
            b = s[BOARD + c]
            while b:
                src_base = base | (lowest_bit_index(b) << 6)
                b &= b - 1
                e = empty
                while e:
                    out[n] = src_base | lowest_bit_index(e)
                    n += 1
                    e &= e - 1
    return n


@njit(cache=True)
def is_legal(s, move):
    """Whether ``move`` is one of ``legal_moves(s)``, without generating them.

    The optional protocol kernel (:data:`forumlab.core.dispatch.OPTIONAL`): every
    non-negative code splits into (colour, src, dst) as ``legal_moves`` builds it, so
    the move is legal when the colour may move this ply, dst is an empty cell, and src
    is ``FROM_HAND`` while the colour has pieces in hand, else one of its pieces on the
    board. Any int64 may be asked.
    """
    if s[TERMINAL] != 0 or move < 0:
        return False
    c = move >> 12
    c0, nc = _first_colour_to_move(s)
    if c < c0 or c >= c0 + nc:
        return False
    src = (move >> 6) & 63
    dst = move & 63
    if not ((~s[OCCUPIED] & FULL) >> dst) & 1:
        return False
    if s[HAND + c] > 0:
        return src == FROM_HAND
    return src != FROM_HAND and (s[BOARD + c] >> src) & 1 == 1


# random_move and apply_move are inlined into their callers (playouts, searches):
# +12% random plies/s for about 4 s more of one-time compilation.
@njit(cache=True, inline="always")
def random_move(s, rng):
    """A uniformly random legal move without building the move list.

    Every colour that may move has the same number of legal moves (pieces x empty
    cells, or empty cells), so colour, piece and destination can be drawn
    independently. The destination is found by rejection: at least 17 of the 49
    cells are always empty, so this takes under three draws on average.
    """
    if s[N_PLAYERS] == 2:
        if s[SUBMOVE] == 0:
            c = 2 * s[PLAYER] + rand_below(rng, 2)
        else:
            c = s[FIRST_COLOUR] ^ 1
    else:
        c = s[PLAYER]
    occ = s[OCCUPIED]
    while True:
        dst = rand_below(rng, CELLS)
        if not (occ >> dst) & 1:
            break
    if s[HAND + c] > 0:
        return (c << 12) | (FROM_HAND << 6) | dst
    b = s[BOARD + c]
    src = nth_set_bit(b, rand_below(rng, popcount(b)))
    return (c << 12) | (src << 6) | dst


@njit(cache=True)
def _refresh_open_cells(s):
    settled = s[SETTLED]
    union = 0
    for r in range(N_REGIONS):
        if not (settled >> r) & 1:
            union |= REGION_MASKS[r]
    s[OPEN_CELLS] = union


@njit(cache=True, inline="always")
def _count_extremes(s, mask):
    """(highest count, colours with it, first such colour, lowest count, colours with
    it) of the colours' pieces inside ``mask``."""
    hi = -1
    n_hi = 0
    hi_colour = -1
    lo = 99
    n_lo = 0
    for k in range(s[N_COLOURS]):
        cnt = popcount(s[BOARD + k] & mask)
        if cnt > hi:
            hi, n_hi, hi_colour = cnt, 1, k
        elif cnt == hi:
            n_hi += 1
        if cnt < lo:
            lo, n_lo = cnt, 1
        elif cnt == lo:
            n_lo += 1
    return hi, n_hi, hi_colour, lo, n_lo


@njit(cache=True)
def _settle(s, r):
    """Settle full region r if one colour holds the majority (else it is deadlocked)."""
    mask = REGION_MASKS[r]
    n_colours = s[N_COLOURS]
    hi, n_hi, hi_colour, lo, n_lo = _count_extremes(s, mask)
    if n_hi != 1:
        return
    s[SCORE + hi_colour] += REGION_VALUES[r]
    penalty = 4 if n_lo == 1 else 2
    for k in range(n_colours):
        if popcount(s[BOARD + k] & mask) == lo:
            s[SCORE + k] -= penalty
    s[SETTLED] |= 1 << r
    _refresh_open_cells(s)


@njit(cache=True)
def _final_settlement(s):
    """Score every deadlocked (full, unsettled) region when the game ends."""
    occ = s[OCCUPIED]
    settled = s[SETTLED]
    n_colours = s[N_COLOURS]
    for r in range(N_REGIONS):
        mask = REGION_MASKS[r]
        if (settled >> r) & 1 or (occ & mask) != mask:
            continue
        hi = -1
        n_hi = 0
        for k in range(n_colours):
            cnt = popcount(s[BOARD + k] & mask)
            if cnt > hi:
                hi, n_hi = cnt, 1
            elif cnt == hi:
                n_hi += 1
        if n_hi == n_colours:  # everybody tied for the lead: nobody loses
            for k in range(n_colours):
                s[SCORE + k] += 4
            continue
        lo = 99
        n_lo = 0
        for k in range(n_colours):
            cnt = popcount(s[BOARD + k] & mask)
            if cnt == hi:
                s[SCORE + k] += 4
            elif cnt < lo:
                lo, n_lo = cnt, 1
            elif cnt == lo:
                n_lo += 1
        penalty = 4 if n_lo == 1 else 2
        for k in range(n_colours):
            if popcount(s[BOARD + k] & mask) == lo:
                s[SCORE + k] -= penalty


@njit(cache=True, inline="always")
def apply_move(s, move):
    """Play a legal move in place: place/move, settle, advance the turn, test the end."""
    c = move >> 12
    src = (move >> 6) & 63
    dst = move & 63
    if src == FROM_HAND:
        s[HAND + c] -= 1
    else:
        s[BOARD + c] ^= 1 << src
        s[OCCUPIED] ^= 1 << src
    s[BOARD + c] |= 1 << dst
    occ = s[OCCUPIED] | (1 << dst)
    s[OCCUPIED] = occ
    for k in range(MAX_REGIONS_PER_CELL):
        r = CELL_REGIONS[dst, k]
        if r < 0:
            break
        mask = REGION_MASKS[r]
        if (occ & mask) == mask and not (s[SETTLED] >> r) & 1:
            _settle(s, r)
    s[PLY] += 1
    if s[N_PLAYERS] == 2 and s[SUBMOVE] == 0:
        s[SUBMOVE] = 1
        s[FIRST_COLOUR] = c
    else:
        s[SUBMOVE] = 0
        s[FIRST_COLOUR] = -1
        s[TURNS] += 1
        p = s[PLAYER] + 1
        s[PLAYER] = 0 if p == s[N_PLAYERS] else p
    if (s[OPEN_CELLS] & ~occ) == 0:
        s[TERMINAL] = 1
        _final_settlement(s)
    elif s[MAX_ROUNDS] > 0 and s[TURNS] >= s[MAX_ROUNDS] * s[N_PLAYERS]:
        s[TERMINAL] = 1
        s[TRUNCATED] = 1
        _final_settlement(s)


@njit(cache=True)
def scores(s, out):
    """Score per player: the colour score, or the sum of a player's two colours."""
    if s[N_PLAYERS] == 2:
        out[0] = s[SCORE] + s[SCORE + 1]
        out[1] = s[SCORE + 2] + s[SCORE + 3]
    else:
        for p in range(s[N_PLAYERS]):
            out[p] = s[SCORE + p]


@njit(cache=True)
def _estimated_colour_scores(s, est):
    """Score so far plus, for every open region, the outcome it would have if it
    settled with the present counts, weighted by how full it is."""
    n_colours = s[N_COLOURS]
    occ = s[OCCUPIED]
    settled = s[SETTLED]
    counts = np.empty(MAX_COLOURS, dtype=np.int64)
    for k in range(n_colours):
        est[k] = s[SCORE + k]
    for r in range(N_REGIONS):
        if (settled >> r) & 1:
            continue
        mask = REGION_MASKS[r]
        filled = popcount(occ & mask)
        if filled == 0:
            continue
        frac = filled / popcount(mask)
        # Discounted so that settling a region now beats keeping an open lead that
        # the next players may still contest or deadlock.
        weight = _POTENTIAL * frac
        hi, n_hi, _, lo, n_lo = _count_extremes(s, mask)
        for k in range(n_colours):
            counts[k] = popcount(s[BOARD + k] & mask)
        lead_value = REGION_VALUES[r] if n_hi == 1 else 4
        penalty = 4.0 if n_lo == 1 else 2.0
        for k in range(n_colours):
            if counts[k] == hi and n_hi < n_colours:
                est[k] += weight * lead_value
            elif counts[k] == lo:
                est[k] -= weight * penalty


@njit(cache=True)
def heuristic(s, player):
    """Estimated final score of ``player`` minus the best estimate among the others.

    Terminal states return the exact score margin.
    """
    n_players = s[N_PLAYERS]
    est = np.zeros(MAX_COLOURS, dtype=np.float64)
    if s[TERMINAL] != 0:
        for k in range(s[N_COLOURS]):
            est[k] = s[SCORE + k]
    else:
        _estimated_colour_scores(s, est)
    if n_players == 2:
        mine = est[2 * player] + est[2 * player + 1]
        other = est[2 - 2 * player] + est[3 - 2 * player]
        return mine - other
    best_other = -1e18
    for p in range(n_players):
        if p != player and est[p] > best_other:
            best_other = est[p]
    return est[player] - best_other


@njit(cache=True)
def determinize(s, observer, rng):
    """Forum Romanum has perfect information: nothing to resample."""
    return None
