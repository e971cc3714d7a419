"""Budget checks inside the minimax kernels: the node limit at every node, the clocks
every ``CLOCK_EVERY`` units of work.

Numba has no clock: a read goes through object mode and costs a few microseconds,
so under a time budget the kernels read the wall clock (``time.perf_counter_ns``)
and/or the thread's CPU clock (``time.thread_time_ns``) only each time
``CLOCK_EVERY`` nodes plus look-ahead evaluations have been done, roughly every
millisecond of search. The driver (:mod:`.driver`) arms the deadlines in ``stats``
before each iteration.
"""
from __future__ import annotations

import time

from numba import njit, objmode

from .columns import (
    ABORT_CLOCK,
    ABORT_NODES,
    STAT_ABORT,
    STAT_CHECK_AT,
    STAT_CPU_DEADLINE,
    STAT_DEADLINE,
    STAT_EXTRA,
    STAT_NODE_LIMIT,
    STAT_NODES,
)
from .settings import CLOCK_EVERY


@njit(cache=True)
def _clock_expired(stats):
    """Read the budget clocks and schedule the next reading; True (and STAT_ABORT
    set) once a deadline has passed."""
    stats[STAT_CHECK_AT] = stats[STAT_NODES] + stats[STAT_EXTRA] + CLOCK_EVERY
    if stats[STAT_DEADLINE] > 0:
        with objmode(now="int64"):
            now = time.perf_counter_ns()
        if now >= stats[STAT_DEADLINE]:
            stats[STAT_ABORT] = ABORT_CLOCK
            return True
    if stats[STAT_CPU_DEADLINE] > 0:
        with objmode(now_cpu="int64"):
            now_cpu = time.thread_time_ns()
        if now_cpu >= stats[STAT_CPU_DEADLINE]:
            stats[STAT_ABORT] = ABORT_CLOCK
            return True
    return False


@njit(cache=True, inline="always")
def over_budget(stats):
    """True (and STAT_ABORT set) once the node limit or a clock deadline is passed."""
    if stats[STAT_NODE_LIMIT] > 0 and stats[STAT_NODES] > stats[STAT_NODE_LIMIT]:
        stats[STAT_ABORT] = ABORT_NODES
        return True
    if stats[STAT_CHECK_AT] > 0 and stats[STAT_NODES] + stats[STAT_EXTRA] >= stats[STAT_CHECK_AT]:
        return _clock_expired(stats)
    return False
