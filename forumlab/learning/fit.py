"""Fitting a linear evaluation: a multinomial logit over seats, P(seat i wins) =
softmax_i(terms_i . w), by L2-regularised maximum likelihood (deterministic Newton steps)."""
from __future__ import annotations

import numpy as np


def _softmax_rows(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Mean negative log-likelihood of the outcome shares ``y`` (positions x seats, rows
    sum to 1) under softmax(x . w), x positions x seats x terms."""
    p = _softmax_rows(x @ w)
    return float(-(y * np.log(np.maximum(p, 1e-300))).sum(axis=1).mean())


def fit_softmax(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 30) -> np.ndarray:
    """Weights maximising the L2-penalised likelihood of ``y`` under softmax(x . w).

    Args:
        x: positions x seats x terms features.
        y: positions x seats outcome shares (1 for the winner; ties share).
        l2: penalty on the squared weights of the standardised features.
        steps: Newton steps (the objective is convex; a few dozen converge).

    Returns:
        One weight per term, on the features' own scale.
    """
    scale = x.reshape(-1, x.shape[2]).std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    n, _, k = z.shape
    w = np.zeros(k)
    for _ in range(steps):
        p = _softmax_rows(z @ w)
        grad = np.einsum("ns,nsk->k", p - y, z) / n + l2 * w
        mean = np.einsum("ns,nsk->nk", p, z)
        second = np.einsum("ns,nsk,nsj->kj", p, z, z) / n - np.einsum("nk,nj->kj", mean, mean) / n
        w = w - np.linalg.solve(second + l2 * np.eye(k), grad)
    return w / scale


def margin_spread(x: np.ndarray, w: np.ndarray) -> float:
    """The standard deviation, over positions and seats, of a seat's value with weights
    ``w`` minus the best other seat's: the scale the searches see."""
    v = x @ w
    n = v.shape[1]
    margins = [v[:, i] - np.delete(v, i, axis=1).max(axis=1) for i in range(n)]
    return float(np.std(np.concatenate(margins)))
