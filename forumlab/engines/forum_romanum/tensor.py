"""Forum Romanum's fixed action space and observation tensor (see forumlab.core.tensor).

Actions: the move codes themselves (:mod:`.moves`: ``colour << 12 | src << 6 | dst``,
``src`` = 63 for a placement from hand), so ``num_actions = colours * 4096``: 16,384 at
2 players (four colours), 4,096 per player otherwise (12,288 at 3, 24,576 at 6).

Observation (perfect information, so every seat sees the whole position): a float32
vector of ``players + 438`` entries (440 at 2 players ... 444 at 6): the seat one-hot;
the 23 counter slots of :mod:`.layout` in slot order (players, colours, pieces
per colour, round cap, ply, seat to move, sub-move, first colour, turns, terminal,
truncated, pieces in hand per colour 0-5, colour scores 0-5; the seed is left out);
then the 23 settled-region flags, the 49-cell occupied board, the 49-cell open-cell
board, and per colour 0-5 its 49-cell board (cell ``i`` is ``a1`` + i, row-major:
``reshape(7, 7)`` gives rows 1-7).
"""
from __future__ import annotations

from ...core.actions import ActionSpace
from ...core.tensor import Field, bits, drop
from .layout import BOARD, CELLS, MAX_COLOURS, N_REGIONS, OCCUPIED, OPEN_CELLS, SEED, SETTLED, colours_for
from .moves import CODES_PER_COLOUR


def action_space(game) -> ActionSpace:
    """Identity on the move codes: ``colours_for(players) * CODES_PER_COLOUR`` (4096) actions."""
    return ActionSpace(size=colours_for(game.players) * CODES_PER_COLOUR)


def observation_fields(game) -> list[Field]:
    """Bitboards unpacked, the seed left out."""
    return [drop(SEED), bits(SETTLED, width=N_REGIONS), bits(OCCUPIED, width=CELLS),
            bits(OPEN_CELLS, width=CELLS), bits(BOARD, MAX_COLOURS, width=CELLS)]
