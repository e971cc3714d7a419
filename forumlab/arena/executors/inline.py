"""The in-process executor (``workers=0``), for debugging and profiling."""
from __future__ import annotations

import traceback
from collections.abc import Iterator, Sequence

from ...core.errors import exception_line
from ..jobs import GameJob, GameOutcome
from .base import Executor, GameExecutionError, GameFn, JobFailure, note_counts, record_failure


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

    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        jobs = list(jobs)
        failures: list[JobFailure] = []
        with self._bar(len(jobs), progress) as bar:
            for job in jobs:
                try:
                    outcome = fn(job)
                except Exception as exc:
                    record_failure(failures, JobFailure(job.key, exception_line(exc), traceback.format_exc()))
                    note_counts(bar, 0, len(failures))
                    bar.update(1)
                    continue
                bar.update(1)
                yield outcome
        if failures:
            raise GameExecutionError(failures, len(jobs))
