"""Fitting term weights to move choices: a conditional logit over the afterstates of
each position (what greedy decides between), by L2-regularised maximum likelihood.

Position ``n`` offers afterstates ``a`` (``mask[n, a]``; the chosen one is ``a = 0``),
each with a seats x terms matrix ``x[n, a]``. With weights ``w`` the mover's value of an
afterstate is greedy's: its own weighted terms minus the best other seat's,
``u = x[n, a, mover] . w - max_j x[n, a, j] . w``, and ``P(a) = softmax_a(u)``. The max
makes ``u`` piecewise linear in ``w``: each round fixes the best other seat of every
afterstate under the current weights, fits the then convex logit by Newton steps, and
repeats, so the fitted weights and the seats they compare agree.

Only differences between the afterstates of one position enter the likelihood, so a
term that no move changes (points already banked) earns no weight: what the outcome
regression of :mod:`.fit` rewarded and greedy cannot use.
"""
from __future__ import annotations

import numpy as np


def margin_features(x: np.ndarray, mask: np.ndarray, mover: np.ndarray, w: np.ndarray) -> np.ndarray:
    """positions x afterstates x terms: the mover's terms less those of the seat whose
    weighted value (weights ``w``) is the highest among the others; 0 where masked."""
    n, a, seats, _ = x.shape
    values = x @ w  # n x a x seats
    others = values.copy()
    others[np.arange(n), :, mover] = -np.inf
    rival = others.argmax(axis=2)  # n x a
    rows, cols = np.arange(n)[:, None], np.arange(a)[None, :]
    d = x[rows, cols, mover[:, None]] - x[rows, cols, rival]
    d[~mask] = 0.0
    return d


def _choice_probs(d: np.ndarray, mask: np.ndarray, theta: np.ndarray) -> np.ndarray:
    logits = np.where(mask, d @ theta, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


def choice_loss(d: np.ndarray, mask: np.ndarray, theta: np.ndarray) -> float:
    """Mean negative log-likelihood of the chosen afterstates (index 0)."""
    p = _choice_probs(d, mask, theta)
    return float(-np.log(np.maximum(p[:, 0], 1e-300)).mean())


def _newton(d: np.ndarray, mask: np.ndarray, l2: float, steps: int) -> np.ndarray:
    """The penalised conditional-logit weights on features ``d`` (convex: Newton steps,
    halved while the penalised loss does not fall)."""
    n, _, k = d.shape
    theta = np.zeros(k)

    def objective(t):
        return choice_loss(d, mask, t) + 0.5 * l2 * float(t @ t)

    current = objective(theta)
    for _ in range(steps):
        p = _choice_probs(d, mask, theta)
        p_minus_y = p.copy()
        p_minus_y[:, 0] -= 1.0
        grad = np.einsum("na,nak->k", p_minus_y, d) / n + l2 * theta
        mean = np.einsum("na,nak->nk", p, d)
        hess = np.einsum("na,nak,naj->kj", p, d, d) / n - mean.T @ mean / n + l2 * np.eye(k)
        step = np.linalg.solve(hess, grad)
        for _ in range(30):
            trial = objective(theta - step)
            if trial <= current:
                break
            step = step / 2
        else:
            break
        theta, improvement = theta - step, current - trial
        current = trial
        if improvement < 1e-12:
            break
    return theta


def fit_choice(x: np.ndarray, mask: np.ndarray, mover: np.ndarray, l2: float = 1e-3,
               rounds: int = 4, steps: int = 40) -> np.ndarray:
    """Term weights under which greedy's values best explain the chosen afterstates.

    Args:
        x: positions x afterstates x seats x terms (padding rows anywhere ``mask`` is False).
        mask: positions x afterstates, True for a real afterstate; column 0 is the chosen one.
        mover: the seat that moved at each position.
        l2: penalty on the squared weights of the standardised features.
        rounds: refits with the best other seat recomputed under the latest weights.
        steps: Newton steps per round.

    Returns:
        One weight per term, on the features' own scale (the logit's scale: only the
        direction matters to greedy).
    """
    w = np.ones(x.shape[3])  # the default heuristic picks the first rivals
    for _ in range(rounds):
        d = margin_features(x, mask, mover, w)
        scale = d[mask].std(axis=0)
        scale[scale == 0] = 1.0
        w = _newton(d / scale, mask, l2, steps) / scale
    return w


def choice_stats(x: np.ndarray, mask: np.ndarray, mover: np.ndarray, w: np.ndarray,
                 l2: float) -> dict[str, float]:
    """How well greedy on weights ``w`` matches the choices: the mean log-loss of the
    chosen afterstates at the weights' best temperature, and the share of positions
    where the chosen afterstate is greedy's (ties split evenly, as greedy breaks them)."""
    d = margin_features(x, mask, mover, w)
    u = d @ w
    temperature = _newton(u[:, :, None], mask, l2, 40)
    best = np.where(mask, u, -np.inf).max(axis=1)
    ties = (np.isclose(u, best[:, None], rtol=0, atol=1e-9) & mask).sum(axis=1)
    chosen_best = np.isclose(u[:, 0], best, rtol=0, atol=1e-9)
    return {"log_loss": round(choice_loss(u[:, :, None], mask, temperature), 5),
            "agreement": round(float(np.where(chosen_best, 1.0 / ties, 0.0).mean()), 5)}
