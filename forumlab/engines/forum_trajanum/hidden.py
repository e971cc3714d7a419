"""Hidden information: ``determinize`` (numba) and what each seat may observe.

Hidden from seat o (the spec's "Hidden information and chance"): the types of
face-down Colonia tiles (except o's own river tile), the other seats' draft plies of
the current round, tiles held and not yet revealed that o neither holds nor passed,
the pools of seats before their ``setup`` ply, and the order of the undrawn street
cards. A tile word records who has seen the tile (layout.TW_SEEN_SHIFT) and whether
it is face up, so "hidden from o" is "not up and o not among its seers".

``determinize(s, o, rng)`` follows the spec's steps (a)-(c) and decision 11 of the
reference engine's docstring, in the same draw order, so that from the same stream it
yields the same state: (a) undo the other seats' draft of this round; (b) for each
owner 0..n-1, one Fisher-Yates shuffle of its hidden tile types over their places
(board a1..f6 then rv, unplaced pool, held tiles by seat (k, r), passed tiles by
receiver, draft tiles by seat); (c) one shuffle of the undrawn street cards over the
undrawn positions of the three piles together. The stream is seeded from two 31-bit
draws of ``rng``.
"""
import numpy as np
from numba import njit

from ...core.rng import make_rng, next_u64, rand_below  # noqa: F401
from .layout import (
    D_KEPT,
    D_PAID,
    D_TAKE,
    D_TILES,
    DLEN,
    DONE,
    DRAWN,
    HELD,
    N_PLAYERS,
    PASSING,
    PILES,
    POOL,
    QLEN,
    QUEUE,
    R_T,
    RES,
    RV,
    SET,
    SP,
    STACK,
    TILE,
    TILEBB,
    TO_MOVE,
    TW_OWNER_SHIFT,
    TW_SEEN_SHIFT,
    TW_TYPE,
    TW_UP,
)
from .moves import I_DRAFT, KIND_SHIFT, M_KEEP, M_TAKE, apply_core, item_kind, take_moves
from .scoring import seat_base
from .setup import shuffle

SEEN_MASK = np.int64(15) << TW_SEEN_SHIFT


@njit(cache=True)
def _return_take(s, q):
    """Give seat q's taken tiles and tribunes back (its draft of this round undone)."""
    b = seat_base(q)
    for k in range(2):
        sp = s[D_TAKE + 2 * q + k]
        w = s[D_TILES + 2 * q + k]
        if not w & TW_UP:  # a face-down tile is unknown again (a face-up one keeps its seers)
            w &= ~SEEN_MASK
        if sp == RV:
            w |= np.int64(1) << (TW_SEEN_SHIFT + q)
        s[b + TILE + sp] = w
        s[b + TILEBB] |= np.int64(1) << sp
        s[D_TAKE + 2 * q + k] = -1
        s[D_TILES + 2 * q + k] = 0
    s[b + RES + R_T] += s[D_PAID + q]
    s[D_PAID + q] = 0
    if s[D_KEPT + q] >= 0:
        n = s[N_PLAYERS]
        s[PASSING + (q + n - 1) % n] = 0
        s[D_KEPT + q] = -1


@njit(cache=True)
def in_draft(s):
    """True while the round's draft is running."""
    return s[SP] > 0 and item_kind(s[STACK + s[SP] - 1]) == I_DRAFT and s[QLEN] > 0


@njit(cache=True)
def undo_draft(s, o):
    """Step (a): undo every other seat's draft action of the current round."""
    if not in_draft(s):
        return
    head = s[QUEUE]
    if head != o and s[D_TAKE + 2 * head] >= 0:
        _return_take(s, head)
    kept = 0
    for i in range(s[DLEN]):
        q = s[DONE + i]
        if q == o:
            s[DONE + kept] = q
            kept += 1
        else:
            _return_take(s, q)
            s[QUEUE + s[QLEN]] = q
            s[QLEN] += 1
    s[DLEN] = kept
    head = s[QUEUE]
    if s[D_TAKE + 2 * head] < 0:
        one = np.empty(2, dtype=np.int64)
        if take_moves(s, head, one, 0, 0, 2) == 1:
            apply_core(s, one[0])


