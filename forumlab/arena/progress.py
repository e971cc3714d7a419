"""Progress reports from a game in play to the executor that watches it.

The game runner (:mod:`forumlab.arena.runner`) calls :func:`report_progress` (or the
function :func:`progress_hook` returns) before every move; an executor's worker
installs its sink with :func:`set_reporter` before it plays a game. Both sides import
this module and nothing of each other, so a runner works without any executor (the
reports then go nowhere: tests, the CLI ``play``) and an executor runs any runner.
What a report holds and how the local pool uses it is described in
:mod:`forumlab.arena.executors`.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from .jobs import Fault

__all__ = ["Reporter", "progress_hook", "report_progress", "set_reporter"]

# A sink: called like report_progress (seat, ply, moves, faults, seconds, counts).
Reporter = Callable[..., None]

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


def progress_hook() -> Reporter:
    """The current thread's progress sink, to call like :func:`report_progress`.

    Fetch it once per game and call it before every move to skip the thread-local
    look-up; it is a no-op function when no executor is watching.
    """
    return getattr(_local, "reporter", None) or _no_progress


def set_reporter(reporter: Reporter | None) -> None:
    """Make ``reporter`` the progress sink of the calling thread (None: no sink).

    Args:
        reporter: called like :func:`report_progress` before every move of the games
            this thread plays; an executor's worker installs its shared-memory sink.
    """
    _local.reporter = reporter
