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

Progress, hangs and dead workers
--------------------------------
The game runner calls :func:`report_progress` before every move with the seat to
move, the 1-based ply, the moves played so far, the faults recorded so far and the
per-seat move times and counts (and with ply 0 before it creates each seat's agent).
Outside an executor's worker it does nothing. Inside a local worker it writes all
that into memory shared with the parent; plain stores, no lock, no system call: a
few microseconds per move.

A game is (config, seed, moves), so a worker that dies (a segfault, ``os._exit``)
or is killed costs the game nothing: the parent reads the last report, blames the
seat that was to move (or whose agent was being created), and hands a
*continuation* (:func:`continuation`: the same job with ``resume_moves``, the
faults so far plus the new one, and the move tallies) to a fresh worker, where the
runner re-creates the position and plays on, the blamed seat's moves made by the
random fallback. The new fault's kind says what happened: ``crash`` (the worker
died by a signal), ``exit`` (it exited) or ``kill`` (the watchdog killed it). Every
continuation blames a seat without a fault yet, so a game restarts at most once per
seat. When nobody can be blamed (no report yet, or the seat to move already plays
the fallback: an engine or runner bug) the game is an error, as below.

The watchdog: if a worker shows no progress for ``job.hard_limit + grace``
seconds, the parent SIGKILLs it and continues its game as above. The runner itself
interrupts Python-level hangs at the hard limit (SIGALRM) and records a ``hang``
fault without a restart; the watchdog is the backstop for what SIGALRM cannot
interrupt, e.g. a runaway numba loop holding the GIL or an agent that blocks
SIGALRM. Until a job's first move report (agent construction, cold numba
compilation, replaying a continuation's moves) the allowance is ``hard_limit +
grace + startup_timeout`` from the hand-out. A ``hard_limit`` of 0 (or less, or
infinity) switches the watchdog off for that job.

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
fault: the runner records those itself), a worker death or hang that no agent can
be blamed for, or a Dask task error loses only that game: nothing is yielded for
it, the error is logged at once with its traceback, the other games go on, and
after the last one :meth:`Executor.run` raises :class:`GameExecutionError` naming
every failed game. Since every yielded outcome is already committed by then,
``resume`` replays exactly the failed games after a fix.
"""
from __future__ import annotations

import logging
import sys
import threading
import time
import json
import traceback
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Iterator, Sequence

from tqdm import tqdm

from ..core.errors import ForumlabError, exception_line
from .jobs import Fault, GameJob, GameOutcome

__all__ = [
    "DaskExecutor",
    "Executor",
    "GameExecutionError",
    "InlineExecutor",
    "JobFailure",
    "LocalExecutor",
    "Snapshot",
    "continuation",
    "default_workers",
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


def _no_progress(seat: int, ply: int, moves: Sequence[str], faults: Sequence[Fault] = (),
                 seconds: Sequence[float] = (), counts: Sequence[int] = ()) -> None:
    """The progress hook outside any watched worker: does nothing."""


def report_progress(seat: int, ply: int, moves: Sequence[str], faults: Sequence[Fault] = (),
                    seconds: Sequence[float] = (), counts: Sequence[int] = ()) -> None:
    """Tell the executor that the game in this worker is alive, and where it is.

    Call it before every move with the seat to move, the 1-based ply about to be
    played and the moves (notation strings) played so far; optionally the faults
    recorded so far and the per-seat move seconds and agent move counts. Ply 0
    means "creating the agent of ``seat``". This is what a continuation is built
    from if the worker dies before the next report, so pass the full lists each
    time; only what changed is copied. A no-op when no executor is watching (tests,
    the CLI ``play``).
    """
    reporter = getattr(_local, "reporter", None)
    if reporter is not None:
        reporter(seat, ply, moves, faults, seconds, counts)


def progress_hook() -> Callable[..., None]:
    """The current thread's progress sink, to call like :func:`report_progress`.

    Fetch it once per game and call it before every move to skip the thread-local
    look-up; it is a no-op function when no executor is watching.
    """
    return getattr(_local, "reporter", None) or _no_progress


# Heartbeat slots in a local worker's shared float64 array. A float64 holds every
# integer below 2**53 exactly, so one array serves for counts too.
(_STAMP, _SEAT, _PLY, _REPORTS, _NBYTES, _NMOVES, _SERIAL, _OVERFLOW, _NFAULTS,
 _FBYTES) = range(10)
_MAX_SEATS = 32  # per-seat tallies kept for at most this many seats
_SECONDS = 10  # first slot of the per-seat move seconds
_COUNTS = _SECONDS + _MAX_SEATS  # first slot of the per-seat agent move counts
_BEAT_SLOTS = _COUNTS + _MAX_SEATS
_MOVES_BYTES = 1 << 18  # 256 KiB of move notation per worker: tens of thousands of moves
_FAULTS_BYTES = 1 << 16  # faults as JSON; a game has at most about one per seat
_SEP = "\n"


class _SharedProgress:
    """Progress sink of a local worker: writes into memory the parent can read.

    Writes are plain stores into shared memory (no lock, no system call): the
    parent only reads the timestamp and ply while the worker lives, and reads the
    rest after the worker has died or been killed, when nothing can change any
    more. Moves and faults are written before the counts that publish them.
    """

    __slots__ = ("beat", "buf", "fbuf", "sent", "used", "full", "nfaults")

    def __init__(self, beat: Any, buf: Any, fbuf: Any) -> None:
        self.beat = beat
        self.buf = buf
        self.fbuf = fbuf
        self.sent = 0  # moves already in the buffer
        self.used = 0  # bytes already in the buffer
        self.full = False
        self.nfaults = 0  # faults already in the fault buffer

    def begin(self, serial: int) -> None:
        beat = self.beat
        for slot in range(_BEAT_SLOTS):
            beat[slot] = 0
        beat[_SEAT] = -1
        beat[_STAMP] = time.monotonic()
        beat[_SERIAL] = serial
        self.sent = self.used = self.nfaults = 0
        self.full = False

    def __call__(self, seat: int, ply: int, moves: Sequence[str], faults: Sequence[Fault] = (),
                 seconds: Sequence[float] = (), counts: Sequence[int] = ()) -> None:
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
        if len(faults) != self.nfaults:  # rare: rewrite the whole list
            data = json.dumps([asdict(f) for f in faults]).encode("utf-8")
            if len(data) <= len(self.fbuf):
                self.fbuf[:len(data)] = data
                beat[_FBYTES] = len(data)
            else:
                beat[_FBYTES] = -1  # unknown: the parent will not continue this game
            self.nfaults = len(faults)
            beat[_NFAULTS] = self.nfaults
        for i, value in enumerate(seconds[:_MAX_SEATS]):
            beat[_SECONDS + i] = value
        for i, value in enumerate(counts[:_MAX_SEATS]):
            beat[_COUNTS + i] = value
        beat[_SEAT] = seat
        beat[_PLY] = ply
        beat[_REPORTS] = beat[_REPORTS] + 1
        beat[_STAMP] = time.monotonic()


@dataclass
class Snapshot:
    """A game's last progress report, as the executor knows it after the worker ended.

    ``seat`` is -1 when no report was made. ``complete`` is false when some moves or
    faults could not be recorded (the game then cannot be continued).
    """

    seat: int = -1
    ply: int = 0
    moves: list[str] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    complete: bool = True


def _read_snapshot(beat: Any, buf: Any, fbuf: Any, serial: int, players: int) -> Snapshot:
    """What a dead (or killed) local worker last reported about job ``serial``."""
    if int(beat[_SERIAL]) != serial or beat[_REPORTS] <= 0:
        return Snapshot()
    nbytes = int(beat[_NBYTES])
    nmoves = int(beat[_NMOVES])
    moves: list[str] = []
    if nbytes > 0 and nmoves > 0:
        moves = bytes(buf[:nbytes]).decode("utf-8", "replace").split(_SEP)[:nmoves]
    complete = not beat[_OVERFLOW]
    faults: list[Fault] = []
    fbytes = int(beat[_FBYTES])
    if fbytes > 0:
        faults = [Fault(**f) for f in json.loads(bytes(fbuf[:fbytes]).decode("utf-8"))]
    elif fbytes < 0 or beat[_NFAULTS] > 0:
        complete = False
    seats = min(players, _MAX_SEATS)
    seconds = [float(beat[_SECONDS + i]) for i in range(seats)]
    counts = [int(beat[_COUNTS + i]) for i in range(seats)]
    seat, ply = int(beat[_SEAT]), int(beat[_PLY])
    # The report is written moves first: if the worker died half-way through one,
    # the seat and ply may belong to the previous move.
    if ply != 0 and ply != len(moves) + 1:
        complete = False
    return Snapshot(seat, ply, moves, faults, seconds, counts, complete)


# --------------------------------------------------------------------------- continuations


def continuation(job: GameJob, last: Snapshot, kind: str, message: str) -> GameJob | None:
    """The job that plays on the game of ``job`` after its worker ended, or None.

    ``last`` is the game's last progress report and ``kind``/``message`` the fault
    to record against the seat that was to move (or whose agent was being
    created). None when no agent can be blamed: no report, an incomplete one, or a
    seat that already plays the fallback (then the runner or engine is at fault).
    Each continuation blames a new seat, so there are at most as many as seats.
    """
    players = len(job.labels)
    faults = last.faults or list(job.prior_faults)  # a runner's reports hold the prior ones
    if (not last.complete or not 0 <= last.seat < players
            or last.seat in {f.seat for f in faults} or job.restarts >= players):
        return None
    fault = Fault(last.seat, last.ply and len(last.moves) + 1, kind, message)
    if last.ply == 0:  # died creating an agent: nothing was played since the hand-out
        return replace(job, prior_faults=tuple(faults) + (fault,), restarts=job.restarts + 1)
    return replace(job, resume_moves=tuple(last.moves), prior_faults=tuple(faults) + (fault,),
                   prior_seconds=tuple(last.seconds), prior_counts=tuple(last.counts),
                   restarts=job.restarts + 1)


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


def _note(bar: tqdm, restarted: int, failed: int) -> None:
    if restarted or failed:
        bar.set_postfix_str(f"restarted={restarted} failed={failed}", refresh=False)


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
                    _record_failure(failures, JobFailure(job.key, exception_line(exc), traceback.format_exc()))
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
