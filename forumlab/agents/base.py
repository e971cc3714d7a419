"""The agent interface shared by every player, built-in or third-party."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.errors import GameOverError
from ..core.game import State
from ..core.rng import make_rng


@dataclass(frozen=True)
class Param:
    """A tunable agent parameter: default value and one line of help."""

    default: Any
    help: str


class Agent(ABC):
    """Chooses moves. Subclasses declare ``name`` and ``params`` and implement ``choose``.

    Every agent takes a ``seed``; with an iteration/node budget its play is
    reproducible bit for bit (the seed feeds a SplitMix64 stream kept by the agent).
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}

    def __init__(self, seed: int = 0, **options: Any):
        from .spec import AgentSpecError

        unknown = set(options) - set(self.params)
        if unknown:
            known = ", ".join(sorted(self.params)) or "none"
            raise AgentSpecError(
                f"agent {self.name!r} has no parameter {sorted(unknown)[0]!r} (parameters: {known})"
            )
        self.seed = int(seed)
        self.rng = make_rng(self.seed)
        self.options = {k: options.get(k, p.default) for k, p in self.params.items()}

    def act(self, state: State) -> int:
        """The move code this agent plays in ``state`` (raises if the game is over)."""
        if state.is_terminal:
            raise GameOverError(f"agent {self.name!r} was asked to move in a finished game")
        return int(self.choose(state))

    @abstractmethod
    def choose(self, state: State) -> int:
        """Pick a legal move in a non-terminal state."""

    def spec(self) -> str:
        """The spec string that recreates this agent (seed aside)."""
        args = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.name}({args})" if args else self.name

    def __repr__(self) -> str:
        return f"<{self.spec()} seed={self.seed}>"
