"""new_state: the seeded setup in the spec's exact draw order ("Chance and replay").

RNG: SplitMix64 (:mod:`forumlab.core.rng`) with state
``derive_seed("foundations-of-rome", seed)``. Draws, in order: shuffle the lots
0..N*N-1 (Fisher-Yates, i from len-1 down to 1, j = rand_below(i+1)); seat i's hand =
cards 6i..6i+5; era piles 1, 2, 3 = the next e1, e2, e3 cards (index 0 on top); reveal
slots 1-6 from pile 1 (with Invocations, first: shuffle the eligible ids ascending,
append cards 3e..3e+2 to the bottom of pile e+1, shuffle each pile); with monuments,
shuffle the ids 1..19 and display the first players+3; objectives 1..18 (shuffle,
hidden: seat i gets cards 2i, 2i+1, public: the first n face up); roles 1..15 (shuffle,
seat i gets 2i, 2i+1); Consul piles by size, ids ascending, each shuffled; then the
Consul's starting deeds (dealt after the hands) are placed one by one. Without the
draft every seat owns its hand's lots at once (a marker on each); with it the hands
are kept for the picks.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from ...core.rng import derive_seed, make_rng, rand_below
from .consul import consul_place
from .data import (
    CODE_COPIES,
    FAVOR_TOKENS,
    G_AUGUR,
    G_CONCORDIA,
    G_DISCORDIA,
    G_FLAMEN,
    G_NUMA,
    MONUMENT_MARKERS,
    N_INVOCATIONS,
    N_MONUMENTS,
    N_OBJECTIVES,
    N_PLAYER_CODES,
    N_ROLES,
    TOKEN_COUNT,
    TOKEN_FIRST,
)
from .layout import (
    BUYER,
    CONSUL,
    CONSUL_OWN,
    CONSUL_VP,
    CPILE,
    CPILE_N,
    DISPLAY,
    DRAFT,
    ERA,
    HAND_N,
    HANDS,
    INV_HOLDER,
    INVOCATION_CARD,
    MAX_TRADES_OPT,
    MAX_TURNS,
    MOD_INVOCATIONS,
    MOD_MONUMENTS,
    MOD_OBJECTIVES,
    MOD_ROLES,
    MOD_STEALING,
    MOD_TRADING,
    MODULES,
    MON_LEFT,
    N_PLAYERS,
    N_SRC,
    OBJ_DEALT,
    OBJ_FACE_UP,
    OBJ_PUBLIC,
    OFFER,
    OWN,
    PH_DRAFT,
    PH_OBJ,
    PH_PLAY,
    PH_ROLE,
    PHASE,
    PICK,
    PILE_LEN,
    PILE_POS,
    PILE_ROOM,
    PILES,
    PLAYER,
    PRICES,
    RNG,
    ROLE_DEALT,
    SEED,
    SEEN,
    SILVER,
    SIZE,
    SLOTS,
    SPARE,
    SPARE_N,
    SRC_START,
    START_PLAYER,
    STATE_SIZE,
    SUPPLY,
    TOKEN_POOL,
    TOKENS2,
    VP,
    VP_SRC,
)

SIDE_BY_PLAYERS = np.array([7, 7, 7, 8, 9, 10], dtype=np.int64)  # 1 human (Consul): the 2-player city
CONSUL_DEEDS = np.array([0, 0, 2, 4], dtype=np.int64)  # by CONSUL level


def pile_sizes(players: int, consul_deeds: int = 0) -> tuple[int, int, int]:
    """(e1, e2, e3): the era piles' deed counts for a player count (the spec's split;
    with the Consul, its starting deeds are not in the piles)."""
    n = int(SIDE_BY_PLAYERS[players])
    rest = n * n - 6 * players - consul_deeds
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
def first_setup_phase(s):
    """The first setup phase after the draft: objective keeps, role keeps or play."""
    if (s[MODULES] & MOD_OBJECTIVES) and not s[OBJ_PUBLIC]:
        return PH_OBJ
    if s[MODULES] & MOD_ROLES:
        return PH_ROLE
    return PH_PLAY


class SetupOptions(NamedTuple):
    """A game's options as the setup kernel reads them: one typed record (numba passes a
    NamedTuple to a kernel as one value), built by the facade from its checked options.

    Fields: ``players`` (1-5), ``module_bits`` (the set of modules in play,
    :data:`.layout.MODULE_BITS` or-ed), ``draft``, ``prices`` (the six deed-board slot
    prices, int64), ``max_turns`` (the cap on main actions), ``start_silver`` (each
    seat's starting silver, int64), ``obj_public`` (1: objectives dealt face up),
    ``max_trades`` (offers per turn), ``consul`` (0 or the Consul level, :mod:`.layout`).
    """

    players: int
    module_bits: int
    draft: bool
    prices: np.ndarray
    max_turns: int
    start_silver: np.ndarray
    obj_public: int
    max_trades: int
    consul: int


def setup_options(players: int, module_bits: int = 0, draft: bool = False, prices=(2, 3, 4, 6, 8, 10),
                  max_turns: int = 1000, start_silver=None, obj_public: bool = False, max_trades: int = 1,
                  consul: int = 0) -> SetupOptions:
    """A :class:`SetupOptions` with the kernel's types (defaults: the base game's rules).

    Args:
        players: 2-5 (1-4 with the Consul).
        module_bits: the modules in play as a bit set (:data:`.layout.MODULE_BITS`).
        draft: whether the deeds are drafted.
        prices: the six deed-board slot prices.
        max_turns: the cap on main actions.
        start_silver: each seat's starting silver (None: the spec's 5 + seat); a study
            option beyond the spec, see :mod:`.game`.
        obj_public: ``objectives="public"``.
        max_trades: offers per turn.
        consul: 0 or the Consul level.

    Returns:
        The record ``new_state`` takes.
    """
    silver = [5 + p for p in range(players)] if start_silver is None else start_silver
    return SetupOptions(int(players), int(module_bits), bool(draft), np.asarray(prices, dtype=np.int64),
                        int(max_turns), np.asarray(silver, dtype=np.int64), 1 if obj_public else 0,
                        int(max_trades), int(consul))


@njit(cache=True)
def _seats(s, o, n):
    """The option slots, and every seat's silver, supply and module pieces."""
    s[N_PLAYERS] = o.players
    s[SIZE] = n
    s[MAX_TURNS] = o.max_turns
    s[ERA] = 1
    s[BUYER] = -1
    s[MODULES] = o.module_bits
    s[DRAFT] = 1 if o.draft else 0
    s[OBJ_PUBLIC] = o.obj_public
    s[MAX_TRADES_OPT] = o.max_trades
    s[CONSUL] = o.consul
    s[OFFER] = -1
    for k in range(6):
        s[PRICES + k] = o.prices[k]
    monuments = (o.module_bits & MOD_MONUMENTS) != 0
    favors = (o.module_bits & (MOD_TRADING | MOD_STEALING)) != 0
    for p in range(o.players):
        s[SILVER + p] = o.start_silver[p]  # the spec's 5 + p unless the study option says else
        s[MON_LEFT + p] = MONUMENT_MARKERS if monuments else 0
        s[PICK + p] = -1
        for c in range(N_PLAYER_CODES):
            s[SUPPLY + p * N_PLAYER_CODES + c] = CODE_COPIES[c]
        if favors:
            s[TOKENS2 + p] = 2
        if o.consul:
            s[VP + p] = 5
            s[VP_SRC + p * N_SRC + SRC_START] = 5
    if favors:
        s[TOKEN_POOL] = FAVOR_TOKENS - 2 * o.players
    for g in range(N_INVOCATIONS + 1):
        s[INV_HOLDER + g] = -1


