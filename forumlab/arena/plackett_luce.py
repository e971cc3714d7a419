"""Plackett–Luce ratings from finishing orders, with seat effects and shared ranks.

Model
-----
The entry sitting in seat ``s`` of an ``n``-player game has log-strength

    eta = theta[agent] + delta[n][s],        delta[n][0] = 0 (reference seat),

so ``delta[n][s]`` is the advantage of seat ``s`` over seat 0 in ``n``-player games.  A
finishing order is read from the best rank down: at each stage the set of entries sharing
the next rank is chosen from the entries not yet placed.

Shared ranks: the Davidson–Luce model
-------------------------------------
Entries sharing a rank are treated as *chosen jointly*, following the Davidson–Luce model
(Firth, Kosmidis & Turner 2019, "Davidson-Luce model for multi-item choice with ties",
arXiv:1909.07123; it is the model of the R package PlackettLuce, Turner, van Etten, Firth &
Kosmidis 2020, "Modelling rankings in R: the PlackettLuce package", Computational
Statistics 35:1027-1057).  With ``alpha = exp(eta)``, the probability that the set ``C``
(``|C| = k``) takes the next rank among the remaining entries ``R`` is

    nu_k * (prod_{i in C} alpha_i)^(1/k)
      /  sum_{T subset R, 1 <= |T| <= D} nu_|T| * (prod_{i in T} alpha_i)^(1/|T|)

with ``nu_1 = 1`` and ``D`` the largest tie observed in the data.  ``nu_k`` (one free
parameter per tie size ``k >= 2``) measures how common ties of ``k`` entries are; it is
fitted with the ratings.  Why this rather than averaging the strict Plackett–Luce likelihood
over the ways of breaking each tie:

* a shared rank is evidence that the entries are of similar strength (as in Davidson's 1970
  pair-comparison model, which this reduces to for two players), whereas averaging over
  tie-breaking orders makes a two-player draw carry no information at all;
* every candidate's log-weight is *linear* in the parameters, so each stage is a
  multinomial logit and the log-likelihood is concave: Newton's method converges to the
  unique optimum from any start, and the log-posterior has one smooth peak that a Gaussian
  describes well (see *Intervals* below);
* with no ties in the data ``D = 1`` and it is exactly the Plackett–Luce model (for two
  players: Bradley–Terry with a first-move advantage).

Prior
-----
Every parameter (each ``theta``, each ``delta[n][s]`` for ``s >= 1`` and each ``log nu_k``)
gets an independent Gaussian prior with mean 0 and standard deviation ``prior_sd`` natural-log
units (default 2, i.e. about 870 Elo: weak enough to leave well-observed agents alone, strong
enough to keep an agent that never lost, or never won, finite and the problem identifiable).
The fit is the posterior mode (MAP), found by a damped Newton method.

Intervals
---------
The posterior is approximated by a Gaussian at its mode (the Laplace approximation): its
covariance is the inverse of the negative Hessian of the log-posterior, which Newton's method
has computed anyway.  An agent's 95% interval is ``elo +- 1.96 sd`` of its difference to the
anchor, and the likelihood of superiority of ``a`` over ``b`` is the posterior probability
``Phi((theta_a - theta_b) / sd(theta_a - theta_b))``.  Unlike a bootstrap over a handful of
rotation groups, this needs no resampling and does not collapse on small tournaments: its
frequentist coverage is measured by simulation in ``benchmarks/coverage.py`` (docs/ratings.md).

Elo scale: ``elo = theta * 400 / ln(10)``, shifted so that the anchor agent is at 0; the
probability statements of the model are unchanged by such a shift.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from forumlab.core.errors import ForumlabError

ELO_PER_NAT = 400.0 / math.log(10.0)


class RatingsError(ForumlabError, ValueError):
    """Input that cannot be rated (bad ranks, unknown anchor, no games, ...)."""


@dataclass(frozen=True)
class RatedGame:
    """One finished game, as the ratings see it.

    ``group`` is the seat-rotation group id (the same lineup and game seed played in every
    cyclic rotation of the seats); ``agents``, ``ranks`` and ``scores`` are per seat, seat 0
    first.  Ranks are competition style: 1 is best, and an entry's rank is one plus the number
    of entries that finished strictly ahead of it, e.g. ``(1, 1, 3)``.  The same agent label
    may occupy several seats.
    """

    group: str
    agents: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "group", str(self.group))
        object.__setattr__(self, "agents", tuple(str(a) for a in self.agents))
        try:
            ranks = tuple(int(r) for r in self.ranks)
            scores = tuple(float(s) for s in self.scores)
        except (TypeError, ValueError) as exc:
            raise RatingsError(f"game in group {self.group!r}: ranks and scores must be numbers "
                               f"({exc})") from None
        if any(r != r0 for r, r0 in zip(ranks, self.ranks)):
            raise RatingsError(f"game in group {self.group!r}: ranks must be integers, got {self.ranks!r}")
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "scores", scores)
        n = len(self.agents)
        if n < 2:
            raise RatingsError(f"game in group {self.group!r}: needs at least 2 seats, got {n}")
        if len(ranks) != n or len(scores) != n:
            raise RatingsError(
                f"game in group {self.group!r}: {n} agents but {len(ranks)} ranks and {len(scores)} scores"
            )
        expected = _competition_ranks(ranks)
        if ranks != expected:
            raise RatingsError(
                f"game in group {self.group!r}: ranks {ranks} are not competition-style "
                f"(1 = best, ties share a rank, the next rank skips; expected {expected})"
            )

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.agents)


@functools.lru_cache(maxsize=4096)
def _competition_ranks(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The competition-style ranks of the order ``ranks`` describes (cached: a tournament has
    few distinct finishing patterns and many games)."""
    return tuple(1 + sum(1 for o in ranks if o < r) for r in ranks)


