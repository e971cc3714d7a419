"""Hidden information: ``determinize`` (numba) and what each seat may observe.

Hidden from everyone: the era piles' contents and order. In the draft, hidden from
other seats: a hand's cards the observer has not seen (a hand moves as a unit, so
its cards share one seen-mask) and the pending (unrevealed) picks of this round.

``determinize(s, o, rng)`` (the spec's "Hidden information", steps 1 and 4; the
others need later modules):

1. The *unlocated* places for o: every card still in an era pile and, for every
   other seat q, the cards of q's hand-and-pick that o has not seen. Their cards are
   shuffled among those places (each place keeps its seen-mask, so what every seat
   has seen stays consistent); then each era pile is shuffled.
2. Each other seat's pending pick is put back into its hand and redrawn from it (the
   hand is kept sorted).
3. The RNG word is replaced by a draw from ``rng``.
"""
import numpy as np
from numba import njit

from ...core.rng import next_u64, rand_below
from .layout import (
    HAND_N,
    HANDS,
    N_PLAYERS,
    PH_OVER,
    PHASE,
    PICK,
    PILE_LEN,
    PILE_POS,
    PILE_ROOM,
    PILES,
    RNG,
    SEEN,
)
from .setup import shuffle


@njit(cache=True)
def determinize(s, observer, rng):
    """Resample in place what ``observer`` cannot see (module docstring)."""
    if s[PHASE] == PH_OVER:
        return
    np_ = s[N_PLAYERS]
    places = np.empty(400, dtype=np.int64)
    k = 0
    for e in range(3):
        for i in range(s[PILE_POS + e], s[PILE_LEN + e]):
            places[k] = PILES + e * PILE_ROOM + i
            k += 1
    for q in range(np_):
        if q == observer:
            continue
        for j in range(s[HAND_N + q]):
            lot = s[HANDS + 6 * q + j]
            if not (s[SEEN + lot] >> observer) & 1:
                places[k] = HANDS + 6 * q + j
                k += 1
        lot = s[PICK + q]
        if lot >= 0 and not (s[SEEN + lot] >> observer) & 1:
            places[k] = PICK + q
            k += 1
    if k > 0:
        # Sorted before the shuffle, so that the result depends on the set of
        # unlocated cards (which the observer knows), never on where they truly are.
        cards = np.empty(k, dtype=np.int64)
        masks = np.empty(k, dtype=np.int64)
        for i in range(k):
            cards[i] = s[places[i]]
            masks[i] = s[SEEN + cards[i]]
        cards.sort()
        shuffle(cards, 0, k, rng)
        for i in range(k):
            s[places[i]] = cards[i]
            s[SEEN + cards[i]] = masks[i]
        for e in range(3):
            shuffle(s, PILES + e * PILE_ROOM + s[PILE_POS + e], PILES + e * PILE_ROOM + s[PILE_LEN + e], rng)
    unit = np.empty(7, dtype=np.int64)
    for q in range(np_):
        if q == observer:
            continue
        # Another seat's hand (and pending pick) as a sorted unit; the pick is redrawn.
        cnt = s[HAND_N + q]
        h = HANDS + 6 * q
        for j in range(cnt):
            unit[j] = s[h + j]
        picked = s[PICK + q] >= 0
        if picked:
            unit[cnt] = s[PICK + q]
        m = cnt + 1 if picked else cnt
        unit[:m].sort()
        if picked:
            j = rand_below(rng, m)
            s[PICK + q] = unit[j]
            unit[j] = unit[m - 1]
            unit[:cnt].sort()
        for j in range(cnt):
            s[h + j] = unit[j]
    s[RNG] = np.int64(next_u64(rng) >> np.uint64(1))


def observation(array: np.ndarray, seat: int) -> np.ndarray:
    """What ``seat`` may see: the array with the piles' cards, the seen-masks and the RNG
    word blanked, and each other seat's hand-and-pick reduced to the sorted cards the
    seat has seen (-2 for the others, -1 for empty places) plus a flag for a pending pick.

    Args:
        array: a state.
        seat: the observer.

    Returns:
        A new int64 array; two states give the same one exactly when ``seat`` cannot
        tell them apart.
    """
    seen = array.copy()
    for e in range(3):
        seen[PILES + e * PILE_ROOM:PILES + (e + 1) * PILE_ROOM] = -1
    seen[SEEN:SEEN + 100] = 0
    seen[RNG] = 0
    for q in range(int(array[N_PLAYERS])):
        if q == seat:
            continue
        cards = [int(array[HANDS + 6 * q + j]) for j in range(int(array[HAND_N + q]))]
        pick = int(array[PICK + q])
        if pick >= 0:
            cards.append(pick)
        shown = sorted(c if (int(array[SEEN + c]) >> seat) & 1 else -2 for c in cards)
        seen[HANDS + 6 * q:HANDS + 6 * q + 6] = shown + [-1] * (6 - len(shown))
        seen[PICK + q] = 1 if pick >= 0 else 0
    return seen
