"""What every executor shares: the interface, failure records and the progress bar."""
from __future__ import annotations

import logging
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tqdm import tqdm

from ...core.errors import ForumlabError
from ..jobs import GameJob, GameOutcome

# The package's name: failures are logged under it, whichever executor ran the game.
log = logging.getLogger("forumlab.arena.executors")

GameFn = Callable[[GameJob], GameOutcome]

DEFAULT_GRACE = 5.0  # seconds past the hard limit before the watchdog kills
DEFAULT_STARTUP = 300.0  # extra seconds before a job's first report (cold numba compile)


@dataclass
class JobFailure:
    """A game that produced no outcome because of an error outside the agents."""

    key: str
    error: str  # one line
    details: str = ""  # traceback or other context


class GameExecutionError(ForumlabError):
    """Raised by :meth:`Executor.run` after the last game when some games failed.

    Every other game's outcome has been yielded (and so committed) before; the
    failed games are simply missing, so ``resume`` retries them.
    """

    def __init__(self, failures: Sequence[JobFailure], total: int) -> None:
        self.failures = list(failures)
        self.total = total
        first = self.failures[0]
        more = f" (and {len(self.failures) - 1} more)" if len(self.failures) > 1 else ""
        super().__init__(
            f"{len(self.failures)} of {total} games failed with an error that is not an agent "
            f"fault and were not recorded; first: {first.key}: {first.error}{more}; "
            "see the log for tracebacks, fix the cause and resume")


def record_failure(failures: list[JobFailure], failure: JobFailure) -> None:
    failures.append(failure)
    log.error("game %s failed (not an agent fault, not recorded): %s\n%s",
              failure.key, failure.error, failure.details)


class Executor(ABC):
    """Runs games and yields their outcomes as they finish."""

    progress: bool = True

    @abstractmethod
    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        """Play every job with ``fn`` and yield each outcome once, in finishing order.

        ``fn`` must be a picklable top-level function. A tqdm bar on stderr shows
        games done/total, games/s and the ETA unless ``progress`` (default: the
        executor's ``progress``) is false.

        Args:
            jobs: the games to play.
            fn: the game runner, ``fn(job) -> GameOutcome``.
            progress: show the progress bar; None for the executor's default.

        Returns:
            An iterator of outcomes, one per game that did not fail, as they finish.

        Raises:
            GameExecutionError: after the last outcome, if some games failed outside the
                agents' control (they yield nothing).
        """

    def run_batches(self, jobs: Sequence[GameJob], fn: GameFn, *,
                    progress: bool | None = None) -> Iterator[list[GameOutcome]]:
        """Like :meth:`run`, but yield the outcomes that are ready together, in lists.

        A caller that commits each list in one transaction before it asks for the next
        still loses only the games in flight when it is killed, with one commit per list
        instead of one per game. Executors that receive games in bursts (the local pool)
        override this; the default yields each outcome alone.

        Args:
            jobs: the games to play.
            fn: the game runner, ``fn(job) -> GameOutcome``.
            progress: show the progress bar; None for the executor's default.

        Returns:
            An iterator of non-empty lists of outcomes.

        Raises:
            GameExecutionError: as :meth:`run`.
        """
        for outcome in self.run(jobs, fn, progress=progress):
            yield [outcome]

    def close(self) -> None:  # noqa: B027 - a no-op default: not every executor holds resources
        """Release workers and connections. Safe to call twice."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _bar(self, total: int, progress: bool | None) -> tqdm:
        show = self.progress if progress is None else progress
        return tqdm(total=total, unit="game", file=sys.stderr, disable=not show,
                    dynamic_ncols=True, smoothing=0.1)


def note_counts(bar: tqdm, restarted: int, failed: int) -> None:
    if restarted or failed:
        bar.set_postfix_str(f"restarted={restarted} failed={failed}", refresh=False)
