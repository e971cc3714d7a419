"""A fixed action space per game: move codes <-> action indices ``0 .. num_actions - 1``.

Learning code (PettingZoo, OpenSpiel, a policy network's output layer) wants one fixed,
dense set of actions per game, while the engines' move codes are whatever suits the
kernels (Forma's ``(piece * 8 + orientation) * 400 + anchor``, Forum Trajanum's ``kind
<< 32 | payload``). An :class:`ActionSpace` is either the identity on ``0 .. n - 1``
(games whose codes are already small and dense enough) or a sorted table of every code
the game can ever produce, the action being the code's position in that table.
"""
from __future__ import annotations

import numpy as np

from .errors import IllegalMoveError


class ActionSpace:
    """The actions of one game: ``num_actions`` indices, each standing for one move code.

    Args:
        size: for the identity map, the number of actions (codes ``0 .. size - 1``).
        codes: instead of ``size``, every move code the game can produce (any order,
            no duplicates); action ``i`` is the i-th smallest.
    """

    __slots__ = ("num_actions", "_codes")

    def __init__(self, size: int | None = None, codes: np.ndarray | None = None):
        if (size is None) == (codes is None):
            raise ValueError("give exactly one of size and codes")
        if codes is None:
            self._codes = None
            self.num_actions = int(size)
        else:
            table = np.unique(np.asarray(codes, dtype=np.int64))
            if table.size != len(codes):
                raise ValueError("the code table repeats a code")
            self._codes = table
            self.num_actions = int(table.size)

    def move_to_action(self, move: int) -> int:
        """The action index of a move code.

        Args:
            move: a move code of the game.

        Returns:
            Its index in ``0 .. num_actions - 1``.

        Raises:
            IllegalMoveError: the code is outside the action space.
        """
        move = int(move)
        if self._codes is None:
            if 0 <= move < self.num_actions:
                return move
        else:
            i = int(np.searchsorted(self._codes, move))
            if i < self.num_actions and int(self._codes[i]) == move:
                return i
        raise IllegalMoveError(f"move code {move} is outside the game's action space")

    def action_to_move(self, action: int) -> int:
        """The move code of an action index.

        Args:
            action: an index in ``0 .. num_actions - 1``.

        Returns:
            The move code.

        Raises:
            IllegalMoveError: the index is out of range.
        """
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or not 0 <= int(action) < self.num_actions:
            raise IllegalMoveError(f"action {action!r} is not in 0..{self.num_actions - 1}")
        return int(action) if self._codes is None else int(self._codes[int(action)])

    def actions_of(self, moves: np.ndarray) -> np.ndarray:
        """The action indices of many move codes at once (vectorised :meth:`move_to_action`).

        Args:
            moves: move codes, each inside the action space.

        Returns:
            An int64 array of action indices, in the same order.

        Raises:
            IllegalMoveError: a code is outside the action space.
        """
        moves = np.asarray(moves, dtype=np.int64)
        if self._codes is None:
            bad = (moves < 0) | (moves >= self.num_actions)
            index = moves
        else:
            index = np.minimum(np.searchsorted(self._codes, moves), self.num_actions - 1)
            bad = self._codes[index] != moves
        if bad.any():
            raise IllegalMoveError(f"move code {int(moves[bad][0])} is outside the game's action space")
        return index.astype(np.int64)

    def moves_of(self, actions: np.ndarray) -> np.ndarray:
        """The move codes of many action indices at once (vectorised :meth:`action_to_move`).

        Args:
            actions: indices in ``0 .. num_actions - 1``.

        Returns:
            An int64 array of move codes, in the same order.

        Raises:
            IllegalMoveError: an index is out of range.
        """
        actions = np.asarray(actions, dtype=np.int64)
        if ((actions < 0) | (actions >= self.num_actions)).any():
            raise IllegalMoveError(f"an action is not in 0..{self.num_actions - 1}")
        return actions.copy() if self._codes is None else self._codes[actions]

    def __repr__(self) -> str:
        kind = "identity" if self._codes is None else "table"
        return f"ActionSpace({self.num_actions} actions, {kind})"
