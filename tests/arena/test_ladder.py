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

from benchmarks.ladder import ANCHOR, QUICK, SEARCH_AGENTS, field, vary, with_budget
from forumlab.agents.spec import AgentSpecError
from forumlab.arena.store import ResultStore
from forumlab.core.registry import game_names
from forumlab.report.page import FIGURE_PARTS
from tests.arena.test_report import figure_ids, parse_report

ROOT = Path(__file__).resolve().parents[2]


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
    html_report = tmp_path / "ladder.html"
    # Forma's moves are the slowest of the four (its greedy anchor scores thousands of
    # moves), so there it plays the round robin only: the curve's gauntlets are the same
    # game-independent code, checked on the three other games. This halves the slowest
    # test of the suite.
    curve = game != "forma"
    proc = ladder("--game", game, "--players", "2", "--quick", "--workers", "2", "--out", str(out),
                  "--report", str(html_report), *([] if curve else ["--no-curve"]))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["benchmark"] == "ladder" and report["game"] == game and report["players"] == 2
    assert report["command"].startswith("python -m benchmarks.ladder ") and "--quick" in report["command"]
    assert {"forumlab", "engine", "numpy", "numba", "python"} <= set(report["versions"])
    assert report["groups"] == QUICK["groups"] and report["seating"] == "balanced"
    assert report["expected_minutes"] > 0

    rr = report["round_robin"]
    assert rr["budget_cpu_seconds"] == QUICK["budget"] and rr["anchor"] == ANCHOR
    assert sorted(a["agent"] for a in rr["agents"]) == sorted(SEARCH_AGENTS + (ANCHOR,))
    for a in rr["agents"]:
        check_rated(a)
        assert a["wall_seconds_per_move"] is not None
        if a["agent"] in SEARCH_AGENTS:
            assert a["spec"] == f"{a['agent']}(cpu_time={QUICK['budget']:g})"
            assert a["cpu_seconds_per_move"] > 0

    if not curve:
        check_round_robin_only(report, out, html_report)
        return
    curve = report["curve"]
    assert curve["budgets"] == list(QUICK["curve"]) and curve["anchor"] == ANCHOR
    points = {(p["agent"], p["budget_cpu_seconds"]) for p in curve["points"]}
    assert points == {(a, b) for a in SEARCH_AGENTS for b in QUICK["curve"]}
    for p in curve["points"]:
        check_rated(p)
        assert p["cpu_seconds_per_move"] > 0 and p["wall_seconds_per_move"] is not None
    reference = {r["agent"]: r for r in curve["reference"]}
    assert curve["field"] == [ANCHOR] == list(field(2))  # a 2-player game has room for one
    assert set(reference) == {ANCHOR} and reference[ANCHOR]["elo"] == 0
    # Every game of every gauntlet is rated on the one scale.
    assert curve["games"] == sum(p["games"] for p in curve["points"])

    assert (out / "partial.json").is_file()
    assert len(list(out.glob("*.db"))) == 1 + len(SEARCH_AGENTS) * len(QUICK["curve"])
    if report["plot"] is None:
        assert "matplotlib" in report["plot_note"]
    else:
        assert Path(report["plot"]).is_file()
    # The HTML report: the curve, then the round robin and the curve's gauntlets, each
    # with every figure of a tournament report (tests/arena/test_report.py checks the parts).
    tags, ids = parse_report(html_report)
    figures = figure_ids(tags)
    assert "fig-curve" in figures
    for k in (1, 2):
        assert {f"fig-{stem}-{k}" for stem in FIGURE_PARTS} <= figures


def check_round_robin_only(report, out, html_report):
    """A --no-curve ladder: no curve, no plot, one results file, the round robin's figures."""
    assert "curve" not in report and report["plot"] is None
    assert len(list(out.glob("*.db"))) == 1 and (out / "partial.json").is_file()
    figures = figure_ids(parse_report(html_report)[0])
    assert "fig-curve" not in figures
    assert {f"fig-{stem}-1" for stem in FIGURE_PARTS} <= figures


