"""benchmarks/bot_latency.py runs and prints its figures (their size is the benchmark's
business, not a test's: the figures are wall times of a shared machine)."""
import json
import os
import subprocess
import sys

from .helpers import ROOT


def test_the_benchmark_prints_its_figures(c_bot):  # c_bot: skipped, with the reason, without a compiler
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "benchmarks.bot_latency", "--games", "1", "--players", "2"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["moves"] > 0 and figures["games"] == 1
    assert 0 <= figures["overhead_ms"]["median"] <= figures["overhead_ms"]["max"]
    assert figures["pipe_round_trip_ms"]["median"] >= 0 and figures["act_ms"]["median"] > 0
    assert figures["meets_target"] == (figures["overhead_ms"]["median"] <= figures["target_median_ms"])
