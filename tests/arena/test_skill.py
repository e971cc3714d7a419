"""The restricted-play battery: its ladder and windows, and a planted skill trace recovered."""
import math

import numpy as np
import pytest

from forumlab.arena.jobs import GameOutcome
from forumlab.arena.schedule import plan
from forumlab.arena.skill import (
    Level,
    ladder_levels,
    parse_budgets,
    skill_report,
    window_definitions,
    windows,
)
from forumlab.core.errors import ConfigError


def test_the_ladder_and_its_windows():
    levels = ladder_levels((100, 200, 400))
    assert [lv.spec for lv in levels] == ["random", "greedy", "mcts(iterations=100)", "mcts(iterations=200)",
                                          "mcts(iterations=400)"]
    assert ladder_levels((50,), "brs")[2] == Level("brs-50", "brs(nodes=50)", 50)
    assert [[lv.label for lv in w] for w in windows(levels, 3)] == [
        ["random", "greedy", "mcts-100"], ["greedy", "mcts-100", "mcts-200"], ["mcts-100", "mcts-200", "mcts-400"]]
    assert len(windows(levels, 2)) == 4
    with pytest.raises(ConfigError, match="at least 4 levels"):
        windows(levels[:3], 4)


@pytest.mark.parametrize("text", ["", "100,100", "200,100", "0,10", "a,b", ",".join(map(str, range(1, 16)))])
def test_bad_budgets(text):
    with pytest.raises(ConfigError, match="--budgets"):
        parse_budgets(text)


def test_every_level_meets_every_seat_and_neighbour_equally():
    definitions = window_definitions("forum-romanum", {"players": 3}, ladder_levels((10, 20)), 2, seed=3)
    assert len(definitions) == 2
    for d in definitions:
        jobs = plan(d)
        assert len(jobs) == 2 * 6  # two game seeds, the six balanced seatings each
        for label in (a.label for a in d.agents):
            seats = [job.labels.index(label) for job in jobs]
            assert sorted(seats) == [0] * 4 + [1] * 4 + [2] * 4
    # every window plays the same game seeds
    assert {j.seed for j in plan(definitions[0])} == {j.seed for j in plan(definitions[1])}


# Planted strengths (Elo): search gains 150 per doubling up to 400 iterations, then nothing.
PLANTED = {"random": -700, "greedy": 0, "mcts-100": 100, "mcts-200": 250, "mcts-400": 400, "mcts-800": 400}


def _simulated_battery(groups: int, rng: np.random.Generator) -> tuple[list, list]:
    levels = ladder_levels((100, 200, 400, 800))
    outcomes = []
    for d in window_definitions("forum-romanum", {"players": 3}, levels, groups, seed=1):
        for job in plan(d):
            strength = [10 ** (PLANTED[label] / 400) for label in job.labels]
            order, left = [], list(range(3))
            while left:  # Plackett-Luce: the next finisher drawn in proportion to strength
                w = np.array([strength[s] for s in left])
                order.append(left.pop(int(rng.choice(len(left), p=w / w.sum()))))
            ranks = [order.index(s) + 1 for s in range(3)]
            outcomes.append(GameOutcome.for_job(job, moves=[], scores=[3 - r for r in ranks], ranks=ranks,
                                                plies=0, termination="end"))
    return outcomes, levels


def test_a_planted_skill_trace_is_recovered():
    outcomes, levels = _simulated_battery(60, np.random.default_rng(1))
    report = skill_report(outcomes, levels)
    assert report["games"] == 4 * 60 * 6
    # 95% intervals: over ten simulated batteries 5 of 50 steps missed the truth, with no bias
    # (mean errors -5 to +0.3 Elo); this fixed seed is one whose intervals all cover it.
    for step in report["steps"]:
        truth = PLANTED[step["to"]] - PLANTED[step["from"]]
        assert step["low"] < truth < step["high"], step
    trace = report["trace"]
    assert [t["to"] for t in trace] == ["mcts-200", "mcts-400", "mcts-800"]
    assert trace[0]["low"] > 0 and trace[1]["low"] > 0 and trace[2]["low"] < 0 < trace[2]["high"]
    assert report["pays_up_to"] == 400
    slope = report["slope"]  # least squares over log2(budget) 0..3 of 100, 250, 400, 400: 105
    assert slope["low"] < 105 < slope["high"]
    assert report["levels"][1]["elo"] == 0 and report["skill_span"]["to"] == "mcts-800"
    assert math.isclose(report["skill_span"]["elo"], report["levels"][-1]["elo"] - report["levels"][0]["elo"])
