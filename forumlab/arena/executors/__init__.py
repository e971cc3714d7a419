"""Executors: run a tournament's games on local processes or a Dask cluster.

The arena hands an executor a list of :class:`~forumlab.arena.jobs.GameJob` and a
picklable top-level function ``fn(job) -> GameOutcome`` (the game runner), and
iterates over :meth:`Executor.run`, which yields each outcome as soon as its game
finishes, in any order, or over :meth:`Executor.run_batches`, which yields the
outcomes that are ready together, in lists (the local pool holds them at most
``HOLD_SECONDS``, a quarter second). The caller commits every outcome (or list) to the
store before it asks for the next one, so killing the whole process at any moment
(even with SIGKILL) loses only the games in flight and, with lists, those received in
the last quarter second.

Batches
-------
The local pool hands a worker several games at once when their agents are cheap
(:func:`forumlab.arena.jobs.games_per_batch`: random agents, greedy ones, small
iteration or node budgets); every game of a batch is reported, watched and faulted on
its own, as below, and the worker sends its finished games at least every
``FLUSH_SECONDS``. When a worker dies, its game in play is continued and the batch's
other unfinished games are handed out again. The Dask executor makes tasks of the same
batches, each played by a one-process local pool on its Dask worker, so the same holds
there game by game.

Three executors share the interface:

* :class:`LocalExecutor` (the default): ``workers`` processes on this machine, with
  a watchdog that kills the worker of a hung game at its hard limit.
* :class:`DaskExecutor`: the same tournament on a Dask distributed cluster
  (``pip install 'forumlab[cluster]'``).
* :class:`InlineExecutor` (``workers=0``): plays the games one by one in the
  calling process, for debugging (pdb, profilers). No hard-limit guarantee.

Progress, hangs and dead workers
--------------------------------
The game runner calls :func:`~forumlab.arena.progress.report_progress` before every move with the seat to
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
``with`` block) stops the rest. Workers ignore SIGINT (the parent decides) from
birth: the fork server is started ignoring it and passes that on, so a Ctrl-C
while workers start up prints no traceback from them (a Ctrl-C in the few
milliseconds of the fork server's own start is lost). They die with the
tournament process even when it is SIGKILLed: on Linux through ``PR_SET_PDEATHSIG``
(which works while a game holds the GIL), elsewhere through a thread watching the
parent.

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

from typing import Any

from ...core.errors import ForumlabError
from ..progress import progress_hook, report_progress
from .base import DEFAULT_GRACE, DEFAULT_STARTUP, Executor, GameExecutionError, GameFn, JobFailure
from .continuation import Snapshot, continuation
from .dask_executor import DaskExecutor
from .inline import InlineExecutor
from .local_pool import LocalExecutor, default_workers

__all__ = [
    "DEFAULT_GRACE",
    "DEFAULT_STARTUP",
    "DaskExecutor",
    "Executor",
    "GameExecutionError",
    "GameFn",
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


def make_executor(workers: int | None = None, scheduler: Any = None, *,
                  progress: bool = True, **options: Any) -> Executor:
    """The executor for the CLI's ``--workers`` / ``--scheduler`` options.

    ``scheduler`` (an address like ``tcp://host:8786``, or a ``distributed.Client``)
    selects :class:`DaskExecutor`, and ``workers`` is then ignored: the cluster's
    workers play the games. Otherwise ``workers`` local processes (``None``: one
    per core; ``0``: :class:`InlineExecutor`, in this process). Extra keyword
    ``options`` go to the executor (e.g. ``grace``).

    Args:
        workers: local worker processes; ``None`` one per core, ``0`` in this process.
        scheduler: a Dask scheduler address or ``distributed.Client``; None or ``""`` for local.
        progress: the executor's default for showing a progress bar on stderr.
        **options: extra keyword options for the Dask or local executor (ignored inline).

    Returns:
        A :class:`DaskExecutor`, :class:`InlineExecutor` or :class:`LocalExecutor`; use it as
        a context manager so that its workers are released.

    Raises:
        ForumlabError: ``workers`` is negative.
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