def as_rated_game(record) -> RatedGame:
    """Return ``record`` as a :class:`RatedGame`; any object with the four fields will do."""
    if isinstance(record, RatedGame):
        return record
    try:
        return RatedGame(record.group, tuple(record.agents), tuple(record.ranks), tuple(record.scores))
    except AttributeError as exc:
        raise RatingsError(f"not a game result: {exc}") from None


@dataclass(frozen=True)
class Fit:
    """A Plackett–Luce (Davidson–Luce) posterior-mode fit.

    ``theta``: agent -> log-strength (natural log) relative to the anchor.
    ``elo``: the same on the Elo scale (anchor at 0).
    ``seat_delta`` / ``seat_elo``: player count -> per-seat advantage over seat 0 (seat 0 is 0).
    ``tie``: tie size k -> Davidson–Luce tie prevalence ``nu_k`` (empty if no ties were seen).
    ``log_likelihood``: data log-likelihood at the fit (prior excluded);
    ``log_posterior`` includes the Gaussian prior (up to its constant).
    ``elo_sd``: agent -> posterior sd (Elo) of its difference to the anchor (0 for the anchor).
    ``seat_elo_sd``: player count -> per-seat posterior sd (Elo) of the seat advantage.
    ``params`` / ``covariance``: the raw parameter vector ``[theta (agents order) | seat
    deltas (player counts ascending, seats 1..n-1) | log nu]`` and its Laplace posterior
    covariance, in natural-log units.
    """

    agents: tuple[str, ...]
    anchor: str
    theta: dict[str, float]
    elo: dict[str, float]
    seat_delta: dict[int, list[float]]
    seat_elo: dict[int, list[float]]
    tie: dict[int, float]
    prior_sd: float
    log_likelihood: float
    log_posterior: float
    iterations: int
    converged: bool
    games: int
    elo_sd: dict[str, float]
    seat_elo_sd: dict[int, list[float]]
    params: np.ndarray = field(repr=False, compare=False)
    covariance: np.ndarray = field(repr=False, compare=False)

    def difference_sd(self, a: str, b: str) -> float:
        """Posterior sd of ``theta[a] - theta[b]`` in natural-log units."""
        i, j = self.agents.index(a), self.agents.index(b)
        c = self.covariance
        return math.sqrt(max(c[i, i] + c[j, j] - 2.0 * c[i, j], 0.0))

    def difference_covariance(self) -> np.ndarray:
        """(A, A) matrix of posterior variances of ``theta[a] - theta[b]`` (natural-log units),
        agents in :attr:`agents` order; these do not depend on the anchor."""
        a = len(self.agents)
        c = self.covariance[:a, :a]
        d = np.diag(c)
        return np.maximum(d[:, None] + d[None, :] - 2.0 * c, 0.0)

    def reanchored(self, anchor: str) -> Fit:
        """The same fit with ``anchor`` at Elo 0 (only the shift and the sds to it change).

        Raises:
            RatingsError: ``anchor`` is not one of the fitted agents.
        """
        anchor = _resolve_anchor(self.agents, anchor)
        shift = self.theta[anchor]
        theta = {a: v - shift for a, v in self.theta.items()}
        k = self.agents.index(anchor)
        var = self.difference_covariance()[:, k]
        return replace(
            self,
            anchor=anchor,
            theta=theta,
            elo={a: v * ELO_PER_NAT for a, v in theta.items()},
            elo_sd={a: float(math.sqrt(var[i]) * ELO_PER_NAT) for i, a in enumerate(self.agents)},
        )

    def order_log_probability(self, agents: Sequence[str], ranks: Sequence[int]) -> float:
        """Model log-probability of finishing ``ranks`` for ``agents`` (per seat, seat 0 first).

        Ties larger than the largest tie in the fitted data have probability 0 (``-inf``).
        """
        game = RatedGame("", tuple(agents), tuple(ranks), (0.0,) * len(agents))
        unknown = sorted(set(game.agents) - set(self.agents))
        if unknown:
            raise RatingsError(f"agents not in the fit: {', '.join(unknown)}")
        n = game.players
        if n not in self.seat_delta:
            raise RatingsError(f"no {n}-player games in the fit")
        eta = np.array([self.theta[a] + self.seat_delta[n][s] for s, a in enumerate(game.agents)])
        log_nu = {1: 0.0, **{k: math.log(v) for k, v in self.tie.items()}}
        d = max(log_nu)
        total = 0.0
        remaining = (1 << n) - 1
        for mask in _stage_masks(game.ranks):
            if bin(mask).count("1") > d:
                return -math.inf
            if remaining & (remaining - 1):  # more than one entry left: a real choice
                cands = [c for c in _subsets(remaining) if bin(c).count("1") <= d]
                utils = np.array([_utility(c, eta, log_nu) for c in cands])
                total += _utility(mask, eta, log_nu) - _logsumexp(utils)
            remaining &= ~mask
        return total


