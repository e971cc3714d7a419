"""Hidden information: ``determinize`` (numba) and what each seat may observe.

Hidden from everyone: the era piles' contents and order (which invocations are in
them and which are spare, not how many each pile holds), the order of the Consul's
token piles. Hidden from other seats: a draft hand's cards the observer has not seen
(a hand moves as a unit, so its cards share one seen-mask), the pending (unrevealed)
picks of this round, dealt and kept objectives (hidden mode), dealt roles and the
choice until the reveal (after it, the unchosen half of each pair).

``determinize(s, o, rng)`` (the spec's "Hidden information", in this order of draws):

1. The *unlocated* deed places for o: every deed still in an era pile and, for every
   other seat q, the cards of q's hand-and-pick that o has not seen. Their cards
   (sorted, so that the result depends only on what o knows) are shuffled among those
   places (each place keeps its seen-mask, so what every seat has seen stays
   consistent). With Invocations, the unrevealed eligible invocations (the piles'
   cards plus the spares, sorted) are shuffled; the first fill the piles' invocation
   places in pile order, the rest are spare. Then each era pile is shuffled.
2. Each other seat's pending pick is put back into its hand and redrawn from it (the
   hand is kept sorted).
3. Hidden objectives: the cards o has not seen (all but its own pair) are shuffled and
   dealt in pairs to the other seats in seat order; a seat that has kept gets one of
   its new pair (one draw). Roles the same before the reveal; after it, the roles
   neither in o's pair nor anyone's choice are shuffled and each other seat gets the
   next one as the other half of its pair.
4. Each Consul token pile is shuffled (sizes 1-4).
5. The RNG word is replaced by a draw from ``rng``, and the seed slot is cleared (no draw):
   the seed would rebuild the true deal through ``new_state``.
"""
import numpy as np
from numba import njit

from ...core.rng import next_u64, rand_below
from .data import KEEP_OBJ_CODES, KEEP_ROLE_CODES, N_INVOCATIONS, N_OBJECTIVES, N_ROLES, PICK_BASE
from .layout import (
    CPILE,
    CPILE_N,
    HAND_N,
    HANDS,
    INVOCATION_CARD,
    MOD_OBJECTIVES,
    MOD_ROLES,
    MODULES,
    N_PLAYERS,
    OBJ_DEALT,
    OBJ_KEPT,
    OBJ_PUBLIC,
    PH_OVER,
    PHASE,
    PICK,
    PILE_LEN,
    PILE_POS,
    PILE_ROOM,
    PILES,
    RNG,
    ROLE,
    ROLE_DEALT,
    ROLE_PICK,
    SEED,
    SEEN,
    SIZE,
    SPARE,
    SPARE_N,
)
from .setup import shuffle


@njit(cache=True)
def determinize(s, observer, rng):
    """Resample in place what ``observer`` cannot see (module docstring)."""
    if s[PHASE] == PH_OVER:
        return
    _redeal_unlocated(s, observer, rng)
    _redraw_picks(s, observer, rng)
    if (s[MODULES] & MOD_OBJECTIVES) and not s[OBJ_PUBLIC]:
        _redeal_pairs(s, observer, OBJ_DEALT, OBJ_KEPT, N_OBJECTIVES, rng)
    if s[MODULES] & MOD_ROLES:
        if s[ROLE] == 0:
            _redeal_pairs(s, observer, ROLE_DEALT, ROLE_PICK, N_ROLES, rng)
        elif s[ROLE] != 0:
            _redeal_role_halves(s, observer, rng)
    for size in range(4):
        # sorted first: the view must not depend on the true order
        base = CPILE + 12 * size
        s[base:base + s[CPILE_N + size]] = np.sort(s[base:base + s[CPILE_N + size]])
        shuffle(s, base, base + s[CPILE_N + size], rng)
    s[RNG] = np.int64(next_u64(rng) >> np.uint64(1))
    s[SEED] = 0  # the seed would rebuild the true deal (new_state(seed)): never shown


