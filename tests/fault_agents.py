"""Misbehaving agents for the arena's fault-injection tests."""
import time

from forumlab.agents.base import Agent, Param


class RaisingAgent(Agent):
    """Raises on its n-th move."""

    name = "raises"
    params = {"after": Param(2, "moves before the exception")}

    def __init__(self, seed=0, **options):
        super().__init__(seed, **options)
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        if self.moves > self.options["after"]:
            raise RuntimeError("boom\nsecond line that must not reach the store")
        return int(state.legal_moves()[0])


class IllegalAgent(Agent):
    """Returns a move code that is never legal."""

    name = "illegal"

    def choose(self, state):
        return 999_999


class SleepyAgent(Agent):
    """Sleeps far past any hard limit on its second move."""

    name = "sleepy"
    params = {"seconds": Param(30.0, "how long to sleep")}

    def __init__(self, seed=0, **options):
        super().__init__(seed, **options)
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        if self.moves >= 2:
            time.sleep(self.options["seconds"])
        return int(state.legal_moves()[0])


class SlowAgent(Agent):
    """Answers correctly but late (for the move-time fault)."""

    name = "slow"

    def choose(self, state):
        time.sleep(0.6)
        return int(state.legal_moves()[0])
