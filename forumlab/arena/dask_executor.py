"""The Dask distributed executor (see forumlab.arena.executors).

Needs the ``cluster`` extra: ``pip install 'forumlab[cluster]'``.
"""
from __future__ import annotations

import math
import threading
import time
import traceback
import uuid
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from ..core.errors import ForumlabError
from .executors import (DEFAULT_GRACE, DEFAULT_STARTUP, Executor, GameExecutionError, GameFn,
                        JobFailure, _local, _note, _one_line, _record_failure, killed_outcome, log)
from .jobs import GameJob, GameOutcome


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


