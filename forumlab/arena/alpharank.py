"""Single-population alpha-rank of a symmetric game (Omidshafiei et al. 2019).

alpha-Rank (S. Omidshafiei, C. Papadimitriou, G. Piliouras, K. Tuyls, M. Rowland, J.-B.
Lespiau, W. M. Czarnecki, M. Lanctot, J. Perolat, R. Munos, "alpha-Rank: Multi-Agent
Evaluation by Evolution", Scientific Reports 9:9937, 2019) ranks strategies by the long-run
share of time an evolving population spends using each of them. A population of ``m``
players all use one strategy ``s``; now and then one player switches to a mutant ``r``
(each other strategy equally likely), and the mutant either dies out or takes over the whole
population (the Moran process with Fermi selection of intensity ``alpha``). The chance of a
takeover is

    rho(s -> r) = 1 / (1 + sum_{l=1}^{m-1} prod_{j=1}^{l} exp(-alpha (f_r(j) - f_s(j))))

where ``f_r(j)``, ``f_s(j)`` are the fitnesses of mutant and resident when ``j`` players use
the mutant. The population's monomorphic states form a Markov chain with transition
``rho(s -> r) / (k - 1)``; alpha-rank is its stationary distribution.

Fitness: a player's opponents are drawn from the other ``m - 1`` members of the
population. The meta-game's utility is linear in the opponents (the mean of the
head-to-head shares, :mod:`forumlab.arena.empirical_game`), so in a ``p``-player game the
fitness is the same as in a two-player game with payoff matrix ``M`` whatever ``p``:

    f_r(j) = ((j - 1) M[r, r] + (m - j) M[r, s]) / (m - 1)
    f_s(j) = (j M[s, r] + (m - j - 1) M[s, s]) / (m - 1)

Written from the paper's equations (OpenSpiel's ``egt/alpharank.py`` was read to check
the reading, not copied).
"""
from __future__ import annotations

import numpy as np

POPULATION = 50
# Selection intensity: payoffs are shares in [0, 1]; at alpha 10 a mutant that loses by 0.05 of
# a share takes over a population of 50 with a chance of the order of exp(-m alpha delta) = e^-25.
ALPHA = 10.0


def fixation_probability(payoff: np.ndarray, resident: int, mutant: int,
                         population: int = POPULATION, alpha: float = ALPHA) -> float:
    """Chance that one ``mutant`` player takes over a population of ``resident`` players.

    Args:
        payoff: (k, k) payoff of row strategy against column strategy.
        resident, mutant: strategy indices.
        population: population size ``m`` (at least 2).
        alpha: selection intensity (>= 0; 0 is neutral drift, fixation 1/m).

    Returns:
        ``rho(resident -> mutant)`` of the module docstring, in [0, 1].
    """
    m, s, r = population, resident, mutant
    mp = np.asarray(payoff, dtype=float)
    j = np.arange(1, m, dtype=float)
    f_r = ((j - 1) * mp[r, r] + (m - j) * mp[r, s]) / (m - 1)
    f_s = (j * mp[s, r] + (m - j - 1) * mp[s, s]) / (m - 1)
    # log of each product term, then a log-sum-exp with the leading 1 (log 0) for stability
    logs = np.concatenate(([0.0], np.cumsum(-alpha * (f_r - f_s))))
    top = float(np.max(logs))
    return float(np.exp(-top) / np.sum(np.exp(logs - top)))


def alpharank(payoff: np.ndarray, population: int = POPULATION, alpha: float = ALPHA) -> np.ndarray:
    """The single-population alpha-rank distribution of a symmetric game.

    Args:
        payoff: (k, k) payoff of row strategy against column strategy.
        population: population size ``m``.
        alpha: selection intensity.

    Returns:
        (k,) stationary distribution over the strategies (sums to 1); a single strategy
        gets mass 1.
    """
    mp = np.asarray(payoff, dtype=float)
    k = mp.shape[0]
    if k == 1:
        return np.ones(1)
    chain = np.zeros((k, k))
    for s in range(k):
        for r in range(k):
            if r != s:
                chain[s, r] = fixation_probability(mp, s, r, population, alpha) / (k - 1)
        chain[s, s] = 1.0 - chain[s].sum()
    # pi (C - I) = 0 with sum(pi) = 1, solved as one least-squares system
    system = np.vstack([(chain - np.eye(k)).T, np.ones((1, k))])
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    pi, *_ = np.linalg.lstsq(system, rhs, rcond=None)
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()
