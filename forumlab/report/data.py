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

from ..arena.jobs import GameOutcome
from ..arena.ratings import Ratings, default_anchor, rate, rated_games
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


def section_from_outcomes(title: str, definitions: Iterable[dict[str, Any]],
                          versions: Iterable[dict[str, Any] | None], outcomes: Iterable[GameOutcome],
                          anchor: str | None = None, sprt: dict[str, Any] | None = None) -> ReportSection:
    """A section of games already read.

    Args:
        title: the section's heading.
        definitions: the JSON definitions of the tournaments the games belong to.
        versions: version sets (duplicates and None are dropped).
        outcomes: the games, rated together.
        anchor: the agent at Elo 0 (default: ``random`` when it played, else the first label).
        sprt: the sequential test's record (see :mod:`forumlab.arena.sprt`), if any.

    Returns:
        The :class:`ReportSection`.

    Raises:
        ForumlabError: there are no games.
        RatingsError: the games cannot be rated (e.g. ``anchor`` did not play).
    """
    outcomes = tuple(outcomes)
    if not outcomes:
        raise ForumlabError(f"{title}: no finished games to report")
    if anchor is None:
        anchor = default_anchor(outcomes)
    ratings = rate(rated_games(outcomes), anchor=anchor)
    return ReportSection(title=title, definitions=tuple(definitions), versions=_distinct(versions),
                         outcomes=outcomes, ratings=ratings, sprt=sprt)


def section_from_store(db: str, title: str | None = None, anchor: str | None = None) -> ReportSection:
    """A section of every game in a results file (opened read-only).

    Args:
        db: the results file.
        title: the heading (default: the game, its config and the file name).
        anchor: the agent at Elo 0 (default as in :func:`section_from_outcomes`).

    Returns:
        The :class:`ReportSection`.

    Raises:
        StoreError: the file is missing, not a results file, corrupt or locked.
        ForumlabError: the file holds no finished games.
    """
    from ..arena.store import ResultStore

    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
        definition = store.definition
        versions = [store.versions] + [s["versions"] for s in store.sessions()]
        sprt = store.sprt_record()
    if not outcomes:
        raise ForumlabError(f"{db} holds no finished games yet")
    if title is None:
        title = f"{definition.get('game')} {definition.get('config')} ({db})"
    return section_from_outcomes(title, [definition], versions, outcomes, anchor, sprt)
