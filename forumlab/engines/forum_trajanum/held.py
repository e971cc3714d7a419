"""The heuristic's worth of the Colonia tiles a seat holds but has not used yet.

Without this term the leaf value could not tell the draft's moves apart: every ``take``
of the same tribune cost and both ``keep`` moves scored the same (the diagnosis is in
``docs/notebook/search.md``). Here a tile is worth what using it
adds to the leaf value of :mod:`.heuristic` (same scale, VP), and an own tile also its
envoy, since it goes to the ship used or not:

* a resource tile: one resource, 0.5 (the weight the leaf gives a resource);
* an upgrade: the bar steps it makes (two with Merchant I up to the next cypress,
  capped at 8) times ``0.3 + [the seat has an envoy group]`` per scoring left, the
  weight the leaf gives prestige through the area points and the 0.3 term;
* a citizen: ``0.7`` per scoring left (an active citizen's weight) if a row of its
  class has room, else nothing (the tile then has no effect); an own citizen used is
  placed in a row instead of going to the ship, so its envoy comes off.

A seat uses one of its two tiles on its turn, or both for two tribunes, so a pair that
is still to be chosen from is worth the better tile, plus the other one less the two
tribunes (1.0) when that is positive and the seat has the tribunes. Once the seat has
chosen, only the tiles being used keep their use worth. During the draft a seat that
has taken keeps its better tile and passes the other to its right neighbour; for a
seat still to take, the two tiles stand at the mean worth of the tiles left on its own
board and its left neighbour's (in a determinization those hidden tiles are sampled,
so the mean is the seat's expectation). Which tiles a seat holds and which of them is
still to be chosen is read from the state and the pending-work stack.

With weights on the heuristic's terms (``w``: :func:`held_weights`; None: all 1) a tile is
worth what using it adds to the weighted leaf value: a resource, its envoy and the
tribunes by the ``resources`` and ``envoys`` weights, a citizen by ``citizens``, an
upgrade by ``prestige`` and (with an envoy group) ``area``; so a seat weighing citizens
high drafts citizens. Every weight 1 gives the unweighted worth exactly (x * 1.0 is x).
"""
from numba import njit, types
from numba.extending import overload

from .layout import (
    D_KEPT,
    D_TAKE,
    D_TILES,
    HELD,
    N_PLAYERS,
    OVER,
    PASSING,
    PRES,
    R_T,
    RES,
    SP,
    STACK,
    T_CITC,
    T_CITP,
    T_NONE,
    T_U,
    TILE,
    TW_OWNER_SHIFT,
    TW_PLACED,
    TW_TYPE,
)
from .moves import I_CIT, I_DRAFT, I_TILE, I_TURN, I_USE, cit_rows, item_a, item_b, item_c, item_kind
from .scoring import on_forum, seat_base, upgraded_position
from .terms import TERM_NAMES

# The terms a held tile's worth reads, and their places in the tuple held_weights builds
# (a tuple of floats is passed by value: handing the weight array down the calls below
# reference-counted it at each one, which cost the heuristic a fifth of its time).
_HELD_TERMS = ("resources", "envoys", "citizens", "prestige", "area")
_T_RESOURCES, _T_ENVOYS, _T_CITIZENS, _T_PRESTIGE, _T_AREA = (TERM_NAMES.index(n) for n in _HELD_TERMS)
_W_RESOURCES, _W_ENVOYS, _W_CITIZENS, _W_PRESTIGE, _W_AREA = range(len(_HELD_TERMS))

# The leaf value's weights (heuristic._value reads them from here, so both stay in step)
RESOURCE_WORTH = 0.5  # one resource
ENVOY_WORTH = 0.7  # one envoy in the ship
CITIZEN_WORTH = 0.7  # one active citizen, per scoring left
PRESTIGE_WORTH = 0.3  # one prestige step, per scoring left (besides the area points)
BOTH_TILES_COST = 2 * RESOURCE_WORTH  # the two tribunes of ``use kr``