@njit(cache=True, inline="always")
def _hidden(w, o):
    return w != 0 and not (w & TW_UP) and not ((w >> (TW_SEEN_SHIFT + o)) & 1)


@njit(cache=True)
def hidden_places(s, o, q, out):
    """Slots holding a tile of owner q whose type o has not seen, in decision 11's order."""
    n = s[N_PLAYERS]
    k = 0
    b = seat_base(q)
    for c in range(37):
        if _hidden(s[b + TILE + c], o):
            out[k] = b + TILE + c
            k += 1
    if s[b + SET] == 0:
        for i in range(31):
            out[k] = b + POOL + i
            k += 1
    for p in range(n):
        for j in range(2):
            w = s[seat_base(p) + HELD + j]
            if _hidden(w, o) and ((w >> TW_OWNER_SHIFT) & 3) == q:
                out[k] = seat_base(p) + HELD + j
                k += 1
    for p in range(n):
        w = s[PASSING + p]
        if _hidden(w, o) and ((w >> TW_OWNER_SHIFT) & 3) == q:
            out[k] = PASSING + p
            k += 1
    for p in range(n):
        for j in range(2):
            w = s[D_TILES + 2 * p + j]
            if _hidden(w, o) and ((w >> TW_OWNER_SHIFT) & 3) == q:
                out[k] = D_TILES + 2 * p + j
                k += 1
    return k


@njit(cache=True)
def _stream(rng):
    """The determinization stream: seeded from two 31-bit draws of rng."""
    hi = rand_below(rng, np.int64(1) << 31)
    lo = rand_below(rng, np.int64(1) << 31)
    out = np.empty(1, dtype=np.uint64)
    out[0] = np.uint64((hi << 31) | lo)
    return out


@njit(cache=True)
def determinize(s, observer, rng):
    """Resample in place what ``observer`` cannot see (module docstring)."""
    undo_draft(s, observer)
    stream = _stream(rng)
    places = np.empty(128, dtype=np.int64)
    for q in range(s[N_PLAYERS]):
        k = hidden_places(s, observer, q, places)
        types = np.empty(k, dtype=np.int64)
        for i in range(k):
            types[i] = s[places[i]] & TW_TYPE
        shuffle(types, stream)
        for i in range(k):
            s[places[i]] = (s[places[i]] & ~np.int64(TW_TYPE)) | types[i]
    slots = np.empty(24, dtype=np.int64)
    k = 0
    for pile in range(3):
        for i in range(s[DRAWN + pile], 8):
            slots[k] = PILES + 8 * pile + i
            k += 1
    cards = np.empty(k, dtype=np.int64)
    for i in range(k):
        cards[i] = s[slots[i]]
    shuffle(cards, stream)
    for i in range(k):
        s[slots[i]] = cards[i]


@njit(cache=True)
def observation(s, seat):
    """What ``seat`` sees: the others' draft undone, unseen tile types and undrawn
    cards blanked (a state determinize cannot change)."""
    v = s.copy()
    undo_draft(v, seat)
    places = np.empty(128, dtype=np.int64)
    for q in range(v[N_PLAYERS]):
        k = hidden_places(v, seat, q, places)
        for i in range(k):
            v[places[i]] &= ~np.int64(TW_TYPE)
    for pile in range(3):
        for i in range(v[DRAWN + pile], 8):
            v[PILES + 8 * pile + i] = -1
    return v


def hides_move(array, move: int, seat: int) -> bool:
    """Whether ``move``, about to be played in ``array``, is secret to ``seat``: another
    seat's ``take`` or ``keep`` in the draft (public once the draft ends); every other
    ply, the setup ones too, is public."""
    mover = int(array[TO_MOVE])
    return mover != seat and int(move) >> KIND_SHIFT in (M_TAKE, M_KEEP)
