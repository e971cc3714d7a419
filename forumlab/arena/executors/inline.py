"""The in-process executor (``workers=0``), for debugging and profiling."""
from __future__ import annotations

import time
import traceback
from collections.abc import Iterator, Sequence

from ...core.errors import exception_line
from ..jobs import GameJob, GameOutcome, games_per_batch
from .base import Executor, GameExecutionError, GameFn, JobFailure, note_counts, record_failure

# Finished cheap games are held back for at most this long before they are handed over
# together (one commit for them all).
HOLD_SECONDS = 0.1


class InlineExecutor(Executor):
    """Plays the games one after another in the calling process (``workers=0``).

    For debugging and profiling: no pickling, breakpoints work. The runner's own
    SIGALRM cut-off still interrupts Python-level hangs (in the main thread), but
    nothing can stop a hang in compiled code, and an agent that ends the process
    (``os._exit``, a segfault) ends the tournament: there is no hard-limit or crash
    guarantee.
    """

    def __init__(self, *, progress: bool = True) -> None:
        self.progress = progress

    def _play(self, jobs: list[GameJob], fn: GameFn,
              progress: bool | None) -> Iterator[tuple[int, GameOutcome]]:
        """(index of the job, its outcome) for every game that did not fail."""
        failures: list[JobFailure] = []
        with self._bar(len(jobs), progress) as bar:
            for i, job in enumerate(jobs):
                try:
                    outcome = fn(job)
                except Exception as exc:
                    record_failure(failures, JobFailure(job.key, exception_line(exc), traceback.format_exc()))
                    note_counts(bar, 0, len(failures))
                    bar.update(1)
                    continue
                bar.update(1)
                yield i, outcome
        if failures:
            raise GameExecutionError(failures, len(jobs))

    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        for _, outcome in self._play(list(jobs), fn, progress):
            yield outcome

    def run_batches(self, jobs: Sequence[GameJob], fn: GameFn, *,
                    progress: bool | None = None) -> Iterator[list[GameOutcome]]:
        """See :meth:`Executor.run_batches`: finished games are held back while the next
        game is a cheap one (:func:`~forumlab.arena.jobs.games_per_batch` above 1), for at
        most ``HOLD_SECONDS``, so that a finished game never waits for a long one."""
        jobs = list(jobs)
        held: list[GameOutcome] = []
        since = time.monotonic()
        try:
            for i, outcome in self._play(jobs, fn, progress):
                if not held:
                    since = time.monotonic()
                held.append(outcome)
                if i + 1 == len(jobs) or games_per_batch(jobs[i + 1]) == 1 \
                        or time.monotonic() - since >= HOLD_SECONDS:
                    yield held
                    held = []
        except GameExecutionError:
            if held:  # the games that finished after the last failure
                yield held
            raise
        if held:
            yield held
