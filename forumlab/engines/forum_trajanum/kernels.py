"""Numba kernels of Forum Trajanum (the game protocol of forumlab.core.game).

Rules: ``shared/rules/forum-trajanum.md``. State slots and move codes: :mod:`.layout`;
tables: :mod:`.data`; setup: :mod:`.setup`; the round machine and moves:
:mod:`.moves`; scoring: :mod:`.scoring`; hidden information: :mod:`.hidden`.
Decisions where the spec is silent: the facade's docstring (:mod:`.game`).
"""
import numpy as np
from numba import njit

from ...core.rng import rand_below
from .data import MAX_MOVES  # noqa: F401  (protocol constant)
from .hidden import determinize  # noqa: F401  (protocol kernel)
from .layout import (
    COLS,
    CYCLE,
    MERCH,
    N_PLAYERS,
    OVER,
    PRES,
    RES,
    ROUND,
    SHIP,
    STATE_SIZE,  # noqa: F401  (checked when the game registers)
    TO_MOVE,
    TRACK,
)
from .moves import apply_move, legal_moves, moves_window  # noqa: F401  (protocol kernels)
from .scoring import active_citizens, largest_group, seat_base, total_vp
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
def _value(s, p, cycles_left):
    """VP plus modest worth for what will score later: resources, active citizens
    (columns, multipliers), envoys and the group, tracks, the prestige bar."""
    b = seat_base(p)
    res = 0
    for i in range(8):
        res += s[b + RES + i]
    act = active_citizens(s, p)
    tracks = s[b + TRACK] + s[b + TRACK + 1] + s[b + TRACK + 2]
    v = float(total_vp(s, p))
    v += 0.6 * res + 0.8 * s[b + SHIP]
    v += cycles_left * (1.5 * act + 1.0 * largest_group(s, p) + 0.5 * (s[b + PRES] + 2 * s[b + MERCH]))
    v += 1.0 * tracks + 1.0 * s[b + COLS]
    return v


@njit(cache=True)
def heuristic(s, player):
    """The player's value minus the best other seat's (VP scale)."""
    cycles_left = 0.0
    if s[OVER] == 0:
        cycles_left = 3.0 - (s[CYCLE] - 1) - (s[ROUND] % 4) / 4.0
    mine = _value(s, player, cycles_left)
    best = -1e18
    for q in range(s[N_PLAYERS]):
        if q != player:
            v = _value(s, q, cycles_left)
            if v > best:
                best = v
    return mine - best

