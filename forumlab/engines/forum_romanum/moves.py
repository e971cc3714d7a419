"""Forum Romanum move codes, legal-move generation and playing a move.

Move code: ``colour << COLOUR_SHIFT | src << SRC_SHIFT | dst``, where ``colour`` is the
global colour id (:mod:`.layout`), ``dst`` the target cell and ``src`` the piece's
cell, or ``FROM_HAND`` for a placement. Each colour's codes fill one block of
``CODES_PER_COLOUR``, so the codes of a game with ``n`` colours lie below
``n * CODES_PER_COLOUR`` (the action space of :mod:`.tensor`).

One int64 bitboard per colour plus an occupancy board: a colour that still has pieces
in hand places one on any empty cell, otherwise it moves one of its pieces to any
empty cell. After a ply only the (at most five) regions through the destination cell
can have filled, so settlement looks at those alone.
"""
from numba import njit

from ...core.bits import lowest_bit_index, popcount, select_bit
from ...core.rng import rand_below
from .layout import (
    BOARD,
    CELL_REGIONS,
    FIRST_COLOUR,
    FULL,
    HAND,
    MAX_REGIONS_PER_CELL,
    N_PLAYERS,
    OCCUPIED,
    PLAYER,
    PLY,
    REGION_MASKS,
    SETTLED,
    SUBMOVE,
    TERMINAL,
    TURNS,
)
from .scoring import end_if_over, settle

SRC_SHIFT = 6  # src and dst are 6-bit cell fields
COLOUR_SHIFT = 12
CELL_FIELD = (1 << SRC_SHIFT) - 1  # 63: the mask of a cell field
FROM_HAND = CELL_FIELD  # src of a placement: no cell has this index
CODES_PER_COLOUR = 1 << COLOUR_SHIFT
# Every colour id is below 8: a colour masked with this is known to be >= 0, so numba
# indexes the state with it without its negative-index wraparound (random plies per CPU
# second +3% to +4% in random_move and apply_move).
COLOUR_MASK = 7
MAX_MOVES = 512  # bound: 2 colours x 8 pieces x 17 empty cells = 272 in the 2-player game


def encode_move(colour: int, src: int, dst: int) -> int:
    """Move code from its parts (src = FROM_HAND for a placement)."""
    return (colour << COLOUR_SHIFT) | (src << SRC_SHIFT) | dst


def decode_move(move: int) -> tuple[int, int, int]:
    """(colour, src, dst) of a move code."""
    return move >> COLOUR_SHIFT, (move >> SRC_SHIFT) & CELL_FIELD, move & CELL_FIELD


@njit(cache=True, inline="always")
def current_player(s):
    """Seat to move."""
    return s[PLAYER]


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
        base = c << COLOUR_SHIFT
        if s[HAND + c] > 0:
            e = empty
            while e:
                out[n] = base | (FROM_HAND << SRC_SHIFT) | lowest_bit_index(e)
                n += 1
                e &= e - 1
        else:
            b = s[BOARD + c]
            while b:
                src_base = base | (lowest_bit_index(b) << SRC_SHIFT)
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
    c = move >> COLOUR_SHIFT
    c0, nc = _first_colour_to_move(s)
    if c < c0 or c >= c0 + nc:
        return False
    src = (move >> SRC_SHIFT) & CELL_FIELD
    dst = move & CELL_FIELD
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
    cells, or empty cells), so colour, destination and piece are drawn independently,
    in that order: the destination is the k-th empty cell and the piece the k-th of
    the colour's pieces, each picked by ``select_bit`` without a data-dependent branch
    (a rejection loop for the cell, or a loop of k steps for the piece, mispredicts
    about once a ply).
    """
    if s[N_PLAYERS] == 2:
        if s[SUBMOVE] == 0:
            c = 2 * s[PLAYER] + rand_below(rng, 2)
        else:
            c = s[FIRST_COLOUR] ^ 1
    else:
        c = s[PLAYER] & COLOUR_MASK
    empty = ~s[OCCUPIED] & FULL
    dst = select_bit(empty, rand_below(rng, popcount(empty)))
    if s[HAND + c] > 0:
        return (c << COLOUR_SHIFT) | (FROM_HAND << SRC_SHIFT) | dst
    b = s[BOARD + c]
    src = select_bit(b, rand_below(rng, popcount(b)))
    return (c << COLOUR_SHIFT) | (src << SRC_SHIFT) | dst


@njit(cache=True, inline="always")
def apply_move(s, move):
    """Play a legal move in place: place/move, settle, advance the turn, test the end."""
    c = (move >> COLOUR_SHIFT) & COLOUR_MASK
    src = (move >> SRC_SHIFT) & CELL_FIELD
    dst = move & CELL_FIELD
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
            settle(s, r)
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
    end_if_over(s, occ)
