"""The Dask distributed executor (see forumlab.arena.executors).

Needs the ``cluster`` extra: ``pip install 'forumlab[cluster]'``.

Each game is one Dask task, and the task plays its game in a local worker process
of its own: a one-process :class:`~forumlab.arena.executors.local_pool.LocalExecutor` kept
per Dask worker thread (so its process is reused from game to game). Everything the
local pool guarantees therefore holds on the cluster too, on the cluster's
machines: the runner's SIGALRM cut-off works (it needs a main thread, and Dask
runs tasks in threads), the watchdog kills a hang at its hard limit, and a game
whose process dies or is killed is continued from its exact moves in a fresh
process, the blamed seat's moves made by the random fallback. The moves never
need to travel to the scheduler: the Dask worker that waits on the game reads them
from the shared memory of its child, as the local pool's parent does. A hung
agent no longer wedges a Dask worker, since the Dask worker thread only waits.

What Dask itself still handles: if a whole Dask worker is lost (its machine, the
OOM killer), the scheduler runs its games again elsewhere, from the start (games
are deterministic with iteration or node budgets), and after
``distributed.scheduler.allowed-failures`` losses reports the game as failed.
"""
from __future__ import annotations

import multiprocessing
import threading
import time
import traceback
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

from ...core.errors import ForumlabError, exception_line
from ..jobs import GameJob, GameOutcome
from .base import (
    DEFAULT_GRACE,
    DEFAULT_STARTUP,
    Executor,
    GameExecutionError,
    GameFn,
    JobFailure,
    note_counts,
    record_failure,
)
from .local_pool import LocalExecutor

_task_pools = threading.local()  # .pool: the LocalExecutor of this Dask worker thread


class GameFailed(ForumlabError):
    """A game failed on a Dask worker outside the agents' control (first line: why)."""


def _allow_children() -> None:
    """Let this process start multiprocessing children.

    Dask starts its workers as daemonic processes (``distributed.worker.daemon``),
    and multiprocessing refuses children to a daemonic process, lest they be
    orphaned. The game processes are daemonic themselves and die with this one
    (``PR_SET_PDEATHSIG``, see local_pool), so the refusal protects nothing here.
    The flag has no public setter in a running process.
    """
    process = multiprocessing.current_process()
    if process.daemon:
        process._config["daemon"] = False  # type: ignore[attr-defined]


def _task_pool(grace: float, startup_timeout: float) -> LocalExecutor:
    pool = getattr(_task_pools, "pool", None)
    if pool is None or (pool.grace, pool.startup_timeout) != (grace, startup_timeout):
        if pool is not None:
            pool.close()
        _allow_children()
        pool = LocalExecutor(1, progress=False, grace=grace, startup_timeout=startup_timeout)
        _task_pools.pool = pool
    return pool


def _dask_game(fn: GameFn, job: GameJob, grace: float, startup_timeout: float) -> GameOutcome:
    """Task body on a Dask worker: play ``job`` with ``fn`` in a watched child process."""
    pool = _task_pool(grace, startup_timeout)
    try:
        (outcome,) = pool.run([job], fn)
    except GameExecutionError as exc:
        failure = exc.failures[0]
        raise GameFailed(f"{failure.error}\n{failure.details}") from None
    return outcome


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise ForumlabError("running on a Dask cluster needs the 'distributed' package: "
                            "pip install 'forumlab[cluster]'") from exc
    return distributed


