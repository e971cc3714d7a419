"""Executors: run a tournament's games on local processes or a Dask cluster.

The arena hands an executor a list of :class:`~forumlab.arena.jobs.GameJob` and a
picklable top-level function ``fn(job) -> GameOutcome`` (the game runner), and
iterates over :meth:`Executor.run`, which yields each outcome as soon as its game
finishes, in any order. The caller commits every outcome to the store before it
asks for the next one, so killing the whole process at any moment (even with
SIGKILL) loses only the games in flight.

Three executors share the interface:

* :class:`LocalExecutor` (the default): ``workers`` processes on this machine, with
  a watchdog that kills the worker of a hung game at its hard limit.
* :class:`DaskExecutor`: the same tournament on a Dask distributed cluster
  (``pip install 'forumlab[cluster]'``).
* :class:`InlineExecutor` (``workers=0``): plays the games one by one in the
  calling process, for debugging (pdb, profilers). No hard-limit guarantee.

Progress and hangs
------------------
The game runner calls :func:`report_progress` before every move with the seat to
move, the 1-based ply and the moves played so far. Outside an executor's worker it
does nothing. Inside a local worker it writes a heartbeat (time, seat, ply) and the
new moves into memory shared with the parent; no lock, no system call: a few
microseconds per move. If a worker shows no progress for ``job.hard_limit + grace``
seconds, the parent SIGKILLs it, yields :func:`killed_outcome` for its job (with
the moves played before the hang), starts a replacement worker and carries on.
The runner itself interrupts Python-level hangs at the hard limit (SIGALRM) and
records a fault without losing the game; the watchdog is the backstop for code
that never returns to the interpreter, e.g. a runaway numba loop holding the GIL.
Before a job's first report (game and agent construction, cold numba compilation)
the allowance is ``hard_limit + grace + startup_timeout``. A ``hard_limit`` of 0
(or less, or infinity) switches the watchdog off for that job.

Stopping
--------
If the caller stops iterating (Ctrl-C, an exception, ``break``), the workers of
the games in flight are terminated; :meth:`Executor.close` (or leaving the
``with`` block) stops the rest. Workers ignore SIGINT (the parent decides), and
they die with the tournament process even when it is SIGKILLed: on Linux through
``PR_SET_PDEATHSIG`` (which works while a game holds the GIL), elsewhere through a
thread watching the parent.

Errors that are not agent faults
--------------------------------
An exception raised by ``fn`` (a bug in the runner or an engine, not an agent
fault: the runner records those itself), a worker that dies without an answer
(segfault, OOM killer) or a Dask task error loses only that game: nothing is
yielded for it, the error is logged at once with its traceback, the other games
go on, and after the last one :meth:`Executor.run` raises
:class:`GameExecutionError` naming every failed game. Since every yielded outcome
is already committed by then, ``resume`` replays exactly the failed games after a
fix.
"""
from __future__ import annotations

import logging
import sys
import threading
import time
import traceback
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from tqdm import tqdm

from ..core.errors import ForumlabError
from .jobs import END_KILLED, FAULT_HANG, Fault, GameJob, GameOutcome

__all__ = [
    "DaskExecutor",
    "Executor",
    "GameExecutionError",
    "InlineExecutor",
    "JobFailure",
    "LocalExecutor",
    "default_workers",
    "killed_outcome",
    "make_executor",
    "progress_hook",
    "report_progress",
]

log = logging.getLogger(__name__)

GameFn = Callable[[GameJob], GameOutcome]

DEFAULT_GRACE = 5.0  # seconds past the hard limit before the watchdog kills
DEFAULT_STARTUP = 300.0  # extra seconds before a job's first report (cold numba compile)


# --------------------------------------------------------------------------- progress


_local = threading.local()  # .reporter: the active progress sink of this thread


def _no_progress(seat: int, ply: int, moves: Sequence[str]) -> None:
    """The progress hook outside any watched worker: does nothing."""


def report_progress(seat: int, ply: int, moves: Sequence[str]) -> None:
    """Tell the executor's watchdog that the game in this worker is alive.

    Call it before every move with the seat to move, the 1-based ply about to be
    played and the moves (notation strings) played so far. The moves are what a
    killed game's record will hold, so pass the full list each time; only the new
    tail is copied. A no-op when no executor is watching (tests, the CLI ``play``).
    """
    reporter = getattr(_local, "reporter", None)
    if reporter is not None:
        reporter(seat, ply, moves)


