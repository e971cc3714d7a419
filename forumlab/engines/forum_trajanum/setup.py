"""``new_state``: the seeded setup in the spec's exact draw order, and the ``setup``
ply's board filling (shared by both setup modes)."""
import numpy as np
from numba import njit

from ...core.rng import derive_seed, make_rng, rand_below
from .data import BUILDABLE
from .layout import (
    CARDS,
    CIT,
    CONV_USED,
    CORNERS,
    CRANE,
    CYCLE,
    D_KEPT,
    D_TAKE,
    FEMALE,
    FIXED,
    INTRO,
    MERCH,
    N_PLAYERS,
    NCOLS,
    PILES,
    POOL,
    R_A,
    R_B,
    R_C,
    R_R,
    R_T,
    RES,
    RV,
    SET,
    STATE_SIZE,
    T_A,
    T_B,
    T_BL,
    T_C,
    T_CITP,
    T_G,
    T_R,
    T_T,
    T_U,
    T_Y,
    TILE,
    TILEBB,
    TO_MOVE,
    TRAJAN,
    TW_OWNER_SHIFT,
    TW_SEEN_SHIFT,
    TW_UP,
)
from .scoring import seat_base

GAME_NAME = "forum-trajanum"
# the 31-tile pool before its shuffle, in the spec's order
POOL_ORDER = np.array([T_CITP, T_CITP + 1, T_CITP + 2, T_B, T_B, T_B, T_B, T_R, T_R, T_BL, T_BL, T_G, T_G,
                       T_Y, T_Y, T_A, T_A, T_A, T_A, T_C, T_C, T_C, T_C, T_T, T_T, T_T, T_T,
                       T_U, T_U, T_U, T_U], dtype=np.int64)
# setup ply: crane colour permutations of "rbgy" in lexicographic order of positions
PERMS = np.array([[a, b, c, d] for a in range(4) for b in range(4) for c in range(4) for d in range(4)
                  if len({a, b, c, d}) == 4], dtype=np.int64)
OPPOSITE = np.array([3, 2, 1, 0], dtype=np.int64)  # a1<->f6, f1<->a6


@njit(cache=True)
def shuffle(a, rng):
    """The spec's Fisher-Yates: for i = len-1 down to 1, swap i and randint(0..i)."""
    for i in range(len(a) - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit(cache=True)
def _chance(players, intro, fixed, rng):
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[N_PLAYERS] = players
    s[INTRO] = intro
    s[FIXED] = fixed
    s[CYCLE] = 1
    s[NCOLS] = 4 * (players + 1)
    s[CARDS] = -1
    s[CARDS + 1] = -1
    for i in range(3):
        s[CONV_USED + i] = -1  # no turn yet
    for i in range(4):
        s[D_TAKE + 2 * i] = -1
        s[D_TAKE + 2 * i + 1] = -1
        s[D_KEPT + i] = -1
    deck = np.empty(24, dtype=np.int64)
    for i in range(24):
        deck[i] = i // 2
    shuffle(deck, rng)
    s[PILES:PILES + 24] = deck
    for pile in range(3):
        s[TRAJAN + pile] = rand_below(rng, 4) + 1
    colours = np.arange(4, dtype=np.int64)
    shuffle(colours, rng)
    for p in range(players):
        b = seat_base(p)
        s[b + RES + R_T] = 1
        s[b + RES + R_B] = 1
        s[b + RES + R_A] = 1
        s[b + RES + R_C] = 1
        s[b + RES + R_R + colours[p]] += 1
        s[b + FEMALE] = rand_below(rng, 3)
        pool = POOL_ORDER.copy()
        shuffle(pool, rng)
        for i in range(31):
            s[b + POOL + i] = pool[i] | (p << TW_OWNER_SHIFT)
        for k in range(4):
            s[b + CRANE + k] = -2  # not chosen yet
    s[TO_MOVE] = 0
    return s


@njit(cache=True)
def fill_board(s, p, perm, row_choice, corner):
    """The ``setup`` ply of seat p: cranes, the female citizen, corners, tiles, river."""
    b = seat_base(p)
    own = p << TW_OWNER_SHIFT
    for k in range(4):
        s[b + CRANE + k] = PERMS[perm, k]
    cls = s[b + FEMALE]
    row = 2 * cls + row_choice
    s[b + CIT + 2 * row] = 1
    if row == 2:
        s[b + MERCH] = 1
    lo = 0 if cls != 0 else 1
    hi = 2 if cls != 2 else 1
    bb = np.int64(0)
    s[b + TILE + CORNERS[corner]] = (T_CITP + lo) | own | TW_UP
    s[b + TILE + CORNERS[OPPOSITE[corner]]] = (T_CITP + hi) | own | TW_UP
    bb |= np.int64(1) << CORNERS[corner]
    bb |= np.int64(1) << CORNERS[OPPOSITE[corner]]
    k = 0
    for c in range(4):
        if c != corner and c != OPPOSITE[corner]:
            s[b + TILE + CORNERS[c]] = s[b + POOL + k] | TW_UP
            bb |= np.int64(1) << CORNERS[c]
            k += 1
    for i in range(28):
        s[b + TILE + BUILDABLE[i]] = s[b + POOL + 2 + i]
        bb |= np.int64(1) << BUILDABLE[i]
    s[b + TILE + RV] = s[b + POOL + 30] | (np.int64(1) << (TW_SEEN_SHIFT + p))
    bb |= np.int64(1) << RV
    s[b + TILEBB] = bb
    for i in range(31):
        s[b + POOL + i] = 0
    s[b + SET] = 1


def new_state(players: int, intro: bool, fixed: bool, seed: int) -> np.ndarray:
    """The start position: every chance draw of the setup from the seed, in the
    spec's order, then (``fixed``) every seat's ``setup rbgy/1/a1`` or the first
    ``setup`` ply to play.

    Args:
        players: 2-4. intro: the introductory game. fixed: setup mode "fixed".
        seed: the game seed (the stream starts at derive_seed("forum-trajanum", seed)).

    Returns:
        The state array.
    """
    from .moves import start_game

    rng = make_rng(derive_seed(GAME_NAME, seed))
    s = _chance(players, int(intro), int(fixed), rng)
    start_game(s)
    return s

