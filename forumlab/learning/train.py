"""Training a learned evaluation from self-play (``forumlab learn``; docs/learning.md)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .fit import fit_softmax, log_loss, margin_spread
from .model import FORMAT, KIND_TERM_WEIGHTS

MAX_RECORDED = 512  # positions kept per game (every stride-th ply)


def played_games(game, games: int, seed: int, epsilon: float, stride: int, weights):
    """Play ``games`` epsilon-greedy games (greedy on the weight array ``weights``; None:
    the game's own heuristic); yield, per game, its seed, its recorded positions (every
    ``stride``-th ply, rows of a 2-D array) and its final state array."""
    from ..core.rng import derive_seed, make_rng
    from .selfplay import play_recording

    tag = game.kernels.tag
    for i in range(games):
        game_seed = derive_seed(seed, i)
        array = game.initial_array(game_seed)
        out = np.empty((MAX_RECORDED, array.shape[0]), dtype=array.dtype)
        rng = make_rng(derive_seed(game_seed, 1))
        if weights is None:
            n = play_recording(tag, array, rng, epsilon, stride, out)
        else:
            n = play_recording(tag, array, rng, epsilon, stride, out, weights)
        yield game_seed, out[:n], array


def recorded_games(game, games: int, seed: int, epsilon: float, stride: int, weights):
    """:func:`played_games` with each game's winners in place of its final state."""
    from ..core.game import State

    for game_seed, rows, array in played_games(game, games, seed, epsilon, stride, weights):
        yield game_seed, rows, State(game, array, game_seed).result()["winners"]


def self_play(game, games: int, seed: int, epsilon: float, stride: int, weights,
              tick: Callable[[], None] = lambda: None) -> tuple[np.ndarray, np.ndarray]:
    """Play ``games`` epsilon-greedy games; return their positions' features
    (positions x seats x terms) and outcome shares (positions x seats).

    ``weights``: the greedy's term weights (None: the game's own heuristic).
    """
    xs, ys, _ = labelled_self_play(game, games, seed, epsilon, stride, weights, tick)
    return xs, ys


def labelled_self_play(game, games: int, seed: int, epsilon: float, stride: int, weights,
                       tick: Callable[[], None] = lambda: None,
                       label: Callable[[np.ndarray], int] = lambda row: 0):
    """:func:`self_play`, plus ``label(position)`` for each recorded position (e.g. its
    stage of the game) as a third array."""
    from ..agents.weights import term_names
    from .terms import seat_values_kernel, term_matrix

    n_terms, players = len(term_names(game)), game.players
    seat_values = seat_values_kernel(game)
    xs, ys, labels = [], [], []
    for _, rows, winners in recorded_games(game, games, seed, epsilon, stride, weights):
        share = np.zeros(players)
        share[winners] = 1.0 / max(len(winners), 1)
        for row in rows:
            xs.append(term_matrix(seat_values, row, players, n_terms))
            ys.append(share)
            labels.append(label(row))
        tick()
    return np.array(xs), np.array(ys), np.array(labels, dtype=np.int64)


def fit_model(game, x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, dict[str, Any]]:
    """The fitted weights, scaled so that the margins they give spread as the default
    heuristic's do (the scale MCTS's ``hscale`` and minimax values were tuned for), and
    fit statistics."""
    k = x.shape[2]
    raw = fit_softmax(x, y, l2)
    ones = np.ones(k)
    learned_spread, default_spread = margin_spread(x, raw), margin_spread(x, ones)
    scale = default_spread / learned_spread if learned_spread > 0 else 1.0
    # the default weights' loss at their best temperature, for comparison
    best_t = fit_softmax((x @ ones)[:, :, None], y, l2)[0]
    stats = {"positions": int(x.shape[0]), "log_loss": round(log_loss(x, y, raw), 5),
             "log_loss_default": round(log_loss(x, y, best_t * ones), 5),
             "log_loss_uniform": round(float(np.log(x.shape[1])), 5), "scale": round(float(scale), 6)}
    return raw * scale, stats


