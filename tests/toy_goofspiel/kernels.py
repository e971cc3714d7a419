"""Numba kernels of the toy Goofspiel (the protocol of forumlab.core.game).

State slots are listed below. Move code = card value - 1 (0..K-1).
"""
import numpy as np
from numba import njit

from forumlab.core.bits import nth_set_bit, popcount
from forumlab.core.layout import HEADER_SIZE, PLAYERS_SLOT
from forumlab.core.rng import make_rng, rand_below

MAX_PLAYERS = 3
MAX_CARDS = 6
MAX_MOVES = MAX_CARDS

N_PLAYERS = PLAYERS_SLOT  # the core's header: the one slot generic code reads
CARDS = HEADER_SIZE  # K: cards per hand and prizes in the deck
PLAYER = CARDS + 1  # seat to bid
PLY = PLAYER + 1
TERMINAL = PLY + 1
ROUND = TERMINAL + 1  # prizes turned up before the current one; DECK[ROUND] is up now
SEED = ROUND + 1
HAND = SEED + 1  # MAX_PLAYERS bitmasks: bit c-1 = card c still in hand
BID = HAND + MAX_PLAYERS  # MAX_PLAYERS cards bid this round (0 = none yet)
SCORE = BID + MAX_PLAYERS  # MAX_PLAYERS totals
DECK = SCORE + MAX_PLAYERS  # MAX_CARDS prize values in the order they are turned up
STATE_SIZE = DECK + MAX_CARDS


@njit(cache=True)
def _shuffle(s, first, last, rng):
    """Fisher-Yates shuffle of s[first:last] in place."""
    for i in range(last - 1, first, -1):
        j = first + rand_below(rng, i - first + 1)
        s[i], s[j] = s[j], s[i]


@njit(cache=True)
def _new_state(players, cards, seed, rng):
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[N_PLAYERS] = players
    s[CARDS] = cards
    s[SEED] = seed
    for p in range(players):
        s[HAND + p] = (1 << cards) - 1
    for c in range(cards):
        s[DECK + c] = c + 1
    _shuffle(s, DECK, DECK + cards, rng)
    return s


def new_state(players, cards, seed):
    """The start: full hands, the prize deck shuffled by the seed."""
    return _new_state(players, cards, seed, make_rng(seed))


@njit(cache=True)
def current_player(s):
    """Seat to bid."""
    return s[PLAYER]


@njit(cache=True)
def is_terminal(s):
    """True after the last round."""
    return s[TERMINAL] != 0


@njit(cache=True)
def legal_moves(s, out):
    """The cards in the bidder's hand, ascending."""
    if s[TERMINAL] != 0:
        return 0
    hand = s[HAND + s[PLAYER]]
    n = 0
    for c in range(s[CARDS]):
        if (hand >> c) & 1:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def random_move(s, rng):
    """A uniformly random card of the bidder's hand."""
    hand = s[HAND + s[PLAYER]]
    return nth_set_bit(hand, rand_below(rng, popcount(hand)))


@njit(cache=True)
def apply_move(s, move):
    """Bid a card; the last bid of a round settles it and turns up the next prize."""
    p = s[PLAYER]
    s[HAND + p] &= ~(1 << move)
    s[BID + p] = move + 1
    s[PLY] += 1
    n = s[N_PLAYERS]
    if p + 1 < n:
        s[PLAYER] = p + 1
        return
    best = 0
    winner = -1
    for q in range(n):
        if s[BID + q] > best:
            best, winner = s[BID + q], q
        elif s[BID + q] == best:
            winner = -1
    if winner >= 0:
        s[SCORE + winner] += s[DECK + s[ROUND]]
    for q in range(n):
        s[BID + q] = 0
    s[ROUND] += 1
    s[PLAYER] = 0
    if s[ROUND] == s[CARDS]:
        s[TERMINAL] = 1


@njit(cache=True)
def scores(s, out):
    """Prize totals."""
    for p in range(s[N_PLAYERS]):
        out[p] = s[SCORE + p]


@njit(cache=True)
def heuristic(s, player):
    """Own total minus the best other total."""
    best = -1e18
    for q in range(s[N_PLAYERS]):
        if q != player and s[SCORE + q] > best:
            best = s[SCORE + q]
    return s[SCORE + player] - best


@njit(cache=True)
def determinize(s, observer, rng):
    """Resample what ``observer`` cannot see: the order of the prizes not yet turned
    up, and the bids of this round that other seats have made (each from that seat's
    hand before the bid)."""
    if s[TERMINAL] != 0:
        return
    _shuffle(s, DECK + s[ROUND] + 1, DECK + s[CARDS], rng)
    for q in range(s[PLAYER]):
        if q == observer:
            continue
        hand = s[HAND + q] | (1 << (s[BID + q] - 1))
        card = nth_set_bit(hand, rand_below(rng, popcount(hand)))
        s[HAND + q] = hand & ~(1 << card)
        s[BID + q] = card + 1
