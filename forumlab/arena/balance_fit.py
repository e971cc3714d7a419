"""Seat effects of self-play games: a seat-only Plackett-Luce fit with each game's influence.

In self-play one agent fills every seat, so the ratings model of
:mod:`forumlab.arena.plackett_luce` reduces to its seat parameters (``delta[s]``, seat 0 at
0) and its tie parameters (``log nu_k``, the Davidson-Luce model of shared ranks), with the
same weak N(0, 2^2) prior: the point estimates are those of ``forumlab ratings``.

What this module adds is each game's *influence* on the estimate: the game's score
(gradient of its log-likelihood) mapped through the inverse Hessian, ``psi_i = H^-1 u_i``,
so that ``theta_hat - theta ~= sum_i psi_i``. Summing ``psi_i psi_i^T`` gives the robust
(sandwich) covariance, which stays right when the model is not exactly true (games are not
Plackett-Luce draws), and, for two variants played on the same seeds, summing
``(psi_a,i - psi_b,i)(...)^T`` over the shared games gives the covariance of the
*difference* with whatever correlation the pairing created, measured rather than assumed.

The likelihood depends on a game only through its finishing pattern (the tuple of ranks),
and a 4-player game has at most 75 patterns, so the fit works on pattern counts: fast
enough to fit thousands of simulated studies (benchmarks/balance_calibration.py).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .plackett_luce import ELO_PER_NAT, RatingsError, _stage_masks

PRIOR_SD = 2.0  # natural-log units, as forumlab ratings


@dataclass(frozen=True)
class SeatFit:
    """A seat-only fit of one variant's games.

    ``params``: ``[delta_1 .. delta_{n-1} | log nu_2 .. log nu_D]`` (natural-log units);
    ``hessian``: the negative Hessian of the log-posterior at the mode; ``influence``: one
    row per game (in the order given), ``H^-1`` times the game's score.
    """

    players: int
    params: np.ndarray
    hessian: np.ndarray
    influence: np.ndarray

    @property
    def seat_params(self) -> int:
        """How many of ``params`` are seat parameters (``players - 1``)."""
        return self.players - 1

    def delta(self) -> np.ndarray:
        """Every seat's log-strength over seat 0, seat 0 included (0)."""
        return np.concatenate([[0.0], self.params[:self.seat_params]])

    def seat_influence(self) -> np.ndarray:
        """Per game, its influence on ``delta_1 .. delta_{n-1}``."""
        return self.influence[:, :self.seat_params]


def against_average(players: int) -> np.ndarray:
    """The matrix taking ``delta_1 .. delta_{n-1}`` to every seat's effect against the
    average seat (seat 0 at 0 before centring): ``e = A @ delta``, ``sum(e) = 0``."""
    embed = np.zeros((players, players - 1))
    embed[1:, :] = np.eye(players - 1)
    return (np.eye(players) - 1.0 / players) @ embed


def elo(nats):
    """Natural-log units on the Elo scale."""
    return np.asarray(nats) * ELO_PER_NAT


@functools.lru_cache(maxsize=64)
def _candidates(players: int, max_tie: int) -> tuple[tuple[int, ...], np.ndarray]:
    """The candidate sets of a stage (bit masks of seats, at most ``max_tie`` of them) and
    their features: ``1/|T|`` per seat in ``T`` (seat 0 has no parameter), 1 for ``nu_|T|``."""
    masks = tuple(m for m in range(1, 1 << players) if bin(m).count("1") <= max_tie)
    feat = np.zeros((len(masks), players - 1 + max_tie - 1))
    for k, m in enumerate(masks):
        size = bin(m).count("1")
        for s in range(1, players):
            if m >> s & 1:
                feat[k, s - 1] = 1.0 / size
        if size >= 2:
            feat[k, players - 1 + size - 2] = 1.0
    return masks, feat


@functools.lru_cache(maxsize=65536)
def _pattern_stages(ranks: tuple[int, ...], players: int,
                    max_tie: int) -> tuple[tuple[tuple[bool, ...], int], ...]:
    """The real choices of one finishing pattern: (allowed candidates, chosen candidate) each
    (cached: simulated studies meet the same patterns over and over)."""
    masks, _ = _candidates(players, max_tie)
    out = []
    remaining = (1 << players) - 1
    for mask in _stage_masks(ranks):
        if remaining & (remaining - 1):  # a single entry left is no choice
            out.append((tuple((m & ~remaining) == 0 for m in masks), masks.index(mask)))
        remaining &= ~mask
    return tuple(out)


