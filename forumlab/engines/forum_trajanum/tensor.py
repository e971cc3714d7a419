"""Forum Trajanum's fixed action space and observation tensor (forumlab.core.tensor).

Actions: a dense index over every move code the engine can produce, whatever the
position (``kind << 32 | payload`` codes are far too sparse to use directly), sorted by
code: 27,065 actions. Per kind (payloads as in :mod:`.moves`): ``setup`` 192, ``take``
every pair of Colonia spaces and the river (x < y), ``keep`` 37 spaces, ``use`` 4, ``cit``
rows 1-6, ``conv`` 10, ``build``: grey single tiles (4 kinds x 28 spaces x 5 payments),
structure singles (4 colours x 28 x 4 payments), grey+colour doubles (36 adjacent pairs
x 2 orders x 4 x 4 x 5 x 4), doubles of two structures (36 x 4 colours x 10 payment
pairs) and ``build -``; ``track`` 1-4; ``env`` 80 Forum cells and ``env -``; ``pick``
every non-empty set of the 9 items; ``pay`` every set of the 6 rows.

Observation (hidden information: built from ``Game.observation``, which undoes the
other seats' draft plies of the round and blanks unseen tile types and undrawn cards):
a float32 vector of ``players + STATE_SIZE - 4 * 4 + 4 * (80 + 37 + 36)`` entries (with ``STATE_SIZE``
= 864: 1,462 at 2 players ... 1,464 at 4): the
seat one-hot; every plain slot of :mod:`.layout` in slot order (counters, piles with
undrawn cards as -1, the draft queue and takes, the pending-work stack, the Forum's
envoy owners, and per seat resources, VP by source, citizens, tile words, buildings,
cranes, held tiles, pool); then per seat 0-3 its envoys on the 80 Forum cells and its
tile and building bitboards of the 37 Colonia spaces (36 without the river).
"""
from __future__ import annotations

import numpy as np

from ...core.actions import ActionSpace
from ...core.tensor import Field, bits
from .data import ADJ_PAIRS, BUILDABLE
from .layout import BLTBB, ENVBB, FCELLS, MAXP, SEAT, SEAT_SIZE, TILEBB
from .moves import (
    BUILD_NONE_PAYLOAD,
    CONV_CI,
    CONV_CII,
    CONV_MII,
    ENV_NONE,
    KIND_SHIFT,
    M_BUILD,
    M_CIT,
    M_CONV,
    M_ENV,
    M_KEEP,
    M_PAY,
    M_PICK,
    M_SETUP,
    M_TAKE,
    M_TRACK,
    M_USE,
    N_SETUP_CODES,
    N_USE_CODES,
    NO_CELL,
    PICK_NAMES,
    PIECE_DOUBLE,
    PIECE_MIXED,
    PIECE_STRUCTURE,
    build_payload,
    conv_payload,
    take_payload,
)


def _build_payloads() -> list[int]:
    """Every build payload the move generator can emit (see moves.build_moves)."""
    out = [BUILD_NONE_PAYLOAD]
    for c in BUILDABLE.tolist():
        out += [build_payload(g, c, NO_CELL, gp, 0) for g in range(4) for gp in range(5)]
        out += [build_payload(PIECE_STRUCTURE + col, c, NO_CELL, cp, 0)
                for col in range(4) for cp in range(5) if cp != col + 1]
    for x, y in ADJ_PAIRS.tolist():
        for c1, c2 in ((x, y), (y, x)):
            out += [build_payload(PIECE_MIXED + 4 * g + col, c1, c2, gp, cp)
                    for g in range(4) for col in range(4) for gp in range(5) for cp in range(5)
                    if cp != col + 1]
        out += [build_payload(PIECE_DOUBLE + col, x, y, cp, p2)
                for col in range(4) for cp in range(5) for p2 in range(cp, 5)
                if cp != col + 1 and p2 != col + 1]
    return out


def all_move_codes() -> np.ndarray:
    """Every move code of the engine, sorted."""
    payloads = {
        M_SETUP: range(N_SETUP_CODES),
        M_TAKE: [take_payload(x, y) for x in range(37) for y in range(x + 1, 37)],
        M_KEEP: range(37),
        M_USE: range(N_USE_CODES),
        M_CIT: range(1, 7),
        # MII: resource i -> j (i != j, 3 resources); CI: assistant -> worker colour; CII
        M_CONV: ([conv_payload(CONV_MII, i, j) for i in range(3) for j in range(3) if i != j]
                 + [conv_payload(CONV_CI, 0, x) for x in range(4)] + [conv_payload(CONV_CII, 0, 0)]),
        M_BUILD: _build_payloads(),
        M_TRACK: range(1, 5),
        M_ENV: [*range(FCELLS), ENV_NONE],
        M_PICK: range(1, 1 << len(PICK_NAMES)),
        M_PAY: range(1 << 6),
    }
    codes = [(kind << KIND_SHIFT) | p for kind, values in payloads.items() for p in values]
    return np.array(sorted(codes), dtype=np.int64)


def action_space(game) -> ActionSpace:
    """A dense index over :func:`all_move_codes`."""
    return ActionSpace(codes=all_move_codes())


def observation_fields(game) -> list[Field]:
    """Each seat's Forum envoy board and Colonia tile and building boards unpacked."""
    fields = []
    for p in range(MAXP):
        base = SEAT + p * SEAT_SIZE
        fields += [bits(base + ENVBB, 2, total=FCELLS), bits(base + TILEBB, width=37),
                   bits(base + BLTBB, width=36)]
    return fields
