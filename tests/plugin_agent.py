"""A third-party agent for the plugin test: plays the legal move at a fixed index."""
from forumlab.agents.base import Agent, Param


class FirstMoveAgent(Agent):
    """Plays legal_moves()[offset]."""

    name = "first-move"
    params = {"offset": Param(0, "index into the legal move list")}

    def choose(self, state):
        return int(state.legal_moves()[self.options["offset"]])


class NotAnAgent:
    """Not an Agent subclass."""