class DaskExecutor(Executor):
    """Games as tasks on a Dask distributed cluster.

    ``scheduler`` is an address such as ``tcp://host:8786`` (this executor then
    owns the client and closes it) or an existing ``distributed.Client``. Every
    worker must have forumlab (and the runner's module) installed. Each game is
    one task (``pure=False``) that plays in a child process of its Dask worker
    (see the module docstring), with the local pool's ``grace`` and
    ``startup_timeout``; outcomes are yielded with ``as_completed``. Dask workers
    may run several threads: each plays its games in a process of its own.
    """

    def __init__(self, scheduler: Any, *, progress: bool = True, grace: float = DEFAULT_GRACE,
                 startup_timeout: float = DEFAULT_STARTUP, connect_timeout: float = 30.0) -> None:
        distributed = _import_distributed()
        self.progress = progress
        self.grace = float(grace)
        self.startup_timeout = float(startup_timeout)
        self._distributed = distributed
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
                                    f"{exception_line(exc)}") from exc
            self._owns_client = True

    def close(self) -> None:
        """Close the client if this executor opened it."""
        if self._owns_client:
            self.client.close()
        self._owns_client = False

    def run(self, jobs: Sequence[GameJob], fn: GameFn, *,
            progress: bool | None = None) -> Iterator[GameOutcome]:
        """See :meth:`Executor.run`."""
        for outcomes in self.run_batches(jobs, fn, progress=progress):
            yield from outcomes

    def run_batches(self, jobs: Sequence[GameJob], fn: GameFn, *,
                    progress: bool | None = None) -> Iterator[list[GameOutcome]]:
        """See :meth:`Executor.run_batches`: the games found finished at one poll of the
        cluster, together (one game per task: a Dask task costs milliseconds, far more
        than a game of random agents, so cheap studies run faster locally)."""
        jobs = list(jobs)
        if not jobs:
            return
        token = uuid.uuid4().hex[:12]
        n = len(jobs)
        futures = self.client.map(_dask_game, [fn] * n, jobs, [self.grace] * n,
                                  [self.startup_timeout] * n, pure=False,
                                  key=[f"forumlab-game-{token}/{job.key}" for job in jobs])
        # Only open games keep their future: a finished game's result must not stay
        # pinned in worker memory.
        open_games = {f.key: (f, job) for f, job in zip(futures, jobs)}
        # with_results: results are fetched on the client's event loop.
        done = self._distributed.as_completed(futures, loop=self.client.loop,
                                              with_results=True, raise_errors=False)
        del futures
        failures: list[JobFailure] = []
        finished = False
        bar = self._bar(n, progress)
        try:
            while open_games:
                # Polling rather than blocking keeps Ctrl-C prompt in this thread.
                batch = done.next_batch(block=False)
                outcomes: list[GameOutcome] = []
                for future, result in batch:
                    entry = open_games.pop(future.key, None)
                    if entry is None:
                        continue
                    bar.update(1)
                    outcome = self._collect(future, result, entry[1], failures)
                    if outcome is not None:
                        outcomes.append(outcome)
                note_counts(bar, 0, len(failures))
                if outcomes:
                    yield outcomes
                if not batch and open_games:
                    time.sleep(0.02)
            finished = True
        finally:
            bar.close()
            if not finished and open_games:
                # Interrupted: stop the cluster from playing games nobody will collect.
                self.client.cancel([f for f, _ in open_games.values()], force=True)
            done.clear()
        if failures:
            raise GameExecutionError(failures, n)

    @staticmethod
    def _collect(future: Any, result: Any, job: GameJob,
                 failures: list[JobFailure]) -> GameOutcome | None:
        """The outcome of a completed future, or None after recording its failure."""
        if future.status == "finished" and not isinstance(result, BaseException):
            return result
        if future.status == "error" and isinstance(result, tuple) and len(result) == 3:
            _, exc, tb = result
            error = exception_line(exc)
            if isinstance(exc, GameFailed):
                details = str(exc).split("\n", 1)[-1]
            else:
                details = "".join(traceback.format_exception(type(exc), exc, tb))
        elif isinstance(result, BaseException):
            error = f"task {future.status} on the cluster: {exception_line(result)}"
            details = ""
        else:
            error, details = f"task {future.status} on the cluster", ""
        record_failure(failures, JobFailure(job.key, error, details))
        return None
