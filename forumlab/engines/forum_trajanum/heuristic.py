"""The heuristic the search agents evaluate Forum Trajanum positions with (VP scale).

A seat's value is its VP so far plus what the position is worth at the cycle-end
scorings still to come, small weights for what it holds, and the worth of the tiles it
holds and has not used (:mod:`.held`); the heuristic is the player's value minus the
best other seat's.

Each part of a seat's value is a named term (:mod:`.terms`) multiplied by its weight
where the sum adds it, so the default weights (all 1) give the very value, bit for bit,
that the heuristic gave before it had terms: multiplying by 1.0 is exact and every
addition happens in the same order. :func:`weighted_heuristic` takes other weights.
"""
import numpy as np
from numba import njit

from .data import CRANE_VALUE, TRAJAN_TASKS
from .held import CITIZEN_WORTH, ENVOY_WORTH, PRESTIGE_WORTH, RESOURCE_WORTH, held_worth
from .layout import CORNERS, CRANE, CYCLE, INTRO, N_PLAYERS, OVER, SHIP, TILE, TRACK, TRAJAN
from .scoring import (
    active_citizens,
    area_points,
    colonia_points,
    eagle_points,
    prestige_bonus,
    resources,
    seat_base,
    structures_of,
    task_met,
    total_vp,
)
from .terms import TERM_NAMES

(T_VP, T_COLONIA, T_EAGLES, T_AREA, T_CRANES, T_TRAJAN, T_RESOURCES, T_ENVOYS, T_CITIZENS, T_PRESTIGE,
 T_TRACKS, T_HELD) = range(len(TERM_NAMES))
DEFAULT_WEIGHTS = np.ones(len(TERM_NAMES))


@njit(cache=True, inline="always")  # a call per seat handing it w cost ~5% of the heuristic
def _value(s, p, scorings_left, w):
    """VP so far plus what the position is worth at the cycle-end scorings still to
    come: the Colonia, eagle and area points it would score now (once per scoring
    left), the uncovered cranes and the Trajan card of the current cycle (once),
    modest worth for resources, envoys in the ship, active citizens, tracks and the bar,
    and the worth of the tiles it holds and has not used (:mod:`.held`, at fixed prices);
    each term times its weight in ``w`` (:mod:`.terms`)."""
    b = seat_base(p)
    v = w[T_VP] * total_vp(s, p)
    if scorings_left > 0:
        v += scorings_left * (w[T_COLONIA] * colonia_points(s, p) + w[T_EAGLES] * eagle_points(s, p)
                              + w[T_AREA] * area_points(s, p))
        for k in range(4):
            col = s[b + CRANE + k]
            if col >= 0 and s[b + TILE + CORNERS[k]] == 0:
                v += w[T_CRANES] * (CRANE_VALUE[s[CYCLE]] * structures_of(s, p, col))
        if s[INTRO] == 0 or s[CYCLE] == 3:
            pile = s[CYCLE] - 1 if s[INTRO] == 0 else 2
            card = s[TRAJAN + pile] - 1
            for k in range(2):
                if task_met(s, p, TRAJAN_TASKS[pile, card, k, 0], TRAJAN_TASKS[pile, card, k, 1]):
                    v += w[T_TRAJAN] * (3 + prestige_bonus(s, p))
    v += w[T_RESOURCES] * (RESOURCE_WORTH * resources(s, p)) + w[T_ENVOYS] * (ENVOY_WORTH * s[b + SHIP])
    v += scorings_left * (w[T_CITIZENS] * (CITIZEN_WORTH * active_citizens(s, p))
                          + w[T_PRESTIGE] * (PRESTIGE_WORTH * prestige_bonus(s, p)))
    v += w[T_TRACKS] * (0.8 * (min(4, s[b + TRACK]) + min(4, s[b + TRACK + 1]) + min(4, s[b + TRACK + 2])))
    # the held tiles at fixed prices (the default weights'), times the held weight alone:
    # linear in its weight, so a fitted weight prices what it was fitted on (held.py)
    return v + w[T_HELD] * held_worth(s, p, scorings_left)


@njit(cache=True)
def _scorings_left(s):
    """This cycle's scoring and the later ones (0 once the game is over)."""
    return 4 - s[CYCLE] if s[OVER] == 0 else 0


@njit(cache=True)
def seat_values(s, w, out):
    """Every seat's weighted value into ``out[:players]``."""
    scorings_left = _scorings_left(s)
    for q in range(s[N_PLAYERS]):
        out[q] = _value(s, q, scorings_left, w)


@njit(cache=True)
def weighted_heuristic(s, player, w):
    """The player's value minus the best other seat's (VP scale), with the weights ``w``
    on the terms (:data:`.terms.TERM_NAMES` order)."""
    return _weighted_margin(s, player, w)


@njit(cache=True, inline="always")
def _weighted_margin(s, player, w):
    """:func:`weighted_heuristic`'s body (inlined in :func:`heuristic` too)."""
    scorings_left = _scorings_left(s)
    mine = _value(s, player, scorings_left, w)
    best = -1e18
    for q in range(s[N_PLAYERS]):
        if q != player:
            v = _value(s, q, scorings_left, w)
            if v > best:
                best = v
    return mine - best


@njit(cache=True)
def heuristic(s, player):
    """The player's value minus the best other seat's (VP scale), at the default weights."""
    return _weighted_margin(s, player, DEFAULT_WEIGHTS)
