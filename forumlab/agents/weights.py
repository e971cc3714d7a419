"""Heuristic weights as agent parameters: ``greedy(w.trajan=2, w.area=0.5)``,
``mcts(archetype=civic)``.

A game's heuristic is a weighted sum of named terms per seat (:func:`heuristic_terms`;
docs/games/<game>.md explains each). The agents that evaluate
positions with it (greedy, the minimax family, MCTS) take

- ``w.NAME=VALUE``: the weight of term NAME (default 1; any finite number, 0 switches the
  term off, a negative one makes the agent avoid what the term counts);
- ``archetype=NAME``: a named weight vector of the game (:mod:`.archetypes`); ``w.``
  values given beside it override its weights.

An agent is created from its spec before it knows its game, so the names are checked
when it first sees a game (:meth:`WeightedAgent.heuristic_weights`, and
:func:`check_weights_for_game`, which commands call before anything is played): an
unknown name is a one-line error listing the game's terms. ``spec()`` writes the weights
as given, so ``make_agent(agent.spec())`` recreates the agent.
"""
from __future__ import annotations

import importlib
import math
from typing import Any

import numpy as np

from .base import Agent, Param
from .spec import AgentSpecError

PREFIX = "w."

ARCHETYPE_PARAM = Param("", "a named weight vector of the game's heuristic terms ('' = the game's own "
                            "weights; names per game: docs/strategies.md); w.NAME=VALUE values override it",
                        kind=str)

EVAL_PARAM = Param("", "a learned evaluation: 'learned' (the model shipped for the game and player count) "
                       "or the path of a model file from forumlab learn; archetype and w.NAME values "
                       "override its weights (docs/learning.md)", kind=str)


def is_weight_key(key: str) -> bool:
    """Whether a spec key names a heuristic term's weight (``w.NAME``)."""
    return key.startswith(PREFIX) and key[len(PREFIX):].isidentifier()


def heuristic_terms(game) -> tuple[tuple[str, str], ...]:
    """A game's heuristic terms as (name, what it measures) pairs, in the order of the
    weight arrays; () for a game without named terms.

    Args:
        game: a Game or Game class. Its ``heuristic_terms`` attribute if it has one, else
            ``TERMS`` of the ``terms`` module beside its class's module (the built-in
            games' ``forumlab/engines/<game>/terms.py``: plain Python, nothing compiled).
    """
    terms = getattr(game, "heuristic_terms", None)
    if terms is None:
        cls = game if isinstance(game, type) else type(game)
        package = cls.__module__.rpartition(".")[0]
        try:
            terms = importlib.import_module(f"{package}.terms").TERMS if package else ()
        except (ImportError, AttributeError):
            terms = ()
    return tuple(terms)


def term_names(game) -> tuple[str, ...]:
    """The names of a game's heuristic terms (a Game or Game class; () without terms)."""
    return tuple(name for name, _ in heuristic_terms(game))


def _check_number(agent: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise AgentSpecError(f"agent {agent!r}: {key} must be a finite number, not {value!r}")
    return value


def weight_vector(agent: str, game, archetype: str, weights: dict[str, float],
                  evaluation: str = "") -> np.ndarray | None:
    """The float64 weight array of ``game``'s terms for an archetype and ``w.`` values.

    Args:
        agent: the agent's name, for messages.
        game: the Game (or Game class) played.
        archetype: an archetype name of the game, or "" for none.
        weights: term name -> weight, as given (overriding the archetype's).
        evaluation: an ``eval=`` value (``learned`` or a model file's path), or "" for
            none; its weights are the base the archetype and ``weights`` override.

    Returns:
        None when neither is given (the game's own heuristic), else one weight per term
        in the game's term order (1 where nothing sets it), followed by the table of a
        region-table model or the stage multipliers of a stage-weights model
        (docs/learning.md).

    Raises:
        AgentSpecError: the game has no terms, or no term or archetype of that name.
    """
    if not archetype and not weights and not evaluation:
        return None
    names = term_names(game)
    if not names:
        raise AgentSpecError(f"agent {agent!r}: the heuristic of {game.name} has no named terms to weigh")
    merged: dict[str, float] = {}
    # a region-table model's table or a stage-weights model's stages, after the term weights
    extra: list[float] = []
    if evaluation:
        from ..learning.model import EvalFileError, part_values, resolve_model

        try:
            model = resolve_model(evaluation, game.name, getattr(game, "players", None), game)
        except EvalFileError as e:
            raise AgentSpecError(f"agent {agent!r}: {e}") from None
        merged.update({str(k): float(v) for k, v in model["weights"].items()})
        extra = part_values(model)
    if archetype:
        from .archetypes import archetypes

        table = archetypes(game.name)
        if archetype not in table:
            raise AgentSpecError(f"agent {agent!r}: {game.name} has no archetype {archetype!r} "
                                 f"(archetypes: {', '.join(table)})")
        merged.update(table[archetype])
    merged.update(weights)
    unknown = [k for k in merged if k not in names]
    if unknown:
        raise AgentSpecError(f"agent {agent!r}: {game.name} has no heuristic term {unknown[0]!r} "
                             f"(terms: {', '.join(names)})")
    return np.array([float(merged.get(name, 1.0)) for name in names] + extra, dtype=np.float64)


class WeightedAgent(Agent):
    """An agent whose evaluation is the game's heuristic with weights on its terms: it
    takes ``w.NAME=VALUE`` and ``archetype`` (see the module docstring)."""

    def __init__(self, seed: int = 0, **options: Any):
        weights = {k: options.pop(k) for k in list(options) if is_weight_key(k)}
        super().__init__(seed, **options)
        #: the ``w.`` values given, by term name
        self.term_weights = {k[len(PREFIX):]: _check_number(self.name, k, v) for k, v in weights.items()}
        self.given.update(weights)  # spec() writes them as given
        self._weights_by_game: dict[tuple, np.ndarray | None] = {}

    def heuristic_weights(self, game) -> np.ndarray | None:
        """The weight array the search hands the heuristic in ``game`` (None: the game's
        own weights, the fast path); checked and built once per game.

        Raises:
            AgentSpecError: an unknown term or archetype name (listing the game's).
        """
        # eval=learned differs by player count; a Game class (checked before play) has none
        key = (game.name, getattr(game, "players", None))
        if key not in self._weights_by_game:
            self._weights_by_game[key] = weight_vector(self.name, game, self.options.get("archetype", ""),
                                                       self.term_weights, self.options.get("eval", ""))
        return self._weights_by_game[key]


def weights_listing() -> list[str]:
    """Lines for ``forumlab agents``: each game's heuristic terms and archetypes."""
    from ..core.registry import game_names, get_game_class
    from .archetypes import archetypes

    lines = []
    for game in game_names():
        names = term_names(get_game_class(game))
        if names:
            lines.append(f"heuristic terms of {game} (w.NAME=VALUE, default 1): {', '.join(names)}")
            lines.append(f"  archetype=NAME: {', '.join(archetypes(game))}")
    return lines


def check_weights_for_game(agent: Agent, game) -> None:
    """Refuse, with one line, an agent whose weights name terms ``game`` lacks (a no-op
    for agents without weights). Commands call it before a game is played.

    Raises:
        AgentSpecError: an unknown term or archetype name.
    """
    if isinstance(agent, WeightedAgent):
        agent.heuristic_weights(game)
