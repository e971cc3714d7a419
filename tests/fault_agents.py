"""Misbehaving agents for the arena's fault-injection tests."""
import ctypes
import os
import signal
import sys
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
    params = {"seconds": Param(0.6, "how long each move takes")}

    def choose(self, state):
        time.sleep(self.options["seconds"])
        return int(state.legal_moves()[0])


class _Misbehaves(Agent):
    """Plays the first legal move, and misbehaves (``misbehave``) on move ``after`` + 1."""

    params = {"after": Param(2, "good moves before misbehaving")}

    def __init__(self, seed=0, **options):
        super().__init__(seed, **options)
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        if self.moves > self.options["after"]:
            self.misbehave()
        return int(state.legal_moves()[0])

    def misbehave(self):
        raise NotImplementedError


class ExitingAgent(_Misbehaves):
    """Ends its process with os._exit (no clean-up, no exception)."""

    name = "exits"

    def misbehave(self):
        os._exit(3)


class SegfaultAgent(_Misbehaves):
    """Reads address 0 through ctypes: the process dies by SIGSEGV."""

    name = "segfaults"

    def misbehave(self):
        ctypes.string_at(0)


class SysExitAgent(_Misbehaves):
    """Calls sys.exit (raises SystemExit)."""

    name = "sys-exits"

    def misbehave(self):
        sys.exit(4)


class InterruptingAgent(_Misbehaves):
    """Raises KeyboardInterrupt, as if Ctrl-C had been pressed inside it."""

    name = "interrupts"

    def misbehave(self):
        raise KeyboardInterrupt


class BaseExceptionAgent(_Misbehaves):
    """Raises GeneratorExit, a BaseException that is neither an exit nor an Exception."""

    name = "generator-exit"

    def misbehave(self):
        raise GeneratorExit("not from a generator")


class AlarmBlockingAgent(_Misbehaves):
    """Switches the hard limit's alarm off and spins: only the watchdog can stop it.

    Blocking SIGALRM in its own thread alone is not enough, as the kernel then hands
    the signal to another thread of the process and Python still runs the handler
    in the main thread; so it also sets the signal to be ignored.
    """

    name = "blocks-alarm"

    def misbehave(self):
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            pass


class FlakyInitAgent(Agent):
    """Its constructor raises for seeds divisible by ``every`` (seed 0 too: a tournament
    never constructs a third-party agent outside its games); otherwise it plays at random."""

    name = "flaky-init"
    params = {"every": Param(2, "raise for seeds divisible by this")}

    def __init__(self, seed=0, **options):
        super().__init__(seed, **options)
        if seed % self.options["every"] == 0:
            raise ValueError(f"cannot start with seed {seed}")

    def choose(self, state):
        return state.game.kernels.random_move(state.array, self.rng)


class ExitingInitAgent(Agent):
    """Its constructor ends the process (os._exit) for seeds divisible by ``every`` (seed 0
    too); otherwise it plays at random."""

    name = "exiting-init"
    params = {"every": Param(2, "exit for seeds divisible by this")}

    def __init__(self, seed=0, **options):
        super().__init__(seed, **options)
        if seed % self.options["every"] == 0:
            os._exit(5)

    def choose(self, state):
        return state.game.kernels.random_move(state.array, self.rng)


class CtrlCAgent(_Misbehaves):
    """Sends SIGINT to its own process: a real Ctrl-C, not an agent's exception."""

    name = "ctrl-c"

    def misbehave(self):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # the signal arrives during the sleep
