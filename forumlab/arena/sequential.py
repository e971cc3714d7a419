"""Playing a gauntlet under its sequential test: stop as soon as the candidate is decided.

The games are handed out group by group in the *sequential order*: the first rotation
group of every lineup, then the second of every lineup, and so on, each group's seatings
together, so the candidate meets the whole field evenly as the test goes on. After each
recorded game the test (:mod:`forumlab.arena.sprt`) advances over the groups that are now
complete, in that order and one whole group at a time (a group's seatings balance the
seats only together); the first group after which the LLR crosses a bound ends the
tournament. Because the order is fixed, the decision does not depend on which worker
finished first, and ``resume`` recomputes it from the stored games: a decided file plays
nothing more, and an undecided one continues the test where it stood. The schedule
(``--games`` groups per lineup) is the cap: if every game is played without a decision,
that is recorded too, and extending the study (a larger ``--games``) continues the test.

**Only whole groups are rated.** Games are committed as they finish, and with several
workers some games of the groups after the deciding one have often finished (and been
stored) when the decision comes; stopping there would leave partial groups in the file,
whose games the ratings would count (52 games rated where the test counted 51, and
seats no longer balanced). So after a decision, every group up to the last one with a
stored game is completed (their games in flight play on, and their missing games are
played), and the games of later groups are not stored. The test then counts those
groups too, in the same order, so the record's ``groups``, ``games``, ``llr`` and
``mean_score`` describe exactly the games rated. The verdict stays the one reached at the
crossing (``decided_after_groups``, ``decided_after_games``, ``decision_llr``): Wald's
error rates hold for the decision at the first crossing; the few groups completed after
it are reported, not tested again (a second look the bounds do not allow for). The
alternatives were worse: testing only when no game is in flight idles the workers, or
makes the decision depend on their number; rating only the counted groups would hide
stored games. The record is stored (:meth:`ResultStore.record_sprt`) once those groups are
complete; a run stopped before that is completed by ``resume``, which decides again from
the same games and completes the same groups.
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
        # Where the LLR first crossed a bound: (groups, games, LLR) counted then.
        self.decided_at: tuple[int, int, float] | None = None
        self.index = {group: i for i, group in enumerate(self.order)}
        self.last_started = -1  # order index of the last group with a counted game

    def add(self, outcome: GameOutcome) -> str | None:
        """Count one recorded game; advance over the groups now complete, in order.

        Groups completed after the decision are counted too (the games rated must be the
        games counted), but they never change the decision.

        Returns:
            ``"H1"`` or ``"H0"`` once decided, else None.
        """
        self.scores.setdefault(outcome.group, []).append(candidate_score(outcome, self.candidate))
        self.last_started = max(self.last_started, self.index[outcome.group])
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
            if self.decision is None:
                self.decision = decide(self.llr, s)
                if self.decision is not None:
                    self.decided_at = (self.n, self.games, self.llr)
        return self.decision

    @property
    def complete(self) -> bool:
        """Every group of the schedule has been counted."""
        return self.next == len(self.order)

    @property
    def settled(self) -> bool:
        """Decided, and every group up to the last one with a counted game is complete."""
        return self.decision is not None and self.next > self.last_started

    def to_complete(self) -> set[str]:
        """After a decision: the groups still to be completed (see the module doc)."""
        return set(self.order[self.next:self.last_started + 1])

    def record(self) -> dict[str, Any]:
        """The JSON record stored in the results file and shown by ratings and report."""
        s = self.settings
        lower, upper = s.bounds
        mean = self.total / self.n if self.n else None
        decided = {}  # where the bound was crossed, when it was
        if self.decided_at is not None:
            groups, games, at = self.decided_at
            bound = "upper bound" if self.decision == H1 else "lower bound"
            why = (f"LLR {at:.3f} reached the {bound} {upper if self.decision == H1 else lower:.3f} "
                   f"after {groups} rotation groups ({games} games)")
            if self.n > groups:
                extra = self.n - groups
                what = ("the group under way then was" if extra == 1
                        else f"the {extra} groups under way then were")
                why += (f"; {what} completed, so {self.n} groups ({self.games} games) are rated, "
                        f"LLR {self.llr:.3f} over them")
            decided = {"decided_after_groups": groups, "decided_after_games": games, "decision_llr": at}
        else:
            why = (f"every planned game was played ({len(self.order)} groups) and the LLR {self.llr:.3f} "
                   f"stayed between {lower:.3f} and {upper:.3f}")
        # groups, games, llr and mean_score describe every game rated (whole groups only).
        return {
            "candidate": self.candidate, **s.to_json(), "decision": self.decision, "reason": why,
            "llr": self.llr, "lower": lower, "upper": upper, "groups": self.n, "games": self.games,
            **decided, "planned_groups": len(self.order), "mean_score": mean,
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

    def still_to_play() -> list[GameJob]:
        wanted = None if test.decision is None else test.to_complete()
        return [job for g in groups if wanted is None or g[0].group in wanted
                for job in g if job.key not in done]

    played = 0
    todo = still_to_play()
    if todo and not test.settled:
        with make_executor() as executor:
            # At most two passes. The first plays on past the decision while the games
            # that finish belong to the groups under way; the first game of a later group
            # to finish (not stored) shows that the workers have moved on, and ends it,
            # stopping the games in flight. The second plays what those groups still miss.
            while todo:
                decided = test.decision is not None
                finishing = test.to_complete() if decided else None
                for outcome in executor.run(todo, run_job, progress=progress):
                    if finishing is not None and outcome.group not in finishing:
                        break  # leaving the run stops the games in flight
                    store.record(outcome)
                    done.add(outcome.key)
                    played += 1
                    test.add(outcome)
                    if test.settled:
                        break
                    if test.decision is not None and finishing is None:
                        finishing = test.to_complete()
                todo = [] if test.settled or decided else still_to_play()
    if test.settled or (test.decision is None and test.complete):
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
    candidate = definition["candidate"]
    # Against the whole field: with a weak agent in it, the candidate's "elo" is far above
    # its distance to the strongest opponent, which the table shows.
    head = (f"SPRT for {candidate} against the whole field (elo: the Elo equivalent of the share of "
            f"opponents {candidate} finished ahead of, not a difference of the table's Elo): "
            f"H0 elo <= {s.elo0:g}, H1 elo >= {s.elo1:g}, alpha {s.alpha:g}, beta {s.beta:g}: ")
    if record is None:
        return head + "not decided yet (forumlab tournament resume DB continues the test)"
    verdict = {H1: "accepted H1", H0: "accepted H0"}.get(record["decision"], "undecided")
    if record.get("decided_after_groups") is not None:  # the reason gives the counts
        return head + f"{verdict}: " + record["reason"]
    return (head + f"{verdict} after {record['groups']} rotation groups ({record['games']} games); "
            + record["reason"])
