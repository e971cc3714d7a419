"""Quasi-variances: one variance per agent such that any two agents' variances add up to
(nearly) the variance of their difference.

An Elo scale needs a zero, and an interval "relative to the anchor" is really the interval
of a difference to one agent: it is narrow for agents close to the anchor in the comparison
graph and wide for the others, and two such intervals overlapping says nothing about the
two agents against each other.  Quasi-variances (Firth 2003, "Overcoming the reference
category problem in the presentation of statistical models", Sociological Methodology
33:1-18; Firth & de Menezes 2004, "Quasi-variances", Biometrika 91:65-80) give every agent
its own ``q_a`` with ``var(theta_a - theta_b) ~= q_a + q_b`` for every pair, whatever the
anchor, so each agent can be drawn with its own bar and two bars compare like the pair.

The ``q`` are fitted by least squares on the log scale, Firth's (2003) criterion:
minimise ``sum_{a<b} (log(q_a + q_b) - log v_ab)^2`` over ``log q`` (Gauss-Newton with
Levenberg damping).  With two agents the single difference variance is split equally.
:func:`quasi_variances` also returns the worst relative error of the implied standard
deviations of differences, which is what a reader of the bars should know.
"""
from __future__ import annotations

import math

import numpy as np


def quasi_variances(diff_var: np.ndarray, iterations: int = 200) -> tuple[np.ndarray, float]:
    """Quasi-variances of a set of estimates from the variances of their differences.

    Args:
        diff_var: (n, n) symmetric matrix, ``diff_var[a, b]`` = variance of the difference
            of estimates ``a`` and ``b`` (the diagonal is ignored); every off-diagonal entry
            positive.

    Returns:
        ``(q, worst)``: the n quasi-variances, and the largest relative error
        ``|sqrt(q_a + q_b) / sqrt(v_ab) - 1|`` over the pairs (0 for fewer than three).
    """
    v = np.asarray(diff_var, dtype=float)
    n = len(v)
    if n == 0:
        return np.zeros(0), 0.0
    if n == 1:
        return np.zeros(1), 0.0
    if n == 2:
        return np.full(2, v[0, 1] / 2.0), 0.0
    i, j = np.triu_indices(n, 1)
    target = np.log(v[i, j])
    # Start from half of each row's mean difference variance (exact when all are equal).
    u = np.log(np.array([v[k, np.arange(n) != k].mean() / 2.0 for k in range(n)]))
    damping = 1e-3

    def loss(uu):
        q = np.exp(uu)
        return float(np.sum((np.log(q[i] + q[j]) - target) ** 2))

    current = loss(u)
    for _ in range(iterations):
        q = np.exp(u)
        s = q[i] + q[j]
        resid = np.log(s) - target
        jac = np.zeros((len(i), n))
        rows = np.arange(len(i))
        jac[rows, i] = q[i] / s
        jac[rows, j] = q[j] / s
        jtj = jac.T @ jac
        grad = jac.T @ resid
        step = np.linalg.solve(jtj + damping * np.diag(np.diag(jtj) + 1e-12), -grad)
        trial = loss(u + step)
        if trial <= current:
            u, damping = u + step, max(damping / 10.0, 1e-12)
            if current - trial < 1e-15 * max(1.0, current):
                current = trial
                break
            current = trial
        else:
            damping *= 10.0
            if damping > 1e12:
                break
    q = np.exp(u)
    worst = float(np.max(np.abs(np.sqrt((q[i] + q[j]) / v[i, j]) - 1.0)))
    return q, worst


def comparison_z(los: float = 0.975) -> float:
    """Half-width multiplier of comparison intervals (Goldstein & Healy 1995, "The graphical
    presentation of a collection of means", JRSS A 158:175-177): with ``est +- z * sqrt(q)``
    and equal quasi-variances, two bars stop overlapping exactly when the posterior
    probability that the higher one is stronger reaches ``los``; with unequal ones they
    stop overlapping sooner, so non-overlap never needs more than that.

    Args:
        los: the likelihood of superiority at which equal bars just touch.

    Returns:
        ``Phi^-1(los) / sqrt(2)``.
    """
    return _normal_quantile(los) / math.sqrt(2.0)


def _normal_quantile(p: float) -> float:
    """Inverse standard normal CDF by bisection on ``erfc`` (exact to double precision)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 0.5 * math.erfc(-mid / math.sqrt(2.0)) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