def _stages(patterns: list[tuple[int, ...]], players: int, max_tie: int):
    """Every real choice of every pattern: (pattern index, allowed candidates, chosen)."""
    owner, allowed, chosen = [], [], []
    for p, ranks in enumerate(patterns):
        for row, pick in _pattern_stages(ranks, players, max_tie):
            owner.append(p)
            allowed.append(row)
            chosen.append(pick)
    return np.array(owner, dtype=np.int64), np.array(allowed, dtype=bool), np.array(chosen, dtype=np.int64)


class _Patterns:
    """The games grouped by finishing pattern, with every stage's candidates."""

    def __init__(self, ranks: np.ndarray):
        ranks = np.asarray(ranks, dtype=np.int64)
        if ranks.ndim != 2 or ranks.shape[0] == 0 or ranks.shape[1] < 2:
            raise RatingsError("seat effects need at least one game of at least 2 seats")
        self.players = ranks.shape[1]
        unique, self.game_pattern, counts = np.unique(ranks, axis=0, return_inverse=True,
                                                      return_counts=True)
        self.game_pattern = self.game_pattern.reshape(-1)
        patterns = [tuple(int(x) for x in row) for row in unique]
        self.max_tie = max(max(bin(m).count("1") for m in _stage_masks(r)) for r in patterns)
        self.max_tie = min(self.max_tie, self.players)
        _, self.feat = _candidates(self.players, self.max_tie)
        self.feat_outer = (self.feat[:, :, None] * self.feat[:, None, :]).reshape(len(self.feat), -1)
        self.owner, self.allowed, self.chosen = _stages(patterns, self.players, self.max_tie)
        self.counts = counts.astype(float)
        self.n_patterns = len(patterns)

    def evaluate(self, params: np.ndarray):
        """Per pattern: log-likelihood and score; and the summed Hessian of the log-likelihood."""
        util = np.where(self.allowed, self.feat @ params, -np.inf)
        top = util.max(axis=1, keepdims=True)
        weights = np.exp(util - top)
        total = weights.sum(axis=1, keepdims=True)
        prob = weights / total
        log_z = (top + np.log(total))[:, 0]
        stage_ll = util[np.arange(len(self.chosen)), self.chosen] - log_z
        mean_feat = prob @ self.feat
        stage_score = self.feat[self.chosen] - mean_feat
        ll = np.zeros(self.n_patterns)
        np.add.at(ll, self.owner, stage_ll)
        score = np.zeros((self.n_patterns, len(params)))
        np.add.at(score, self.owner, stage_score)
        # Each stage's information is its candidates' feature covariance; summed over stages
        # (weighted by how many games show them) without forming one matrix per stage.
        w = self.counts[self.owner]
        size = len(params)
        second = ((w @ prob) @ self.feat_outer).reshape(size, size)
        neg_hess = second - (w[:, None] * mean_feat).T @ mean_feat
        return ll, score, neg_hess


def fit_seats(ranks, prior_sd: float = PRIOR_SD, max_iter: int = 100) -> SeatFit:
    """Fit seat effects to self-play finishing orders.

    Args:
        ranks: one row per game, competition ranks per seat (1 = best, ties share a rank).
        prior_sd: the prior's standard deviation of every parameter, natural-log units.
        max_iter: Newton steps at most.

    Returns:
        A :class:`SeatFit` (the posterior mode, its Hessian and each game's influence).

    Raises:
        RatingsError: no games, fewer than 2 seats.
    """
    pats = _Patterns(ranks)
    size = pats.players - 1 + pats.max_tie - 1
    prec = 1.0 / prior_sd ** 2
    params = np.zeros(size)

    def objective(p):
        ll, score, neg_hess = pats.evaluate(p)
        value = pats.counts @ ll - 0.5 * prec * p @ p
        return value, pats.counts @ score - prec * p, neg_hess + prec * np.eye(size), score

    value, grad, hess, score = objective(params)
    for _ in range(max_iter):
        step = np.linalg.solve(hess, grad)
        scale = 1.0
        while scale > 1e-6:  # damped: the objective is concave, but a full step can overshoot
            trial = objective(params + scale * step)
            if trial[0] >= value - 1e-12:
                break
            scale /= 2
        params = params + scale * step
        value, grad, hess, score = trial
        if float(np.max(np.abs(scale * step))) < 1e-10:
            break
    influence = np.linalg.solve(hess, score.T).T[pats.game_pattern]
    return SeatFit(players=pats.players, params=params, hessian=hess, influence=influence)


def robust_covariance(influence: np.ndarray) -> np.ndarray:
    """The sandwich covariance from per-game influences, with the n/(n-1) small-sample factor.

    Args:
        influence: one row per game (or per pair of games, for a paired difference); the
            rows sum to about 0 (exactly, for a mean), so they are not centred again.

    Returns:
        The covariance matrix of the summed influences.
    """
    n, k = influence.shape
    if n < 2:  # one game says nothing about the spread
        return np.full((k, k), math.nan)
    return n / (n - 1) * influence.T @ influence
