"""Each position's per-seat term vectors, which the learned models are fitted to.

Plain Python around the game's compiled ``seat_values``: kept apart from the compiled
self-play (:mod:`.selfplay`) because its imports (the agents' term names, the registry)
would otherwise be hashed into the numba cache key, and editing them would recompile
every kernel."""
from __future__ import annotations

import importlib

import numpy as np


def seat_values_kernel(game):
    """The game's compiled ``seat_values(s, w, out)`` (every seat's weighted estimate)."""
    package = type(game).__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.heuristic").seat_values


def term_matrix(seat_values, s: np.ndarray, players: int, n_terms: int) -> np.ndarray:
    """The players x terms matrix of ``s``: column k is each seat's estimate with weight
    1 on term k and 0 elsewhere, less the estimate with every weight 0 (what no weight
    scales). Exact for a heuristic linear in its weights (all but Forum Trajanum's
    ``held`` term, where it is the term's value at weight 1)."""
    out = np.zeros(players, dtype=np.float64)
    seat_values(s, np.zeros(n_terms), out)
    base = out.copy()
    matrix = np.empty((players, n_terms), dtype=np.float64)
    for k in range(n_terms):
        w = np.zeros(n_terms)
        w[k] = 1.0
        seat_values(s, w, out)
        matrix[:, k] = out - base
    return matrix


# Terms whose value is not their weight times a fixed amount: Forum Trajanum's ``held``
# prices the tiles by the weights of the terms they feed (resources, envoys, citizens,
# prestige, area), so at weight 1 on it and 0 elsewhere it reads the tiles at price 0.
PRICED_TERMS = {"forum-trajanum": ("held",)}


def term_features(game, seat_values, s: np.ndarray, n_terms: int) -> np.ndarray:
    """The players x terms matrix of ``s`` that move-choice training fits weights to:
    :func:`term_matrix`, except for a term of :data:`PRICED_TERMS`, whose column is its
    part of each seat's value at the default weights (every weight 1, less the value
    with its weight 0): for ``held``, the tiles' worth at the default prices, where
    :func:`term_matrix` would read them at price 0."""
    from ..agents.weights import term_names

    players = game.players
    matrix = term_matrix(seat_values, s, players, n_terms)
    names = term_names(game)
    ones = np.ones(n_terms)
    full = np.zeros(players, dtype=np.float64)
    out = np.zeros(players, dtype=np.float64)
    for name in PRICED_TERMS.get(game.name, ()):
        k = names.index(name)
        seat_values(s, ones, full)
        w = ones.copy()
        w[k] = 0.0
        seat_values(s, w, out)
        matrix[:, k] = full - out
    return matrix