# ----------------------------------------------------------------------------------------
# Internals: compiling games into vectorised choice stages, and the Newton solver.


def _stage_masks(ranks: Sequence[int]) -> list[int]:
    """Seat bitmasks of the successive rank classes, best first."""
    return [sum(1 << s for s, r in enumerate(ranks) if r == v) for v in sorted(set(ranks))]


def _subsets(mask: int) -> list[int]:
    out, sub = [], mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out


def _utility(mask: int, eta: np.ndarray, log_nu: dict[int, float]) -> float:
    members = [i for i in range(len(eta)) if mask >> i & 1]
    return log_nu[len(members)] + float(np.mean(eta[members]))


def _logsumexp(x: np.ndarray) -> float:
    m = float(np.max(x))
    return m + math.log(float(np.sum(np.exp(x - m))))


@dataclass
class _Block:
    """All games with one player count, as arrays of choice stages."""

    n: int
    weight: np.ndarray  # (G,) how many games share this pattern of seated agents and ranks
    feat: np.ndarray  # (K, n + T) candidate features: member weights 1/k, then tie-size one-hot
    feat_outer: np.ndarray  # (K, (n + T)^2) row-wise outer products of feat
    size_param: np.ndarray  # (K,) index into the padded parameter vector of log nu_|cand|
    item_param: np.ndarray  # (G, n, 2) padded parameter indices (agent, seat) of each entry
    slot_param: np.ndarray  # (G, n + T, 2) parameter indices of each feature slot
    stage_game: np.ndarray  # (S,) game (within block) of each stage
    stage_avail: np.ndarray  # (S, K) candidate is a subset of the remaining entries
    stage_chosen: np.ndarray  # (S,) index of the chosen candidate
    game_start: np.ndarray  # (G,) first stage of each game (stages are grouped by game)