def progress_hook() -> Callable[[int, int, Sequence[str]], None]:
    """The current thread's progress sink, to call like :func:`report_progress`.

    Fetch it once per game and call it before every move to skip the thread-local
    look-up; it is a no-op function when no executor is watching.
    """
    return getattr(_local, "reporter", None) or _no_progress


# Heartbeat slots in a local worker's shared float64 array. A float64 holds every
# integer below 2**53 exactly, so one array serves for counts too.
_STAMP, _SEAT, _PLY, _REPORTS, _NBYTES, _NMOVES, _SERIAL, _OVERFLOW = range(8)
_BEAT_SLOTS = 8
_MOVES_BYTES = 1 << 18  # 256 KiB of move notation per worker: tens of thousands of moves
_SEP = "\n"


class _SharedProgress:
    """Progress sink of a local worker: writes into memory the parent can read.

    Writes are plain stores into shared memory (no lock, no system call): the
    parent only reads the timestamp while the worker lives, and reads the moves
    after it has killed the worker, when nothing can change any more. Moves are
    written before the counts that publish them.
    """

    __slots__ = ("beat", "buf", "sent", "used", "full")

    def __init__(self, beat: Any, buf: Any) -> None:
        self.beat = beat
        self.buf = buf
        self.sent = 0  # moves already in the buffer
        self.used = 0  # bytes already in the buffer
        self.full = False

    def begin(self, serial: int) -> None:
        beat = self.beat
        beat[_REPORTS] = 0
        beat[_NBYTES] = 0
        beat[_NMOVES] = 0
        beat[_OVERFLOW] = 0
        beat[_SEAT] = -1
        beat[_PLY] = 0
        beat[_STAMP] = time.monotonic()
        beat[_SERIAL] = serial
        self.sent = self.used = 0
        self.full = False

    def __call__(self, seat: int, ply: int, moves: Sequence[str]) -> None:
        beat = self.beat
        n = len(moves)
        if n < self.sent:  # a different (shorter) list: start the record again
            self.sent = self.used = 0
            self.full = False
            beat[_NMOVES] = 0
            beat[_NBYTES] = 0
            beat[_OVERFLOW] = 0
        if n > self.sent and not self.full:
            if n == self.sent + 1:  # the usual case: one new move
                text = str(moves[n - 1])
            else:
                text = _SEP.join(str(m) for m in moves[self.sent:n])
            data = ((_SEP if self.used else "") + text).encode("utf-8")
            end = self.used + len(data)
            if end <= len(self.buf):
                self.buf[self.used:end] = data
                self.used = end
                self.sent = n
                beat[_NBYTES] = end
                beat[_NMOVES] = n
            else:  # keep the replayable prefix, flag the rest as lost
                self.full = True
                beat[_OVERFLOW] = 1
        beat[_SEAT] = seat
        beat[_PLY] = ply
        beat[_REPORTS] = beat[_REPORTS] + 1
        beat[_STAMP] = time.monotonic()


def _read_moves(beat: Any, buf: Any) -> list[str]:
    nbytes = int(beat[_NBYTES])
    nmoves = int(beat[_NMOVES])
    if nbytes <= 0 or nmoves <= 0:
        return []
    moves = bytes(buf[:nbytes]).decode("utf-8", "replace").split(_SEP)
    return moves[:nmoves]


# --------------------------------------------------------------------------- outcomes


def killed_outcome(job: GameJob, seat: int, ply: int, moves: Sequence[str], message: str,
                   *, started: float = 0.0, host: str = "") -> GameOutcome:
    """The record of a game whose worker was killed at the hard limit.

    Termination is ``END_KILLED`` with one ``FAULT_HANG`` fault on ``seat`` at
    ``ply``; ``moves`` are those played before the hang (a replayable prefix).
    The game has no rules result, so every score is 0 and the ranks follow the
    runner's fault policy with all scores tied: the hung seat ranks last (rank =
    number of seats) and all other seats share rank 1. When the hung seat is not
    known (``seat`` outside the lineup, e.g. -1 when no progress was reported)
    nobody can be blamed and all seats share rank 1. Per-seat move times and counts
    were not measured and are left empty.
    """
    n = len(job.labels)
    known = 0 <= seat < n
    ranks = [n if s == seat else 1 for s in range(n)] if known else [1] * n
    finished = time.time()
    return GameOutcome.for_job(
        job,
        moves=[str(m) for m in moves],
        scores=[0.0] * n,
        ranks=ranks,
        plies=len(moves),
        termination=END_KILLED,
        faults=[Fault(seat=seat if known else -1, ply=int(ply), kind=FAULT_HANG, message=message)],
        started=started or finished,
        finished=finished,
        host=host,
    )


