"""new_state: the seeded setup in the spec's exact draw order ("Chance and replay").

RNG: SplitMix64 (:mod:`forumlab.core.rng`) with state
``derive_seed("foundations-of-rome", seed)``. Draws, in order: shuffle the lots
0..N*N-1 (Fisher-Yates, i from len-1 down to 1, j = rand_below(i+1)); seat i's hand =
cards 6i..6i+5; era piles 1, 2, 3 = the next e1, e2, e3 cards (index 0 on top); reveal
slots 1-6 from pile 1; with monuments, shuffle the ids 1..19 and display the first
players+3. Without the draft every seat owns its hand's lots at once (a marker on
each); with it the hands are kept for the picks.
"""
import numpy as np
from numba import njit

from ...core.rng import derive_seed, make_rng, rand_below
from .data import CODE_COPIES, LOT_MARKERS, MONUMENT_MARKERS, N_MONUMENTS, N_PLAYER_CODES  # noqa: F401
from .layout import (
    BUYER,
    DISPLAY,
    DRAFT,
    ERA,
    FOR_ID,
    GAME_ID,
    HAND_N,
    HANDS,
    MAX_TURNS,
    MOD_MONUMENTS,
    MODULES,
    MON_LEFT,
    N_PLAYERS,
    OWN,
    PH_DRAFT,
    PH_PLAY,
    PHASE,
    PICK,
    PILE_LEN,
    PILE_POS,
    PILE_ROOM,
    PILES,
    PLAYER,
    PRICES,
    RNG,
    SEED,
    SEEN,
    SILVER,
    SIZE,
    SLOTS,
    START_PLAYER,
    STATE_SIZE,
    SUPPLY,
)

SIDE_BY_PLAYERS = np.array([0, 0, 7, 8, 9, 10], dtype=np.int64)


def pile_sizes(players: int) -> tuple[int, int, int]:
    """(e1, e2, e3): the era piles' sizes for a player count (the spec's split)."""
    n = int(SIDE_BY_PLAYERS[players])
    rest = n * n - 6 * players
    e1 = -(-rest // 3)
    e2 = -(-(rest - e1) // 2)
    return e1, e2, rest - e1 - e2


@njit(cache=True)
def shuffle(a, first, last, rng):
    """Fisher-Yates shuffle of a[first:last] as the spec says (index first = top)."""
    for i in range(last - first - 1, 0, -1):
        j = rand_below(rng, i + 1)
        a[first + i], a[first + j] = a[first + j], a[first + i]


@njit(cache=True, inline="always")
def set_cell(s, base, cell):
    """Set a cell's bit on the bitboard at s[base:base+2]."""
    s[base + (cell >> 6)] |= np.int64(1) << (cell & 63)


@njit(cache=True)
def _setup(players, monuments, draft, prices, max_turns, seed, rng, e1, e2, start_silver):
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    n = SIDE_BY_PLAYERS[players]
    s[GAME_ID] = FOR_ID
    s[N_PLAYERS] = players
    s[SIZE] = n
    s[MAX_TURNS] = max_turns
    s[ERA] = 1
    s[BUYER] = -1
    s[SEED] = seed
    s[MODULES] = MOD_MONUMENTS if monuments else 0
    s[DRAFT] = 1 if draft else 0
    for k in range(6):
        s[PRICES + k] = prices[k]
    for p in range(players):
        s[SILVER + p] = start_silver[p]  # the spec's 5 + p unless the study option says else
        s[MON_LEFT + p] = MONUMENT_MARKERS if monuments else 0
        s[PICK + p] = -1
        for c in range(N_PLAYER_CODES):
            s[SUPPLY + p * N_PLAYER_CODES + c] = CODE_COPIES[c]
    deck = np.arange(n * n).astype(np.int64)
    shuffle(deck, 0, n * n, rng)
    for p in range(players):
        for k in range(6):
            lot = deck[6 * p + k]
            if draft:
                s[HANDS + 6 * p + k] = lot
                s[SEEN + lot] = np.int64(1) << p
            else:
                set_cell(s, OWN + 2 * p, lot)
        s[HAND_N + p] = 6 if draft else 0
    sizes = (e1, e2, n * n - 6 * players - e1 - e2)
    at = 6 * players
    for e in range(3):
        for k in range(sizes[e]):
            s[PILES + e * PILE_ROOM + k] = deck[at + k]
        at += sizes[e]
        s[PILE_LEN + e] = sizes[e]
    for k in range(6):
        s[SLOTS + k] = s[PILES + k]
    s[PILE_POS] = 6
    if monuments:
        ids = np.arange(1, N_MONUMENTS + 1).astype(np.int64)
        shuffle(ids, 0, N_MONUMENTS, rng)
        for k in range(players + 3):
            s[DISPLAY + k] = ids[k]
    s[START_PLAYER] = 0
    s[PLAYER] = 0
    s[PHASE] = PH_DRAFT if draft else PH_PLAY
    s[RNG] = np.int64(rng[0])
    return s


def new_state(players: int, monuments: bool, draft: bool, prices, max_turns: int, seed: int,
              start_silver=None) -> np.ndarray:
    """The start of a game (see the module docstring for the draw order).

    Args:
        players: 2-5.
        monuments: whether the Monuments module is in play.
        draft: whether the deeds are drafted.
        prices: the six deed-board slot prices.
        max_turns: the cap on main actions.
        seed: the game's seed.
        start_silver: each seat's starting silver (default: the spec's 5 + seat); a
            study option beyond the spec, see :mod:`.game`.

    Returns:
        The state array.
    """
    rng = make_rng(derive_seed("foundations-of-rome", seed))
    e1, e2, _ = pile_sizes(players)
    if start_silver is None:
        start_silver = [5 + p for p in range(players)]
    return _setup(players, monuments, draft, np.asarray(prices, dtype=np.int64), max_turns, seed,
                  rng, e1, e2, np.asarray(start_silver, dtype=np.int64))