class _Design:
    """Parameter layout and compiled stages for a list of games.

    Games with the same agents in the same seats and the same ranks contribute the same
    likelihood term, so each such *pattern* is compiled once and weighted by its count: a
    tournament of a few agents has at most (seatings x weak orders) patterns however many
    games it holds, which makes a fit of 30,000 games cost about as much as one of 1,000.

    Parameter vector: ``[theta (A) | delta seats (sum of n-1 over player counts) | log nu (D-1)]``;
    index ``P`` (one past the end) is a padding slot that is always 0.
    """

    def __init__(self, games: Sequence[RatedGame]):
        if not games:
            raise RatingsError("no games to rate")
        self.n_games = len(games)
        counts = Counter((g.agents, g.ranks) for g in games)
        patterns = list(counts)  # (agents, ranks), in order of first appearance
        self.agents = tuple(sorted({a for agents, _ in patterns for a in agents}))
        agent_ix = {a: i for i, a in enumerate(self.agents)}
        self.player_counts = tuple(sorted({len(agents) for agents, _ in patterns}))
        self.max_tie = max(max(bin(m).count("1") for m in _stage_masks(ranks)) for _, ranks in patterns)
        n_agents = len(self.agents)
        self.seat_offset: dict[int, int] = {}
        off = n_agents
        for n in self.player_counts:
            self.seat_offset[n] = off
            off += n - 1
        self.tie_offset = off
        self.n_ties = self.max_tie - 1
        self.n_params = off + self.n_ties
        pad = self.n_params

        self.blocks: list[_Block] = []
        for n in self.player_counts:
            idx = [i for i, (agents, _) in enumerate(patterns) if len(agents) == n]
            d = min(self.max_tie, n)
            cands = [m for m in range(1, 1 << n) if bin(m).count("1") <= d]
            cand_ix = {m: k for k, m in enumerate(cands)}
            width = n + self.n_ties
            feat = np.zeros((len(cands), width))
            size_param = np.full(len(cands), pad)
            for k, m in enumerate(cands):
                size = bin(m).count("1")
                for i in range(n):
                    if m >> i & 1:
                        feat[k, i] = 1.0 / size
                if size >= 2:
                    feat[k, n + size - 2] = 1.0
                    size_param[k] = self.tie_offset + size - 2
            feat_outer = (feat[:, :, None] * feat[:, None, :]).reshape(len(cands), -1)
            cand_arr = np.array(cands)

            item_param = np.full((len(idx), n, 2), pad)
            slot_param = np.full((len(idx), width, 2), pad)
            stage_game, stage_remaining, stage_chosen, game_start = [], [], [], []
            for j, gi in enumerate(idx):
                agents, ranks = patterns[gi]
                for s, a in enumerate(agents):
                    item_param[j, s, 0] = agent_ix[a]
                    if s:
                        item_param[j, s, 1] = self.seat_offset[n] + s - 1
                slot_param[j, :n] = item_param[j]
                for t in range(self.n_ties):
                    slot_param[j, n + t, 0] = self.tie_offset + t
                game_start.append(len(stage_game))
                remaining = (1 << n) - 1
                for mask in _stage_masks(ranks):
                    # A stage is a real choice unless a single entry is left.
                    if remaining & (remaining - 1):
                        stage_game.append(j)
                        stage_remaining.append(remaining)
                        stage_chosen.append(cand_ix[mask])
                    remaining &= ~mask
            rem = np.array(stage_remaining, dtype=np.int64)
            avail = (cand_arr[None, :] & ~rem[:, None]) == 0
            self.blocks.append(
                _Block(
                    n=n,
                    weight=np.array([counts[patterns[i]] for i in idx], dtype=float),
                    feat=feat,
                    feat_outer=feat_outer,
                    size_param=size_param,
                    item_param=item_param,
                    slot_param=slot_param,
                    stage_game=np.array(stage_game, dtype=np.int64),
                    stage_avail=avail,
                    stage_chosen=np.array(stage_chosen, dtype=np.int64),
                    game_start=np.array(game_start, dtype=np.int64),
                )
            )

    def evaluate(self, params: np.ndarray, derivatives: bool = True):
        """Data log-likelihood, and its gradient and Hessian if ``derivatives``."""
        P = self.n_params
        x = np.append(params, 0.0)  # padded
        ll = 0.0
        grad = np.zeros(P + 1)
        hess = np.zeros((P + 1) * (P + 1))
        for b in self.blocks:
            eta = x[b.item_param].sum(axis=2)  # (G, n)
            util = eta[b.stage_game] @ b.feat[:, : b.n].T + x[b.size_param][None, :]
            util = np.where(b.stage_avail, util, -np.inf)
            top = util.max(axis=1, keepdims=True)
            expu = np.exp(util - top)
            tot = expu.sum(axis=1, keepdims=True)
            rows = np.arange(len(b.stage_chosen))
            stage_ll = util[rows, b.stage_chosen] - top[:, 0] - np.log(tot[:, 0])
            ll += float(b.weight[b.stage_game] @ stage_ll)
            if not derivatives:
                continue
            prob = expu / tot
            mean = prob @ b.feat  # (S, width)
            g_stage = b.feat[b.stage_chosen] - mean
            h_stage = prob @ b.feat_outer - (mean[:, :, None] * mean[:, None, :]).reshape(len(rows), -1)
            g_game = np.add.reduceat(g_stage, b.game_start, axis=0) * b.weight[:, None]
            h_game = np.add.reduceat(h_stage, b.game_start, axis=0) * b.weight[:, None]
            sp = b.slot_param
            for u in range(2):
                grad += np.bincount(sp[:, :, u].ravel(), g_game.ravel(), minlength=P + 1)
                for v in range(2):
                    flat = (sp[:, :, u, None] * (P + 1) + sp[:, None, :, v]).ravel()
                    hess -= np.bincount(flat, h_game.ravel(), minlength=(P + 1) ** 2)
        if not derivatives:
            return ll
        hess = hess.reshape(P + 1, P + 1)
        return ll, grad[:P], hess[:P, :P]


