"""Running and resuming tournaments: plan -> executor -> store, one commit per burst of games."""
from __future__ import annotations

import os
import platform
from pathlib import Path

from .. import __version__
from ..core.registry import get_game_class
from .definition import TournamentDefinition
from .runner import run_job
from .schedule import plan
from .store import ResultStore


def versions(game: str) -> dict:
    """Software and engine versions recorded with the results."""
    import numba
    import numpy

    return {
        "forumlab": __version__,
        "engine": f"{game}/{get_game_class(game).engine_version}",
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
    }


def warm_up(definition: TournamentDefinition) -> None:
    """Compile the kernels of the pool's built-in agents before the workers start
    (once, with a notice on stderr when the cache is cold; see arena.warmup), instead
    of once per worker at the same time."""
    from .warmup import warm_up as warm_up_kernels

    warm_up_kernels(definition.game, definition.config, [e.spec for e in definition.agents],
                    definition.seed)


def play_missing(store: ResultStore, definition: TournamentDefinition, workers: int | None,
                 scheduler: str | None, progress: bool = True,
                 executor_options: dict | None = None) -> int:
    """Play every planned game not yet in ``store``, committing each as it finishes.

    A gauntlet with ``sprt`` plays only until its candidate is decided, then completes
    the rotation groups under way (:mod:`forumlab.arena.sequential`), and nothing once a
    decision is stored.

    Args:
        store: the writable results file of ``definition``.
        definition: the tournament whose plan is played.
        workers: local worker processes (``None``: one per core; ``0``: in this process).
        scheduler: a Dask scheduler address (or client); if given, ``workers`` is ignored.
        progress: show a progress bar on stderr.
        executor_options: extra keyword options for the executor (e.g. the watchdog's ``grace``).

    Returns:
        How many games were played now (0 if none was missing).

    Raises:
        GameExecutionError: after the last game, if some games failed outside the agents'
            control (the others are recorded; resume retries the failed ones).
        StoreError: a game cannot be recorded.
        ForumlabError: ``workers`` is negative.
    """
    from ..bots.referee import keep_bot_logs_beside
    from .executors import make_executor
    from .schema import check_planned

    planned = plan(definition)
    check_planned(store, planned)  # never play on in a file holding another tournament's games
    keep_bot_logs_beside(store.path, [a.spec for a in definition.agents])  # before any worker starts
    if definition.sprt is not None:  # a gauntlet that stops once its candidate is decided
        from .sequential import play_sequential

        def start():
            warm_up(definition)
            return make_executor(workers, scheduler, **(executor_options or {}))

        return play_sequential(store, definition, planned, start, progress)
    done = store.done_keys()
    jobs = [job for job in planned if job.key not in done]
    if not jobs:
        return 0
    warm_up(definition)
    played = 0
    with make_executor(workers, scheduler, **(executor_options or {})) as executor:
        # workers None = one per core
        # The games that finish together are committed together, each list before the
        # next is asked for: a kill loses only the games still in flight.
        for outcomes in executor.run_batches(jobs, run_job, progress=progress):
            store.record_many(outcomes)
            played += len(outcomes)
    return played


def run_tournament(definition: TournamentDefinition, db_path: str | Path, workers: int | None = None,
                   scheduler: str | None = None, progress: bool = True,
                   executor_options: dict | None = None) -> int:
    """Create (or continue) the results file of ``definition`` and play what is missing.

    Args:
        definition: the tournament to play.
        db_path: the results file; created if absent, continued if it holds this tournament,
            extended if it holds this tournament with fewer groups per lineup (only the new
            rotation groups are played).
        workers: local worker processes (``None``: one per core; ``0``: in this process).
        scheduler: a Dask scheduler address (or client); if given, ``workers`` is ignored.
        progress: show a progress bar on stderr.
        executor_options: extra keyword options for the executor (e.g. ``grace``).

    Returns:
        How many games were played now.

    Raises:
        StoreError: the file holds another tournament (or this one with more groups per lineup,
            or one whose sequential test has decided, when more are asked for), is not a results
            file, is corrupt or is locked by another writer.
        GameExecutionError: some games failed outside the agents' control (see
            :func:`play_missing`).
    """
    from ..bots.referee import keep_bot_logs_beside

    # The bots' log directory is checked before the results file is made: a bad one
    # leaves nothing behind.
    keep_bot_logs_beside(os.path.abspath(db_path), [a.spec for a in definition.agents])
    with ResultStore.create(db_path, definition.to_json(), versions(definition.game), extend=True) as store:
        return play_missing(store, definition, workers, scheduler, progress, executor_options)


def resume_tournament(db_path: str | Path, workers: int | None = None, scheduler: str | None = None,
                      progress: bool = True, executor_options: dict | None = None) -> int:
    """Play the games of an existing results file that are still missing.

    Args:
        db_path: an existing results file; its stored definition says what to play.
        workers: local worker processes (``None``: one per core; ``0``: in this process).
        scheduler: a Dask scheduler address (or client); if given, ``workers`` is ignored.
        progress: show a progress bar on stderr.
        executor_options: extra keyword options for the executor (e.g. ``grace``).

    Returns:
        How many games were played now (0 if the tournament was complete).

    Raises:
        StoreError: the file is missing, not a results file, corrupt or locked.
        GameExecutionError: some games failed outside the agents' control (see
            :func:`play_missing`).
    """
    with ResultStore.open(db_path) as store:
        definition = TournamentDefinition.from_stored(store.definition)
        return play_missing(store, definition, workers, scheduler, progress, executor_options)

