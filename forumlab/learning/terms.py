"""Each position's per-seat term vectors, which the learned models are fitted to.

Plain Python around the game's compiled ``seat_values``: kept apart from the compiled
self-play (:mod:`.selfplay`) because its imports (each game's heuristic module, found by name)
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
    scales). Exact: every game's heuristic is linear in its weights (Forum Trajanum's
    ``held`` prices the tiles at fixed prices and scales them by its own weight alone),
    so the column is the term as the weighted heuristic plays it."""
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


def term_features(game, seat_values, s: np.ndarray, n_terms: int) -> np.ndarray:
    """The players x terms matrix of ``s`` that move-choice training fits weights to: the
    outcome fit's :func:`term_matrix`, so both fits read every term as it is played."""
    return term_matrix(seat_values, s, game.players, n_terms)