@dataclass
class _Optimum:
    """What :func:`_newton` found: the posterior mode and the curvature there."""

    x: np.ndarray
    log_likelihood: float
    log_posterior: float
    precision: np.ndarray  # negative Hessian of the log-posterior at (or next to) x
    iterations: int
    converged: bool


def _newton(design: _Design, prior_sd: float, tol: float = 1e-10, max_iter: int = 100) -> _Optimum:
    """Maximise the log-likelihood plus the Gaussian prior (concave) by damped Newton."""
    prec = 1.0 / prior_sd**2
    x = np.zeros(design.n_params)

    def objective(p):
        return design.evaluate(p, derivatives=False) - 0.5 * prec * float(p @ p)

    for it in range(1, max_iter + 1):
        ll, g, h = design.evaluate(x)
        f = ll - 0.5 * prec * float(x @ x)
        g = g - prec * x
        precision = prec * np.eye(len(x)) - h
        step = np.linalg.solve(precision, g)
        decrement = float(g @ step)  # squared Newton decrement, >= 0 for a concave objective
        if decrement < tol:
            # Take the final, tiny step too: near the optimum Newton converges quadratically.
            # The curvature changes by O(step) over it, far below any interval's precision.
            x = x + step
            ll = design.evaluate(x, derivatives=False)
            return _Optimum(x, ll, ll - 0.5 * prec * float(x @ x), precision, it, True)
        t = 1.0
        while t > 1e-10:
            x_new = x + t * step
            f_new = objective(x_new)
            if f_new >= f + 1e-4 * t * decrement:
                break
            t *= 0.5
        else:
            return _Optimum(x, ll, f, precision, it, False)
        x = x_new
    ll, _, h = design.evaluate(x)
    return _Optimum(x, ll, ll - 0.5 * prec * float(x @ x), prec * np.eye(len(x)) - h, max_iter, False)


