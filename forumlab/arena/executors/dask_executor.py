"""The Dask distributed executor (see forumlab.arena.executors).

Needs the ``cluster`` extra: ``pip install 'forumlab[cluster]'``.

Each Dask task plays a batch of games (one game unless they are cheap:
:func:`dask_batches`, sized by :func:`~forumlab.arena.jobs.games_per_batch` as the local
pool sizes its hand-outs), and plays them in a local worker process of its own: a
one-process :class:`~forumlab.arena.executors.local_pool.LocalExecutor` kept per Dask
worker thread (so its process is reused from game to game). Everything the local pool
guarantees therefore holds on the cluster too, on the cluster's machines, for every game
of a batch on its own: the runner's SIGALRM cut-off works (it needs a main thread, and
Dask runs tasks in threads), the watchdog kills a hang at its hard limit, and a game
whose process dies or is killed is continued from its exact moves in a fresh process,
the blamed seat's moves made by the random fallback, while the batch's other games go
on. A game that fails outside the agents' control is reported as that game's failure;
the task returns the rest. The moves never need to travel to the scheduler: the Dask
worker that waits on the game reads them from the shared memory of its child, as the
local pool's parent does. A hung agent no longer wedges a Dask worker, since the Dask
worker thread only waits.

A game's moves depend only on its job, never on the games that share its task, so a
batched run records the rows of an unbatched one, and ``resume`` (which plans the
missing games in batches of its own) completes a run exactly. A batch's outcomes come
back when its task ends, so killing the tournament process loses the batches in flight:
cheap games only, at most :data:`~forumlab.arena.jobs.RANDOM_BATCH` of them per task
(a fraction of a second of play), fewer when the games are few beside the cluster's
threads.

What Dask itself still handles: if a whole Dask worker is lost (its machine, the
OOM killer), the scheduler runs its tasks again elsewhere, from the start (games
are deterministic with iteration or node budgets), and after
``distributed.scheduler.allowed-failures`` losses reports every game of the task as
failed.
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
from ..jobs import GameJob, GameOutcome, games_per_batch
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


def _dask_batch(fn: GameFn, jobs: list[GameJob], grace: float,
                startup_timeout: float) -> tuple[list[GameOutcome], list[JobFailure]]:
    """Task body on a Dask worker: play ``jobs`` with ``fn`` in a watched child process;
    the outcomes, and the games that failed outside the agents' control."""
    pool = _task_pool(grace, startup_timeout)
    outcomes: list[GameOutcome] = []
    try:
        outcomes.extend(pool.run(jobs, fn))
    except GameExecutionError as exc:
        return outcomes, exc.failures
    return outcomes, []


def dask_batches(jobs: Sequence[GameJob], threads: int) -> list[list[GameJob]]:
    """The jobs in the batches the cluster's tasks play: consecutive batchable jobs, as
    many as the first one's lineup allows (:func:`games_per_batch`), and no more than a
    quarter of each thread's share, so that every thread gets several tasks.

    Args:
        jobs: the games to play, in the order they are planned.
        threads: the cluster's worker threads (at least 1 is assumed).

    Returns:
        Every job once, in order, in non-empty lists.
    """
    share = -(-len(jobs) // (4 * max(threads, 1)))
    batches: list[list[GameJob]] = []
    i = 0
    while i < len(jobs):
        size = min(games_per_batch(jobs[i]), share)
        batch = [jobs[i]]
        i += 1
        while len(batch) < size and i < len(jobs) and games_per_batch(jobs[i]) > 1:
            batch.append(jobs[i])
            i += 1
        batches.append(batch)
    return batches


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
    worker must have forumlab (and the runner's module) installed. Each batch of
    games (:func:`dask_batches`; one game unless they are cheap) is one task
    (``pure=False``) that plays in a child process of its Dask worker (see the module
    docstring), with the local pool's ``grace`` and ``startup_timeout``; outcomes are
    yielded with ``as_completed``. Dask workers may run several threads: each plays its
    games in a process of its own.
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
        """See :meth:`Executor.run_batches`: the games of the tasks found finished at one
        poll of the cluster, together (cheap games are played many to a task: a Dask task
        costs milliseconds, far more than a game of random agents)."""
        jobs = list(jobs)
        if not jobs:
            return
        token = uuid.uuid4().hex[:12]
        batches = dask_batches(jobs, sum(self.client.nthreads().values()))
        k = len(batches)
        futures = self.client.map(_dask_batch, [fn] * k, batches, [self.grace] * k,
                                  [self.startup_timeout] * k, pure=False,
                                  key=[_task_key(token, batch) for batch in batches])
        # Only open tasks keep their future: a finished task's results must not stay
        # pinned in worker memory.
        open_tasks = {f.key: (f, batch) for f, batch in zip(futures, batches)}
        # with_results: results are fetched on the client's event loop.
        done = self._distributed.as_completed(futures, loop=self.client.loop,
                                              with_results=True, raise_errors=False)
        del futures
        failures: list[JobFailure] = []
        finished = False
        bar = self._bar(len(jobs), progress)
        try:
            while open_tasks:
                # Polling rather than blocking keeps Ctrl-C prompt in this thread.
                ready = done.next_batch(block=False)
                outcomes: list[GameOutcome] = []
                for future, result in ready:
                    entry = open_tasks.pop(future.key, None)
                    if entry is None:
                        continue
                    bar.update(len(entry[1]))
                    outcomes.extend(self._collect(future, result, entry[1], failures))
                note_counts(bar, 0, len(failures))
                if outcomes:
                    yield outcomes
                if not ready and open_tasks:
                    time.sleep(0.02)
            finished = True
        finally:
            bar.close()
            if not finished and open_tasks:
                # Interrupted: stop the cluster from playing games nobody will collect.
                self.client.cancel([f for f, _ in open_tasks.values()], force=True)
            done.clear()
        if failures:
            raise GameExecutionError(failures, len(jobs))

    @staticmethod
    def _collect(future: Any, result: Any, batch: list[GameJob],
                 failures: list[JobFailure]) -> list[GameOutcome]:
        """The outcomes of a completed task; every game that failed is recorded in
        ``failures`` (all of the batch's when the task itself failed)."""
        if future.status == "finished" and isinstance(result, tuple) and len(result) == 2:
            outcomes, lost = result
            for failure in lost:
                record_failure(failures, failure)
            return outcomes
        if future.status == "error" and isinstance(result, tuple) and len(result) == 3:
            _, exc, tb = result
            error = exception_line(exc)
            details = "".join(traceback.format_exception(type(exc), exc, tb))
        elif isinstance(result, BaseException):
            error = f"task {future.status} on the cluster: {exception_line(result)}"
            details = ""
        else:
            error, details = f"task {future.status} on the cluster", ""
        for job in batch:
            record_failure(failures, JobFailure(job.key, error, details))
        return []


def _task_key(token: str, batch: list[GameJob]) -> str:
    """A task's Dask key: unique within the run, naming its first game (and how many more)."""
    more = f"+{len(batch) - 1}" if len(batch) > 1 else ""
    return f"forumlab-games-{token}/{batch[0].key}{more}"
