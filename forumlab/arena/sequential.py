"""Playing a gauntlet under its sequential test: stop as soon as the candidate is decided.

The games are handed out group by group in the *sequential order*: the first rotation
group of every lineup, then the second of every lineup, and so on, each group's seatings
together, so the candidate meets the whole field evenly as the test goes on. After each
recorded game the test (:mod:`forumlab.arena.sprt`) advances over the groups that are now
complete, in that order and one whole group at a time (a group's seatings balance the
seats only together); the first group after which the LLR crosses a bound ends the
tournament: the decision, with why (LLR, bounds, groups, games, mean score), is stored in
the results file (:meth:`ResultStore.record_sprt`) and the games in flight are stopped.
Because the order is fixed, the decision does not depend on which worker finished first,
and ``resume`` recomputes it from the stored games: a decided file plays nothing more,
and an undecided one continues the test where it stood. The schedule (``--games`` groups
per lineup) is the cap: if every game is played without a decision, that is recorded too.
"""
from __future__ import annotations

import math
from typing import Any

from .definition import TournamentDefinition
from .jobs import GameJob, GameOutcome
from .sprt import H0, H1, SprtSettings, decide, llr, prior_variance, score_elo
from .store import ResultStore

MODEL = ("GSPRT on the candidate's mean score per rotation group (a game scores the fraction of "
         "opponents finished behind it, ties half); s(elo) = 1 / (1 + 10^(-elo/400)); Wald bounds")


def sequential_order(jobs: list[GameJob]) -> list[list[GameJob]]:
    """``jobs`` as rotation groups in the sequential order (group index, then lineup).

    Args:
        jobs: the tournament's plan (keys ``L<lineup>-G<group>-R<rotation>``).

    Returns:
        One list of jobs per rotation group, each in rotation order.
    """
    groups: dict[str, list[GameJob]] = {}
    for job in jobs:
        groups.setdefault(job.group, []).append(job)
    ordered = sorted(groups.values(), key=lambda g: (int(g[0].group.split("-G")[1]), g[0].lineup))
    return [sorted(g, key=lambda j: j.rotation) for g in ordered]


def candidate_score(outcome: GameOutcome, candidate: str) -> float:
    """The fraction of opponents the candidate finished ahead of (a shared rank counts half).

    Args:
        outcome: a gauntlet game (the candidate fills exactly one seat).
        candidate: the candidate's label.

    Returns:
        A score in [0, 1].
    """
    seat = outcome.labels.index(candidate)
    mine = outcome.ranks[seat]
    others = [r for s, r in enumerate(outcome.ranks) if s != seat]
    return sum(1.0 if mine < r else 0.5 if mine == r else 0.0 for r in others) / len(others)


class SequentialTest:
    """The test's running state over the groups of one gauntlet, fed game by game."""

    def __init__(self, definition: TournamentDefinition, groups: list[list[GameJob]]):
        self.settings = SprtSettings.from_json(definition.sprt)
        self.candidate = definition.candidate
        self.order = [g[0].group for g in groups]
        self.size = {g[0].group: len(g) for g in groups}
        self.prior_var = prior_variance(max(self.size.values()))
        self.scores: dict[str, list[float]] = {}
        self.next = 0  # index in self.order of the first group not yet counted
        self.n = self.games = 0
        self.total = self.total_sq = 0.0
        self.llr = 0.0
        self.trace: list[float] = []
        self.decision: str | None = None

    def add(self, outcome: GameOutcome) -> str | None:
        """Count one recorded game; advance over the groups now complete, in order.

        Returns:
            ``"H1"`` or ``"H0"`` once decided (further games are not counted), else None.
        """
        if self.decision is not None:
            return self.decision
        self.scores.setdefault(outcome.group, []).append(candidate_score(outcome, self.candidate))
        while self.next < len(self.order):
            group = self.order[self.next]
            scores = self.scores.get(group, [])
            if len(scores) < self.size[group]:
                break
            x = sum(scores) / len(scores)
            self.n += 1
            self.games += len(scores)
            self.total += x
            self.total_sq += x * x
            self.next += 1
            s = self.settings
            self.llr = float(llr(self.n, self.total, self.total_sq, s.s0, s.s1, self.prior_var))
            self.trace.append(self.llr)
            self.decision = decide(self.llr, s)
            if self.decision is not None:
                break
        return self.decision

    @property
    def complete(self) -> bool:
        """Every group of the schedule has been counted."""
        return self.next == len(self.order)

    def record(self) -> dict[str, Any]:
        """The JSON record stored in the results file and shown by ratings and report."""
        s = self.settings
        lower, upper = s.bounds
        mean = self.total / self.n if self.n else None
        if self.decision == H1:
            why = f"LLR {self.llr:.3f} reached the upper bound {upper:.3f}"
        elif self.decision == H0:
            why = f"LLR {self.llr:.3f} reached the lower bound {lower:.3f}"
        else:
            why = (f"every planned game was played ({len(self.order)} groups) and the LLR {self.llr:.3f} "
                   f"stayed between {lower:.3f} and {upper:.3f}")
        return {
            "candidate": self.candidate, **s.to_json(), "decision": self.decision, "reason": why,
            "llr": self.llr, "lower": lower, "upper": upper, "groups": self.n, "games": self.games,
            "planned_groups": len(self.order), "mean_score": mean,
            "score_elo": None if mean is None or not math.isfinite(score_elo(mean)) else score_elo(mean),
            "model": MODEL, "trace": self.trace,
        }


def play_sequential(store: ResultStore, definition: TournamentDefinition, jobs: list[GameJob],
                    make_executor, progress: bool) -> int:
    """Play ``jobs`` of a gauntlet with ``sprt`` until the test decides (see the module doc).

    Args:
        store: the writable results file.
        definition: the gauntlet (``definition.sprt`` set).
        jobs: its whole plan.
        make_executor: a no-argument callable giving the executor (a context manager).
        progress: show a progress bar.

    Returns:
        How many games were played now.
    """
    from .runner import run_job

    if store.sprt_record() is not None:
        return 0  # decided (or exhausted) before: nothing more to play
    groups = sequential_order(jobs)
    test = SequentialTest(definition, groups)
    done = store.done_keys()
    for outcome in store.iter_outcomes():
        test.add(outcome)
    missing = [job for g in groups for job in g if job.key not in done]
    played = 0
    if test.decision is None and missing:
        with make_executor() as executor:
            for outcome in executor.run(missing, run_job, progress=progress):
                store.record(outcome)
                played += 1
                if test.add(outcome) is not None:
                    break  # leaving the executor stops the games in flight
    if test.decision is not None or test.complete:
        store.record_sprt(test.record())
    return played


def format_sprt(record: dict[str, Any] | None, definition: dict[str, Any]) -> str:
    """One or two lines on the sequential test for the rating table.

    Args:
        record: the stored record (:meth:`SequentialTest.record`), or None while undecided.
        definition: the stored tournament definition (its ``sprt`` and ``candidate``).

    Returns:
        The text (no trailing newline).
    """
    s = SprtSettings.from_json(definition["sprt"])
    head = (f"SPRT for {definition['candidate']}: H0 elo <= {s.elo0:g}, H1 elo >= {s.elo1:g}, "
            f"alpha {s.alpha:g}, beta {s.beta:g}: ")
    if record is None:
        return head + "not decided yet (forumlab tournament resume DB continues the test)"
    verdict = {H1: "accepted H1", H0: "accepted H0"}.get(record["decision"], "undecided")
    return (head + f"{verdict} after {record['groups']} rotation groups ({record['games']} games); "
            + record["reason"])
