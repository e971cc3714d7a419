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

The tiles are priced at the default weights' prices whatever weights the heuristic is
given: the weighted heuristic multiplies this worth by the ``held`` weight alone, so the
term is linear in its weight (a learned model's fitted column is the value it plays
with) and the other terms' weights do not reprice the tiles.
"""
from numba import njit

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

# The leaf value's weights (heuristic._value reads them from here, so both stay in step)
RESOURCE_WORTH = 0.5  # one resource
ENVOY_WORTH = 0.7  # one envoy in the ship
CITIZEN_WORTH = 0.7  # one active citizen, per scoring left
PRESTIGE_WORTH = 0.3  # one prestige step, per scoring left (besides the area points)
BOTH_TILES_COST = 2 * RESOURCE_WORTH  # the two tribunes of ``use kr``


# tile_worth, use_worth and pair_worth are inlined: they run for every tile the
# heuristic prices, up to 37 per seat and position
@njit(cache=True, inline="always")
def tile_worth(s, p, t, scorings_left, grouped):
    """What using a tile of type ``t`` adds to seat p's leaf value (``grouped``: the
    seat has at least one envoy on the Forum, so prestige counts at its area scoring)."""
    if t == T_NONE:
        return 0.0
    if T_CITP <= t <= T_CITC:
        if cit_rows(s, p, t - T_CITP) == 0:
            return 0.0
        return CITIZEN_WORTH * scorings_left
    if t == T_U:
        steps = upgraded_position(s, p) - s[seat_base(p) + PRES]
        return steps * scorings_left * (PRESTIGE_WORTH + (1.0 if grouped else 0.0))
    return RESOURCE_WORTH


@njit(cache=True, inline="always")
def use_worth(s, p, tw, scorings_left, grouped):
    """What using the tile of tile word ``tw`` adds to seat p's leaf value beyond what
    holding it does: an own citizen placed in a row no longer goes to the ship, so its
    envoy (counted for every own tile held) comes off."""
    t = tw & TW_TYPE
    worth = tile_worth(s, p, t, scorings_left, grouped)
    if T_CITP <= t <= T_CITC and worth > 0 and ((tw >> TW_OWNER_SHIFT) & 3) == p:
        worth -= ENVOY_WORTH
    return worth


@njit(cache=True, inline="always")
def pair_worth(first, second, tribunes):
    """A still-to-be-chosen pair: the better tile, plus the other one less the two
    tribunes of ``use kr`` when that gains and the seat has them."""
    best = max(first, second)
    other = min(first, second)
    cost = BOTH_TILES_COST
    if tribunes >= 2 and other > cost:
        return best + other - cost
    return best


@njit(cache=True)
def _mean_board_worth(s, p, owner, scorings_left, grouped):
    """Mean worth to seat p of the tiles still on ``owner``'s Colonia (0 if none)."""
    b = seat_base(owner) + TILE
    total = 0.0
    count = 0
    for cell in range(37):
        tw = s[b + cell]
        if tw != 0:
            total += use_worth(s, p, tw, scorings_left, grouped)
            count += 1
    return total / count if count > 0 else 0.0


@njit(cache=True)
def _keeps_first(s, q, scorings_left, grouped):
    """True if seat q, holding its two taken tiles, keeps the first (its better one by
    its own worth; ``grouped`` must be q's own ``on_forum``; ties keep the first)."""
    w0 = use_worth(s, q, s[D_TILES + 2 * q], scorings_left, grouped)
    w1 = use_worth(s, q, s[D_TILES + 2 * q + 1], scorings_left, grouped)
    return w0 >= w1


@njit(cache=True)
def _draft_worth(s, p, scorings_left, grouped):
    """Seat p's tiles while the draft is on: its kept (or better) tile and the tile it
    receives (or will receive) from its left neighbour."""
    n = s[N_PLAYERS]
    left = (p + 1) % n
    tribunes = s[seat_base(p) + RES + R_T]
    envoy = 0.0
    if s[D_TAKE + 2 * p] < 0:  # still to take: its own board's mean, and an envoy
        kept = _mean_board_worth(s, p, p, scorings_left, grouped)
        envoy = ENVOY_WORTH
    else:
        k = s[D_KEPT + p]
        if k < 0:
            k = 0 if _keeps_first(s, p, scorings_left, grouped) else 1
        kept = use_worth(s, p, s[D_TILES + 2 * p + k], scorings_left, grouped)
        envoy = ENVOY_WORTH
    if s[PASSING + p] != 0:
        received = use_worth(s, p, s[PASSING + p], scorings_left, grouped)
    elif s[D_TAKE + 2 * left] >= 0:  # taken, not yet kept: it passes its worse tile
        passed = 1 if _keeps_first(s, left, scorings_left, on_forum(s, left)) else 0
        received = use_worth(s, p, s[D_TILES + 2 * left + passed], scorings_left, grouped)
    else:
        received = _mean_board_worth(s, p, left, scorings_left, grouped)
    return envoy + pair_worth(kept, received, tribunes)


@njit(cache=True)
def _turn_worth(s, p, scorings_left, grouped):
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
            v += ENVOY_WORTH
        if slot == 0:
            worth0 = use_worth(s, p, tw, scorings_left, grouped)
        else:
            worth1 = use_worth(s, p, tw, scorings_left, grouped)
    if choosing:
        return v + pair_worth(worth0, worth1, s[b + RES + R_T])
    if using0:
        v += worth0
    if using1:
        v += worth1
    return v


@njit(cache=True)
def held_worth(s, p, scorings_left):
    """Worth of the tiles seat p holds and has not used (0 once the game is over), at the
    default weights' prices (the heuristic scales it by the ``held`` weight alone)."""
    if s[OVER] != 0 or s[SP] == 0:
        return 0.0
    if item_kind(s[STACK + s[SP] - 1]) == I_DRAFT:  # the draft item tops the stack until it ends
        return _draft_worth(s, p, scorings_left, on_forum(s, p))
    b = seat_base(p)
    if s[b + HELD] != 0 or s[b + HELD + 1] != 0:
        return _turn_worth(s, p, scorings_left, on_forum(s, p))
    return 0.0