def learn(game, games: int, seed: int, epsilon: float = 0.1, stride: int = 2, iterations: int = 1,
          l2: float = 1e-3, command: str = "", progress: Callable[[], None] = lambda: None,
          start_weights: np.ndarray | None = None) -> dict[str, Any]:
    """Train a model for ``game``: self-play, fit; with ``iterations`` > 1, play again
    with the learned weights and refit (expert iteration), on fresh seeds each time.
    ``start_weights``: the first self-play's greedy weights (None: the game's own).

    Returns:
        The model as a dict (see :mod:`.model`), ``command`` recorded in it.
    """
    from ..agents.weights import term_names
    from ..core.rng import derive_seed

    weights, history = start_weights, []
    for it in range(iterations):
        x, y = self_play(game, games, derive_seed(seed, it), epsilon, stride, weights, progress)
        weights, stats = fit_model(game, x, y, l2)
        history.append(stats)
    return {"format": FORMAT, "kind": KIND_TERM_WEIGHTS, "training": "outcome", "game": game.name,
            "players": game.players, "command": command,
            "settings": {"games": games, "seed": seed, "epsilon": epsilon, "stride": stride,
                         "iterations": iterations, "l2": l2},
            "weights": {name: round(float(v), 6) for name, v in zip(term_names(game), weights)},
            "fit": history}


def learn_choice(game, games: int, seed: int, teacher_spec: str, epsilon: float = 0.1, stride: int = 2,
                 iterations: int = 1, l2: float = 1e-3, alternatives: int = 48, command: str = "",
                 progress: Callable[[], None] = lambda: None,
                 start_weights: np.ndarray | None = None) -> dict[str, Any]:
    """Train a model for move choice (docs/learning.md, "Training for move choice"):
    self-play positions, the teacher's move at each, a conditional logit over the
    afterstates (:mod:`.choice_fit`). With ``iterations`` > 1 the next games are played
    by greedy on the latest weights and the fit uses every example so far (the learner
    meets its own positions).

    Returns:
        The model as a dict (see :mod:`.model`), ``command`` recorded in it.
    """
    from ..agents.weights import term_names
    from ..api import make_agent
    from ..core.rng import derive_seed
    from .choice import choice_examples, stack_examples
    from .choice_fit import choice_stats, fit_choice

    teacher = make_agent(teacher_spec, seed=derive_seed(seed, "teacher"))
    weights, examples, history = start_weights, [], []
    for it in range(iterations):
        played = recorded_games(game, games, derive_seed(seed, it), epsilon, stride, weights)
        records = [(game_seed, rows) for game_seed, rows, _ in played]
        examples += choice_examples(game, records, teacher, alternatives, derive_seed(seed, it, "draws"),
                                    progress)
        x, mask, mover = stack_examples(examples)
        raw = fit_choice(x, mask, mover, l2)
        flat = x[mask]  # every afterstate as seats x terms: the spread the searches see
        learned_spread, default_spread = margin_spread(flat, raw), margin_spread(flat, np.ones(len(raw)))
        weights = raw * (default_spread / learned_spread if learned_spread > 0 else 1.0)
        learned = choice_stats(x, mask, mover, raw, l2)
        default = choice_stats(x, mask, mover, np.ones(len(raw)), l2)
        history.append({"positions": int(len(mover)), "log_loss": learned["log_loss"],
                        "log_loss_default": default["log_loss"],
                        "log_loss_uniform": round(float(np.log(mask.sum(axis=1)).mean()), 5),
                        "agreement": learned["agreement"], "agreement_default": default["agreement"]})
    return {"format": FORMAT, "kind": KIND_TERM_WEIGHTS, "training": "move-choice", "game": game.name,
            "players": game.players, "command": command,
            "settings": {"games": games, "seed": seed, "epsilon": epsilon, "stride": stride,
                         "iterations": iterations, "l2": l2, "teacher": teacher_spec,
                         "alternatives": alternatives},
            "weights": {name: round(float(v), 6) for name, v in zip(term_names(game), weights)},
            "fit": history}
