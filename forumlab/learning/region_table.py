"""Training a region-table model (``forumlab learn GAME --model region-table``;
docs/learning.md, "Region tables (Forum Romanum)").

Each colour's estimate is its score so far plus, for every open region, a learned
table's entry at the region's pattern seen from that colour (the game's ``patterns`` and
``pattern_kernels`` modules). The entries are fitted by ridge least squares to what each
colour still scores from the recorded position to the end of its self-play game (a
Monte-Carlo value target): the model is linear in the table, so the fit is one solve of
the normal equations over the entries the positions visit.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from .model import FORMAT, KIND_REGION_TABLE

HELD_OUT_EVERY = 10  # every 10th game is held out of the first fit, to measure it
# the term weights of a region-table model: the table replaces the hand formula's region
# values (their terms scale the table's entries) and what it says of last places
TERM_WEIGHTS = {"last_places": 0.0}


def _kernels(game):
    package = type(game).__module__.rpartition(".")[0]
    return (importlib.import_module(f"{package}.pattern_kernels"),
            importlib.import_module(f"{package}.heuristic"))


def solve_table(a: np.ndarray, b: np.ndarray, ridge: float) -> np.ndarray:
    """The table minimising squared error plus ``ridge`` times its squared entries; an
    entry no row visits is 0."""
    seen = np.flatnonzero(np.diag(a) > 0)
    table = np.zeros(len(b))
    if len(seen):
        sub = a[np.ix_(seen, seen)] + ridge * np.eye(len(seen))
        table[seen] = np.linalg.solve(sub, b[seen])
    return table


def play_positions(game, games: int, seed: int, epsilon: float, stride: int, w, tick=lambda: None):
    """Play ``games`` epsilon-greedy games (greedy on ``w``; None: the hand heuristic) and
    return, per game, its recorded positions (rows) and every colour's final score."""
    from .train import played_games

    kernels, _ = _kernels(game)
    out = []
    for _, rows, array in played_games(game, games, seed, epsilon, stride, w):
        final = np.zeros(kernels.MAX_COLOURS)
        colours = kernels.colour_scores(array, final)
        out.append((rows.copy(), final[:colours].copy()))
        tick()
    return out


def pattern_rows(game, played) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (position, colour) of ``played`` as its pattern indices (rows x regions), its
    target (what the colour still scores) and its position's number."""
    kernels, _ = _kernels(game)
    idx_all, y_all, pos_all = [], [], []
    idx = np.empty((kernels.MAX_COLOURS, kernels.N_REGIONS), dtype=np.int64)
    now = np.zeros(kernels.MAX_COLOURS)
    position = 0
    for rows, final in played:
        for s in rows:
            colours = kernels.pattern_indices(s, idx)
            kernels.colour_scores(s, now)
            idx_all.append(idx[:colours].copy())
            y_all.append(final - now[:colours])
            pos_all.append(np.full(colours, position))
            position += 1
    return np.concatenate(idx_all), np.concatenate(y_all), np.concatenate(pos_all)


def fit_table(idx: np.ndarray, y: np.ndarray, size: int, ridge: float) -> np.ndarray:
    """The ridge least-squares table for pattern rows ``idx`` and targets ``y``."""
    from .normal_equations import accumulate_normal_equations

    a = np.zeros((size, size))
    b = np.zeros(size)
    accumulate_normal_equations(idx, y.astype(np.float64), a, b)
    return solve_table(a, b, ridge)


def _rmse(game, played, w: np.ndarray) -> float:
    """Root mean squared error of every colour's final score as the heuristic's colour
    estimate with weights ``w`` predicts it, over the positions of ``played``."""
    kernels, heuristic = _kernels(game)
    est = np.zeros(kernels.MAX_COLOURS)
    errors = []
    for rows, final in played:
        for s in rows:
            heuristic.colour_values(s, w, est)
            errors.append(est[:len(final)] - final)
    return float(np.sqrt(np.mean(np.concatenate(errors) ** 2))) if errors else 0.0


def term_weights(game) -> np.ndarray:
    """The term weights of a region-table model (1, but :data:`TERM_WEIGHTS`)."""
    from ..agents.weights import term_names

    return np.array([TERM_WEIGHTS.get(name, 1.0) for name in term_names(game)])


def fit_with_statistics(game, played, size: int, ridge: float) -> tuple[np.ndarray, dict[str, Any]]:
    """Fit on all but every 10th game, measure on those, then refit on every game.

    Returns:
        The table fitted on every game, and the statistics of the held-out measurement:
        RMSE of the final colour scores predicted by the table, by the hand estimate and
        by the score so far alone.
    """
    terms = term_weights(game)
    train = [g for i, g in enumerate(played) if i % HELD_OUT_EVERY != HELD_OUT_EVERY - 1]
    held = [g for i, g in enumerate(played) if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1]
    idx, y, _ = pattern_rows(game, train)
    first = fit_table(idx, y, size, ridge)
    score_only = np.zeros(len(terms) + size)
    score_only[0] = 1.0  # the score term is first: what the colour has, nothing to come
    stats = {"games_held_out": len(held),
             "rmse_table": round(_rmse(game, held, np.concatenate([terms, first])), 4),
             "rmse_hand": round(_rmse(game, held, np.ones(len(terms))), 4),
             "rmse_score_only": round(_rmse(game, held, score_only), 4)}
    idx, y, positions = pattern_rows(game, played)
    stats.update(positions=int(positions[-1] + 1) if len(positions) else 0, rows=int(len(y)))
    table = fit_table(idx, y, size, ridge)
    stats["entries_visited"] = int(np.count_nonzero(table))
    return table, stats


def learn_region_table(game, games: int, seed: int, epsilon: float = 0.1, stride: int = 2,
                       iterations: int = 1, ridge: float = 1.0, command: str = "",
                       progress: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Train a region-table model for ``game``: self-play greedy on the hand heuristic,
    fit the table; with ``iterations`` > 1, play greedy on the latest model (fresh seeds)
    and refit on every game so far (expert iteration).

    Returns:
        The model as a dict (see :mod:`.model`), ``command`` recorded in it.
    """
    from ..agents.weights import term_names
    from ..core.rng import derive_seed
    from .model import table_shape

    shape = table_shape(game)
    size = int(np.prod(shape))
    terms = term_weights(game)
    w, played, history = None, [], []
    for it in range(iterations):
        played += play_positions(game, games, derive_seed(seed, it), epsilon, stride, w, progress)
        table, stats = fit_with_statistics(game, played, size, ridge)
        w = np.concatenate([terms, table])
        history.append(stats)
    return {"format": FORMAT, "kind": KIND_REGION_TABLE, "training": "final-score", "game": game.name,
            "players": game.players, "command": command,
            "settings": {"games": games, "seed": seed, "epsilon": epsilon, "stride": stride,
                         "iterations": iterations, "ridge": ridge},
            "weights": {name: float(v) for name, v in zip(term_names(game), terms)},
            "table": {"shape": list(shape), "values": [round(float(v), 4) for v in table]},
            "fit": history}
