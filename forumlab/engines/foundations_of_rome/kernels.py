"""Foundations of Rome's kernel bundle: the protocol kernels of forumlab.core.game, by
their protocol names, for ``Kernels.from_module`` (the facade, :mod:`.game`). The game's
tag names this module, so the generic numba code binds each protocol call to the
kernel listed here. No rule lives here: each kernel is in the module of its concern.
"""
from .data import MAX_MOVES
from .heuristic import heuristic, weighted_heuristic
from .hidden import determinize
from .layout import STATE_SIZE  # checked when the game registers
from .moves import apply_move, current_player, is_legal, legal_moves, random_move
from .scoring import is_terminal, scores
from .setup import new_state

__all__ = ["MAX_MOVES", "STATE_SIZE", "apply_move", "current_player", "determinize", "heuristic",
           "weighted_heuristic", "is_legal", "is_terminal", "legal_moves", "new_state", "random_move",
           "scores"]