@njit(cache=True)
def _pile_cards(s, cards, invocations):
    """The era piles' deeds into ``cards`` and their invocation ids into
    ``invocations``, as found; returns (deeds, invocations)."""
    k = 0
    ni = 0
    for e in range(3):
        for i in range(PILES + e * PILE_ROOM + s[PILE_POS + e], PILES + e * PILE_ROOM + s[PILE_LEN + e]):
            if s[i] < INVOCATION_CARD:
                cards[k] = s[i]
                k += 1
            else:
                invocations[ni] = s[i] - INVOCATION_CARD
                ni += 1
    return k, ni


@njit(cache=True)
def _pile_places(s, places, inv_places):
    """The piles' canonical places: each pile's deeds first, then its invocations, so
    that where the invocations truly lie in a pile does not show through the pile
    shuffle; returns (deed places, invocation places)."""
    k = 0
    ni = 0
    for e in range(3):
        first = PILES + e * PILE_ROOM + s[PILE_POS + e]
        last = PILES + e * PILE_ROOM + s[PILE_LEN + e]
        invs = 0
        for i in range(first, last):
            if s[i] >= INVOCATION_CARD:
                invs += 1
        for i in range(first, last - invs):
            places[k] = i
            k += 1
        for i in range(last - invs, last):
            inv_places[ni] = i
            ni += 1
    return k, ni


@njit(cache=True)
def _unseen_hand_cards(s, observer, places, cards, k):
    """Append every other seat's hand cards and pending pick that ``observer`` has not
    seen (their places and cards) from index k; returns the new count."""
    for q in range(s[N_PLAYERS]):
        if q == observer:
            continue
        for j in range(s[HAND_N + q]):
            lot = s[HANDS + 6 * q + j]
            if not (s[SEEN + lot] >> observer) & 1:
                places[k] = HANDS + 6 * q + j
                cards[k] = lot
                k += 1
        lot = s[PICK + q]
        if lot >= 0 and not (s[SEEN + lot] >> observer) & 1:
            places[k] = PICK + q
            cards[k] = lot
            k += 1
    return k


@njit(cache=True)
def _redeal_unlocated(s, observer, rng):
    """Step 1 of the module docstring: the unlocated deeds shuffled among their places,
    the unrevealed invocations redealt, each era pile shuffled."""
    places = np.empty(400, dtype=np.int64)
    inv_places = np.empty(30, dtype=np.int64)
    cards = np.empty(400, dtype=np.int64)  # the unlocated deeds, collected as found
    invocations = np.empty(30, dtype=np.int64)  # the piles' invocation ids
    _pile_cards(s, cards, invocations)
    k, ni = _pile_places(s, places, inv_places)
    k = _unseen_hand_cards(s, observer, places, cards, k)
    if k > 0 or ni > 0:
        # Sorted before the shuffle, so that the result depends on the set of
        # unlocated cards (which the observer knows), never on where they truly are.
        # Each place keeps the seen-mask of the card it held (pile places: none).
        masks = np.empty(k, dtype=np.int64)
        for i in range(k):
            masks[i] = s[SEEN + cards[i]]
        cards = np.sort(cards[:k])
        shuffle(cards, 0, k, rng)
        for i in range(k):
            s[places[i]] = cards[i]
            s[SEEN + cards[i]] = masks[i]
        if ni > 0 or s[SPARE_N] > 0:
            _redeal_invocations(s, inv_places, invocations, ni, rng)
        for e in range(3):
            shuffle(s, PILES + e * PILE_ROOM + s[PILE_POS + e], PILES + e * PILE_ROOM + s[PILE_LEN + e], rng)


@njit(cache=True)
def _redraw_picks(s, observer, rng):
    """Step 2: another seat's hand (and pending pick) as a sorted unit; the pick is
    redrawn from it."""
    unit = np.empty(7, dtype=np.int64)
    for q in range(s[N_PLAYERS]):
        if q == observer:
            continue
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


@njit(cache=True)
def _roles_hidden(s):
    """Roles are still hidden (dealt, not yet revealed)."""
    return s[ROLE_DEALT] != 0


