"""Numba kernels of Foundations of Rome (the game protocol of forumlab.core.game).

Rules: ``shared/rules/foundations-of-rome.md`` (base game, ``draft``, Monuments).
State slots and move codes: :mod:`.layout`; tables: :mod:`.data`; setup:
:mod:`.setup`; moves: :mod:`.moves`; scoring: :mod:`.scoring`; hidden information:
:mod:`.hidden`.

Decisions where the spec is silent (also in the game facade's docstring):

- Draft: every round's picks run in seat order from seat 0; the deed board is revealed
  at setup before the draft; hand i passes to seat i+1; the last round's single-card
  pick is a ply; picks are not main actions (``max_turns`` does not count them).
- Monument on-build effects (M11 +2 VP, M12 +3 silver) reach each owner of a building
  adjacent to the new monument once, the builder included, adjacency taken after the
  build.
- Results: ``scores`` are the VP; ranks and winners follow (VP, silver), the spec's
  tie-break (then shared), through ``Game.rank_keys``. Search values terminal
  positions by VP alone (a silver tie-break is not part of the generic rewards).
- A building's copy (R1, C1, R2, C2 come twice) does not matter: the first copy not
  on the board is used; identical copies are one move.
- ``determinize`` redeals the unlocated cards from their sorted list and keeps other
  seats' hands sorted, so a view depends only on what the observer saw, never on where
  the hidden cards truly are (:mod:`.hidden`).
- Options of later modules (``objectives``, ``max_trades``) are not accepted yet;
  ``consul`` may only be false; ``max_turns`` is 1..1,000,000.
- The era ends only through a Buy that empties the deed board (the only way it can
  empty in the base game); a capped game gets no further scoring.
"""
import numpy as np
from numba import njit

from ...core.bits import popcount
from ...core.rng import rand_below
from .data import CIVIC, CODE_MON_VP, CODE_SILVER, CODE_TRAY, CODE_TYPE, COMMERCIAL
from .hidden import determinize  # noqa: F401  (protocol kernel)
from .layout import (
    CONSUL,
    CONSUL_VP,
    BUILT,
    CELL_BLD,
    ERA,
    INSTANCE_STRIDE,
    MAX_MOVES,
    N_PLAYERS,
    PH_OVER,
    PHASE,
    PLAYER,
    POP,
    SILVER,
    SIZE,
    STATE_SIZE,  # noqa: F401  (checked when the game registers)
    VP,
)
from .moves import apply_move, legal_moves  # noqa: F401  (protocol kernels)
from .pieces import marker_supply
from .scoring import civic_value, instance_code, instance_owner
from .setup import new_state  # noqa: F401


@njit(cache=True)
def current_player(s):
    """Seat to act."""
    return s[PLAYER]


@njit(cache=True)
def is_terminal(s):
    """True once the game is over (after era 3's end scoring or at the cap)."""
    return s[PHASE] == PH_OVER


@njit(cache=True)
def random_move(s, rng):
    """A uniformly random legal move."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal_moves(s, out)
    return out[rand_below(rng, n)]


@njit(cache=True)
def consul_margin(s):
    """A Consul game's shared value: min over seats of (VP - the Consul's VP)."""
    m = s[VP] - s[CONSUL_VP]
    for p in range(1, s[N_PLAYERS]):
        m = min(m, s[VP + p] - s[CONSUL_VP])
    return m


@njit(cache=True)
def scores(s, out):
    """VP per seat (ties are broken by silver in the ranks: ``Game.rank_keys``); in a
    Consul game every seat gets the shared value, min over seats of (VP - Consul VP)."""
    if s[CONSUL] != 0:
        m = consul_margin(s)
        for p in range(s[N_PLAYERS]):
            out[p] = m
        return
    for p in range(s[N_PLAYERS]):
        out[p] = s[VP + p]


@njit(cache=True)
def _value(s, p, eras_left):
    """A seat's VP plus a rough worth of what it will score in the era scorings left:
    population, civic buildings, commercial silver and tray VP per scoring, silver
    (worth less once there is plenty), and lots (empty ones are future buildings)."""
    n = s[SIZE]
    civic = 0
    tray = 0
    income = 0
    seen = np.zeros(s[N_PLAYERS] * INSTANCE_STRIDE + 1, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or seen[b] or instance_owner(b) != p:
            continue
        seen[b] = True
        code = instance_code(b)
        if CODE_TYPE[code] == CIVIC:
            civic += civic_value(s, b)
        elif CODE_TYPE[code] == COMMERCIAL:
            income += CODE_SILVER[code]
            tray += CODE_TRAY[code] + CODE_MON_VP[code]
    empty = 8 - marker_supply(s, p)
    built = popcount(s[BUILT + 2 * p]) + popcount(s[BUILT + 2 * p + 1])
    silver = s[SILVER + p]
    worth = 0.35 * min(silver, 15) + 0.1 * max(silver - 15, 0)
    per_era = 1.3 * s[POP + p] + civic + tray + income
    lots = empty * (1.0 + 0.7 * eras_left) + 0.5 * built
    return s[VP + p] + worth + eras_left * per_era + lots + 1.2 * eras_left * income


@njit(cache=True)
def heuristic(s, player):
    """The player's value minus the best other seat's (VP scale)."""
    eras_left = 0.0
    if s[PHASE] != PH_OVER:
        eras_left = 4.0 - s[ERA]
    mine = _value(s, player, eras_left)
    best = -1e18
    for q in range(s[N_PLAYERS]):
        if q != player:
            v = _value(s, q, eras_left)
            if v > best:
                best = v
    return mine - best
