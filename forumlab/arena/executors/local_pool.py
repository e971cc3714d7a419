"""The local process-pool executor with a hard-limit watchdog (see forumlab.arena.executors)."""
from __future__ import annotations

import contextlib
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
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import ForumlabError, exception_line
from ..jobs import FAULT_CRASH, FAULT_EXIT, FAULT_KILL, GameJob, GameOutcome, games_per_batch
from ..progress import set_reporter
from .base import (
    DEFAULT_GRACE,
    DEFAULT_STARTUP,
    Executor,
    GameExecutionError,
    GameFn,
    JobFailure,
    log,
    note_counts,
    record_failure,
)
from .continuation import continuation
from .heartbeat import (
    BEAT_SLOTS,
    FAULTS_BYTES,
    MOVES_BYTES,
    PLY,
    REPORTS,
    SERIAL,
    STAMP,
    SharedProgress,
    read_snapshot,
)

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


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT in this process for the duration (see
    :func:`_start_born_ignoring_sigint`). A Ctrl-C pressed in those few
    milliseconds is lost: blocking it instead would not help, as any other thread
    (tqdm's monitor, BLAS pools) takes a process-directed signal and drops it.
    ``signal.signal`` works only in the main thread; elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _start_born_ignoring_sigint(process: Any, start_method: str) -> None:
    """Start a worker process that ignores SIGINT from its first instruction.

    Ctrl-C reaches the whole process group. A worker ignores SIGINT once its own
    code runs, but it first spends a while starting up (a new fork server even
    imports modules first), and a Ctrl-C in that window printed tracebacks from the
    children. An ignored signal stays ignored through fork and exec, and Python
    then installs no KeyboardInterrupt handler; the fork server hands the
    disposition it was born with on to every worker it forks, so under
    'forkserver' only its own start needs the window.
    """
    if start_method != "fork" and os.name == "posix":
        # Outside the window, which it need not be in: the tracker protects
        # itself from Ctrl-C (it is born with SIGINT blocked).
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    if start_method == "forkserver":
        from multiprocessing import forkserver

        # Only a new server needs the window (a Ctrl-C in it is lost).
        server = getattr(forkserver, "_forkserver", None)
        if getattr(server, "_forkserver_pid", None) is None:
            with _sigint_ignored():
                forkserver.ensure_running()
        process.start()
    else:
        with _sigint_ignored():
            process.start()


# A worker playing a batch sends what it has finished at least this often (seconds), so
# that games are recorded while the batch goes on and a death loses little work.
FLUSH_SECONDS = 0.1
# The outcomes received are handed over (and so committed) together, at most this long
# after the first of them came: a commit costs milliseconds of fsync, so committing every
# message of every worker at once would cap cheap games at a few hundred per second. A
# kill loses the games in flight and those received in the last HOLD_SECONDS.
HOLD_SECONDS = 0.25


def _worker_main(conn: multiprocessing.connection.Connection, beat: Any, buf: Any,
                 fbuf: Any) -> None:
    """Loop of a local worker process: receive a batch of jobs, play them one by one,
    send their results (the finished ones at least every FLUSH_SECONDS)."""
    # Ctrl-C reaches the whole process group; the parent decides what to do.
    # (Usually ignored since birth: see _start_born_ignoring_sigint.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    reporter = SharedProgress(beat, buf, fbuf)
    set_reporter(reporter)
    fn_bytes: bytes | None = None
    fn: GameFn | None = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        first, job_fn_bytes, jobs = message
        try:
            if job_fn_bytes != fn_bytes:
                fn, fn_bytes = pickle.loads(job_fn_bytes), job_fn_bytes
        except BaseException as exc:  # noqa: BLE001 - report everything, keep serving
            fn = None
            failed = ("error", exception_line(exc), traceback.format_exc())
        if not _play_batch(conn, reporter, fn, first, jobs, None if fn else failed):
            return  # the parent is gone


def _play_batch(conn: Any, reporter: SharedProgress, fn: GameFn | None, first: int,
                jobs: list[GameJob], failed: tuple | None) -> bool:
    """Play ``jobs`` (serials ``first``, ``first + 1``, ...) and send every result as
    ``(serial, "ok", outcome)`` or ``(serial, "error", line, traceback)``, in messages
    ``(results, last)``; False when the parent is gone."""
    results: list[tuple] = []
    sent = time.monotonic()
    for i, job in enumerate(jobs):
        serial = first + i
        reporter.begin(serial)
        if failed is not None:  # the game function itself could not be loaded
            results.append((serial, *failed))
        else:
            try:
                results.append((serial, "ok", fn(job)))  # type: ignore[misc]
            except BaseException as exc:  # noqa: BLE001 - report everything, keep serving
                results.append((serial, "error", exception_line(exc), traceback.format_exc()))
        last = i == len(jobs) - 1
        if last or time.monotonic() - sent >= FLUSH_SECONDS:
            if not _send(conn, results, last):
                return False
            results, sent = [], time.monotonic()
    return True


def _send(conn: Any, results: list[tuple], last: bool) -> bool:
    """Send finished results; an outcome that does not pickle is sent as an error."""
    try:
        conn.send((results, last))
        return True
    except (OSError, EOFError):
        return False
    except Exception:  # some outcome does not pickle: send the rest, and errors for those
        safe = []
        for result in results:
            try:
                pickle.dumps(result)
                safe.append(result)
            except Exception as exc:
                safe.append((result[0], "error", "outcome cannot be sent: " + exception_line(exc),
                             traceback.format_exc()))
        try:
            conn.send((safe, last))
            return True
        except (OSError, EOFError):
            return False


@dataclass
class _Task:
    """A batch of jobs handed to one worker: serials ``first``, ``first + 1``, ..."""

    first: int
    jobs: list[GameJob]
    dispatched: float  # time.monotonic()
    started: float  # time.time()
    done: set[int] = field(default_factory=set)  # indices whose result has arrived

    def index(self, serial: int) -> int | None:
        """The index in the batch of the job with ``serial``, or None."""
        i = serial - self.first
        return i if 0 <= i < len(self.jobs) else None

    def unfinished(self) -> list[int]:
        """Indices of the jobs whose result has not arrived."""
        return [i for i in range(len(self.jobs)) if i not in self.done]


@dataclass
class _RunState:
    """What one call of :meth:`LocalExecutor.run` carries from one step to the next."""

    fn_bytes: bytes  # the pickled game function, sent with every batch
    pending: deque[GameJob]  # jobs and continuations not handed out yet; continuations first
    bar: Any  # the progress bar
    workers: int  # the pool's size (batches are sized so that every worker gets several)
    failures: list[JobFailure] = field(default_factory=list)
    outcomes: list[GameOutcome] = field(default_factory=list)  # received, not yet yielded
    first_started: dict[str, float] = field(default_factory=dict)  # key: first handed out at
    restarted: int = 0  # games continued in a fresh worker
    idle_deaths: int = 0  # workers found dead while idle
    held_since: float = 0.0  # time.monotonic() when the first outcome not handed over came

    def held_long_enough(self) -> bool:
        """Whether the outcomes received are due to be handed over (and committed)."""
        return time.monotonic() >= self.hand_over_at()

    def hand_over_at(self) -> float:
        """When the outcomes received are due: HOLD_SECONDS after the first of them."""
        return self.held_since + HOLD_SECONDS if self.outcomes else math.inf

    def settle(self, result: GameOutcome | GameJob | None) -> None:
        """Take what a finished worker left: a continuation plays next (the same game
        again, so the bar does not move), an outcome waits to be yielded, and None (a
        failure, already recorded) only counts as done."""
        if isinstance(result, GameJob):
            self.pending.appendleft(result)
            self.restarted += 1
            return
        self.bar.update(1)
        if result is not None:
            if not self.outcomes:
                self.held_since = time.monotonic()
            self.outcomes.append(result)

    def next_batch(self) -> list[GameJob]:
        """Take the next jobs to hand to one worker (see :func:`games_per_batch`): as many
        consecutive batchable pending jobs as the first one's lineup allows, and no more
        than a quarter of each worker's share of what is pending."""
        job = self.pending.popleft()
        share = -(-(len(self.pending) + 1) // (4 * self.workers))
        size = min(games_per_batch(job), share)
        batch = [job]
        while len(batch) < size and self.pending and games_per_batch(self.pending[0]) > 1:
            batch.append(self.pending.popleft())
        return batch


class _Worker:
    """One worker process with its pipe and shared heartbeat memory."""

    def __init__(self, ctx: Any, index: int) -> None:
        self.beat = ctx.RawArray("d", BEAT_SLOTS)
        self.buf = ctx.RawArray("c", MOVES_BYTES)
        self.fbuf = ctx.RawArray("c", FAULTS_BYTES)
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main,
                                   args=(child, self.beat, self.buf, self.fbuf),
                                   name=f"forumlab-worker-{index}", daemon=True)
        _start_born_ignoring_sigint(self.process, ctx.get_start_method())
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
    and kept for later runs until :meth:`close`. Each batch of jobs (one job unless
    the games are cheap: :meth:`_RunState.next_batch`) goes to an idle worker over its
    own pipe, and the heartbeat names the game in play, so the parent always knows which
    game every worker plays.
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
        beat = worker.beat
        index = task.index(int(beat[SERIAL]))
        # The game in play: the one the heartbeat names, else the batch's first unfinished.
        current = index if index is not None else task.unfinished()[0]
        limit = task.jobs[current].hard_limit
        if not limit or limit <= 0 or math.isinf(limit):
            return math.inf, False
        # Each game of a batch is timed from its own start (the heartbeat's stamp, set
        # when the worker begins it). Ply 0 reports come while agents are created:
        # still the start-up allowance.
        since = max(beat[STAMP], task.dispatched) if index is not None else task.dispatched
        if index is not None and beat[REPORTS] > 0 and beat[PLY] > 0:
            return since + limit + self.grace, True
        return since + limit + self.grace + self.startup_timeout, False

    def _take_replies(self, worker: _Worker, state: _RunState) -> bool:
        """Read every message the busy worker has sent and settle its results; the worker
        is idle again once its batch's last result is in. False if the pipe is closed."""
        task = worker.task
        assert task is not None
        while worker.task is not None and worker.conn.poll(0):
            try:
                results, last = worker.conn.recv()
            except (EOFError, OSError):
                return False  # the death is handled by the caller
            except Exception as exc:  # a message that does not unpickle here
                self._fail_rest(worker, state, "outcome cannot be received: " + exception_line(exc),
                                traceback.format_exc())
                return True
            for serial, kind, *payload in results:
                index = task.index(serial)
                if index is None:  # cannot happen: one batch per worker at a time
                    raise RuntimeError(f"worker answered job {serial} while playing "
                                       f"{task.first}..{task.first + len(task.jobs) - 1}")
                task.done.add(index)
                if kind == "ok":
                    state.settle(payload[0])
                else:
                    record_failure(state.failures, JobFailure(task.jobs[index].key, *payload))
                    state.settle(None)
            if last:
                worker.task = None
        return True

    def _fail_rest(self, worker: _Worker, state: _RunState, error: str, details: str) -> None:
        """Record every unfinished game of the worker's batch as failed; stop the worker
        (its pipe can no longer be trusted)."""
        task = worker.task
        assert task is not None
        for index in task.unfinished():
            record_failure(state.failures, JobFailure(task.jobs[index].key, error, details))
            state.settle(None)
        worker.task = None
        worker.stop(timeout=0)
        self._discard(worker)

    def _lost(self, worker: _Worker, state: _RunState) -> None:
        """A busy worker died: settle what it sent, continue the game it was playing, if
        any, and hand its batch's other unfinished games out again."""
        self._take_replies(worker, state)
        if worker.task is None:  # it finished its batch before it died
            self._discard(worker)
            return
        worker.process.join(5.0)
        code = worker.process.exitcode
        if code is not None and code < 0:
            kind, how = FAULT_CRASH, f"killed by signal {-code}"
            try:
                how += f" ({signal.Signals(-code).name})"
            except ValueError:
                pass
        else:
            kind, how = FAULT_EXIT, f"exit code {code}"
        self._continue(worker, kind, f"worker process died ({how})", state)

    def _kill(self, worker: _Worker, reported: bool, state: _RunState) -> None:
        """Kill the worker of a hung game: settle what it sent (the game may have finished
        in the instant before the kill), continue the hung game, if any, and hand the
        batch's other unfinished games out again."""
        task = worker.task
        assert task is not None
        stalled = time.monotonic() - (max(worker.beat[STAMP], task.dispatched) if reported
                                      else task.dispatched)
        worker.kill()
        try:
            self._take_replies(worker, state)
        except (EOFError, OSError, pickle.UnpicklingError):
            pass
        if worker.task is None:
            self._discard(worker)
            return
        job = task.jobs[task.unfinished()[0]]
        if reported:
            message = (f"no progress for {stalled:.1f} s (hard limit {job.hard_limit:g} s "
                       f"+ grace {self.grace:g} s): worker killed")
        else:
            message = (f"no move {stalled:.1f} s after the game was handed out (hard limit "
                       f"{job.hard_limit:g} s + grace {self.grace:g} s + start-up "
                       f"{self.startup_timeout:g} s): worker killed")
        self._continue(worker, FAULT_KILL, message, state)

    def _continue(self, worker: _Worker, kind: str, message: str, state: _RunState) -> None:
        """Settle the batch of a worker that is gone: the game it was playing continues
        (or fails when no agent can be blamed), its other unfinished games are handed
        out again as they were (a game depends only on its seed and lineup)."""
        task = worker.task
        assert task is not None
        serial = int(worker.beat[SERIAL])
        index = task.index(serial)
        unfinished = task.unfinished()
        worker.task = None
        self._discard(worker)
        if index is not None and index not in unfinished:
            # It died between two games, the last one sent: no game was in play, so
            # every unfinished game is handed out again as it was.
            state.pending.extendleft(task.jobs[i] for i in reversed(unfinished))
            log.warning("a worker %s between two games; handing %d games out again", message,
                        len(unfinished))
            return
        if index is None:  # died before its first game began
            index, serial = unfinished[0], task.first + unfinished[0]
        job = task.jobs[index]
        last = read_snapshot(worker.beat, worker.buf, worker.fbuf, serial, len(job.labels))
        for other in reversed(unfinished):
            if other != index:
                state.pending.appendleft(task.jobs[other])
        state.first_started.setdefault(job.key, task.started)
        follow = continuation(job, last, kind, message)
        where = (f"seat {last.seat}, ply {last.ply}" if last.seat >= 0 else "no progress report")
        if follow is None:
            record_failure(state.failures, JobFailure(
                job.key, f"{message} while playing the game, and no agent can be blamed",
                f"last progress report: {where}"
                + ("" if last.complete else " (incomplete: moves or faults were not recorded)")))
            state.settle(None)
            return
        log.warning("game %s: %s at %s (%s); playing on in a fresh worker", job.key, message,
                    where, kind)
        state.settle(follow)

    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        """See :meth:`Executor.run`. Starts workers on first use."""
        for outcomes in self.run_batches(jobs, fn, progress=progress):
            yield from outcomes

    def run_batches(self, jobs: Sequence[GameJob], fn: GameFn, *,
                    progress: bool | None = None) -> Iterator[list[GameOutcome]]:
        """See :meth:`Executor.run_batches`: the outcomes received in one pass of the
        loop, together. Starts workers on first use."""
        if self._closed:
            raise ForumlabError("this executor is closed")
        jobs = list(jobs)
        if not jobs:
            return
        try:
            fn_bytes = pickle.dumps(fn)
        except Exception as exc:
            raise ForumlabError(f"the game function cannot be sent to worker processes "
                                f"({exception_line(exc)}); pass a top-level function") from exc
        self._preload(fn)
        state = _RunState(fn_bytes, deque(jobs), self._bar(len(jobs), progress), self.workers)
        finished = False
        try:
            while True:
                # Keep the pool at size while there is work (replacing killed or dead
                # workers), then hand jobs to idle workers, before yielding the last
                # outcomes, so that workers play while the caller stores them.
                self._fill_pool(state)
                self._dispatch(state)
                busy = [w for w in self._pool if w.task is not None]
                if state.outcomes and (not busy or state.held_long_enough()):
                    yield self._hand_over_outcomes(state)
                if not busy:
                    if state.pending:
                        continue  # every idle worker had died: start new ones
                    break
                answered = self._collect_replies(busy, state)
                self._kill_overdue(busy, answered, state)
                note_counts(state.bar, state.restarted, len(state.failures))
            finished = True
        finally:
            state.bar.close()
            if not finished:
                # Interrupted (Ctrl-C, an error, or the caller stopped iterating):
                # nobody will collect the games in flight, so stop their workers.
                self._stop_games_in_flight()
        if state.failures:
            raise GameExecutionError(state.failures, len(jobs))

    # -- the steps of one pass of the run loop

    def _fill_pool(self, state: _RunState) -> None:
        """Start workers until there is one per game in play or pending (at most ``workers``)."""
        busy_count = sum(1 for w in self._pool if w.task is not None)
        while len(self._pool) < min(self.workers, busy_count + len(state.pending)):
            self._spawn()

    def _dispatch(self, state: _RunState) -> None:
        """Hand batches of pending jobs to idle workers, discarding idle workers found dead."""
        for worker in list(self._pool):
            if not state.pending:
                break
            if worker.task is not None:
                continue
            if not worker.process.is_alive():
                state.idle_deaths += 1
                self._discard(worker)
                continue
            batch = state.next_batch()
            first = self._serial + 1
            self._serial += len(batch)
            worker.task = _Task(first, batch, time.monotonic(), time.time())
            try:
                worker.conn.send((first, state.fn_bytes, batch))
            except (OSError, ValueError):
                worker.task = None
                state.pending.extendleft(reversed(batch))
                state.idle_deaths += 1
                self._discard(worker)
        if state.idle_deaths > 2 * self.workers + 2:
            raise ForumlabError("local worker processes keep dying before they get a game; "
                                "see the log")

    @staticmethod
    def _hand_over_outcomes(state: _RunState) -> list[GameOutcome]:
        """The outcomes received so far, each with the time its game first started."""
        outcomes, state.outcomes = state.outcomes, []
        if state.first_started:
            for outcome in outcomes:
                # A continued game started when its first worker got it.
                outcome.started = state.first_started.pop(outcome.key, outcome.started)
        return outcomes

    def _collect_replies(self, busy: list[_Worker], state: _RunState) -> set[int]:
        """Wait for a reply, a death, or the next watchdog deadline of the busy workers;
        settle every game that ended. Returns the ids of the workers heard from."""
        wake = min([self._deadline(w)[0] for w in busy] + [state.hand_over_at()])
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
            open_pipe = self._take_replies(worker, state)
            if worker.task is not None and (not open_pipe or not worker.process.is_alive()):
                self._lost(worker, state)
        return answered

    def _kill_overdue(self, busy: list[_Worker], answered: set[int], state: _RunState) -> None:
        """Kill the workers whose games are past their hard-limit deadline; settle those games."""
        now = time.monotonic()
        for worker in busy:
            if worker.task is None or id(worker) in answered:
                continue
            deadline, reported = self._deadline(worker)
            if now > deadline:
                self._kill(worker, reported, state)

    def _stop_games_in_flight(self) -> None:
        """Stop (and drop) every worker that is playing a game."""
        for worker in [w for w in self._pool if w.task is not None]:
            worker.stop(timeout=0)
            self._discard(worker)