@njit(cache=True)
def _deal_deeds(s, o, deck, e1, e2):
    """Hands (owned at once without the draft), then the Consul's deeds, then the era
    piles, from the shuffled deck; returns the Consul's deeds."""
    for p in range(o.players):
        for k in range(6):
            lot = deck[6 * p + k]
            if o.draft:
                s[HANDS + 6 * p + k] = lot
                s[SEEN + lot] = np.int64(1) << p
            else:
                set_cell(s, OWN + 2 * p, lot)
        s[HAND_N + p] = 6 if o.draft else 0
    at = 6 * o.players
    n_consul = CONSUL_DEEDS[o.consul]
    consul_deeds = deck[at:at + n_consul].copy()
    at += n_consul
    sizes = (e1, e2, len(deck) - at - e1 - e2)
    for e in range(3):
        for k in range(sizes[e]):
            s[PILES + e * PILE_ROOM + k] = deck[at + k]
        at += sizes[e]
        s[PILE_LEN + e] = sizes[e]
    return consul_deeds


@njit(cache=True)
def _add_invocations(s, eligible, rng):
    """Invocations: three cards at the bottom of each era pile, each pile shuffled, the
    rest set aside (ascending)."""
    ne = len(eligible)
    inv = eligible.copy()
    shuffle(inv, 0, ne, rng)
    for e in range(3):
        for k in range(3):
            s[PILES + e * PILE_ROOM + s[PILE_LEN + e]] = INVOCATION_CARD + inv[3 * e + k]
            s[PILE_LEN + e] += 1
    for e in range(3):
        shuffle(s, PILES + e * PILE_ROOM, PILES + e * PILE_ROOM + s[PILE_LEN + e], rng)
    spare = np.sort(inv[9:])
    for k in range(ne - 9):
        s[SPARE + k] = spare[k]
    s[SPARE_N] = ne - 9


