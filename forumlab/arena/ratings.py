"""Tournament ratings: Plackett–Luce Elo with posterior intervals, plus descriptive statistics.

``rate(games)`` fits the seat-aware Plackett–Luce model of :mod:`forumlab.arena.plackett_luce`
(Davidson–Luce treatment of shared ranks, Gaussian prior of sd ``prior_sd`` natural-log units
on every parameter) and reads 95% intervals and likelihood-of-superiority figures off the
Laplace (Gaussian) approximation of the posterior.  Those intervals hold their coverage from
two rotation groups per lineup up (``benchmarks/coverage.py``), where a bootstrap over a few
rotation groups gave intervals far too narrow.  Agents whose distance to the others only the
prior can set (they never finished behind, or never ahead of, the rest) are flagged, see
:mod:`forumlab.arena.separation`.

What is shown by default says what the games say: the scale's zero is the *reference*, an
agent the games place well (never a separated one, see :func:`choose_reference`), and each
agent's displayed interval is a *comparison interval* built from quasi-variances
(:mod:`forumlab.arena.quasi_variance`), so that two agents whose bars do not overlap are
ones the posterior tells apart, whatever agent sits at 0.  The likelihood of superiority of
each agent over the next one down the table is shown beside it.

Descriptive statistics count *entries* (an agent in one seat of one game): an agent in two
seats of a game has two entries.  A rank-1 finish is a win; a win shared by ``k`` seats
counts ``1/k``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from forumlab.arena.jobs import GameOutcome
from forumlab.arena.plackett_luce import (
    ELO_PER_NAT,
    Fit,
    RatedGame,
    RatingsError,
    as_rated_game,
    fit_plackett_luce,
)
from forumlab.arena.quasi_variance import comparison_z, quasi_variances
from forumlab.arena.separation import ABOVE, BELOW, Separation, find_separation

__all__ = [
    "ELO_PER_NAT",
    "Fit",
    "MoveTimes",
    "RatedGame",
    "Ratings",
    "RatingsError",
    "fit_plackett_luce",
    "format_matrices",
    "default_anchor",
    "format_ratings_table",
    "move_times",
    "rate",
    "rate_outcomes",
    "rated_games",
    "ratings_report",
]

CONFIDENCE = 0.95
Z_95 = 1.959963984540054  # standard normal quantile at 0.975
# Comparison bars are built so that two equal bars just touch when the likelihood of
# superiority of the upper one is this; a pair at LOS 0.99 or more is then always apart
# (the quasi-variance approximation would have to be off by ~19% in sd to hide it).
COMPARISON_LOS = 0.975
COMPARISON_Z = comparison_z(COMPARISON_LOS)


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

    ``elo_interval[a]`` and ``seat_elo_interval[n][s]`` are 95% intervals of the Laplace
    approximation of the posterior (estimate +- 1.96 sd; the anchor and seat 0 are exactly 0).
    ``head_to_head[a][b] = (score, meetings)``: over the ``meetings`` pairs of seats (a in one,
    b in another) of common games, the fraction in which a finished ahead of b, ties counting
    half.  ``superiority[a][b]`` = posterior probability that ``theta_a > theta_b``.
    ``separation`` tells which agents the games cannot place (their distance is the prior's).
    """

    fit: Fit
    elo_interval: dict[str, tuple[float, float]]
    seat_elo_interval: dict[int, list[tuple[float, float]]]
    agent_stats: dict[str, AgentStats]
    seat_stats: dict[int, list[SeatStats]]
    head_to_head: dict[str, dict[str, tuple[float, int]]]
    superiority: dict[str, dict[str, float]]
    separation: Separation
    # Reference-free display (see forumlab.arena.quasi_variance): the connected agent the
    # scale is read against, each agent's quasi-sd (Elo) and comparison bar, the worst
    # relative error of the quasi-variance approximation over the connected pairs, and the
    # LOS of each agent over the next one down in :meth:`ranking` (None for the last).
    reference: str = ""
    quasi_sd: dict[str, float] = field(default_factory=dict)
    comparison_interval: dict[str, tuple[float, float]] = field(default_factory=dict)
    quasi_error: float = 0.0
    los_next: dict[str, float | None] = field(default_factory=dict)
    # Per agent time per move, when the games came with their timings (rate_outcomes).
    move_times: dict[str, MoveTimes] | None = None

    def ranking(self) -> list[str]:
        """Agents sorted by Elo, best first (ties broken by name).

        Returns:
            The agent labels in rating order.
        """
        return sorted(self.fit.agents, key=lambda a: (-self.fit.elo[a], a))


