"""Dummy game functions for tests/arena/test_executors.py.

A module of its own (not the test file) so that worker processes, local or Dask,
can import the function by name. ``play`` reports progress like the real runner
(before every move), then behaves as ``job.config["kind"]`` says on the move after
``plies`` ordinary ones. Like the real runner it honours continuations: it plays on
from ``job.resume_moves``, and a seat with a prior fault no longer misbehaves
(except for the ``*_always`` kinds, which model a bug outside the agents).
"""
from __future__ import annotations

import ctypes
import os
import re
import time

from forumlab.arena.executors import report_progress
from forumlab.arena.jobs import END_RULES, GameJob, GameOutcome
from forumlab.core.ranks import fault_ranks


def make_job(key: str, kind: str = "ok", *, hard_limit: float = 60.0, players: int = 2,
             **config) -> GameJob:
    """A job whose dummy game does ``kind`` after ``plies`` ordinary moves."""
    return GameJob(
        key=key, group=key.rsplit("-", 1)[0], lineup=0, rotation=0, game="dummy",
        config={"kind": kind, **config}, seed=1,
        labels=tuple(f"a{i}" for i in range(players)),
        specs=tuple("random" for _ in range(players)),
        agent_seeds=tuple(range(players)), hard_limit=hard_limit)


def busy(iterations: int) -> int:
    """Pure-Python CPU work that holds the GIL (so only processes run it in parallel)."""
    total = 0
    for i in range(iterations):
        total += i * i % 7
    return total


def _misbehave(kind: str, job: GameJob) -> None:
    if kind == "hang":
        while True:
            time.sleep(1)
    elif kind == "spin":
        # Catastrophic regex backtracking: runs for ages inside C code holding the
        # GIL, like a runaway compiled loop, so nothing in the process can interrupt it.
        re.match(r"(a+)+$", "a" * 60 + "b")
    elif kind == "busy":
        busy(job.config["iterations"])
    elif kind == "sleep":
        time.sleep(job.config["seconds"])
    elif kind == "error":
        raise ValueError(f"bug in the runner for {job.key}")
    elif kind in ("crash", "crash_always"):
        os._exit(7)
    elif kind == "segv":
        ctypes.string_at(0)


def play(job: GameJob) -> GameOutcome:
    """Play the dummy game of ``job``."""
    kind = job.config.get("kind", "ok")
    plies = job.config.get("plies", 4)
    n = len(job.labels)
    if kind == "hang_early":  # hangs before reporting any progress
        while True:
            time.sleep(1)
    faults = list(job.prior_faults)
    moves: list[str] = list(job.resume_moves)
    for ply in range(len(moves) + 1, plies + 1):
        report_progress((ply - 1) % n, ply, moves, faults)
        moves.append(f"m{ply}")
    # About to play one more move, which may misbehave.
    seat = plies % n
    report_progress(seat, plies + 1, moves, faults)
    if seat not in job.faulty_seats or kind.endswith("_always") or kind == "error":
        _misbehave(kind, job)
    moves.append(f"m{plies + 1}")
    scores = [float(s) for s in range(n)]
    return GameOutcome(
        key=job.key, group=job.group, lineup=job.lineup, rotation=job.rotation, seed=job.seed,
        labels=job.labels, specs=job.specs, agent_seeds=job.agent_seeds, moves=moves,
        scores=scores, ranks=fault_ranks(scores, job.faulty_seats), plies=len(moves),
        termination=END_RULES, faults=faults, host=str(os.getpid()))
