"""Facade of the toy Goofspiel: notation (the card's value, e.g. ``3``), results."""
from __future__ import annotations

from typing import Any

import numpy as np

from forumlab.core.errors import IllegalMoveError
from forumlab.core.game import Game, Kernels
from forumlab.core.params import Param

from . import kernels as goofspiel_kernels


class ToyGoofspiel(Game):
    """2-3 players, ``cards`` = 3..6 cards per hand and prizes."""

    name = "toy-goofspiel"
    min_players = 2
    max_players = goofspiel_kernels.MAX_PLAYERS
    perfect_information = False
    kernels = Kernels.from_module(goofspiel_kernels, goofspiel_kernels.MAX_MOVES)

    # Declared once: checked by forumlab.core.options, listed by `forumlab games --options`.
    OPTIONS = {
        "players": Param(2, "number of players"),
        "cards": Param(4, "cards in each hand and in the prize deck", low=3, high=goofspiel_kernels.MAX_CARDS),
    }

    def __init__(self, players: int = 2, cards: int = 4):
        super().__init__(players, cards=cards)
        self.cards = self.options["cards"]

    @property
    def config(self) -> dict[str, Any]:
        return {"players": self.players, "cards": self.cards}

    def initial_array(self, seed: int) -> np.ndarray:
        return goofspiel_kernels.new_state(self.players, self.cards, seed)

    def format_move(self, array: np.ndarray, move: int) -> str:
        return str(int(move) + 1)

    def parse_move(self, array: np.ndarray, text: str) -> int:
        if not isinstance(text, str) or not (text.isascii() and text.isdigit()) or len(text) > 2:
            raise IllegalMoveError(f"malformed move {text!r} (expected a card value such as '3')")
        return int(text) - 1

    def plies(self, array: np.ndarray) -> int:
        return int(array[goofspiel_kernels.PLY])

    def observation(self, array: np.ndarray, seat: int) -> np.ndarray:
        """The array with other seats' bids of this round put back into their hands
        (a bid is secret until the round ends) and the prizes still face down sorted."""
        seen = array.copy()
        for q in range(int(array[goofspiel_kernels.PLAYER])):
            if q != seat and array[goofspiel_kernels.BID + q]:
                seen[goofspiel_kernels.HAND + q] |= 1 << int(array[goofspiel_kernels.BID + q] - 1)
                seen[goofspiel_kernels.BID + q] = -1
        first = goofspiel_kernels.DECK + int(array[goofspiel_kernels.ROUND]) + 1
        seen[first:goofspiel_kernels.DECK + self.cards] = np.sort(seen[first:goofspiel_kernels.DECK + self.cards])
        return seen

    def render(self, array: np.ndarray) -> str:
        if array[goofspiel_kernels.TERMINAL]:
            return "game over; scores " + " ".join(str(int(array[goofspiel_kernels.SCORE + p])) for p in range(self.players))
        hands = " ".join(
            "{" + ",".join(str(c + 1) for c in range(self.cards) if (int(array[goofspiel_kernels.HAND + p]) >> c) & 1) + "}"
            for p in range(self.players))
        return (f"prize {int(array[goofspiel_kernels.DECK + array[goofspiel_kernels.ROUND]])}, seat {int(array[goofspiel_kernels.PLAYER])} to bid; "
                f"hands {hands}")