@njit(cache=True)
def _redeal_invocations(s, places, invocations, ni, rng):
    """The unrevealed invocations (piles' and spares) are shuffled; the first fill the
    piles' invocation places, the rest are spare (ascending)."""
    ns = s[SPARE_N]
    cards = np.empty(ni + ns, dtype=np.int64)
    for i in range(ni):
        cards[i] = invocations[i]
    for i in range(ns):
        cards[ni + i] = s[SPARE + i]
    cards.sort()
    shuffle(cards, 0, ni + ns, rng)
    for i in range(ni):
        s[places[i]] = INVOCATION_CARD + cards[i]
    rest = np.sort(cards[ni:])
    for i in range(ns):
        s[SPARE + i] = rest[i]


@njit(cache=True)
def _redeal_pairs(s, observer, dealt, kept, count, rng):
    """Other seats' pairs redrawn from the cards ``observer`` has not seen; a kept
    card redrawn from its new pair."""
    np_ = s[N_PLAYERS]
    unseen = np.empty(count, dtype=np.int64)
    k = 0
    for c in range(1, count + 1):
        if c != s[dealt + 2 * observer] and c != s[dealt + 2 * observer + 1]:
            unseen[k] = c
            k += 1
    shuffle(unseen, 0, k, rng)
    at = 0
    for q in range(np_):
        if q == observer:
            continue
        s[dealt + 2 * q] = unseen[at]
        s[dealt + 2 * q + 1] = unseen[at + 1]
        at += 2
    for q in range(np_):
        if q != observer and s[kept + q] != 0:
            s[kept + q] = s[dealt + 2 * q + rand_below(rng, 2)]


@njit(cache=True)
def _redeal_role_halves(s, observer, rng):
    """After the reveal: the unchosen half of each other seat's pair is redrawn from
    the roles neither in the observer's pair nor anyone's choice."""
    np_ = s[N_PLAYERS]
    unseen = np.empty(N_ROLES, dtype=np.int64)
    k = 0
    for c in range(1, N_ROLES + 1):
        if c == s[ROLE_DEALT + 2 * observer] or c == s[ROLE_DEALT + 2 * observer + 1]:
            continue
        chosen = False
        for q in range(np_):
            if s[ROLE_PICK + q] == c:
                chosen = True
        if not chosen:
            unseen[k] = c
            k += 1
    shuffle(unseen, 0, k, rng)
    at = 0
    for q in range(np_):
        if q == observer:
            continue
        s[ROLE_DEALT + 2 * q] = s[ROLE_PICK + q]
        s[ROLE_DEALT + 2 * q + 1] = unseen[at]
        at += 1


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
        # only how many invocations each pile holds is public
        pile = array[PILES + e * PILE_ROOM + array[PILE_POS + e]:PILES + e * PILE_ROOM + array[PILE_LEN + e]]
        seen[PILES + e * PILE_ROOM:PILES + (e + 1) * PILE_ROOM] = -1
        seen[PILES + e * PILE_ROOM] = int((pile >= INVOCATION_CARD).sum())
    seen[SPARE:SPARE + N_INVOCATIONS] = 0
    for size in range(4):
        base = CPILE + 12 * size
        seen[base:base + 12] = np.sort(array[base:base + 12])
    players = int(array[N_PLAYERS])
    for q in range(players):
        if q == seat:
            continue
        if not array[OBJ_PUBLIC]:
            seen[OBJ_DEALT + 2 * q:OBJ_DEALT + 2 * q + 2] = 0
            seen[OBJ_KEPT + q] = 1 if array[OBJ_KEPT + q] else 0
        if array[ROLE] == 0:
            seen[ROLE_DEALT + 2 * q:ROLE_DEALT + 2 * q + 2] = 0
            seen[ROLE_PICK + q] = 1 if array[ROLE_PICK + q] else 0
        else:
            seen[ROLE_DEALT + 2 * q:ROLE_DEALT + 2 * q + 2] = 0
    seen[SEEN:SEEN + 128] = 0
    seen[RNG] = 0
    seen[SEED] = 0
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


def secret_move(array: np.ndarray, move: int) -> bool:
    """Whether a move of the seat to act stays secret from the other seats: a draft pick
    (its lot shows on the board when the round's last pick reveals them all) or a kept
    objective or role (hidden until the reveal). Every other move is public."""
    code = int(move)
    n = int(array[SIZE])
    return PICK_BASE <= code < PICK_BASE + n * n or code in KEEP_OBJ_CODES or code in KEEP_ROLE_CODES
