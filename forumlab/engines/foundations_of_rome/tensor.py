"""Foundations of Rome's fixed action space and observation tensor (forumlab.core.tensor).

Actions: the move codes themselves, ``0 .. BUILD_BASE + N_CODES * MAX_PL_PER_SHAPE - 1``
(115,600 with the 39 building codes): income and buys (0-6), draft picks (10-109), the
range the modules use (200 - 99,999) and the builds (``BUILD_BASE + bcode * 400 +
placement``). The identity keeps the action space valid whatever codes the modules add
below ``BUILD_BASE``; most actions are never legal, which a mask handles.

Observation (hidden information: built from ``Game.observation``, so the piles' order,
other seats' unseen hand cards and pending picks never reach it): a float32 vector of
``players + STATE_SIZE - 451 + 10 * 100 + 19`` entries (with ``STATE_SIZE`` = 1,054
since the modules: players + 1,622, so 1,624 at 2 players ... 1,627 at 5; the module
slots are zero in a game without that module): the seat one-hot; every plain slot of
:mod:`.layout` in slot order (counters, deed board, pile positions and lengths, the
owner-and-instance id of each lot, silver, VP, population, supplies, VP by source,
display, other seats' hands as the sorted cards this seat has seen, -2 unseen, -1 empty,
then the module slots; the seed, the RNG word, the piles and all 128 seen-masks, which
``Game.observation`` blanks for every seat, are left out); then per seat 0-4 its
owned-lots board and its built board, 100 lots each (lot ``i`` = row ``i // 10``, column
``i % 10``, whatever the city size); the 19 monument-built flags.
"""
from __future__ import annotations

from ...core.actions import ActionSpace
from ...core.tensor import Field, bits, drop
from .data import BUILD_BASE, MAX_PL_PER_SHAPE, N_CODES, N_MONUMENTS
from .layout import (
    BUILT,
    CELLS,
    MAX_TRADES_OPT,
    MAXP,
    MON_BUILT,
    OWN,
    PILE_ROOM,
    PILES,
    RNG,
    SEED,
    SEEN,
)

# Every seen-mask slot: one per lot and, since the modules, per invocation card (100 + g).
# Game.observation blanks all of them, so none may reach the tensor as a plain number.
SEEN_SLOTS = MAX_TRADES_OPT - SEEN


def action_space(game) -> ActionSpace:
    """Identity on the move codes up to the last build code."""
    return ActionSpace(size=BUILD_BASE + N_CODES * MAX_PL_PER_SHAPE)


def observation_fields(game) -> list[Field]:
    """Lot boards unpacked; seed, RNG, piles and seen-masks left out."""
    boards = [bits(start + 2 * p, 2, total=CELLS) for start in (OWN, BUILT) for p in range(MAXP)]
    return [drop(RNG), drop(SEED), drop(PILES, 3 * PILE_ROOM), *boards,
            bits(MON_BUILT, width=N_MONUMENTS), drop(SEEN, SEEN_SLOTS)]
