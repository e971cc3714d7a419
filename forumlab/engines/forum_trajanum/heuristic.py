"""The heuristic the search agents evaluate Forum Trajanum positions with (VP scale).

A seat's value is its VP so far plus what the position is worth at the cycle-end
scorings still to come, small weights for what it holds, and the worth of the tiles it
holds and has not used (:mod:`.held`); the heuristic is the player's value minus the
best other seat's.
"""
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


@njit(cache=True)
def _value(s, p, scorings_left):
    """VP so far plus what the position is worth at the cycle-end scorings still to
    come: the Colonia, eagle and area points it would score now (once per scoring
    left), the uncovered cranes and the Trajan card of the current cycle (once),
    modest worth for resources, envoys in the ship, active citizens, tracks and the bar,
    and the worth of the tiles it holds and has not used (:mod:`.held`)."""
    b = seat_base(p)
    v = float(total_vp(s, p))
    if scorings_left > 0:
        v += scorings_left * (colonia_points(s, p) + eagle_points(s, p) + area_points(s, p))
        for k in range(4):
            col = s[b + CRANE + k]
            if col >= 0 and s[b + TILE + CORNERS[k]] == 0:
                v += CRANE_VALUE[s[CYCLE]] * structures_of(s, p, col)
        if s[INTRO] == 0 or s[CYCLE] == 3:
            pile = s[CYCLE] - 1 if s[INTRO] == 0 else 2
            card = s[TRAJAN + pile] - 1
            for k in range(2):
                if task_met(s, p, TRAJAN_TASKS[pile, card, k, 0], TRAJAN_TASKS[pile, card, k, 1]):
                    v += 3 + prestige_bonus(s, p)
    v += RESOURCE_WORTH * resources(s, p) + ENVOY_WORTH * s[b + SHIP]
    v += scorings_left * (CITIZEN_WORTH * active_citizens(s, p) + PRESTIGE_WORTH * prestige_bonus(s, p))
    v += 0.8 * (min(4, s[b + TRACK]) + min(4, s[b + TRACK + 1]) + min(4, s[b + TRACK + 2]))
    return v + held_worth(s, p, scorings_left)


@njit(cache=True)
def heuristic(s, player):
    """The player's value minus the best other seat's (VP scale)."""
    scorings_left = 0
    if s[OVER] == 0:
        scorings_left = 4 - s[CYCLE]  # this cycle's scoring and the later ones
    mine = _value(s, player, scorings_left)
    best = -1e18
    for q in range(s[N_PLAYERS]):
        if q != player:
            v = _value(s, q, scorings_left)
            if v > best:
                best = v
    return mine - best