@njit(cache=True, inline="always")
def held_weights(w):
    """The weights of the terms a held tile feeds, from the heuristic's weight array ``w``
    (:mod:`.terms` order), as the tuple the functions below take."""
    return (w[_T_RESOURCES], w[_T_ENVOYS], w[_T_CITIZENS], w[_T_PRESTIGE], w[_T_AREA])


def weight(w, k):
    """Weight k of :func:`held_weights`' tuple ``w``, or 1.0 when ``w`` is None (numba:
    decided by type)."""
    return 1.0 if w is None else w[k]


@overload(weight, inline="always")
def _weight_typed(w, k):
    if w is None or isinstance(w, (types.NoneType, types.Omitted)):
        return lambda w, k: 1.0
    return lambda w, k: w[k]


# tile_worth, use_worth and pair_worth are inlined: as calls, each passing the weight
# array (reference counted), they cost the heuristic half its time again
@njit(cache=True, inline="always")
def tile_worth(s, p, t, scorings_left, grouped, w=None):
    """What using a tile of type ``t`` adds to seat p's leaf value (``grouped``: the
    seat has at least one envoy on the Forum, so prestige counts at its area scoring;
    ``w``: the term weights, None for all 1)."""
    if t == T_NONE:
        return 0.0
    if T_CITP <= t <= T_CITC:
        if cit_rows(s, p, t - T_CITP) == 0:
            return 0.0
        return weight(w, _W_CITIZENS) * (CITIZEN_WORTH * scorings_left)
    if t == T_U:
        steps = upgraded_position(s, p) - s[seat_base(p) + PRES]
        return steps * scorings_left * (weight(w, _W_PRESTIGE) * PRESTIGE_WORTH
                                         + weight(w, _W_AREA) * (1.0 if grouped else 0.0))
    return weight(w, _W_RESOURCES) * RESOURCE_WORTH


@njit(cache=True, inline="always")
def use_worth(s, p, tw, scorings_left, grouped, w=None):
    """What using the tile of tile word ``tw`` adds to seat p's leaf value beyond what
    holding it does: an own citizen placed in a row no longer goes to the ship, so its
    envoy (counted for every own tile held) comes off. ``w``: the term weights."""
    t = tw & TW_TYPE
    worth = tile_worth(s, p, t, scorings_left, grouped, w)
    if T_CITP <= t <= T_CITC and worth > 0 and ((tw >> TW_OWNER_SHIFT) & 3) == p:
        worth -= weight(w, _W_ENVOYS) * ENVOY_WORTH
    return worth


@njit(cache=True, inline="always")
def pair_worth(first, second, tribunes, w=None):
    """A still-to-be-chosen pair: the better tile, plus the other one less the two
    tribunes of ``use kr`` when that gains and the seat has them (``w``: the term
    weights, which price the tribunes)."""
    best = max(first, second)
    other = min(first, second)
    cost = weight(w, _W_RESOURCES) * BOTH_TILES_COST
    if tribunes >= 2 and other > cost:
        return best + other - cost
    return best


@njit(cache=True)
def _mean_board_worth(s, p, owner, scorings_left, grouped, w):
    """Mean worth to seat p of the tiles still on ``owner``'s Colonia (0 if none)."""
    b = seat_base(owner) + TILE
    total = 0.0
    count = 0
    for cell in range(37):
        tw = s[b + cell]
        if tw != 0:
            total += use_worth(s, p, tw, scorings_left, grouped, w)
            count += 1
    return total / count if count > 0 else 0.0


@njit(cache=True)
def _keeps_first(s, q, scorings_left, grouped, w):
    """True if seat q, holding its two taken tiles, keeps the first (its better one by
    its own worth; ``grouped`` must be q's own ``on_forum``; ties keep the first)."""
    w0 = use_worth(s, q, s[D_TILES + 2 * q], scorings_left, grouped, w)
    w1 = use_worth(s, q, s[D_TILES + 2 * q + 1], scorings_left, grouped, w)
    return w0 >= w1