@pytest.mark.parametrize("args, fragment", [
    (["--game", "no-such-game"], "no-such-game"),
    (["--game", "forma", "--budget", "0"], "--budget"),
    (["--game", "forma", "--groups", "0"], "--groups"),
    (["--game", "forma", "--workers", "0"], "--workers"),
    (["--game", "forma", "--players", "9"], "players"),
    (["--game", "forma", "--budget", "x"], "--budget"),
    (["--game", "forma", "--agent", "mcts(c=-1)"], "c must be"),
    (["--game", "forma", "--agent", "nosuch"], "nosuch"),
    (["--game", "forma", "--agent", "mcts", "--agent", "mcts"], "--agent"),
    (["--game", "forma", "--vary", "mcts:c=0.3,-1"], "agent 'mcts': c must be a number in [0, 1e+06], not -1"),
    (["--game", "forma", "--vary", "mcts:nope=1,2"], "agent 'mcts' has no parameter 'nope'"),
    (["--game", "forma", "--vary", "mcts:rollout=none,smart"], "rollout must be one of"),
    (["--game", "forma", "--vary", "mcts"], "expected SPEC:KEY=V1,V2"),
    (["--game", "forma", "--vary", "mcts:c=0.3,0.3"], "--vary specs must differ"),
    (["--game", "forma", "--report", "/"], "is a directory"),
])
def test_bad_input_is_one_error_line_and_creates_nothing(args, fragment, tmp_path):
    out = tmp_path / "out"
    proc = ladder(*args, "--out", str(out), timeout=300)
    assert proc.returncode == 2
    message = proc.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message and "Traceback" not in message, message
    assert fragment in message
    assert proc.stdout == "" and not out.exists()


def test_field_has_random_beside_greedy_from_three_players():
    assert field(2) == (ANCHOR,)
    assert field(3) == field(4) == (ANCHOR, "random")


@pytest.mark.parametrize("spec, expected", [
    ("mcts", "mcts(cpu_time=0.2)"),
    ("mcts(c=0.3, widen=0.5)", "mcts(c=0.3, widen=0.5, cpu_time=0.2)"),
    ("mcts(iterations=300)", "mcts(iterations=300)"),
    ("paranoid(nodes=5000)", "paranoid(nodes=5000)"),
    ("brs(depth=2)", "brs(depth=2)"),
    ("maxn(cpu_time=1)", "maxn(cpu_time=1)"),
])
def test_agent_specs_get_the_budget_unless_they_name_one(spec, expected):
    assert with_budget(spec, 0.2) == expected


@pytest.mark.parametrize("text, expected", [
    ("mcts:c=0.3,0.7,1.0", ["mcts(c=0.3)", "mcts(c=0.7)", "mcts(c=1.0)"]),
    ("mcts(iterations=300):widen=0.1, 0.3", ["mcts(iterations=300, widen=0.1)", "mcts(iterations=300, widen=0.3)"]),
    ("paranoid:default_move=greedy", None),
    ("brs:default_move=greedy,history", ["brs(default_move=greedy)", "brs(default_move=history)"]),
    ("tests.plugin_agent:FirstMoveAgent:offset=0,1",
     ["tests.plugin_agent:FirstMoveAgent(offset=0)", "tests.plugin_agent:FirstMoveAgent(offset=1)"]),
    ("mcts(c=1):c=2", None),
    ("mcts:threads=1,65", None),
    ("mcts:c=1,,2", None),
])
def test_vary_makes_one_candidate_per_value_checked_against_the_schema(text, expected):
    if expected is None:
        with pytest.raises(AgentSpecError, match=r"^--vary "):
            vary(text)
    else:
        assert vary(text) == expected


@pytest.mark.slow
def test_candidate_specs_replace_the_search_agents_and_replay_bit_for_bit(tmp_path):
    args = ["--game", "forum-romanum", "--players", "3", "--groups", "1", "--workers", "2", "--no-curve",
            "--agent", "mcts(iterations=30)", "--vary", "mcts(iterations=30):c=2"]
    first = ladder(*args, "--out", str(tmp_path / "a"))
    second = ladder(*args, "--out", str(tmp_path / "b"))
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert "curve" not in a and a["plot"] is None
    rows = {r["agent"]: r for r in a["round_robin"]["agents"]}
    assert set(rows) == {ANCHOR, "mcts(iterations=30)", "mcts(iterations=30, c=2)"}
    assert rows["mcts(iterations=30)"]["spec"] == "mcts(iterations=30)"
    assert rows[ANCHOR]["games"] == 6  # one balanced group of 3 players
    # Iteration budgets: the same games move for move on a second run, hence the same
    # ratings. The two workers may finish the games in another order, which changes the
    # rating fit's summation order, so the Elo agrees to rounding, not to the last bit.
    def games(out):
        (db,) = out.glob("round-robin-*.db")
        with ResultStore.open(db, readonly=True) as store:
            return sorted((o.key, o.labels, tuple(o.moves), tuple(o.scores), tuple(o.ranks))
                          for o in store.outcomes())

    assert games(tmp_path / "a") == games(tmp_path / "b")
    for x, y in zip(a["round_robin"]["agents"], b["round_robin"]["agents"]):
        assert (x["agent"], x["mean_rank"]) == (y["agent"], y["mean_rank"])
        assert x["elo"] == pytest.approx(y["elo"], rel=1e-9, abs=1e-9)
