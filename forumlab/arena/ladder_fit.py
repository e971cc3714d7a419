"""A candidate's rating on a ladder's fixed scale: the ladder held fixed, one strength fitted.

The model is the arena's (:mod:`forumlab.arena.plackett_luce`): Plackett–Luce on finishing
orders, Davidson–Luce for shared ranks, a seat advantage per seat. Every parameter the
ladder's calibration fitted is held at its calibrated value (the members' strengths, the
seat advantages, the tie prevalences); only the candidate's strength is fitted (and the
prevalence of a tie size the calibration never saw, if the candidate's games show one),
with the calibration's N(0, prior_sd²) prior, so that a copy of a member fitted this way
lands where the calibration put that member. The fit is the posterior mode, by Newton's
method on a concave objective.

Two uncertainties, both reported:

* the games': the Laplace posterior sd of the candidate's strength given the ladder;
* the ladder's own: the candidate's estimate moves with the members' calibrated ratings.
  By the implicit function theorem ``d theta_c / d theta_j = -H_cj / (H_cc - 1/prior_sd²)``
  (``H`` the Hessian of the log-likelihood at the fit), and the calibration's covariance
  ``S`` of the members' Elo (greedy fixed at 1000, so its row is 0) gives the propagated
  variance ``w' S w`` (the delta method).

The two are independent (the calibration's games are not the candidate's), so the total
sd is their root sum of squares; the interval is Elo ± 1.96 total sd. The seat and tie
parameters' own calibration uncertainty is not propagated: with every seat played equally
often by the candidate, a seat advantage moves its games' likelihoods in opposite
directions and largely cancels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .ladder import ANCHOR, ANCHOR_ELO, Ladder
from .plackett_luce import ELO_PER_NAT, RatedGame, RatingsError, _Design

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class CandidateRating:
    """The candidate's rating on the fixed scale, with where its uncertainty comes from."""

    elo: float
    sd: float  # total, Elo
    games_sd: float  # from the candidate's games, the ladder held fixed
    ladder_sd: float  # propagated from the ladder's calibration
    games: int
    separated: str | None  # "below"/"above": never finished ahead of / behind any member
    converged: bool

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval: Elo ± 1.96 total sd."""
        return self.elo - Z_95 * self.sd, self.elo + Z_95 * self.sd


def _fixed_parameters(design: _Design, ladder: Ladder, candidate: str) -> tuple[np.ndarray, list[int]]:
    """The parameter vector with the ladder's values, and the indices left free."""
    if candidate not in design.agents:
        raise RatingsError(f"the candidate {candidate!r} played no game")
    x = np.zeros(design.n_params)
    free = []
    for i, name in enumerate(design.agents):
        if name == candidate:
            free.insert(0, i)
        else:
            x[i] = ladder.member(name).theta
    n = ladder.players
    if n not in design.seat_offset or set(design.player_counts) != {n}:
        raise RatingsError(f"the games are not all {n}-player games of the ladder")
    off = design.seat_offset[n]
    x[off:off + n - 1] = ladder.seat_theta[1:]
    for k in range(2, design.max_tie + 1):
        i = design.tie_offset + k - 2
        if k in ladder.tie:
            x[i] = math.log(ladder.tie[k])
        else:
            free.append(i)  # a tie size the calibration never saw: fitted with the candidate
    return x, free


def _newton_free(design: _Design, x: np.ndarray, free: list[int], prec: float,
                 max_iter: int = 100) -> tuple[np.ndarray, np.ndarray, bool]:
    """Maximise the log-posterior over the ``free`` coordinates of ``x`` (damped Newton)."""
    def objective(p):
        return design.evaluate(p, derivatives=False) - 0.5 * prec * float(p[free] @ p[free])

    for _ in range(max_iter):
        _, g, h = design.evaluate(x)
        g = g[free] - prec * x[free]
        precision = prec * np.eye(len(free)) - h[np.ix_(free, free)]
        step = np.linalg.solve(precision, g)
        decrement = float(g @ step)
        if decrement < 1e-12:
            x = x.copy()
            x[free] += step
            return x, h, True
        f, t = objective(x), 1.0
        while t > 1e-10:
            trial = x.copy()
            trial[free] += t * step
            if objective(trial) >= f + 1e-4 * t * decrement:
                break
            t *= 0.5
        else:
            return x, h, False
        x = trial
    return x, design.evaluate(x)[2], False


def rate_on_ladder(games: list[RatedGame], ladder: Ladder, candidate: str) -> CandidateRating:
    """Fit ``candidate``'s strength with the ladder's members held at their calibration.

    Args:
        games: games of the candidate against ladder members (labels: member names and
            ``candidate``), all with the ladder's player count.
        ladder: the calibrated ladder.
        candidate: the candidate's label.

    Returns:
        The candidate's Elo on the fixed scale with its sds (see the module doc).

    Raises:
        RatingsError: no games, a label that is neither the candidate nor a member, or
            games of another player count.
    """
    design = _Design(games)
    for name in design.agents:
        if name != candidate:
            ladder.member(name)  # LadderError for an unknown label
    x, free = _fixed_parameters(design, ladder, candidate)
    prec = 1.0 / ladder.prior_sd ** 2
    x, h, converged = _newton_free(design, x, free, prec)
    post = prec * np.eye(len(free)) - h[np.ix_(free, free)]  # posterior precision of the free block
    cov_free = np.linalg.inv(post)
    c = free[0]
    games_sd = math.sqrt(max(cov_free[0, 0], 0.0)) * ELO_PER_NAT
    # d(free)/d(theta_j) = post^-1 h[free, j]; the candidate's row weighs each member.
    names = [m.name for m in ladder.members]
    weights = np.zeros(len(names))
    for j, name in enumerate(design.agents):
        if name != candidate and name != ANCHOR:
            weights[names.index(name)] = float((cov_free @ h[np.ix_(free, [j])])[0, 0])
    ladder_var = float(weights @ np.array(ladder.covariance) @ weights)
    ladder_sd = math.sqrt(max(ladder_var, 0.0))
    elo = (x[c] - ladder.anchor_theta) * ELO_PER_NAT + ANCHOR_ELO
    return CandidateRating(elo=float(elo), sd=math.hypot(games_sd, ladder_sd), games_sd=games_sd,
                           ladder_sd=ladder_sd, games=len(games),
                           separated=candidate_separation(games, candidate), converged=converged)


def candidate_separation(games: list[RatedGame], candidate: str) -> str | None:
    """``"below"`` if the candidate never finished ahead of or level with a member, ``"above"``
    if never behind or level, else None (then its rating rests on the games)."""
    ahead = behind = False
    for g in games:
        for s, name in enumerate(g.agents):
            if name != candidate:
                continue
            for t, other in enumerate(g.agents):
                if other == candidate:
                    continue
                ahead |= g.ranks[s] <= g.ranks[t]
                behind |= g.ranks[s] >= g.ranks[t]
    if not ahead:
        return "below"
    if not behind:
        return "above"
    return None
