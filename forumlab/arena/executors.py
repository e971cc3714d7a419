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
import math
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import socket
import sys
import threading
import time
import traceback
import uuid
from abc import ABC, abstractmethod
from collections import deque
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


# --------------------------------------------------------------------------- local pool


def default_workers() -> int:
    """Number of CPU cores this process may use."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        n = os.process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:
        n = os.cpu_count()
    return max(1, n or 1)


def _default_start_method() -> str:
    # forkserver: workers are forked from a small single-threaded server process
    # started once (by the exec of a fresh interpreter) and preloaded with forumlab
    # and the runner, so a worker (or the replacement of a killed one) starts in a
    # few milliseconds with numba already imported, as with 'fork', but without
    # forking a parent that has threads (tqdm's monitor, a Dask client, numba's
    # thread pool, SQLite), which can deadlock the child. It is Python 3.14's
    # default on Linux. 'spawn' where forkserver does not exist (Windows).
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def _die_with_parent() -> None:
    """Make sure a worker never outlives the tournament process."""
    # A forkserver child inherits the write end of the pipe by which the fork server
    # learns that its client (the tournament process) is gone. Holding it would keep
    # the server alive after a SIGKILL of the tournament, and with it (below) the
    # worker. Workers are daemonic and never use the fork server themselves.
    try:
        from multiprocessing import forkserver

        server = forkserver._forkserver  # type: ignore[attr-defined]
        if getattr(server, "_forkserver_alive_fd", None) is not None:
            os.close(server._forkserver_alive_fd)
            server._forkserver_alive_fd = None
    except (ImportError, AttributeError, OSError):
        pass
    if sys.platform.startswith("linux"):
        # Kernel-level: works even while a hung game holds the GIL. The 'parent' is
        # the fork server (or, under spawn, the tournament process itself), and the
        # fork server exits as soon as the tournament process is gone.
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()  # returns when the parent is gone (its sentinel closes)
        os._exit(1)

    threading.Thread(target=watch, name="forumlab-parent-watch", daemon=True).start()


def _worker_main(conn: multiprocessing.connection.Connection, beat: Any, buf: Any) -> None:
    """Loop of a local worker process: receive a job, play it, send the result."""
    # Ctrl-C reaches the whole process group; the parent decides what to do.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    reporter = _SharedProgress(beat, buf)
    _local.reporter = reporter
    fn_bytes: bytes | None = None
    fn: GameFn | None = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        serial, job_fn_bytes, job = message
        reporter.begin(serial)
        try:
            if job_fn_bytes != fn_bytes:
                fn, fn_bytes = pickle.loads(job_fn_bytes), job_fn_bytes
            reply: tuple = ("ok", serial, fn(job))  # type: ignore[misc]
        except BaseException as exc:  # noqa: BLE001 - report everything, keep serving
            reply = ("error", serial, _one_line(exc), traceback.format_exc())
        try:
            conn.send(reply)
        except (OSError, EOFError):
            return  # the parent is gone
        except Exception as exc:  # the outcome does not pickle
            conn.send(("error", serial, "outcome cannot be sent: " + _one_line(exc),
                       traceback.format_exc()))


@dataclass
class _Task:
    serial: int
    job: GameJob
    dispatched: float  # time.monotonic()
    started: float  # time.time()


class _Worker:
    """One worker process with its pipe and shared heartbeat memory."""

    def __init__(self, ctx: Any, index: int) -> None:
        self.beat = ctx.RawArray("d", _BEAT_SLOTS)
        self.buf = ctx.RawArray("c", _MOVES_BYTES)
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, self.beat, self.buf),
                                   name=f"forumlab-worker-{index}", daemon=True)
        self.process.start()
        child.close()
        self.task: _Task | None = None

    def ask_to_stop(self) -> None:
        """Tell an idle worker to exit after its current message."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the worker: wait ``timeout`` for it to exit, then terminate, then kill."""
        if self.process.is_alive() and timeout > 0:
            self.process.join(timeout)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(1.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(1.0)
        self.conn.close()

    def kill(self) -> None:
        """SIGKILL the worker and wait for it to be gone."""
        self.process.kill()
        self.process.join(5.0)


class LocalExecutor(Executor):
    """Games in ``workers`` local processes, with a watchdog against hung agents.

    Workers are started on the first :meth:`run` (no more than there are jobs)
    and kept for later runs until :meth:`close`. Each job goes to an idle worker
    over its own pipe, so the parent always knows which game every worker plays.
    ``workers=1`` still uses one worker process, to keep the hard-limit guarantee;
    use :class:`InlineExecutor` for in-process runs. See the module docstring for
    the watchdog (``grace``, ``startup_timeout``) and error handling.

    ``start_method`` defaults to 'forkserver' (see ``_default_start_method``).
    Workers are daemonic processes: ``fn`` may start subprocesses, but not
    ``multiprocessing`` children.
    """

    def __init__(self, workers: int | None = None, *, progress: bool = True,
                 grace: float = DEFAULT_GRACE, startup_timeout: float = DEFAULT_STARTUP,
                 start_method: str | None = None) -> None:
        if workers is None:
            workers = default_workers()
        if workers < 1:
            raise ForumlabError(f"a local process pool needs at least 1 worker, not {workers}")
        self.workers = int(workers)
        self.progress = progress
        self.grace = float(grace)
        self.startup_timeout = float(startup_timeout)
        self.start_method = start_method or _default_start_method()
        self._ctx = multiprocessing.get_context(self.start_method)
        self._pool: list[_Worker] = []
        self._serial = 0
        self._started = 0
        self._closed = False
        self._host = socket.gethostname()

    # -- pool management

    @property
    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (for diagnostics and tests)."""
        return [w.process.pid for w in self._pool if w.process.pid is not None]

    def _preload(self, fn: GameFn) -> None:
        if self.start_method != "forkserver":
            return
        # Imported once in the fork server, so every worker starts with them loaded.
        # Only effective before the server starts (the first pool of the process).
        # Not "__main__": a user's script without a main guard would run again there.
        modules = [__name__]
        module = getattr(fn, "__module__", None)
        if module and module != "__main__":
            modules.append(module)
        self._ctx.set_forkserver_preload(modules)

    def _spawn(self) -> _Worker:
        self._started += 1
        worker = _Worker(self._ctx, self._started)
        self._pool.append(worker)
        return worker

    def _discard(self, worker: _Worker) -> None:
        if worker in self._pool:
            self._pool.remove(worker)
        try:
            worker.conn.close()
        except OSError:
            pass

    def close(self) -> None:
        """Stop every worker (idle ones politely, busy ones by force)."""
        pool, self._pool = self._pool, []
        for worker in pool:
            if worker.task is None:
                worker.ask_to_stop()
        for worker in pool:
            worker.stop(timeout=2.0 if worker.task is None else 0)
        self._closed = True

    # -- the run loop

    def _deadline(self, worker: _Worker) -> tuple[float, bool]:
        """(monotonic time at which the worker's game counts as hung, reported yet?)"""
        task = worker.task
        assert task is not None
        limit = task.job.hard_limit
        if not limit or limit <= 0 or math.isinf(limit):
            return math.inf, False
        beat = worker.beat
        if int(beat[_SERIAL]) == task.serial and beat[_REPORTS] > 0:
            return max(beat[_STAMP], task.dispatched) + limit + self.grace, True
        return task.dispatched + limit + self.grace + self.startup_timeout, False

    def _receive(self, worker: _Worker, failures: list[JobFailure]) -> GameOutcome | None:
        """Read the reply of a busy worker whose pipe is readable; None if no outcome."""
        task = worker.task
        assert task is not None
        try:
            reply = worker.conn.recv()
        except (EOFError, OSError):
            return self._lost(worker, failures)
        except Exception as exc:  # the outcome does not unpickle here
            worker.task = None
            _record_failure(failures, JobFailure(task.job.key, "outcome cannot be received: "
                                                 + _one_line(exc), traceback.format_exc()))
            return None
        worker.task = None
        if reply[1] != task.serial:  # cannot happen: one job per worker at a time
            raise RuntimeError(f"worker answered job {reply[1]} while playing {task.serial}")
        if reply[0] == "ok":
            return reply[2]
        _record_failure(failures, JobFailure(task.job.key, reply[2], reply[3]))
        return None

    def _lost(self, worker: _Worker, failures: list[JobFailure]) -> None:
        """A busy worker died without answering (segfault, OOM killer, kill -9)."""
        task = worker.task
        assert task is not None
        worker.process.join(5.0)
        code = worker.process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        beat = worker.beat
        last = (f"last progress report: seat {int(beat[_SEAT])}, ply {int(beat[_PLY])}"
                if int(beat[_SERIAL]) == task.serial and beat[_REPORTS] > 0
                else "no progress report")
        _record_failure(failures, JobFailure(
            task.job.key, f"worker process died ({how}) while playing the game", last))
        worker.task = None
        self._discard(worker)
        return None

    def _kill(self, worker: _Worker, reported: bool) -> GameOutcome:
        """Kill the worker of a hung game and return the game's record."""
        task = worker.task
        assert task is not None
        stalled = time.monotonic() - (max(worker.beat[_STAMP], task.dispatched) if reported
                                      else task.dispatched)
        worker.kill()
        outcome = None
        # The game may have finished in the instant before the kill.
        try:
            if worker.conn.poll(0):
                reply = worker.conn.recv()
                if reply[0] == "ok" and reply[1] == task.serial:
                    outcome = reply[2]
        except (EOFError, OSError, pickle.UnpicklingError):
            pass
        if outcome is None:
            job = task.job
            beat = worker.beat
            moves = _read_moves(beat, worker.buf)
            if reported:
                seat, ply = int(beat[_SEAT]), int(beat[_PLY])
                message = (f"no progress for {stalled:.1f} s (hard limit {job.hard_limit:g} s "
                           f"+ grace {self.grace:g} s): worker killed")
            else:
                seat, ply = -1, 0
                message = (f"no progress report {stalled:.1f} s after the game was handed out "
                           f"(hard limit {job.hard_limit:g} s + grace {self.grace:g} s + start-up "
                           f"{self.startup_timeout:g} s): worker killed")
            if beat[_OVERFLOW]:
                message += f"; moves after the first {len(moves)} were not recorded"
            outcome = killed_outcome(job, seat, ply, moves, message, started=task.started,
                                     host=self._host)
            log.warning("game %s: %s", job.key, message)
        worker.task = None
        self._discard(worker)
        return outcome

    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        """See :meth:`Executor.run`. Starts workers on first use."""
        if self._closed:
            raise ForumlabError("this executor is closed")
        jobs = list(jobs)
        if not jobs:
            return
        try:
            fn_bytes = pickle.dumps(fn)
        except Exception as exc:
            raise ForumlabError(f"the game function cannot be sent to worker processes "
                                f"({_one_line(exc)}); pass a top-level function") from exc
        self._preload(fn)
        pending = deque(jobs)
        failures: list[JobFailure] = []
        killed = 0
        idle_deaths = 0
        finished = False
        bar = self._bar(len(jobs), progress)
        outcomes: list[GameOutcome] = []
        try:
            while True:
                # Keep the pool at size while there is work (replacing killed or dead
                # workers), then hand jobs to idle workers, before yielding the last
                # outcomes, so that workers play while the caller stores them.
                busy_count = sum(1 for w in self._pool if w.task is not None)
                while len(self._pool) < min(self.workers, busy_count + len(pending)):
                    self._spawn()
                for worker in list(self._pool):
                    if not pending:
                        break
                    if worker.task is not None:
                        continue
                    if not worker.process.is_alive():
                        idle_deaths += 1
                        self._discard(worker)
                        continue
                    job = pending.popleft()
                    self._serial += 1
                    worker.task = _Task(self._serial, job, time.monotonic(), time.time())
                    try:
                        worker.conn.send((self._serial, fn_bytes, job))
                    except (OSError, ValueError):
                        worker.task = None
                        pending.appendleft(job)
                        idle_deaths += 1
                        self._discard(worker)
                if idle_deaths > 2 * self.workers + 2:
                    raise ForumlabError("local worker processes keep dying before they get a game; "
                                        "see the log")
                for outcome in outcomes:
                    yield outcome
                outcomes = []
                busy = [w for w in self._pool if w.task is not None]
                if not busy:
                    if pending:
                        continue  # every idle worker had died: start new ones
                    break
                # Wait for a reply, a death, or the next watchdog deadline.
                wake = min(self._deadline(w)[0] for w in busy)
                timeout = min(max(wake - time.monotonic(), 0.0), 1.0)
                waitables: dict[Any, _Worker] = {}
                for w in busy:
                    waitables[w.conn] = w
                    waitables[w.process.sentinel] = w
                ready = multiprocessing.connection.wait(list(waitables), timeout)
                answered: set[int] = set()
                for obj in ready:
                    worker = waitables[obj]
                    if id(worker) in answered or worker.task is None:
                        continue
                    answered.add(id(worker))
                    if worker.conn.poll(0):
                        outcome = self._receive(worker, failures)
                    else:
                        outcome = self._lost(worker, failures)
                    bar.update(1)
                    if outcome is not None:
                        outcomes.append(outcome)
                now = time.monotonic()
                for worker in busy:
                    if worker.task is None or id(worker) in answered:
                        continue
                    deadline, reported = self._deadline(worker)
                    if now > deadline:
                        outcome = self._kill(worker, reported)
                        bar.update(1)
                        killed += outcome.termination == END_KILLED
                        outcomes.append(outcome)
                _note(bar, killed, len(failures))
            finished = True
        finally:
            bar.close()
            if not finished:
                # Interrupted (Ctrl-C, an error, or the caller stopped iterating):
                # nobody will collect the games in flight, so stop their workers.
                for worker in [w for w in self._pool if w.task is not None]:
                    worker.stop(timeout=0)
                    self._discard(worker)
        if failures:
            raise GameExecutionError(failures, len(jobs))


# --------------------------------------------------------------------------- Dask


_DASK_METRIC = "forumlab-games"
_dask_live: dict[str, "_DaskLive"] = {}
_dask_live_lock = threading.Lock()


class _DaskLive:
    """Progress sink of one game running in a Dask worker thread."""

    __slots__ = ("seq", "seat", "ply", "moves", "stamp")

    def __init__(self) -> None:
        self.seq = 0
        self.seat = -1
        self.ply = 0
        self.moves: Sequence[str] = ()
        self.stamp = time.monotonic()

    def __call__(self, seat: int, ply: int, moves: Sequence[str]) -> None:
        self.seat = seat
        self.ply = ply
        self.moves = moves  # a reference; copied only when a heartbeat reads it
        self.seq += 1
        self.stamp = time.monotonic()


def _dask_metric(worker: Any = None) -> dict[str, dict[str, Any]]:
    """Worker metric: the progress of every game this worker process is playing.

    Dask sends it to the scheduler with each worker heartbeat (every 0.5 s or so on
    small clusters), where the client's watchdog reads it. ``age`` is measured by
    the worker itself (seconds since the last report, or since the start), so no
    clocks need to agree. A worker whose event loop is blocked (a hung game holding
    the GIL) stops heartbeating, and its games' values freeze.
    """
    with _dask_live_lock:
        games = list(_dask_live.items())
    now = time.monotonic()
    return {task_id: {"seq": live.seq, "seat": live.seat, "ply": live.ply,
                      "age": now - live.stamp, "moves": [str(m) for m in list(live.moves)]}
            for task_id, live in games}


def _dask_game(fn: GameFn, job: GameJob, task_id: str) -> GameOutcome:
    """Task body on a Dask worker: play ``job`` with ``fn`` while publishing progress."""
    worker = None
    try:
        from distributed import get_worker

        worker = get_worker()
        if _DASK_METRIC not in worker.metrics:
            worker.metrics[_DASK_METRIC] = _dask_metric
    except (ImportError, ValueError, AttributeError):
        pass  # not on a worker, or an old distributed: no progress watchdog
    live = _DaskLive()
    with _dask_live_lock:
        _dask_live[task_id] = live
    if worker is not None:
        # One heartbeat now, so that the scheduler knows this game has started even
        # if it wedges the worker (holds the GIL) before the next regular heartbeat.
        try:
            from distributed.utils import sync

            sync(worker.loop, worker.heartbeat, callback_timeout=10)
        except Exception as exc:  # noqa: BLE001 - the periodic heartbeats will do
            log.debug("forced heartbeat failed: %r", exc)
    previous = getattr(_local, "reporter", None)
    _local.reporter = live
    try:
        return fn(job)
    finally:
        _local.reporter = previous
        with _dask_live_lock:
            _dask_live.pop(task_id, None)


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise ForumlabError("running on a Dask cluster needs the 'distributed' package: "
                            "pip install 'forumlab[cluster]'") from exc
    return distributed


@dataclass
class _Seen:
    """What the client last learnt about a game running on the cluster."""

    worker: str
    seq: int
    since: float  # client time.monotonic() when this seq was first seen
    age: float  # worker-measured seconds since the report, as of its last heartbeat
    seat: int
    ply: int
    moves: list[str]


class DaskExecutor(Executor):
    """Games as tasks on a Dask distributed cluster.

    ``scheduler`` is an address such as ``tcp://host:8786`` (this executor then
    owns the client and closes it) or an existing ``distributed.Client``. Every
    worker must have forumlab (and the runner's module) installed. Each game is
    one task (``pure=False``); outcomes are yielded with ``as_completed``.

    Hard limit on Dask, what is and is not guaranteed:

    * A game's progress reports travel to the scheduler as a worker metric with
      Dask's worker heartbeats (plus one heartbeat forced when the game starts); the
      client polls the scheduler every ``poll_interval`` seconds. A game with no new
      report for ``hard_limit + grace`` seconds (plus ``startup_timeout`` before its
      first report), by the worker's clock or, if the worker stops heartbeating, by
      the client's, is cancelled and recorded by :func:`killed_outcome`. So the
      tournament never waits on a hung game much longer than that (plus
      ``poll_interval`` and a heartbeat interval).
    * Blame: if the worker's last heartbeat shows the game stuck on one move for
      longer than the hard limit, that seat (with its ply and the exact moves) is
      recorded as hung. That is always so for hangs in Python code, because the
      worker keeps heartbeating. A hang in compiled code that holds the GIL freezes
      the whole worker, and if its last heartbeat came before the move had run past
      the hard limit, the record cannot tell which seat hung: seat -1, all seats
      tied, and the moves known at that heartbeat (a replayable prefix).
    * Dask cannot stop a running thread, so with ``restart_hung_workers`` (the
      default) the worker process is restarted through its nanny (in the
      background), which also frees a worker wedged by compiled code. Other games
      running there are rescheduled and replayed from the start (games are
      deterministic). Without a nanny the hung thread keeps its slot.
    * A GIL-holding hang freezes every game on its worker, so with several threads
      per worker the innocent games there are recorded as killed too. Use one thread
      per worker (``dask worker --nthreads 1 --nworkers N``) when agents may hang
      in compiled code.
    * The runner's SIGALRM cut-off for Python-level hangs only works in a main
      thread, and Dask runs tasks in worker threads: on Dask a hang always costs
      the game (recorded as killed) instead of a fault with the game played on.
    * Needs ``Worker.metrics`` (distributed >= 2022); without it no game is ever
      considered hung. If the heartbeat forced at a game's start fails and the game
      wedges its worker before the next regular one, the client never sees it start;
      Dask's own ``worker-ttl`` (default 5 minutes) then removes the worker and
      retries the game, and after ``allowed-failures`` retries it is reported as a
      failed game (:class:`GameExecutionError`), not a killed one.
    * Results are fetched on the client's event loop, so a finished game whose
      result sits on a worker that then wedges never blocks the loop; the restart
      makes Dask recompute it.
    """

    def __init__(self, scheduler: Any, *, progress: bool = True, grace: float = DEFAULT_GRACE,
                 startup_timeout: float = DEFAULT_STARTUP, poll_interval: float = 1.0,
                 restart_hung_workers: bool = True, connect_timeout: float = 30.0) -> None:
        distributed = _import_distributed()
        self.progress = progress
        self.grace = float(grace)
        self.startup_timeout = float(startup_timeout)
        self.poll_interval = float(poll_interval)
        self.restart_hung_workers = restart_hung_workers
        self._distributed = distributed
        self._restarts: list[threading.Thread] = []
        self._beats: dict[str, tuple[Any, float]] = {}  # worker: (last_seen, when it changed)
        if isinstance(scheduler, distributed.Client):
            self.client = scheduler
            self._owns_client = False
        else:
            address = str(scheduler)
            try:
                self.client = distributed.Client(address, timeout=connect_timeout,
                                                 set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise ForumlabError(f"cannot connect to the Dask scheduler at {address}: "
                                    f"{_one_line(exc)}") from exc
            self._owns_client = True

    def close(self) -> None:
        """Wait for worker restarts in progress; close the client if this executor opened it."""
        for thread in self._restarts:
            thread.join(60)
        self._restarts = []
        if self._owns_client:
            self.client.close()
        self._owns_client = False

    def _workers_info(self) -> dict[str, Any]:
        try:
            info = self.client.scheduler_info(n_workers=-1)
        except TypeError:  # distributed without n_workers: all workers anyway
            info = self.client.scheduler_info()
        return info.get("workers", {})

    def _restart(self, address: str) -> None:
        """Restart a worker through its nanny, in the background."""
        if not self.restart_hung_workers:
            return

        def restart() -> None:
            try:
                self.client.restart_workers([address], raise_for_error=False)
            except Exception as exc:  # no nanny, an old distributed, a closed client
                log.warning("cannot restart Dask worker %s after a hung game (%s); its thread "
                            "stays busy until the worker is restarted", address, _one_line(exc))

        self._restarts = [t for t in self._restarts if t.is_alive()]
        thread = threading.Thread(target=restart, name="forumlab-dask-restart", daemon=True)
        thread.start()
        self._restarts.append(thread)

    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        """See :meth:`Executor.run`; the hard-limit guarantee is in the class docstring."""
        jobs = list(jobs)
        if not jobs:
            return
        token = uuid.uuid4().hex[:12]
        ids = [f"{token}/{job.key}" for job in jobs]
        job_of = dict(zip(ids, jobs))
        futures = self.client.map(_dask_game, [fn] * len(jobs), jobs, ids, pure=False,
                                  key=[f"forumlab-game-{i}" for i in ids])
        # Only open games keep their future: a finished game's result must not stay
        # pinned in worker memory (a worker restart would recompute it).
        future_of = dict(zip(ids, futures))
        id_of = {f.key: i for f, i in zip(futures, ids)}
        # with_results: results are fetched on the client's event loop, so fetching one
        # from a wedged worker never blocks this loop (and its watchdog).
        done = self._distributed.as_completed(futures, loop=self.client.loop,
                                              with_results=True, raise_errors=False)
        del futures
        seen: dict[str, _Seen] = {}
        failures: list[JobFailure] = []
        killed = 0
        finished = False
        next_watch = time.monotonic() + self.poll_interval
        bar = self._bar(len(jobs), progress)
        try:
            while future_of:
                batch = done.next_batch(block=False)
                outcomes: list[GameOutcome] = []
                for future, result in batch:
                    task_id = id_of.pop(future.key, None)
                    if task_id is None or future_of.pop(task_id, None) is None:
                        continue  # already recorded as killed
                    seen.pop(task_id, None)
                    bar.update(1)
                    outcome = self._collect(future, result, job_of[task_id], failures)
                    if outcome is not None:
                        outcomes.append(outcome)
                now = time.monotonic()
                if now >= next_watch:
                    next_watch = now + self.poll_interval
                    if done.count() < len(future_of):
                        # as_completed lost track of some (a failed fetch): track again.
                        done.update([f for f in future_of.values() if f.done()])
                    for task_id in self._hung(future_of, job_of, seen, now):
                        if future_of[task_id].done():
                            continue  # finished meanwhile; a later batch has it
                        future = future_of.pop(task_id)
                        last = seen.pop(task_id)
                        self.client.cancel([future], force=True)
                        outcomes.append(self._killed(job_of[task_id], last, now))
                        killed += 1
                        bar.update(1)
                        self._restart(last.worker)
                _note(bar, killed, len(failures))
                for outcome in outcomes:
                    yield outcome
                if not batch and future_of:
                    time.sleep(0.02)
            finished = True
        finally:
            bar.close()
            if not finished and future_of:
                # Interrupted: stop the cluster from playing games nobody will collect.
                self.client.cancel(list(future_of.values()), force=True)
            done.clear()
        if failures:
            raise GameExecutionError(failures, len(jobs))

    @staticmethod
    def _collect(future: Any, result: Any, job: GameJob,
                 failures: list[JobFailure]) -> GameOutcome | None:
        """The outcome of a completed future, or None after recording its failure."""
        if future.status == "finished" and not isinstance(result, BaseException):
            return result
        if future.status == "error" and isinstance(result, tuple) and len(result) == 3:
            _, exc, tb = result
            error = _one_line(exc)
            details = "".join(traceback.format_exception(type(exc), exc, tb))
        elif isinstance(result, BaseException):
            error = f"task {future.status} on the cluster: {_one_line(result)}"
            details = ""
        else:
            error, details = f"task {future.status} on the cluster", ""
        _record_failure(failures, JobFailure(job.key, error, details))
        return None

    def _hard(self, job: GameJob) -> float:
        limit = job.hard_limit
        if not limit or limit <= 0 or math.isinf(limit):
            return math.inf
        return limit + self.grace

    def _hung(self, future_of: dict[str, Any], job_of: dict[str, GameJob],
              seen: dict[str, _Seen], now: float) -> list[str]:
        """Update what the workers report and list the open games past their limit.

        A game is hung when its worker, still heartbeating, says it has not reported
        for ``hard_limit + grace`` (+ ``startup_timeout`` before the first report),
        or when its worker has stopped heartbeating for ``hard_limit + grace``: a
        worker stops only when something holds the GIL, which slow start-up work
        (numba compiling through llvmlite) does not do, so no start-up allowance then.
        """
        try:
            workers = self._workers_info()
        except Exception as exc:  # the scheduler is busy or gone: try again later
            log.debug("scheduler_info failed: %s", exc)
            workers = {}
        for address, info in workers.items():
            beat = info.get("last_seen", info.get("last-seen"))
            known = self._beats.get(address)
            if known is None or known[0] != beat:
                self._beats[address] = (beat, now)
            games = (info.get("metrics") or {}).get(_DASK_METRIC) or {}
            for task_id, game in games.items():
                if task_id not in future_of:
                    continue
                last = seen.get(task_id)
                if last is None or last.worker != address or last.seq != game["seq"]:
                    since = now - (game["age"] if last is None else 0.0)
                    seen[task_id] = _Seen(address, game["seq"], since, game["age"],
                                          game["seat"], game["ply"], list(game["moves"]))
                else:
                    last.age = max(last.age, game["age"])
        hung = []
        for task_id, last in seen.items():
            hard = self._hard(job_of[task_id])
            allowance = hard + (0.0 if last.seq else self.startup_timeout)
            silent = now - max(self._beats.get(last.worker, (None, last.since))[1], last.since)
            if last.age > allowance or silent > hard:
                hung.append(task_id)
        return hung

    def _killed(self, job: GameJob, last: _Seen, now: float) -> GameOutcome:
        stalled = max(last.age, now - last.since)
        allowance = f"hard limit {job.hard_limit:g} s + grace {self.grace:g} s"
        if last.seq and last.age > job.hard_limit:
            seat, ply = last.seat, last.ply
            message = (f"no progress for {stalled:.1f} s ({allowance}) on Dask worker "
                       f"{last.worker}: task cancelled")
        else:
            seat, ply = -1, last.ply
            message = (f"Dask worker {last.worker} stopped heartbeating for longer than the "
                       f"{allowance} during the game (a hang holding the GIL?), too soon after "
                       "its last report to tell which seat hung: task cancelled")
        log.warning("game %s: %s", job.key, message)
        return killed_outcome(job, seat, ply, last.moves, message,
                              started=time.time() - stalled, host=last.worker)


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
    if scheduler is not None and scheduler != "":
        return DaskExecutor(scheduler, progress=progress, **options)
    if workers is None:
        return LocalExecutor(None, progress=progress, **options)
    if workers < 0:
        raise ForumlabError(f"--workers must be 0 (in this process) or more, not {workers}")
    if workers == 0:
        return InlineExecutor(progress=progress)
    return LocalExecutor(workers, progress=progress, **options)
