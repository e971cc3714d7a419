"""The reference-engine protocol, and where the kit finds a game's reference engine and
conformance data.

Every game ships a plain-Python *reference engine*: the rules written again from the
spec alone, slow and readable, used as a test oracle. All reference engines speak the
one protocol :class:`ReferenceEngine` below, in the game's own move notation (the texts
of ``Game.format_move``), so the kit's differential check
(:mod:`forumlab.testing.differential`), ``tests/data/make_perft.py`` and
``benchmarks/playouts.py`` drive any of them without knowing which game it is.

Chance. ``from_config(config, seed)`` must deal the same game as the numba engine's
``Game(**config).new_state(seed)``: every shuffle and draw of the setup comes from the
same seed, by the rules' draw order (Foundations of Rome and Forum Trajanum re-derive
the SplitMix64 stream of :mod:`forumlab.core.rng` from ``derive_seed(game, seed)``). A
draw that the rules leave to the implementation (Forma's random obstacle layout) reaches
the reference engine as explicit options: :func:`start_reference` merges the numba
engine's ``Game.setup_record`` of the deal into the config (the same options a game
record carries for other implementations). After the setup a
game is a function of its moves, so the same move texts keep both engines in step.

Conformance data. Each game keeps, in one place next to its ``Game`` class, the module
``<package of the Game class>.conformance`` with the constant ``CONFORMANCE`` (plain
data; ``docs/adding-a-game.md`` describes its keys): the reference engine's
``"module:Class"`` path, the configurations the kit runs every check at (with the
differential games each gets), malformed inputs, and the perft lines. A game without
that module is checked at one configuration per player count and has no reference
engine (its differential check is skipped).
"""
from __future__ import annotations

import importlib
import unittest
from typing import Any, Protocol, runtime_checkable

from ..core.game import Game, State
from ..core.registry import get_game_class


@runtime_checkable
class ReferenceEngine(Protocol):
    """One position of a game in a reference engine, played by notation texts.

    Implementations: ``ReferenceForumRomanum``, ``ReferenceForma``,
    ``ReferenceFoundationsOfRome``'s and ``ReferenceForumTrajanum``'s ``ReferenceState``.
    """

    @classmethod
    def from_config(cls, config: dict[str, Any], seed: int) -> ReferenceEngine:
        """The start of the game ``config`` (a ``Game.config``, with the options of
        ``Game.setup_record`` merged in: :func:`reference_config`) dealt from ``seed``,
        the same deal as the numba engine's ``new_state(seed)``."""

    def legal_moves(self) -> list[str]:
        """Every legal ply as notation text, in the engine's own fixed order; empty once
        the game is over."""

    def play(self, text: str) -> Any:
        """Make the ply ``text`` (an error for one not in ``legal_moves()``)."""

    def current_player(self) -> int:
        """The seat that makes the next ply (any value once the game is over)."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""

    def result(self) -> dict[str, Any]:
        """The final scores and result fields, each under the key (and in the form) of
        the numba engine's ``State.result()``."""

    def summary(self) -> dict[str, Any]:
        """The position as plain data (every field the two engines can both say)."""

    def copy(self) -> ReferenceEngine:
        """An independent copy."""

    @staticmethod
    def engine_summary(state: State) -> dict[str, Any]:
        """The numba engine's position ``state`` in ``summary()``'s terms, so that the
        two compare with ``==`` (it may hold more keys; those of ``summary()`` count)."""


class NoReferenceEngine(unittest.SkipTest):
    """The game names no reference engine: its differential check is skipped (pytest and
    unittest report a skip)."""


def conformance_data(game: type[Game] | Game | str) -> dict[str, Any]:
    """The ``CONFORMANCE`` constant next to a game's class, or ``{}`` when it has none.

    Args:
        game: a registered name, a Game subclass or a configured game.

    Returns:
        The game's conformance data (see the module docstring).
    """
    cls = get_game_class(game) if isinstance(game, str) else game if isinstance(game, type) else type(game)
    package = cls.__module__.rpartition(".")[0]
    if not package:  # a class defined in a top-level module (a script) has no neighbours
        return {}
    try:
        module = importlib.import_module(f"{package}.conformance")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.conformance":
            raise
        return {}
    return module.CONFORMANCE


def reference_engine(game: type[Game] | Game | str) -> type[ReferenceEngine]:
    """The reference engine class of a game, as its conformance data names it.

    Args:
        game: a registered name, a Game subclass or a configured game.

    Returns:
        The class; ``from_config(config, seed)`` starts a game.

    Raises:
        NoReferenceEngine: the game names none.
    """
    target = conformance_data(game).get("reference")
    if not target:
        name = game if isinstance(game, str) else game.name
        raise NoReferenceEngine(f"no reference engine: {name} names none in its conformance data")
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def reference_config(game: Game, seed: int) -> dict[str, Any]:
    """The config the reference engine starts ``game``'s seed-``seed`` deal from: the game's
    config with :meth:`Game.setup_record` of that deal merged in (the setup draws that the
    rules leave to the implementation, e.g. Forma's random layout, as explicit options)."""
    return {**game.config, **game.setup_record(game.new_state(seed))}


def start_reference(game: Game, seed: int) -> ReferenceEngine:
    """The reference engine's start of ``game`` (configured) dealt from ``seed``, the same
    deal as ``game.new_state(seed)``."""
    return reference_engine(game).from_config(reference_config(game, seed), seed)
