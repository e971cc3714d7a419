"""Numba kernels of Forum Trajanum (the game protocol of forumlab.core.game).

Rules: ``shared/rules/forum-trajanum.md``. State slots and move codes: :mod:`.layout`;
tables: :mod:`.data`; setup: :mod:`.setup`; the round machine and moves:
:mod:`.moves`; scoring: :mod:`.scoring`; hidden information: :mod:`.hidden`.
Decisions where the spec is silent: the facade's docstring (:mod:`.game`).
"""
import numpy as np
from numba import njit

from ...core.movelist import contains
from ...core.rng import rand_below
from .data import CRANE_VALUE, MAX_MOVES, TRAJAN_TASKS  # noqa: F401  (MAX_MOVES: protocol constant)
from .held import CITIZEN_WORTH, ENVOY_WORTH, PRESTIGE_WORTH, RESOURCE_WORTH, held_worth
from .hidden import determinize  # noqa: F401  (protocol kernel)
from .layout import (
    CORNERS,
    CRANE,
    CYCLE,
    INTRO,
    N_PLAYERS,
    OVER,
    SHIP,
    STATE_SIZE,  # noqa: F401  (checked when the game registers)
    TILE,
    TO_MOVE,
    TRACK,
    TRAJAN,
)
from .moves import apply_move, legal_moves, moves_window  # noqa: F401  (protocol kernels)
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
from .setup import new_state  # noqa: F401

WINDOW = 64  # random_move's buffer: longer lists are sampled by index, not listed


@njit(cache=True)
def current_player(s):
    """Seat to act (-1 once the game is over)."""
    return s[TO_MOVE]


@njit(cache=True)
def is_terminal(s):
    """True once cycle III has been scored."""
    return s[OVER] != 0


@njit(cache=True)
def is_legal(s, move):
    """Whether ``move`` is one of ``legal_moves(s)`` (the optional protocol kernel,
    :data:`forumlab.core.dispatch.OPTIONAL`): the move lists are short, so by generating
    them; one kernel call from Python, cheaper there than a scan of the list."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    return contains(out, legal_moves(s, out), move)


@njit(cache=True)
def random_move(s, rng):
    """A uniformly random legal move: a short list is read whole, a long one (a
    build) is counted and only the drawn index is produced."""
    out = np.empty(WINDOW, dtype=np.int64)
    n = moves_window(s, out, 0)
    k = rand_below(rng, n)
    if k < WINDOW:
        return out[k]
    moves_window(s, out[:1], k)
    return out[0]


@njit(cache=True)
def scores(s, out):
    """VP per seat (ties are broken by active citizens, then resources: ``Game.rank_keys``)."""
    for p in range(s[N_PLAYERS]):
        out[p] = total_vp(s, p)


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

