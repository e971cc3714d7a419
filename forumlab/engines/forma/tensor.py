"""Forma's fixed action space and observation tensor (see forumlab.core.tensor).

Actions: a dense index over every placement that fits inside the 20x20 board, in the
order of :data:`.data.PL_CODE` (orientation by orientation, anchors row-major), then
``pass``: ``N_PLACEMENTS + 1`` = 30,434 actions, instead of the 67,201 move codes
``(piece * 8 + orientation) * 400 + anchor`` and ``PASS`` = 67,200 of which most never
fit.

Observation (perfect information): a float32 vector of ``players + 41 + 10 * 400 + 4 +
4 * 21 + 4 * 21`` entries (4,215 at 2 players ... 4,217 at 4): the seat one-hot; the 41
counter slots of :mod:`.layout` in slot order (players, seat to move, ply,
terminal, mover can place, free squares, tower square (-1 none), tower owner, passes,
then eight blocks of 4 seats: squares left in supply, squares placed, enclosed squares,
stones claimed, markers used, bridges north-south, bridges east-west, score; the seed and
the engine's per-shape fit cache are left out); then the 4 "stuck" flags per seat; the
occupied and stone planes, the piece plane of seats 0-3 and the marker plane of seats
0-3, 400 squares each (``a1`` first, row-major: ``reshape(20, 20)``); per seat the count
left of each of the 21 shapes; per seat the 21 shape-available flags.
"""
from __future__ import annotations

import numpy as np

from ...core.actions import ActionSpace
from ...core.tensor import Field, bits, drop, packed
from .data import PASS, PL_CODE
from .layout import (
    AVAIL,
    MARKS,
    MAX_PLAYERS,
    N_SHAPES,
    OCC,
    PIECES,
    SEED,
    SQUARES,
    STONES,
    STUCK,
    SUPPLY,
    SUPPLY_BITS,
    WITNESS,
    WORDS,
)


def action_space(game) -> ActionSpace:
    """Every placement's code and ``pass``: 30,434 actions."""
    return ActionSpace(codes=np.append(PL_CODE, PASS))


def observation_fields(game) -> list[Field]:
    """Planes unpacked to their 400 squares, supplies unpacked, seed and cache left out."""
    planes = [bits(start, WORDS, total=SQUARES) for start in (OCC, STONES)]
    planes += [bits(PIECES + p * WORDS, WORDS, total=SQUARES) for p in range(MAX_PLAYERS)]
    planes += [bits(MARKS + p * WORDS, WORDS, total=SQUARES) for p in range(MAX_PLAYERS)]
    return [drop(SEED), bits(STUCK, width=MAX_PLAYERS), *planes,
            packed(SUPPLY, MAX_PLAYERS, width=SUPPLY_BITS, count=N_SHAPES),
            bits(AVAIL, MAX_PLAYERS, width=N_SHAPES), drop(WITNESS, N_SHAPES)]
