"""The greedy agent: best one-ply successor by the game's heuristic."""
from ..search.greedy import greedy_move
from .base import Agent


class GreedyAgent(Agent):
    """Plays the move that maximises the heuristic after one ply (random tie-break)."""

    name = "greedy"
    description = "best move by the game's heuristic after one ply, random tie-break"

    def choose(self, state):
        return greedy_move(state.game.kernels.tag, state.array, self.rng)
