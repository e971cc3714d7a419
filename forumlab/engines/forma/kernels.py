"""Forma's protocol kernels (forumlab.core.game), gathered for the core's dispatch.

The game's tag names this module (``GameTag("forumlab.engines.forma.kernels")``), so
generic numba code binds each protocol name below to Forma's kernel. No rule lives here:
moves and the end test in :mod:`.moves`, points in :mod:`.scoring`, the evaluation in
:mod:`.heuristic`, rollout proposals in :mod:`.proposals`, the start position in
:mod:`.setup`.
"""
from numba import njit

from .data import MAX_MOVES  # noqa: F401  (the protocol's move-list bound: forumlab.core.dispatch)
from .heuristic import heuristic, weighted_heuristic  # noqa: F401
from .layout import STATE_SIZE  # noqa: F401  (checked when the game registers)
from .moves import apply_move, current_player, is_legal, legal_moves, random_move  # noqa: F401
from .proposals import proposal_move  # noqa: F401
from .scoring import is_terminal, scores  # noqa: F401


@njit(cache=True)
def determinize(s, observer, rng):
    """Forma has perfect information: nothing to resample."""
    return None
