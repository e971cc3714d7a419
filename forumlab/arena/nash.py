"""A symmetric Nash equilibrium of a small symmetric game, by support enumeration.

A symmetric game is given by one (k, k) matrix ``M``: ``M[i, j]`` is the payoff of a player
using strategy ``i`` against strategy ``j`` (in a multi-player game whose utility is linear in
the opponents, as the meta-game's is, the expected payoff against opponents drawn from a mix
``x`` is ``(M @ x)[i]``). A mix ``x`` is a symmetric equilibrium when no strategy earns more
against it than ``x`` itself: every strategy of the support earns the same ``v``, every other
at most ``v``.

Support enumeration checks each candidate support ``S`` exactly: solve ``M[S, S] x_S = v``,
``sum x_S = 1`` and keep the solution if ``x_S >= 0`` and no strategy outside ``S`` earns
more than ``v``. Meta-games have a handful of strategies (2^k supports), so this exact
method beats iterating dynamics (replicator dynamics cycle around rock-paper-scissors
instead of converging; fictitious play converges slowly). Supports are tried from the
largest down, so where a whole set of mixes are equilibria (a game in which every strategy
is equal) the one returned spreads its mass over all that can take some: for an all-equal
game it is the uniform mix, the least-squares solution of the degenerate system.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

# Payoffs of a meta-game are shares in [0, 1]; equalities are checked to this tolerance.
TOLERANCE = 1e-9


def symmetric_nash(payoff: np.ndarray, tol: float = TOLERANCE) -> np.ndarray:
    """A symmetric Nash equilibrium of the symmetric game ``payoff``.

    Args:
        payoff: (k, k) payoff of the row strategy against the column strategy.
        tol: tolerance of the equalities and inequalities checked.

    Returns:
        The mix (k,), non-negative, summing to 1; of the equilibria, one of the largest
        support (see the module docstring). Every finite symmetric game has one (Nash 1951).

    Raises:
        ValueError: ``payoff`` is not a square matrix of finite numbers.
    """
    m = np.asarray(payoff, dtype=float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] == 0 or not np.all(np.isfinite(m)):
        raise ValueError(f"a symmetric game needs a square matrix of finite payoffs, got shape {m.shape}")
    k = m.shape[0]
    scale = max(1.0, float(np.max(np.abs(m))))
    alive = _undominated(m)
    # Strictly dominated strategies have no mass in any equilibrium, and removing them keeps
    # every equilibrium, so only the survivors' supports are enumerated (2^k grows fast).
    sub = m[np.ix_(alive, alive)]
    for size in range(len(alive), 0, -1):
        for support in combinations(range(len(alive)), size):
            x = _equalising_mix(sub, list(support), tol * scale)
            if x is not None:
                full = np.zeros(k)
                full[alive] = x
                return full
    raise AssertionError("no symmetric equilibrium found; a finite symmetric game always has one")


def _undominated(m: np.ndarray) -> list[int]:
    """The strategies left after iteratively removing those strictly dominated by another pure
    strategy (against every strategy still left, as opponent)."""
    alive = list(range(m.shape[0]))
    changed = True
    while changed and len(alive) > 1:
        changed = False
        for i in alive:
            if any(np.all(m[j, alive] > m[i, alive]) for j in alive if j != i):
                alive.remove(i)
                changed = True
                break
    return alive


def _equalising_mix(m: np.ndarray, support: list[int], tol: float) -> np.ndarray | None:
    """The mix on ``support`` that makes every support strategy earn the same and no other
    strategy earn more, or None."""
    n = len(support)
    system = np.zeros((n + 1, n + 1))
    system[:n, :n] = m[np.ix_(support, support)]
    system[:n, n] = -1.0  # ... - v = 0
    system[n, :n] = 1.0  # the mix sums to 1
    rhs = np.zeros(n + 1)
    rhs[n] = 1.0
    solution, *_ = np.linalg.lstsq(system, rhs, rcond=None)
    if np.max(np.abs(system @ solution - rhs)) > tol:  # inconsistent: no mix equalises this support
        return None
    if np.min(solution[:n]) < -tol:
        return None
    x = np.zeros(m.shape[0])
    x[support] = np.clip(solution[:n], 0.0, None)
    x /= x.sum()
    earned = m @ x
    value = float(x @ earned)
    if np.max(earned) > value + tol:  # some strategy does better against x
        return None
    return x


def exploitability(payoff: np.ndarray, mix: np.ndarray) -> float:
    """How much the best reply to ``mix`` earns over ``mix`` itself against ``mix`` (0 at an
    equilibrium).

    Args:
        payoff: (k, k) payoff matrix as for :func:`symmetric_nash`.
        mix: (k,) a mixed strategy.

    Returns:
        ``max_i (M x)_i - x . M x``, never negative.
    """
    m = np.asarray(payoff, dtype=float)
    x = np.asarray(mix, dtype=float)
    earned = m @ x
    return float(max(0.0, np.max(earned) - x @ earned))