def _resolve_anchor(agents: Sequence[str], anchor: str | None) -> str:
    if anchor is None:
        return agents[0]
    if anchor not in agents:
        raise RatingsError(f"anchor agent {anchor!r} did not play; agents are: {', '.join(agents)}")
    return anchor


def _check_prior(prior_sd: float) -> float:
    prior_sd = float(prior_sd)
    if not (prior_sd > 0 and math.isfinite(prior_sd)):
        raise RatingsError(f"prior_sd must be a positive finite number, got {prior_sd}")
    return prior_sd


def _make_fit(design: _Design, opt: _Optimum, anchor: str, prior_sd: float) -> Fit:
    agents = design.agents
    x = opt.x
    theta_raw = x[: len(agents)]
    a_ix = agents.index(anchor)
    theta = {a: float(theta_raw[i] - theta_raw[a_ix]) for i, a in enumerate(agents)}
    seat_delta = {
        n: [0.0] + [float(v) for v in x[design.seat_offset[n] : design.seat_offset[n] + n - 1]]
        for n in design.player_counts
    }
    tie = {k: float(math.exp(x[design.tie_offset + k - 2])) for k in range(2, design.max_tie + 1)}
    # The prior makes the precision positive definite, so it always has an inverse.
    cov = np.linalg.inv(opt.precision)
    var = np.diag(cov)
    diff_var = np.maximum(var[: len(agents)] + var[a_ix] - 2.0 * cov[: len(agents), a_ix], 0.0)
    seat_sd = {
        n: [0.0] + [float(math.sqrt(var[design.seat_offset[n] + s - 1]) * ELO_PER_NAT) for s in range(1, n)]
        for n in design.player_counts
    }
    return Fit(
        agents=agents,
        anchor=anchor,
        theta=theta,
        elo={a: v * ELO_PER_NAT for a, v in theta.items()},
        seat_delta=seat_delta,
        seat_elo={n: [v * ELO_PER_NAT for v in d] for n, d in seat_delta.items()},
        tie=tie,
        prior_sd=prior_sd,
        log_likelihood=float(opt.log_likelihood),
        log_posterior=float(opt.log_posterior),
        iterations=opt.iterations,
        converged=opt.converged,
        games=design.n_games,
        elo_sd={a: float(math.sqrt(diff_var[i]) * ELO_PER_NAT) for i, a in enumerate(agents)},
        seat_elo_sd=seat_sd,
        params=x.copy(),
        covariance=cov,
    )


def fit_plackett_luce(games: Iterable, anchor: str | None = None, prior_sd: float = 2.0) -> Fit:
    """Fit the seat-aware Plackett–Luce (Davidson–Luce for ties) model to all ``games`` at once.

    Args:
        games: :class:`RatedGame` records (or objects with the same four fields).
        anchor: agent placed at Elo 0 (default: the first agent in sorted order).
        prior_sd: standard deviation, in natural-log units, of the Gaussian prior on every
            parameter.

    Returns:
        The posterior mode with its Laplace covariance, as a :class:`Fit`.
    """
    prior_sd = _check_prior(prior_sd)
    design = _Design([as_rated_game(g) for g in games])
    anchor = _resolve_anchor(design.agents, anchor)
    return _make_fit(design, _newton(design, prior_sd), anchor, prior_sd)
