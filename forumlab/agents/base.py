"""The agent interface shared by every player, built-in or third-party."""
from __future__ import annotations

import random
import warnings
from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np

from ..core.errors import GameOverError, IllegalMoveError
from ..core.game import State
from .params import Param, resolve_options
from .spec import check_seed

__all__ = ["Agent", "HiddenStateWarning", "Param"]  # Param is declared in .params; agents import it from here


class HiddenStateWarning(UserWarning):
    """An agent was handed the true state of a hidden-information game, not a view."""


class Agent(ABC):
    """Chooses moves. Subclasses declare ``name`` and ``params`` and implement ``choose``.

    Every agent takes a ``seed``; with an iteration/node budget its play is
    reproducible bit for bit (the seed feeds a SplitMix64 stream kept by the agent,
    ``self.rng``, for numba kernels, and a ``random.Random``, ``self.random``, for
    Python code).
    Each parameter is declared once in ``params`` (a :class:`Param` with its type and
    allowed values); the constructor checks every given value against it, so a
    subclass checks only rules that tie several parameters together.
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}
    #: True for an agent that asks a person for its moves (``human``): the warm-up never
    #: asks it to move, and a tournament accepts it only with its moves from a file.
    interactive: ClassVar[bool] = False

    def __init__(self, seed: int = 0, **options: Any):
        """Check the options against ``params`` and start the agent's random stream.

        Args:
            seed: seeds the agent's SplitMix64 stream (``self.rng``).
            **options: parameter values by name; former names of a parameter work,
                with a DeprecatedParameterWarning once per command.

        Raises:
            AgentSpecError: an unknown parameter, a value its declaration refuses, or a
                seed that is not an integer of 64 bits.
        """
        #: the parameters given explicitly, under their current names
        self.given: dict[str, Any] = resolve_options(self.name, self.params, options)
        # Checked, not converted: int(1.5) would quietly play as seed 1.
        self.seed = check_seed(seed, f"agent {self.name!r}: seed")
        from ..core.rng import make_rng  # a numba module: listing agents imports none

        #: the SplitMix64 word array that numba kernels draw from (``forumlab.core.rng``)
        self.rng = make_rng(self.seed)
        #: a Python ``random.Random`` seeded from ``seed``, for agents written in Python
        self.random = random.Random(self.seed)
        #: every parameter's value: the given one, else the declared default
        self.options = {k: self.given.get(k, p.default) for k, p in self.params.items()}

    def act(self, state: State) -> int:
        """The move this agent plays.

        In a hidden-information game the agent should be handed its seat's view
        (``state.view_for(seat)``), as ``forumlab play``, :func:`forumlab.play` and the
        arena do. Handed the true state instead, it is warned with a
        :class:`HiddenStateWarning` (and still moves): a warning rather than a refusal
        because deliberate uses exist (an all-seeing baseline that bounds what hidden
        information is worth, a test that sets up a position by hand), while the silent
        case, a research script whose agent reads the hidden cards unawares, is now
        loud.

        Args:
            state: a position of any registered game (in hidden-information games, the
                view of the agent's seat).

        Returns:
            The move code ``choose`` returned, as an ``int``.

        Raises:
            GameOverError: the game is over.
            IllegalMoveError: ``choose`` returned something that is not an integer (a
                float is refused, not truncated to a move code).
        """
        if state.is_terminal:
            raise GameOverError(f"agent {self.name!r} was asked to move in a finished game")
        if state.viewer is None and not state.game.perfect_information:
            warnings.warn(f"agent {self.name!r} was handed the true state of {state.game.name}, which "
                          "hides information; hand it state.view_for(seat) instead",
                          HiddenStateWarning, stacklevel=2)
        move = self.choose(state)
        if isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
            raise IllegalMoveError(f"agent {self.name!r} returned {move!r}, which is not a move code")
        return int(move)

    @abstractmethod
    def choose(self, state: State) -> int:
        """Pick a move; what subclasses implement (``act`` checks the game is not over).

        Args:
            state: a non-terminal position.

        Returns:
            A legal move code.
        """

    def spec(self) -> str:
        """The spec string that recreates this agent (seed aside).

        Only the parameters given explicitly are written: a parameter left to its
        default must stay so when the spec is read again, since a game's tuned
        defaults apply only to parameters a spec does not set.

        Returns:
            ``name(key=value, ...)`` with each given parameter under its current name, or
            ``name`` alone when none was given.
        """
        args = ", ".join(f"{k}={v}" for k, v in self.given.items())
        return f"{self.name}({args})" if args else self.name

    def __repr__(self) -> str:
        return f"<{self.spec()} seed={self.seed}>"