# --------------------------------------------------------------------------- errors


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


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    lines = text.splitlines()
    return lines[0][:300] if lines else type(exc).__name__


def _record_failure(failures: list[JobFailure], failure: JobFailure) -> None:
    failures.append(failure)
    log.error("game %s failed (not an agent fault, not recorded): %s\n%s",
              failure.key, failure.error, failure.details)


# --------------------------------------------------------------------------- interface


class Executor(ABC):
    """Runs games and yields their outcomes as they finish."""

    progress: bool = True

    @abstractmethod
    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        """Play every job with ``fn`` and yield each outcome once, in finishing order.

        ``fn`` must be a picklable top-level function. A tqdm bar on stderr shows
        games done/total, games/s and the ETA unless ``progress`` (default: the
        executor's ``progress``) is false. Raises :class:`GameExecutionError` after
        the last outcome if some games failed outside the agents' control.
        """

    def close(self) -> None:
        """Release workers and connections. Safe to call twice."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _bar(self, total: int, progress: bool | None) -> tqdm:
        show = self.progress if progress is None else progress
        return tqdm(total=total, unit="game", file=sys.stderr, disable=not show,
                    dynamic_ncols=True, smoothing=0.1)


def _note(bar: tqdm, killed: int, failed: int) -> None:
    if killed or failed:
        bar.set_postfix_str(f"killed={killed} failed={failed}", refresh=False)


class InlineExecutor(Executor):
    """Plays the games one after another in the calling process (``workers=0``).

    For debugging and profiling: no pickling, breakpoints work. The runner's own
    SIGALRM cut-off still interrupts Python-level hangs (in the main thread), but
    nothing can stop a hang in compiled code: there is no hard-limit guarantee.
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
                    _record_failure(failures, JobFailure(job.key, _one_line(exc), traceback.format_exc()))
                    _note(bar, 0, len(failures))
                    bar.update(1)
                    continue
                bar.update(1)
                yield outcome
        if failures:
            raise GameExecutionError(failures, len(jobs))


# --------------------------------------------------------------------------- factory


def make_executor(workers: int | None = None, scheduler: Any = None, *,
                  progress: bool = True, **options: Any) -> Executor:
    """The executor for the CLI's ``--workers`` / ``--scheduler`` options.

    ``scheduler`` (an address like ``tcp://host:8786``, or a ``distributed.Client``)
    selects :class:`DaskExecutor`, and ``workers`` is then ignored: the cluster's
    workers play the games. Otherwise ``workers`` local processes (``None``: one
    per core; ``0``: :class:`InlineExecutor`, in this process). Extra keyword
    ``options`` go to the executor (e.g. ``grace``).
    """
    from .dask_executor import DaskExecutor
    from .local_pool import LocalExecutor

    if scheduler is not None and scheduler != "":
        return DaskExecutor(scheduler, progress=progress, **options)
    if workers is None:
        return LocalExecutor(None, progress=progress, **options)
    if workers < 0:
        raise ForumlabError(f"--workers must be 0 (in this process) or more, not {workers}")
    if workers == 0:
        return InlineExecutor(progress=progress)
    return LocalExecutor(workers, progress=progress, **options)


def __getattr__(name: str) -> Any:
    """Lazy re-exports, so that callers need only this module.

    Lazy because local_pool and dask_executor import this module: a worker process
    that unpickles a function of local_pool imports it first.
    """
    if name in ("LocalExecutor", "default_workers"):
        from . import local_pool

        return getattr(local_pool, name)
    if name == "DaskExecutor":
        from .dask_executor import DaskExecutor

        return DaskExecutor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