@njit(cache=True)
def _draft_worth(s, p, scorings_left, grouped, w):
    """Seat p's tiles while the draft is on: its kept (or better) tile and the tile it
    receives (or will receive) from its left neighbour."""
    n = s[N_PLAYERS]
    left = (p + 1) % n
    tribunes = s[seat_base(p) + RES + R_T]
    envoy = 0.0
    if s[D_TAKE + 2 * p] < 0:  # still to take: its own board's mean, and an envoy
        kept = _mean_board_worth(s, p, p, scorings_left, grouped, w)
        envoy = weight(w, _W_ENVOYS) * ENVOY_WORTH
    else:
        k = s[D_KEPT + p]
        if k < 0:
            k = 0 if _keeps_first(s, p, scorings_left, grouped, w) else 1
        kept = use_worth(s, p, s[D_TILES + 2 * p + k], scorings_left, grouped, w)
        envoy = weight(w, _W_ENVOYS) * ENVOY_WORTH
    if s[PASSING + p] != 0:
        received = use_worth(s, p, s[PASSING + p], scorings_left, grouped, w)
    elif s[D_TAKE + 2 * left] >= 0:  # taken, not yet kept: it passes its worse tile
        passed = 1 if _keeps_first(s, left, scorings_left, on_forum(s, left), w) else 0
        received = use_worth(s, p, s[D_TILES + 2 * left + passed], scorings_left, grouped, w)
    else:
        received = _mean_board_worth(s, p, left, scorings_left, grouped, w)
    return envoy + pair_worth(kept, received, tribunes, w)


@njit(cache=True)
def _turn_worth(s, p, scorings_left, grouped, w):
    """Seat p's held tiles between the draft and the end of its turn: a pair still to
    be chosen from, or the tiles being used; an own unused tile's envoy either way."""
    b = seat_base(p)
    choosing = False
    using0 = False
    using1 = False
    for i in range(s[SP]):
        it = s[STACK + i]
        kind = item_kind(it)
        if item_a(it) != p:
            continue
        if kind == I_TURN or kind == I_USE:
            choosing = True
        elif kind == I_TILE:
            if item_b(it) == 0:
                using0 = True
            else:
                using1 = True
        elif kind == I_CIT:
            if item_c(it) == 0:
                using0 = True
            else:
                using1 = True
    v = 0.0
    worth0 = 0.0
    worth1 = 0.0
    for slot in range(2):
        tw = s[b + HELD + slot]
        if tw == 0 or (tw & TW_PLACED):
            continue
        if ((tw >> TW_OWNER_SHIFT) & 3) == p:
            v += weight(w, _W_ENVOYS) * ENVOY_WORTH
        if slot == 0:
            worth0 = use_worth(s, p, tw, scorings_left, grouped, w)
        else:
            worth1 = use_worth(s, p, tw, scorings_left, grouped, w)
    if choosing:
        return v + pair_worth(worth0, worth1, s[b + RES + R_T], w)
    if using0:
        v += worth0
    if using1:
        v += worth1
    return v


@njit(cache=True)
def held_worth(s, p, scorings_left, w=None):
    """Worth of the tiles seat p holds and has not used (0 once the game is over), with
    the term weights ``w`` (None: all 1)."""
    if s[OVER] != 0 or s[SP] == 0:
        return 0.0
    if item_kind(s[STACK + s[SP] - 1]) == I_DRAFT:  # the draft item tops the stack until it ends
        return _draft_worth(s, p, scorings_left, on_forum(s, p), w)
    b = seat_base(p)
    if s[b + HELD] != 0 or s[b + HELD + 1] != 0:
        return _turn_worth(s, p, scorings_left, on_forum(s, p), w)
    return 0.0
