"""The uniformly random agent (the engine's own random_move fast path)."""
from .base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"
    description = "uniformly random legal move"

    def choose(self, state):
        return state.game.kernels.random_move(state.array, self.rng)
