"""Tournament ratings: Plackett–Luce Elo with bootstrap intervals, plus descriptive statistics.

``rate(games)`` fits the seat-aware Plackett–Luce model of :mod:`forumlab.arena.plackett_luce`
(Davidson–Luce treatment of shared ranks, Gaussian prior of sd ``prior_sd`` natural-log units
on every parameter), then refits it on ``bootstrap`` resamples of whole seat-rotation groups
(drawn with replacement, seeded) to get 95% percentile intervals and likelihood-of-superiority
figures.  Resampling whole groups keeps each lineup's rotations together, so the intervals
reflect the design of the tournament rather than treating rotated games as independent.

Descriptive statistics count *entries* (an agent in one seat of one game): an agent in two
seats of a game has two entries.  A rank-1 finish is a win; a win shared by ``k`` seats
counts ``1/k``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from forumlab.arena.plackett_luce import (
    ELO_PER_NAT,
    Fit,
    RatedGame,
    RatingsError,
    _check_prior,
    _Design,
    _make_fit,
    _newton,
    _resolve_anchor,
    as_rated_game,
    fit_plackett_luce,
)

__all__ = [
    "ELO_PER_NAT",
    "Fit",
    "RatedGame",
    "Ratings",
    "RatingsError",
    "fit_plackett_luce",
    "format_ratings_table",
    "rate",
    "ratings_report",
]

CONFIDENCE = 0.95


@dataclass(frozen=True)
class AgentStats:
    """Descriptive statistics of one agent over its entries."""

    games: int  # distinct games the agent took part in
    entries: int  # seats occupied, summed over games
    win_rate: float
    mean_rank: float
    mean_score: float


@dataclass(frozen=True)
class SeatStats:
    """Descriptive statistics of one seat of the games with one player count."""

    games: int
    win_rate: float
    mean_rank: float
    mean_score: float


@dataclass(frozen=True)
class Ratings:
    """Everything :func:`rate` computes.

    ``elo_interval[a]`` and ``seat_elo_interval[n][s]`` are 95% bootstrap percentile intervals
    (``None`` when ``bootstrap == 0``).  ``head_to_head[a][b] = (score, meetings)``: over the
    ``meetings`` pairs of seats (a in one, b in another) of common games, the fraction in which a
    finished ahead of b, ties counting half.  ``superiority[a][b]`` = bootstrap estimate of
    P(theta_a > theta_b) (``None`` without bootstrap).  ``bootstrap_elo`` is the (B, agents)
    array of resampled Elo ratings, columns in ``fit.agents`` order.
    """

    fit: Fit
    bootstrap: int
    seed: int
    elo_interval: dict[str, tuple[float, float]] | None
    seat_elo_interval: dict[int, list[tuple[float, float]]] | None
    agent_stats: dict[str, AgentStats]
    seat_stats: dict[int, list[SeatStats]]
    head_to_head: dict[str, dict[str, tuple[float, int]]]
    superiority: dict[str, dict[str, float]] | None
    bootstrap_elo: np.ndarray | None

    def ranking(self) -> list[str]:
        """Agents sorted by Elo, best first (ties broken by name)."""
        return sorted(self.fit.agents, key=lambda a: (-self.fit.elo[a], a))


def _win_credit(game: RatedGame, seat: int) -> float:
    if game.ranks[seat] != 1:
        return 0.0
    return 1.0 / game.ranks.count(1)


def _agent_stats(games: list[RatedGame], agents: tuple[str, ...]) -> dict[str, AgentStats]:
    acc = {a: [0, 0, 0.0, 0.0, 0.0] for a in agents}  # games, entries, wins, rank sum, score sum
    for g in games:
        for a in set(g.agents):
            acc[a][0] += 1
        for s, a in enumerate(g.agents):
            row = acc[a]
            row[1] += 1
            row[2] += _win_credit(g, s)
            row[3] += g.ranks[s]
            row[4] += g.scores[s]
    return {a: AgentStats(r[0], r[1], r[2] / r[1], r[3] / r[1], r[4] / r[1]) for a, r in acc.items()}


def _seat_stats(games: list[RatedGame]) -> dict[int, list[SeatStats]]:
    out: dict[int, list[SeatStats]] = {}
    for n in sorted({g.players for g in games}):
        sub = [g for g in games if g.players == n]
        out[n] = [
            SeatStats(
                games=len(sub),
                win_rate=sum(_win_credit(g, s) for g in sub) / len(sub),
                mean_rank=sum(g.ranks[s] for g in sub) / len(sub),
                mean_score=sum(g.scores[s] for g in sub) / len(sub),
            )
            for s in range(n)
        ]
    return out


def _head_to_head(games: list[RatedGame]) -> dict[str, dict[str, tuple[float, int]]]:
    acc: dict[tuple[str, str], list[float]] = {}
    for g in games:
        for i, a in enumerate(g.agents):
            for j, b in enumerate(g.agents):
                if i == j or a == b:
                    continue
                row = acc.setdefault((a, b), [0.0, 0])
                row[0] += 1.0 if g.ranks[i] < g.ranks[j] else 0.5 if g.ranks[i] == g.ranks[j] else 0.0
                row[1] += 1
    out: dict[str, dict[str, tuple[float, int]]] = {}
    for (a, b), (score, count) in sorted(acc.items()):
        out.setdefault(a, {})[b] = (score / count, int(count))
    return out


def _interval(samples: np.ndarray) -> tuple[float, float]:
    tail = 100.0 * (1.0 - CONFIDENCE) / 2.0
    lo, hi = np.percentile(samples, [tail, 100.0 - tail])
    return float(lo), float(hi)


def rate(games: Iterable, anchor: str | None = None, bootstrap: int = 200, seed: int = 0,
         prior_sd: float = 2.0) -> Ratings:
    """Rate the agents of ``games``: point fit, bootstrap intervals and summary statistics.

    ``anchor`` is the agent at Elo 0 (default: first in sorted order); ``bootstrap`` is the
    number of resamples of whole rotation groups (0 for none); ``seed`` makes them
    reproducible; ``prior_sd`` is the prior standard deviation in natural-log units.
    """
    prior_sd = _check_prior(prior_sd)
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, (int, np.integer)) or bootstrap < 0:
        raise RatingsError(f"bootstrap must be a non-negative integer, got {bootstrap!r}")
    games = [as_rated_game(g) for g in games]
    design = _Design(games)
    agents = design.agents
    anchor = _resolve_anchor(agents, anchor)
    ones = np.ones(len(games))
    x_hat, ll, f, iters, ok = _newton(design, ones, prior_sd)
    fit = _make_fit(design, x_hat, ll, f, iters, ok, anchor, prior_sd)

    elo_iv = seat_iv = los = boot_elo = None
    if bootstrap:
        group_ids = sorted({g.group for g in games})
        group_pos = {gid: i for i, gid in enumerate(group_ids)}
        group_of_game = np.array([group_pos[g.group] for g in games])
        rng = np.random.default_rng(seed)
        n_agents = len(agents)
        a_ix = agents.index(anchor)
        boot_theta = np.empty((bootstrap, n_agents))
        boot_seat = np.empty((bootstrap, design.tie_offset - n_agents))
        for b in range(bootstrap):
            draw = rng.integers(0, len(group_ids), size=len(group_ids))
            weights = np.bincount(draw, minlength=len(group_ids))[group_of_game].astype(float)
            # Warm start from the full-data optimum: the problem is concave, so this only saves time.
            x, *_ = _newton(design, weights, prior_sd, start=x_hat)
            boot_theta[b] = x[:n_agents] - x[a_ix]
            boot_seat[b] = x[n_agents : design.tie_offset]
        boot_elo = boot_theta * ELO_PER_NAT
        elo_iv = {a: _interval(boot_elo[:, i]) for i, a in enumerate(agents)}
        seat_iv = {}
        for n in design.player_counts:
            off = design.seat_offset[n] - n_agents
            seat_iv[n] = [(0.0, 0.0)] + [
                _interval(boot_seat[:, off + s - 1] * ELO_PER_NAT) for s in range(1, n)
            ]
        los = {}
        for i, a in enumerate(agents):
            los[a] = {}
            for j, c in enumerate(agents):
                if i != j:
                    d = boot_theta[:, i] - boot_theta[:, j]
                    los[a][c] = float(np.mean(d > 0) + 0.5 * np.mean(d == 0))

    return Ratings(
        fit=fit,
        bootstrap=int(bootstrap),
        seed=int(seed),
        elo_interval=elo_iv,
        seat_elo_interval=seat_iv,
        agent_stats=_agent_stats(games, agents),
        seat_stats=_seat_stats(games),
        head_to_head=_head_to_head(games),
        superiority=los,
        bootstrap_elo=boot_elo,
    )


def _num(v: float) -> float | None:
    """JSON-safe float (NaN/inf become null)."""
    return float(v) if math.isfinite(v) else None


def ratings_report(r: Ratings) -> dict:
    """A plain, JSON-serialisable dict of the ratings (player counts as string keys)."""
    fit = r.fit
    agents = []
    for a in r.ranking():
        st = r.agent_stats[a]
        lo, hi = r.elo_interval[a] if r.elo_interval else (None, None)
        agents.append({
            "agent": a,
            "elo": _num(fit.elo[a]),
            "elo_low": lo,
            "elo_high": hi,
            "games": st.games,
            "entries": st.entries,
            "win_rate": st.win_rate,
            "mean_rank": st.mean_rank,
            "mean_score": _num(st.mean_score),
        })
    seats = {}
    for n, per_seat in r.seat_stats.items():
        seats[str(n)] = []
        for s, st in enumerate(per_seat):
            lo, hi = r.seat_elo_interval[n][s] if r.seat_elo_interval else (None, None)
            seats[str(n)].append({
                "seat": s,
                "elo": _num(fit.seat_elo[n][s]),
                "elo_low": lo,
                "elo_high": hi,
                "games": st.games,
                "win_rate": st.win_rate,
                "mean_rank": st.mean_rank,
                "mean_score": _num(st.mean_score),
            })
    return {
        "model": {
            "name": "Plackett-Luce with seat effects; Davidson-Luce shared ranks",
            "scale": "Elo (400/ln 10 per natural-log unit of strength)",
            "anchor": fit.anchor,
            "prior_sd": fit.prior_sd,
            "games": fit.games,
            "log_likelihood": fit.log_likelihood,
            "converged": fit.converged,
            "tie_parameters": {str(k): v for k, v in fit.tie.items()},
            "bootstrap": r.bootstrap,
            "seed": r.seed,
            "confidence": CONFIDENCE,
        },
        "agents": agents,
        "seats": seats,
        "head_to_head": {
            a: {b: {"score": sc, "meetings": m} for b, (sc, m) in row.items()}
            for a, row in r.head_to_head.items()
        },
        "superiority": r.superiority,
    }


def format_ratings_table(r: Ratings) -> str:
    """A human-readable table of agents sorted by Elo, followed by the seat advantages."""
    fit = r.fit
    header = ("Agent", "Elo", "95% interval", "Games", "Win rate", "Mean rank", "Mean score")
    rows = []
    for a in r.ranking():
        st = r.agent_stats[a]
        iv = "-" if r.elo_interval is None else "[{:+.0f}, {:+.0f}]".format(*r.elo_interval[a])
        rows.append((a, f"{fit.elo[a]:+.0f}", iv, str(st.games), f"{st.win_rate:.3f}",
                     f"{st.mean_rank:.2f}", f"{st.mean_score:.2f}"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

    def line(cells):
        first = cells[0].ljust(widths[0])
        rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:]))
        return "  ".join([first, *rest]).rstrip()

    out = [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]
    out.append("")
    out.append(f"Seat advantage over seat 0 (Elo), anchor {fit.anchor} = 0, {fit.games} games")
    for n, per_seat in fit.seat_elo.items():
        cells = []
        for s, v in enumerate(per_seat):
            if s == 0:
                continue
            iv = "" if r.seat_elo_interval is None else " [{:+.0f}, {:+.0f}]".format(*r.seat_elo_interval[n][s])
            win = r.seat_stats[n][s].win_rate
            cells.append(f"seat {s}: {v:+.0f}{iv} (wins {win:.3f})")
        out.append(f"  {n} players (seat 0 wins {r.seat_stats[n][0].win_rate:.3f}): " + "; ".join(cells))
    return "\n".join(out)