def rated_games(outcomes: Iterable[GameOutcome]) -> list[RatedGame]:
    """Tournament outcomes as the ratings model sees them.

    Games with faults count with the ranks the fault policy gave them (a faulty seat
    ranks last): a crashing or hanging agent is weaker.

    Args:
        outcomes: finished games, e.g. ``ResultStore.outcomes()``.

    Returns:
        One :class:`RatedGame` per outcome, in the same order.
    """
    return [
        RatedGame(group=o.group, agents=tuple(o.labels), ranks=tuple(o.ranks), scores=tuple(o.scores))
        for o in outcomes
    ]


def default_anchor(outcomes: Iterable[GameOutcome]) -> str | None:
    """The agent put at Elo 0 when the user names none: always None, which lets
    :func:`rate` choose the reference of the connected agents (see
    :func:`choose_reference`). ``random`` used to be the default; the games usually cannot
    place it (it never finishes ahead of anyone), and an anchor the games cannot place
    makes every interval the prior's.

    Args:
        outcomes: the games to be rated (unused; kept for callers that pass them).

    Returns:
        None.
    """
    return None


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


def _pairwise(games: list[RatedGame], agents: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(A, A) arrays: ``score[i, j]`` = seat pairs of common games in which agent i finished
    ahead of agent j (level counts 1/2); ``meetings[i, j]`` = such seat pairs.  Seats of the
    same agent are not compared."""
    ix = {a: i for i, a in enumerate(agents)}
    A = len(agents)
    score = np.zeros(A * A)
    meetings = np.zeros(A * A)
    for n in sorted({g.players for g in games}):
        sub = [g for g in games if g.players == n]
        who = np.array([[ix[a] for a in g.agents] for g in sub])
        rank = np.array([g.ranks for g in sub])
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                keep = who[:, i] != who[:, j]
                cell = who[keep, i] * A + who[keep, j]
                credit = np.where(rank[keep, i] < rank[keep, j], 1.0,
                                  np.where(rank[keep, i] == rank[keep, j], 0.5, 0.0))
                score += np.bincount(cell, credit, minlength=A * A)
                meetings += np.bincount(cell, minlength=A * A)
    return score.reshape(A, A), meetings.reshape(A, A)


def _head_to_head(agents, score, meetings) -> dict[str, dict[str, tuple[float, int]]]:
    out: dict[str, dict[str, tuple[float, int]]] = {}
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            if meetings[i, j]:
                out.setdefault(a, {})[b] = (float(score[i, j] / meetings[i, j]), int(meetings[i, j]))
    return out


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _superiority(fit: Fit) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for a in fit.agents:
        out[a] = {}
        for b in fit.agents:
            if a != b:
                sd = fit.difference_sd(a, b)
                gap = fit.theta[a] - fit.theta[b]
                out[a][b] = _normal_cdf(gap / sd) if sd > 0 else 0.5 + 0.5 * float(np.sign(gap))
    return out


def _interval(estimate: float, sd: float) -> tuple[float, float]:
    return estimate - Z_95 * sd, estimate + Z_95 * sd


def choose_reference(fit: Fit, separation: Separation) -> str:
    """The agent the scale is read against when the user names no anchor.

    Never a separated agent (its distance to the others is the prior's, so every interval
    measured from it would be the prior's too): among the connected rest, the agent whose
    differences to the other connected agents have the smallest summed posterior variance,
    i.e. the best-placed one, from which every other connected agent's distance is
    narrowest. In a balanced round robin that is usually an agent of the middle of the
    field. With no connected rest at all, the same rule runs over every agent.

    Args:
        fit: a fit of the games.
        separation: the games' separation (:func:`find_separation`).

    Returns:
        The reference agent's label (ties go to the first name in sorted order).
    """
    pool = list(separation.main) if separation.main is not None else list(fit.agents)
    var = fit.difference_covariance()
    ix = [fit.agents.index(a) for a in pool]
    total = {a: float(var[i, ix].sum()) for a, i in zip(pool, ix)}
    return min(sorted(pool), key=lambda a: total[a])


def _quasi(fit: Fit, separation: Separation, reference: str) -> tuple[dict[str, float], float]:
    """Quasi-sd (Elo) of every agent, and the approximation's worst relative error.

    Fitted over the connected rest only: a separated agent's prior-sized variances would
    otherwise pull on everyone's. A separated agent gets the rest of its difference
    variance to the reference once the reference's own share is taken, so its bar still
    shows (roughly) the prior's width."""
    var = fit.difference_covariance()
    agents = fit.agents
    main = list(separation.main) if separation.main is not None else list(agents)
    ix = [agents.index(a) for a in main]
    q, worst = quasi_variances(var[np.ix_(ix, ix)])
    qv = {a: float(v) for a, v in zip(main, q)}
    k = agents.index(reference)
    q_ref = qv.get(reference, 0.0)
    for i, a in enumerate(agents):
        if a not in qv:
            qv[a] = max(float(var[i, k]) - q_ref, float(var[i, k]) / 2.0)
    return {a: math.sqrt(v) * ELO_PER_NAT for a, v in qv.items()}, worst


def rate(games: Iterable, anchor: str | None = None, prior_sd: float = 2.0) -> Ratings:
    """Rate the agents of ``games``: point fit, posterior intervals, separation, summaries.

    Args:
        games: :class:`RatedGame` records (or objects with the same four fields).
        anchor: agent at Elo 0 (default: the reference, see :func:`choose_reference`,
            which is never a separated agent when there is a connected rest).
        prior_sd: prior standard deviation of every parameter, in natural-log units.

    Returns:
        A :class:`Ratings`.

    Raises:
        RatingsError: there are no games, a game is malformed (fewer than 2 seats, ranks that
            are not integers, ...), ``anchor`` did not play, or ``prior_sd`` is not a
            positive finite number.
    """
    games = [as_rated_game(g) for g in games]
    fit = fit_plackett_luce(games, anchor=anchor, prior_sd=prior_sd)
    agents = fit.agents
    score, meetings = _pairwise(games, agents)
    # Ahead of or level with at least once: the arrows of the comparison graph.
    separation = find_separation(agents, score)
    reference = choose_reference(fit, separation)
    if anchor is None:
        fit = fit.reanchored(reference)
    quasi_sd, quasi_error = _quasi(fit, separation, reference)
    superiority = _superiority(fit)
    order = sorted(agents, key=lambda a: (-fit.elo[a], a))
    los_next = {a: (superiority[a][b] if b is not None else None)
                for a, b in zip(order, [*order[1:], None])}
    return Ratings(
        fit=fit,
        elo_interval={a: _interval(fit.elo[a], fit.elo_sd[a]) for a in agents},
        seat_elo_interval={
            n: [_interval(v, sd) for v, sd in zip(fit.seat_elo[n], fit.seat_elo_sd[n])] for n in fit.seat_elo
        },
        agent_stats=_agent_stats(games, agents),
        seat_stats=_seat_stats(games),
        head_to_head=_head_to_head(agents, score, meetings),
        superiority=superiority,
        separation=separation,
        reference=reference,
        quasi_sd=quasi_sd,
        comparison_interval={a: (fit.elo[a] - COMPARISON_Z * quasi_sd[a],
                                 fit.elo[a] + COMPARISON_Z * quasi_sd[a]) for a in agents},
        quasi_error=quasi_error,
        los_next=los_next,
    )


@dataclass(frozen=True)
class MoveTimes:
    """Time one agent took per move.

    Every results file keeps, per game and seat, the summed wall-clock seconds of the
    agent's ``act()`` calls and their number, so the wall-clock mean per move is always
    exact. Files written since per-move timings are kept also hold, per game and seat, the
    CPU seconds of the thread that called ``act()`` and the longest single move (wall and
    CPU); games without them (older files, or a game continued after its worker died)
    leave those fields to the games that have them, or None when none has.
    """

    moves: int  # agent moves timed (fallback moves after a fault excluded)
    games: int  # entries (game and seat) with at least one timed move
    seconds: float  # total wall-clock seconds
    mean: float  # wall seconds per move over all moves
    slowest_game_mean: float  # the largest per-entry wall mean
    detailed_games: int = 0  # entries that kept CPU time and single-move maxima
    max_move: float | None = None  # the longest single move (wall), over those entries
    cpu_moves: int = 0  # moves of those entries
    cpu_seconds: float = 0.0
    cpu_mean: float | None = None  # CPU seconds per move over those moves
    cpu_max_move: float | None = None  # the longest single move in CPU seconds

    @property
    def complete(self) -> bool:
        """True when every timed entry kept CPU time and single-move maxima."""
        return self.detailed_games == self.games

    def wall_max_ms(self) -> str:
        """The longest move in milliseconds, as displayed: exact when every game kept its
        longest move, else ``~`` and the larger of the known longest moves and the slowest
        game's mean per move (a lower bound)."""
        if self.complete:
            return ms_text(self.max_move)
        return "~" + ms_text(max(self.slowest_game_mean, self.max_move or 0.0))


def move_times(outcomes: Iterable[GameOutcome]) -> dict[str, MoveTimes]:
    """Per agent time per move from the outcomes' per-seat timings.

    Args:
        outcomes: finished games (``move_seconds`` and ``moves_made`` per seat, and where
            kept ``move_cpu_seconds``, ``move_max_seconds``, ``move_max_cpu_seconds``;
            entries without moves, e.g. hand-made outcomes, are skipped).

    Returns:
        Agent label -> :class:`MoveTimes`, for agents with at least one timed move.
    """
    acc: dict[str, dict] = {}
    for o in outcomes:
        secs, made = list(o.move_seconds or ()), list(o.moves_made or ())
        cpu = list(getattr(o, "move_cpu_seconds", None) or ())
        longest = list(getattr(o, "move_max_seconds", None) or ())
        longest_cpu = list(getattr(o, "move_max_cpu_seconds", None) or ())
        detailed = len(cpu) == len(longest) == len(longest_cpu) == len(o.labels)
        for s, (label, t, m) in enumerate(zip(o.labels, secs, made)):
            if m <= 0:
                continue
            row = acc.setdefault(label, {"moves": 0, "games": 0, "seconds": 0.0, "slowest": 0.0,
                                         "detailed": 0, "max": None, "cpu_moves": 0, "cpu": 0.0,
                                         "cpu_max": None})
            row["moves"] += int(m)
            row["games"] += 1
            row["seconds"] += float(t)
            row["slowest"] = max(row["slowest"], float(t) / m)
            if detailed:
                row["detailed"] += 1
                row["max"] = max(row["max"] or 0.0, float(longest[s]))
                row["cpu_moves"] += int(m)
                row["cpu"] += float(cpu[s])
                row["cpu_max"] = max(row["cpu_max"] or 0.0, float(longest_cpu[s]))
    return {a: MoveTimes(moves=r["moves"], games=r["games"], seconds=r["seconds"],
                         mean=r["seconds"] / r["moves"],
                         slowest_game_mean=r["slowest"], detailed_games=r["detailed"], max_move=r["max"],
                         cpu_moves=r["cpu_moves"], cpu_seconds=r["cpu"],
                         cpu_mean=r["cpu"] / r["cpu_moves"] if r["cpu_moves"] else None,
                         cpu_max_move=r["cpu_max"])
            for a, r in sorted(acc.items())}


def rate_outcomes(outcomes: Iterable[GameOutcome], anchor: str | None = None,
                  prior_sd: float = 2.0) -> Ratings:
    """:func:`rate` on tournament outcomes, with each agent's time per move attached.

    Args:
        outcomes: finished games, e.g. ``ResultStore.outcomes()``.
        anchor: agent at Elo 0 (default: the reference, see :func:`choose_reference`).
        prior_sd: as in :func:`rate`.

    Returns:
        A :class:`Ratings` whose ``move_times`` is filled in.
    """
    outcomes = list(outcomes)
    r = rate(rated_games(outcomes), anchor=anchor, prior_sd=prior_sd)
    return replace(r, move_times=move_times(outcomes))


def _num(v: float) -> float | None:
    """JSON-safe float (NaN/inf become null)."""
    return float(v) if math.isfinite(v) else None


def separation_note(r: Ratings) -> str | None:
    """One paragraph on the agents whose distance to the others only the prior sets.

    Args:
        r: ratings from :func:`rate`.

    Returns:
        The note, or ``None`` when every agent is placed by the games.
    """
    sep = r.separation
    if sep.connected:
        return None
    if sep.main is None:
        return ("no group of agents has finished both ahead of and behind each other in a chain "
                "that links them all: every distance between the groups "
                f"({' | '.join(', '.join(g) for g in sep.groups)}) is set by the N(0, {r.fit.prior_sd:g}^2) "
                "prior, not by the games.")
    above = [a for a in r.ranking() if sep.position.get(a) == ABOVE]
    below = [a for a in r.ranking() if sep.position.get(a) == BELOW]
    apart = [a for a in r.ranking() if a in sep.position and a not in above and a not in below]
    parts = []
    if above:
        parts.append(f"{', '.join(above)} never finished behind the connected rest")
    if below:
        parts.append(f"{', '.join(below)} never finished ahead of the connected rest")
    if apart:
        parts.append(f"{', '.join(apart)} never met the connected rest in a comparable way")
    note = ("; ".join(parts) + " (not even through a chain of other agents): the distance to "
            f"the rest is set by the N(0, {r.fit.prior_sd:g}^2) prior, not by the games, and the "
            "interval is the prior's.")
    if r.fit.anchor in sep.position:
        note += f" The anchor {r.fit.anchor} is itself separated, so every Elo on this scale is too."
    return note


def ratings_report(r: Ratings) -> dict:
    """A plain, JSON-serialisable dict of the ratings (the CLI's ``--json`` output).

    Args:
        r: ratings from :func:`rate`.

    Returns:
        ``model`` (fit settings and diagnostics, ``anchor`` and ``reference``), ``agents``
        (in rating order, with Elo, its 95% interval to the anchor, quasi-sd, comparison
        interval, ``los_next``, ``move_time`` when known, and descriptive statistics),
        ``los_pairs`` (adjacent rows), ``seats`` (keyed by player count as a string),
        ``separation``, ``head_to_head`` and ``superiority``; NaN/inf become None.
    """
    order = r.ranking()
    return {
        "model": _model_report(r),
        "los_pairs": [{"higher": a, "lower": b, "los": r.superiority[a][b]}
                      for a, b in zip(order, order[1:])],
        "agents": [_agent_report(r, a) for a in order],
        "seats": _seats_report(r),
        "separation": {
            "groups": [list(g) for g in r.separation.groups],
            "connected_rest": None if r.separation.main is None else list(r.separation.main),
            "note": separation_note(r),
        },
        "head_to_head": {
            a: {b: {"score": sc, "meetings": m} for b, (sc, m) in row.items()}
            for a, row in r.head_to_head.items()
        },
        "superiority": r.superiority,
    }


def _agent_report(r: Ratings, a: str) -> dict:
    """The ``agents`` row of one agent in :func:`ratings_report`."""
    fit = r.fit
    st = r.agent_stats[a]
    lo, hi = r.elo_interval[a]
    row = {
        "agent": a,
        "elo": _num(fit.elo[a]),
        "elo_low": _num(lo),
        "elo_high": _num(hi),
        "elo_sd": _num(fit.elo_sd[a]),
        "separated": a in r.separation.position,
        "separation": r.separation.position.get(a),
        "games": st.games,
        "entries": st.entries,
        "win_rate": st.win_rate,
        "mean_rank": st.mean_rank,
        "mean_score": _num(st.mean_score),
        "quasi_sd": _num(r.quasi_sd[a]),
        "comparison_low": _num(r.comparison_interval[a][0]),
        "comparison_high": _num(r.comparison_interval[a][1]),
        "los_next": r.los_next.get(a),
    }
    if r.move_times is not None:
        t = r.move_times.get(a)
        row["move_time"] = None if t is None else {
            "moves": t.moves, "entries": t.games, "seconds": t.seconds, "mean": t.mean,
            "max_game_mean": t.slowest_game_mean, "entries_with_move_detail": t.detailed_games,
            "max": t.max_move, "cpu_moves": t.cpu_moves, "cpu_seconds": t.cpu_seconds,
            "cpu_mean": t.cpu_mean, "cpu_max": t.cpu_max_move}
    return row


def _seats_report(r: Ratings) -> dict[str, list[dict]]:
    """The ``seats`` part of :func:`ratings_report`: per player count, one row per seat."""
    seats = {}
    for n, per_seat in r.seat_stats.items():
        seats[str(n)] = []
        for s, st in enumerate(per_seat):
            lo, hi = r.seat_elo_interval[n][s]
            seats[str(n)].append({
                "seat": s,
                "elo": _num(r.fit.seat_elo[n][s]),
                "elo_low": _num(lo),
                "elo_high": _num(hi),
                "games": st.games,
                "win_rate": st.win_rate,
                "mean_rank": st.mean_rank,
                "mean_score": _num(st.mean_score),
            })
    return seats


def _model_report(r: Ratings) -> dict:
    """The ``model`` part of :func:`ratings_report`: what was fitted, how, and how well."""
    fit = r.fit
    return {
        "name": "Plackett-Luce with seat effects; Davidson-Luce shared ranks",
        "scale": "Elo (400/ln 10 per natural-log unit of strength)",
        "anchor": fit.anchor,
        "reference": r.reference,
        "prior_sd": fit.prior_sd,
        "games": fit.games,
        "log_likelihood": fit.log_likelihood,
        "converged": fit.converged,
        "tie_parameters": {str(k): v for k, v in fit.tie.items()},
        "intervals": ("Laplace approximation of the posterior: elo +- 1.96 sd of the difference to "
                      "the anchor"),
        "confidence": CONFIDENCE,
        "comparison_intervals": (f"elo +- {COMPARISON_Z:.4f} quasi-sd (Firth & de Menezes 2004): "
                                 "two equal bars touch at a likelihood of superiority of "
                                 f"{COMPARISON_LOS}"),
        "comparison_z": COMPARISON_Z,
        "quasi_variance_worst_error": r.quasi_error,
        "move_time": ("seconds per move of act(): mean = wall clock over all moves; max_game_mean = the "
                      "slowest game's wall mean; max, cpu_mean, cpu_max (CPU of the calling thread) over "
                      "the entries_with_move_detail games that kept them, null if none did"),
    }


def _columns(header, rows, left=1) -> list[str]:
    """Rows of cells as aligned text: the first ``left`` columns left-aligned, the rest right."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

    def line(cells):
        out = [c.ljust(w) if k < left else c.rjust(w) for k, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join(out).rstrip()

    return [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def _signed(elo: float) -> str:
    """Whole Elo with a sign; a value that rounds to zero prints as +0, never -0."""
    return f"{int(round(elo)):+d}"


def _los(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"


def scale_note(r: Ratings) -> str:
    """One paragraph saying what Elo 0 is and how to read the intervals and the LOS column.

    Args:
        r: ratings from :func:`rate`.

    Returns:
        The note (no trailing newline).
    """
    fit = r.fit
    if fit.anchor == r.reference and r.separation.main is None:
        zero = (f"Elo 0 = {fit.anchor}, the reference: no one group of agents the games connect is the "
                "largest (*), so of all agents the one whose distances to the others are narrowest (a point "
                "of the scale, not a rank).")
    elif fit.anchor == r.reference:
        zero = (f"Elo 0 = {fit.anchor}, the reference: of the agents the games connect, the one whose "
                "distances to the others they measure most precisely (a point of the scale, not a rank).")
    else:
        zero = f"Elo 0 = {fit.anchor} (the anchor asked for); the reference would be {r.reference}."
    return (f"{zero} Interval: Elo +- {COMPARISON_Z:.2f} quasi-sd (Firth & de Menezes 2004), whatever "
            f"the anchor: two agents whose intervals do not overlap differ with a likelihood of superiority "
            f"of about {COMPARISON_LOS} or more. LOS next: the probability that the agent is stronger than "
            "the next row's.")


def ms_text(seconds: float | None) -> str:
    """Seconds as milliseconds with three significant digits; ``-`` for unknown."""
    return "-" if seconds is None else f"{seconds * 1e3:.3g}"


def format_move_times(r: Ratings) -> str | None:
    """Time per move per agent as a small table, agents in rating order.

    Wall-clock mean (exact from the stored totals) and maximum, and CPU mean and maximum
    (of the thread that called ``act()``). Where a game did not keep single-move times
    (files written before they were kept), the wall maximum falls back to the slowest
    game's mean and is marked ``~``; a footnote says over how many games CPU time is known.

    Args:
        r: ratings from :func:`rate_outcomes` (or any with ``move_times``).

    Returns:
        The table (no trailing newline), or None when no timing is known.
    """
    if not r.move_times:
        return None
    header = ("Agent", "Moves", "Wall mean ms", "Wall max ms", "CPU mean ms", "CPU max ms")
    rows = []
    approximate = partial = False
    for a in r.ranking():
        t = r.move_times.get(a)
        if t is None:
            rows.append((a, "0", "-", "-", "-", "-"))
            continue
        if not t.complete:
            approximate = True
            partial = partial or t.detailed_games > 0
        rows.append((a, str(t.moves), ms_text(t.mean), t.wall_max_ms(), ms_text(t.cpu_mean),
                     ms_text(t.cpu_max_move)))
    out = ["Time per move (wall clock and CPU time of the thread that ran the agent's act())"]
    out += _columns(header, rows)
    if approximate:
        out.append("~ some games kept only their total time (results written before single-move times were "
                   "kept): the largest of the known longest moves and the slowest game's mean per move, "
                   "a lower bound; CPU time " + ("is over the games that kept it." if partial
                                                 else "was not recorded."))
    return "\n".join(out)


def format_ratings_table(r: Ratings) -> str:
    """A human-readable table of agents sorted by Elo, followed by the seat advantages.

    A ``*`` after an Elo marks a separated agent; a footnote under the table says why. The
    interval column holds the comparison intervals (quasi-variances), and ``LOS next`` the
    likelihood of superiority of each agent over the next row's. When the ratings carry
    move times (:func:`rate_outcomes`), a time-per-move table follows.

    Args:
        r: ratings from :func:`rate`.

    Returns:
        The table as multi-line text (no trailing newline).
    """
    fit = r.fit
    header = ("Agent", "Elo", "Interval", "LOS next", "Games", "Win rate", "Mean rank", "Mean score")
    rows = []
    for a in r.ranking():
        st = r.agent_stats[a]
        mark = "*" if a in r.separation.position else ""
        iv = "[{}, {}]".format(*map(_signed, r.comparison_interval[a]))
        rows.append((a, f"{_signed(fit.elo[a])}{mark}", iv, _los(r.los_next.get(a)), str(st.games),
                     f"{st.win_rate:.3f}", f"{st.mean_rank:.2f}", f"{st.mean_score:.2f}"))
    out = _columns(header, rows)
    note = separation_note(r)
    if note:
        out.append(f"* {note}")
    out.append(scale_note(r))
    times = format_move_times(r)
    if times:
        out.append("")
        out.append(times)
    out.append("")
    out.append(f"Seat advantage over seat 0 (Elo, 95% interval), {fit.games} games")
    for n, per_seat in fit.seat_elo.items():
        cells = []
        for s, v in enumerate(per_seat):
            if s == 0:
                continue
            iv = " [{}, {}]".format(*map(_signed, r.seat_elo_interval[n][s]))
            win = r.seat_stats[n][s].win_rate
            cells.append(f"seat {s}: {_signed(v)}{iv} (wins {win:.3f})")
        out.append(f"  {n} players (seat 0 wins {r.seat_stats[n][0].win_rate:.3f}): " + "; ".join(cells))
    return "\n".join(out)


def format_matrices(r: Ratings) -> str:
    """Head-to-head and likelihood-of-superiority matrices as text, agents in rating order.

    Columns are numbered like the rows, so long agent labels do not widen the table.

    Args:
        r: ratings from :func:`rate`.

    Returns:
        Both matrices as multi-line text (no trailing newline).
    """
    order = r.ranking()
    numbers = [str(k + 1) for k in range(len(order))]
    names = [f"{k + 1} {a}" for k, a in enumerate(order)]

    h2h = []
    for a, name in zip(order, names):
        row = [name]
        for b in order:
            if a == b or b not in r.head_to_head.get(a, {}):
                row.append("-")
            else:
                frac, met = r.head_to_head[a][b]
                row.append(f"{frac * met:g}/{met}")
        h2h.append(row)
    los = [[name] + ["-" if a == b else f"{r.superiority[a][b]:.2f}" for b in order]
           for a, name in zip(order, names)]
    out = ["Head-to-head: finishes of the row agent ahead of the column agent (level counts 1/2) "
           "/ seat pairs of the games both played"]
    out += _columns(["", *numbers], h2h)
    out.append("")
    out.append("Likelihood of superiority: posterior probability that the row agent is stronger "
               "than the column agent")
    out += _columns(["", *numbers], los)
    return "\n".join(out)
