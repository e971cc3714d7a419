"""The kernel table of Forum Trajanum: the protocol kernels of
:class:`forumlab.core.game.Kernels` under their protocol names, which
``Kernels.from_module`` and the core dispatch (:mod:`forumlab.core.dispatch`, whose game
tag names this module) look up here. No rule logic: each kernel lives in the module of
its concern.
"""
from .heuristic import heuristic, weighted_heuristic
from .hidden import determinize
from .layout import STATE_SIZE
from .moves import MAX_MOVES, apply_move, current_player, is_legal, legal_moves, random_move
from .scoring import is_terminal, scores
from .setup import new_state

__all__ = [
    "MAX_MOVES",
    "STATE_SIZE",
    "new_state",
    "current_player",
    "legal_moves",
    "apply_move",
    "random_move",
    "is_legal",
    "is_terminal",
    "scores",
    "heuristic",
    "weighted_heuristic",
    "determinize",
]