@njit(cache=True)
def _deal_module_cards(s, o, rng):
    """Monuments on display, objectives (two each, or face up), roles (two each) and the
    Consul's token piles, in the spec's draw order."""
    if o.module_bits & MOD_MONUMENTS:
        ids = np.arange(1, N_MONUMENTS + 1).astype(np.int64)
        shuffle(ids, 0, N_MONUMENTS, rng)
        for k in range(o.players + 3):
            s[DISPLAY + k] = ids[k]
    if o.module_bits & MOD_OBJECTIVES:
        ids = np.arange(1, N_OBJECTIVES + 1).astype(np.int64)
        shuffle(ids, 0, N_OBJECTIVES, rng)
        for p in range(o.players):
            if o.obj_public:
                s[OBJ_FACE_UP + p] = ids[p]
            else:
                s[OBJ_DEALT + 2 * p] = ids[2 * p]
                s[OBJ_DEALT + 2 * p + 1] = ids[2 * p + 1]
    if o.module_bits & MOD_ROLES:
        ids = np.arange(1, N_ROLES + 1).astype(np.int64)
        shuffle(ids, 0, N_ROLES, rng)
        for p in range(o.players):
            s[ROLE_DEALT + 2 * p] = ids[2 * p]
            s[ROLE_DEALT + 2 * p + 1] = ids[2 * p + 1]
    if o.consul:
        s[CONSUL_VP] = 5
        for size in range(1, 5):
            base = CPILE + 12 * (size - 1)
            for k in range(TOKEN_COUNT[size]):
                s[base + k] = TOKEN_FIRST[size] + k
            shuffle(s, base, base + TOKEN_COUNT[size], rng)
            s[CPILE_N + size - 1] = TOKEN_COUNT[size]


@njit(cache=True)
def _setup(o, seed, rng, e1, e2, eligible):
    n = SIDE_BY_PLAYERS[o.players]
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    _seats(s, o, n)
    s[SEED] = seed
    deck = np.arange(n * n).astype(np.int64)
    shuffle(deck, 0, n * n, rng)
    consul_deeds = _deal_deeds(s, o, deck, e1, e2)
    if o.module_bits & MOD_INVOCATIONS:
        _add_invocations(s, eligible, rng)
    for k in range(6):
        s[SLOTS + k] = s[PILES + k]
    s[PILE_POS] = 6
    _deal_module_cards(s, o, rng)
    s[START_PLAYER] = 0
    s[PLAYER] = 0
    s[RNG] = np.int64(rng[0])
    for k in range(len(consul_deeds)):
        set_cell(s, CONSUL_OWN, consul_deeds[k])
        consul_place(s, consul_deeds[k])
    s[PHASE] = PH_DRAFT if o.draft else first_setup_phase(s)
    return s


# invocations needing an absent module are removed: Concordia (trading or stealing),
# Discordia (stealing), Flamen (monuments), Augur (objectives), Numa (roles)
def eligible_invocations(modules: int) -> np.ndarray:
    """Ids of the invocations in play with these module bits, ascending."""
    out = []
    for g in range(1, N_INVOCATIONS + 1):
        if g == G_CONCORDIA and not modules & (MOD_TRADING | MOD_STEALING):
            continue
        if g == G_DISCORDIA and not modules & MOD_STEALING:
            continue
        if g == G_FLAMEN and not modules & MOD_MONUMENTS:
            continue
        if (g == G_AUGUR and not modules & MOD_OBJECTIVES) or (g == G_NUMA and not modules & MOD_ROLES):
            continue
        out.append(g)
    return np.array(out, dtype=np.int64)


def new_state(options: SetupOptions, seed: int) -> np.ndarray:
    """The start of a game (see the module docstring for the draw order).

    Args:
        options: the game's options (:func:`setup_options`).
        seed: the game's seed.

    Returns:
        The state array.
    """
    rng = make_rng(derive_seed("foundations-of-rome", seed))
    e1, e2, _ = pile_sizes(options.players, int(CONSUL_DEEDS[options.consul]))
    return _setup(options, seed, rng, e1, e2, eligible_invocations(options.module_bits))
