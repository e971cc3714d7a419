"""Training a stage-weights model (``forumlab learn GAME --model stage-weights``;
docs/learning.md, "Stage weights (Foundations of Rome)").

The outcome model's multinomial logit over seats (:mod:`.fit`), with each term's column
split into one column per stage of the game (the column times the stage's indicator):
still linear in the parameters, so the same Newton fit and the same scale step apply,
and the fitted weight of (term, stage) is the term's worth at positions of that stage.
The game says what its stages are in a ``stages`` module beside its heuristic
(``N_STAGES``, ``stage_of``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .fit import fit_softmax
from .model import FORMAT, KIND_STAGE_WEIGHTS, stages_module


def expand_by_stage(x: np.ndarray, stages: np.ndarray, n_stages: int) -> np.ndarray:
    """The features ``x`` (positions x seats x terms) with each term's column split by
    stage: positions x seats x (stages * terms), stage-major (the block of stage ``g`` is
    ``x`` where the position's stage is ``g``, 0 elsewhere)."""
    n, seats, k = x.shape
    out = np.zeros((n, seats, n_stages, k))
    out[np.arange(n), :, stages, :] = x
    return out.reshape(n, seats, n_stages * k)


def weight_array(table: np.ndarray) -> np.ndarray:
    """The agents' weight array of a stage table (stages x terms): term weights 1, then
    the table row by row (what the game's weighted heuristic takes)."""
    return np.concatenate([np.ones(table.shape[1]), table.ravel()])


def self_play_stages(game, games: int, seed: int, epsilon: float, stride: int, weights,
                     tick: Callable[[], None] = lambda: None):
    """:func:`.train.self_play` plus each recorded position's stage."""
    from .train import labelled_self_play

    return labelled_self_play(game, games, seed, epsilon, stride, weights, tick,
                              label=stages_module(game).stage_of)


def stage_statistics(x: np.ndarray, y: np.ndarray, stages: np.ndarray, n_stages: int,
                     l2: float) -> dict[str, Any]:
    """Positions per stage and the log-loss a single weight per term reaches on the same
    positions (the term-weights model's fit), to compare with the stage model's."""
    from .fit import log_loss

    single = fit_softmax(x, y, l2)
    return {"positions_per_stage": [int(np.sum(stages == g)) for g in range(n_stages)],
            "log_loss_term_weights": round(log_loss(x, y, single), 5)}


def learn_stage_weights(game, games: int, seed: int, epsilon: float = 0.1, stride: int = 2,
                        iterations: int = 1, l2: float = 1e-3, command: str = "",
                        progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Train a stage-weights model for ``game``: self-play greedy on the hand heuristic,
    fit a weight per (term, stage); with ``iterations`` > 1, play greedy on the latest
    model (fresh seeds) and refit on those games (expert iteration, as the outcome model).

    Returns:
        The model as a dict (see :mod:`.model`), ``command`` recorded in it.
    """
    from ..agents.weights import term_names
    from ..core.rng import derive_seed
    from .train import fit_model

    stages_mod = stages_module(game)
    n_stages, k = stages_mod.N_STAGES, len(term_names(game))
    w, history = None, []
    for it in range(iterations):
        x, y, stages = self_play_stages(game, games, derive_seed(seed, it), epsilon, stride, w, progress)
        # ones over the split columns sum back to ones over the terms: fit_model's default
        # comparison and scale are the term-weights model's
        flat, stats = fit_model(game, expand_by_stage(x, stages, n_stages), y, l2)
        stats.update(stage_statistics(x, y, stages, n_stages, l2))
        table = flat.reshape(n_stages, k)
        w = weight_array(table)
        history.append(stats)
    return {"format": FORMAT, "kind": KIND_STAGE_WEIGHTS, "training": "outcome", "game": game.name,
            "players": game.players, "command": command,
            "settings": {"games": games, "seed": seed, "epsilon": epsilon, "stride": stride,
                         "iterations": iterations, "l2": l2},
            "weights": {name: 1.0 for name in term_names(game)},
            "stages": {"names": list(stages_mod.STAGE_NAMES), "shape": [n_stages, k],
                       "values": [round(float(v), 6) for v in table.ravel()]},
            "fit": history}
