"""benchmarks.ladder: the --quick configuration on every registered game, and bad input.

Structure only: which points the report holds and how they are shaped. No strength or
time is asserted (the budgets are tiny and the machine may be busy).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.ladder import ANCHOR, QUICK, REFERENCE, SEARCH_AGENTS
from forumlab.core.registry import game_names

ROOT = Path(__file__).resolve().parent.parent


def ladder(*args, timeout=1200):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "benchmarks.ladder", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=timeout)


def check_rated(entry):
    assert entry["games"] > 0
    assert entry["elo_low"] <= entry["elo"] <= entry["elo_high"]


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_quick_ladder_reports_every_agent_and_budget(game, tmp_path):
    out = tmp_path / "out"
    proc = ladder("--game", game, "--players", "2", "--quick", "--workers", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["benchmark"] == "ladder" and report["game"] == game and report["players"] == 2
    assert report["command"].startswith("python -m benchmarks.ladder ") and "--quick" in report["command"]
    assert {"forumlab", "engine", "numpy", "numba", "python"} <= set(report["versions"])
    assert report["groups"] == QUICK["groups"] and report["seating"] == "balanced"
    assert report["expected_minutes"] > 0

    rr = report["round_robin"]
    assert rr["budget_cpu_seconds"] == QUICK["budget"] and rr["anchor"] == ANCHOR
    assert sorted(a["agent"] for a in rr["agents"]) == sorted(SEARCH_AGENTS + REFERENCE)
    for a in rr["agents"]:
        check_rated(a)
        assert a["wall_seconds_per_move"] is not None
        if a["agent"] in SEARCH_AGENTS:
            assert a["spec"] == f"{a['agent']}(cpu_time={QUICK['budget']:g})"
            assert a["cpu_seconds_per_move"] > 0

    curve = report["curve"]
    assert curve["budgets"] == list(QUICK["curve"]) and curve["anchor"] == ANCHOR
    points = {(p["agent"], p["budget_cpu_seconds"]) for p in curve["points"]}
    assert points == {(a, b) for a in SEARCH_AGENTS for b in QUICK["curve"]}
    for p in curve["points"]:
        check_rated(p)
        assert p["cpu_seconds_per_move"] > 0 and p["wall_seconds_per_move"] is not None
    reference = {r["agent"]: r for r in curve["reference"]}
    assert set(reference) == set(REFERENCE) and reference[ANCHOR]["elo"] == 0
    # Every game of every gauntlet is rated on the one scale.
    assert curve["games"] == sum(p["games"] for p in curve["points"])

    assert (out / "partial.json").is_file()
    assert len(list(out.glob("*.db"))) == 1 + len(SEARCH_AGENTS) * len(QUICK["curve"])
    if report["plot"] is None:
        assert "matplotlib" in report["plot_note"]
    else:
        assert Path(report["plot"]).is_file()


@pytest.mark.parametrize("args, fragment", [
    (["--game", "no-such-game"], "no-such-game"),
    (["--game", "forma", "--budget", "0"], "--budget"),
    (["--game", "forma", "--groups", "0"], "--groups"),
    (["--game", "forma", "--workers", "0"], "--workers"),
    (["--game", "forma", "--players", "9"], "players"),
    (["--game", "forma", "--budget", "x"], "--budget"),
])
def test_bad_input_is_one_error_line_and_creates_nothing(args, fragment, tmp_path):
    out = tmp_path / "out"
    proc = ladder(*args, "--out", str(out), timeout=300)
    assert proc.returncode == 2
    message = proc.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message and "Traceback" not in message, message
    assert fragment in message
    assert proc.stdout == "" and not out.exists()
