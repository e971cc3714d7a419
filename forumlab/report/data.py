"""What a report section shows, gathered from a results file or from outcomes.

A section is a set of games rated together (one Plackett-Luce fit): its definitions and
versions, the outcomes, the ratings of :func:`forumlab.arena.ratings.rate`, and, for a
gauntlet run with ``--sprt``, the stored decision. The figures and tables are drawn from
this alone, so every kind of report (tournament, balance study, ladder) looks the same.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..arena.definition import game_title
from ..arena.jobs import GameOutcome
from ..arena.ratings import Ratings, rate_outcomes
from ..core.errors import ForumlabError


@dataclass(frozen=True)
class ReportSection:
    """One block of a report: games rated together, and where they come from.

    ``definitions``: the tournament definitions (JSON form) whose games these are (one
    for a tournament; several for the ladder's curve). ``versions``: the distinct
    software/engine version sets that created the files or recorded their games.
    ``sprt``: the sequential test's settings and decision, if the tournament ran one.
    """

    title: str
    definitions: tuple[dict[str, Any], ...]
    versions: tuple[dict[str, Any], ...]
    outcomes: tuple[GameOutcome, ...]
    ratings: Ratings
    sprt: dict[str, Any] | None = None
    sources: tuple[str, ...] = ()  # the results files the games come from
    merges: tuple[str, ...] = ()  # the NAME=LABEL,... merges applied
    # Per player count, per seat: mean points per scoring source, when the game reports
    # them (``vp_by_source`` in its result); None when it does not.
    score_sources: dict[int, list[dict[str, float]]] | None = None
    # A cooperative game's team results (forumlab.arena.cooperative.team_results), shown
    # instead of the competitive ratings; None for a competitive game.
    team: dict[str, Any] | None = None

    @property
    def agents(self) -> list[str]:
        """The rated agents, in rating order."""
        return self.ratings.ranking()

    def scores_by_seat(self) -> dict[int, list[list[float]]]:
        """Per player count, per seat: every final score."""
        out: dict[int, list[list[float]]] = {}
        for o in self.outcomes:
            seats = out.setdefault(len(o.scores), [[] for _ in o.scores])
            for s, v in enumerate(o.scores):
                seats[s].append(float(v))
        return dict(sorted(out.items()))

    def pair_counts(self) -> list[tuple[str, str, int, float, float, float, float]]:
        """Head to head of every pair of agents, in rating order.

        Returns:
            ``(a, b, games, a_ahead, b_ahead, a_wins, b_wins)``: the games both played,
            how often each finished ahead of the other (a shared rank counts 1/2 to each;
            seat pairs, so an agent in two seats counts twice), and the games each won
            (a win shared by ``k`` seats counts ``1/k``).
        """
        order = self.agents
        pos = {a: i for i, a in enumerate(order)}
        acc: dict[tuple[str, str], list[float]] = {}
        for o in self.outcomes:
            present = sorted(set(o.labels), key=pos.get)
            winners = [s for s, r in enumerate(o.ranks) if r == 1]
            for i, a in enumerate(present):
                for b in present[i + 1:]:
                    row = acc.setdefault((a, b), [0, 0.0, 0.0, 0.0, 0.0])
                    row[0] += 1
                    for sa, la in enumerate(o.labels):
                        for sb, lb in enumerate(o.labels):
                            if la == a and lb == b:
                                ra, rb = o.ranks[sa], o.ranks[sb]
                                row[1] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
                                row[2] += 1.0 if rb < ra else 0.5 if ra == rb else 0.0
                    row[3] += sum(1 for s in winners if o.labels[s] == a) / len(winners)
                    row[4] += sum(1 for s in winners if o.labels[s] == b) / len(winners)
        return [(a, b, int(r[0]), r[1], r[2], r[3], r[4]) for (a, b), r in
                sorted(acc.items(), key=lambda kv: (pos[kv[0][0]], pos[kv[0][1]]))]

    @property
    def fault_count(self) -> int:
        """Faults recorded over all games of the section."""
        return sum(len(o.faults) for o in self.outcomes)

    def scores_by_agent(self) -> dict[str, list[float]]:
        """Every entry's final score, per agent, agents in rating order."""
        out: dict[str, list[float]] = {a: [] for a in self.ratings.ranking()}
        for o in self.outcomes:
            for label, score in zip(o.labels, o.scores):
                out[label].append(float(score))
        return out

    def lengths(self) -> dict[str, list[int]]:
        """Plies per game, split by why the game ended (``end``, ``cap``, ...)."""
        out: dict[str, list[int]] = {}
        for o in self.outcomes:
            out.setdefault(str(o.termination), []).append(int(o.plies))
        return out

    def fault_counts(self) -> dict[str, Counter]:
        """Per agent (rating order, agents with faults only): a Counter of fault kinds."""
        out: dict[str, Counter] = {}
        for o in self.outcomes:
            for f in o.faults:
                out.setdefault(o.labels[f.seat], Counter())[f.kind] += 1
        order = self.ratings.ranking()
        return {a: out[a] for a in order if a in out}

    def fault_rows(self) -> list[tuple[str, str, int, int, str, str]]:
        """Every fault as (game key, agent, seat, ply, kind, message), in game order."""
        return [(o.key, o.labels[f.seat], f.seat, f.ply, f.kind, f.message)
                for o in self.outcomes for f in o.faults]


def _distinct(items: Iterable[dict[str, Any] | None]) -> tuple[dict[str, Any], ...]:
    seen, out = set(), []
    for item in items:
        if item is None:
            continue
        key = repr(sorted(item.items()))
        if key not in seen:
            seen.add(key)
            out.append(item)
    return tuple(out)


def readable_title(definition: dict[str, Any], outcomes: Iterable[GameOutcome]) -> str:
    """``Forum Romanum, 3 players — 120 games, 6 agents``.

    Args:
        definition: the tournament definition.
        outcomes: the games.

    Returns:
        The title.
    """
    outcomes = list(outcomes)
    agents = {label for o in outcomes for label in o.labels}
    games = f"{len(outcomes)} game{'s' if len(outcomes) != 1 else ''}"
    return f"{game_title(definition)} \u2014 {games}, {len(agents)} agent{'s' if len(agents) != 1 else ''}"


def score_sources(definition: dict[str, Any], outcomes: Iterable[GameOutcome],
                  fast_only: bool = False) -> dict[int, list[dict[str, float]]] | None:
    """Mean points per scoring source and seat, for games that report their sources.

    Results files keep the final scores, not their breakdown: the game's own
    :meth:`~forumlab.core.game.Game.score_sources_many` replays the games from their seeds
    and moves (a game that reports no sources answers None without replaying).

    Args:
        definition: the tournament definition (game and config).
        outcomes: the games.
        fast_only: None unless the game replays its sources in a batch
            (:attr:`~forumlab.core.game.Game.score_sources_fast`).

    Returns:
        ``{players: [per seat {source: mean points}]}``, or None.
    """
    from ..core.registry import create_game

    outcomes = list(outcomes)
    if not outcomes:
        return None
    try:
        game = create_game(definition.get("game"), definition.get("config"))
    except Exception:  # noqa: BLE001 - a game this version cannot build: no breakdown
        return None
    if fast_only and not game.score_sources_fast:
        return None
    try:
        per_game = game.score_sources_many((o.seed, o.moves) for o in outcomes)
    except ForumlabError:
        if not fast_only:
            raise
        return None  # shown unasked: a game that does not replay costs the figure, not the report
    if any(by_source is None for by_source in per_game):
        return None
    sums: list[dict[str, float]] = [dict.fromkeys(seat, 0.0) for seat in per_game[0]]
    for by_source in per_game:
        for acc, seat in zip(sums, by_source):
            for source, value in seat.items():
                acc[source] = acc.get(source, 0.0) + float(value)
    return {game.players: [{k: v / len(per_game) for k, v in seat.items()} for seat in sums]}


def section_from_outcomes(title: str, definitions: Iterable[dict[str, Any]],
                          versions: Iterable[dict[str, Any] | None], outcomes: Iterable[GameOutcome],
                          anchor: str | None = None, sprt: dict[str, Any] | None = None,
                          sources: Iterable[str] = (), merges: Iterable[str] = (),
                          breakdown: bool | None = False,
                          team: dict[str, Any] | None = None) -> ReportSection:
    """A section of games already read.

    Args:
        title: the section's heading.
        definitions: the JSON definitions of the tournaments the games belong to.
        versions: version sets (duplicates and None are dropped).
        outcomes: the games, rated together.
        anchor: the agent at Elo 0 (default: the reference the ratings choose, never an
            agent the games cannot place).
        sprt: the sequential test's record (see :mod:`forumlab.arena.sprt`), if any.
        sources: the results files the games come from.
        merges: the label merges already applied to ``outcomes`` (shown on the page).
        breakdown: replay the games for their points per scoring source (see
            :func:`score_sources`), when the game reports them; None: only when the game
            replays them in a batch (Forum Romanum), as ``forumlab report`` does.
        team: the team's results of a cooperative game
            (:func:`forumlab.arena.cooperative.team_results`), shown instead of ratings.

    Returns:
        The :class:`ReportSection`.

    Raises:
        ForumlabError: there are no games.
        RatingsError: the games cannot be rated (e.g. ``anchor`` did not play).
    """
    outcomes = tuple(outcomes)
    definitions = tuple(definitions)
    if not outcomes:
        raise ForumlabError(f"{title}: no finished games to report")
    ratings = rate_outcomes(outcomes, anchor=anchor)
    sources_by_seat = (score_sources(definitions[0], outcomes, fast_only=breakdown is None)
                       if breakdown is not False and definitions else None)
    return ReportSection(title=title, definitions=definitions, versions=_distinct(versions),
                         outcomes=outcomes, ratings=ratings, sprt=sprt, sources=tuple(sources),
                         merges=tuple(merges), score_sources=sources_by_seat, team=team)


def section_from_store(db, title: str | None = None, anchor: str | None = None,
                       merges: Iterable[str] = (), breakdown: bool | None = None) -> ReportSection:
    """A section of every game in a results file, or in several compatible ones (read-only).

    Args:
        db: the results file, or a list of them rated as one (see
            :func:`forumlab.arena.pool.load_results`).
        title: the heading (default: :func:`readable_title`).
        anchor: the agent at Elo 0 (default as in :func:`section_from_outcomes`).
        merges: ``NAME=LABEL,LABEL[,...]`` strings: labels of one spec rated as one agent.
        breakdown: also the points per scoring source and seat (see :func:`score_sources`);
            None (the default): only for a game that replays them in a batch.

    Returns:
        The :class:`ReportSection`.

    Raises:
        StoreError: a file is missing, not a results file, corrupt or locked.
        ForumlabError: a file holds no finished games.
        ConfigError: files that cannot be pooled, or a bad merge.
    """
    from ..arena.cooperative import team_results
    from ..arena.pool import load_results

    pooled = load_results(db, merges)
    if title is None:
        title = readable_title(pooled.definition, pooled.outcomes)
    return section_from_outcomes(title, pooled.definitions, pooled.versions, pooled.outcomes, anchor,
                                 pooled.sprt, sources=pooled.paths, merges=merges, breakdown=breakdown,
                                 team=team_results(pooled.definition, pooled.outcomes))
