"""The greedy agent: best one-ply successor by the game's heuristic (with the weights
on its terms that the spec gives: :mod:`.weights`)."""
from ..search.greedy import greedy_move
from .weights import ARCHETYPE_PARAM, EVAL_PARAM, WeightedAgent


class GreedyAgent(WeightedAgent):
    """Plays the move that maximises the heuristic after one ply (random tie-break)."""

    name = "greedy"
    description = "best move by the game's heuristic after one ply, random tie-break"
    params = {"archetype": ARCHETYPE_PARAM, "eval": EVAL_PARAM}

    def choose(self, state):
        weights = self.heuristic_weights(state.game)
        if weights is None:  # the game's own weights: the kernel compiled without a weight array
            return greedy_move(state.game.kernels.tag, state.array, self.rng)
        return greedy_move(state.game.kernels.tag, state.array, self.rng, weights)
