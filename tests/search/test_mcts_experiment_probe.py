"""``python -m benchmarks.mcts_experiment --probe`` reports a warm search: the first
search of a process also compiles (cold cache) or loads the kernels, and a CPU-time
budget counted that (one chunk of 64 iterations at cpu_time=0.1 in 3-player Forum
Romanum, where a warm search runs thousands)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_timed_probe_with_a_cold_cache_is_not_spent_compiling(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}  # an empty cache, surely
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.mcts_experiment", "--game", "forum-romanum", "--players", "3",
         "--probe", "40", "--seed", "3", "--agent", "mcts(cpu_time=0.1)"],
        capture_output=True, text=True, cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path)}, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    visits = report["top_visits"]
    # A warm search of 0.1 CPU s opens all 190 moves and returns to the best of them.
    assert report["root_children"] == report["legal_moves"] == 190
    assert visits[0] > 1
