"""Forum Romanum's numba kernels under the protocol's names (forumlab.core.game), the
module the game's tag names (forumlab.core.dispatch).

Move codes and moves: :mod:`.moves`; scoring and the end: :mod:`.scoring`; the search
agents' evaluation: :mod:`.heuristic`; state slots: :mod:`.layout`.
"""
from numba import njit

from .heuristic import heuristic, weighted_heuristic  # noqa: F401  (protocol kernels)
from .layout import STATE_SIZE  # noqa: F401  (checked when the game registers)
from .moves import (  # noqa: F401  (protocol kernels and the move-list bound)
    MAX_MOVES,
    apply_move,
    current_player,
    is_legal,
    legal_moves,
    random_move,
)
from .scoring import is_terminal, scores  # noqa: F401  (protocol kernels)


@njit(cache=True)
def determinize(s, observer, rng):
    """Forum Romanum has perfect information: nothing to resample."""
    return None
