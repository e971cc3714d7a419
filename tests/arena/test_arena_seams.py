"""The arena's module seams: progress reports need no executor, executors are one package."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import forumlab.arena.executors as executors
from forumlab.arena.progress import progress_hook, report_progress, set_reporter

ROOT = Path(__file__).resolve().parents[2]


def test_reports_reach_the_reporter_of_their_thread_only():
    seen, other_thread = [], {}

    def worker():
        set_reporter(lambda *report: seen.append(report))
        report_progress(1, 3, ["a", "b"])
        progress_hook()(0, 4, ["a", "b", "c"], (), (0.5,), (2,))
        set_reporter(None)
        report_progress(1, 5, [])  # no sink any more: nothing happens
        other_thread["hook"] = progress_hook()

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [(1, 3, ["a", "b"], (), (), ()), (0, 4, ["a", "b", "c"], (), (0.5,), (2,))]
    assert other_thread["hook"](0, 1, []) is None  # the no-op sink
    report_progress(0, 1, ["x"])  # this thread never had a sink: a no-op, no error


def test_the_runner_plays_a_game_without_importing_any_executor():
    # Before the progress module, run_job imported the executors to find its progress sink.
    code = """
import sys
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.runner import run_job
from forumlab.arena.schedule import plan
definition = TournamentDefinition(game="forma", config={"players": 2},
                                  agents=(PoolEntry("random", "random"), PoolEntry("r2", "random")),
                                  games_per_lineup=1)
outcome = run_job(plan(definition)[0])
print(outcome.termination, sorted(m for m in sys.modules if m.startswith("forumlab.arena.executors")))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["end", "[]"]


def test_the_executors_package_exports_every_public_name_without_lazy_lookups():
    assert not hasattr(executors, "__getattr__")
    for name in executors.__all__:
        assert getattr(executors, name) is not None, name
    assert executors.make_executor(0).__class__ is executors.InlineExecutor
