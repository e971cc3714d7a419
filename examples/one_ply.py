"""A one-ply lookahead agent in plain Python: try every legal move, keep the best.

Play it: ``forumlab play forma -p 2 -a one_ply:OnePly,greedy`` in this directory.
"""
from forumlab.agents.base import Agent


class OnePly(Agent):
    """Plays the move after which the game's heuristic rates the position best for
    the mover; ties go to a random one of the tied moves."""

    name = "one-ply"
    description = "best move by the game's heuristic after one ply, in Python"

    def choose(self, state):
        me = state.current_player
        best, best_value, ties = None, float("-inf"), 0
        for move in state.legal_moves():
            value = state.child(move).heuristic(me)
            if value > best_value:
                best, best_value, ties = move, value, 1
            elif value == best_value:
                ties += 1  # reservoir sampling: each tied move kept with chance 1/ties
                if self.random.randrange(ties) == 0:
                    best = move
        return best
