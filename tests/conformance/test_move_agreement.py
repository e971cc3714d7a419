"""``python -m benchmarks.move_agreement``: how often a longer search changes the move."""
import json
import subprocess
import sys
from pathlib import Path

import benchmarks.move_agreement as move_agreement
from benchmarks.move_agreement import agreement, choices, root_is_undecided, self_play_positions
from forumlab.agents.registry import create_agent

ROOT = Path(__file__).resolve().parents[2]


def test_agreement_counts_the_positions_where_each_pair_chose_alike():
    picks = [{"fast1": 1, "fast2": 1, "slow1": 1, "slow2": 2, "greedy": 3},
             {"fast1": 4, "fast2": 5, "slow1": 5, "slow2": 5, "greedy": 5}]
    assert agreement(picks) == {"fast_vs_fast": 0.5, "slow_vs_slow": 0.5, "fast_vs_slow": 0.5,
                                "fast_vs_greedy": 0.0, "slow_vs_greedy": 0.5,
                                "fast_undecided": None, "slow_undecided": None}


def test_undecided_is_the_share_of_searches_that_could_not_separate_their_best_two():
    picks = [{"fast1": 1, "fast2": 1, "slow1": 1, "slow2": 1, "greedy": 1,
              "fast_undecided": True, "slow_undecided": False},
             {"fast1": 1, "fast2": 1, "slow1": 1, "slow2": 1, "greedy": 1,
              "fast_undecided": True, "slow_undecided": True}]
    assert agreement(picks)["fast_undecided"] == 1.0 and agreement(picks)["slow_undecided"] == 0.5


def test_a_root_whose_moves_were_each_tried_once_is_undecided_and_one_more_visit_is_not():
    state = self_play_positions("forum-romanum", 2, 1, 9)[1]
    n = len(state.legal_moves())
    assert n > 2
    once = create_agent(f"mcts(iterations={n}, reuse=false)", seed=1)
    once.act(state.copy())
    assert root_is_undecided(once) is True  # every move has one visit: a tie
    more = create_agent(f"mcts(iterations={n + 1}, reuse=false)", seed=1)
    more.act(state.copy())
    assert root_is_undecided(more) is False  # one move has 2 visits, the runner-up 1
    assert root_is_undecided(create_agent("greedy", seed=1)) is None


def test_positions_are_every_nth_ply_with_a_choice_of_greedy_self_play():
    positions = self_play_positions("forum-romanum", 2, 1, 7)
    assert positions and all(len(p.history) % 7 == 0 for p in positions)
    assert all(len(p.legal_moves()) > 1 for p in positions)


def test_every_searcher_sees_only_the_view_of_the_seat_to_move(monkeypatch):
    """Hidden information stays hidden: a view drops the history and resamples the hidden."""
    seen = []

    class Recorder:
        def act(self, state):
            seen.append(state)
            return state.legal_moves()[0]

    state = self_play_positions("forum-trajanum", 2, 1, 25)[1]
    monkeypatch.setattr(move_agreement, "create_agent", lambda spec, seed: Recorder())
    choices(state, "mcts", "mcts", 0)
    assert len(seen) == 5 and all(view.history == [] for view in seen)
    assert state.history  # the true state has one; no searcher got it


def _run(*args):
    return subprocess.run([sys.executable, "-m", "benchmarks.move_agreement", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def test_one_spec_as_both_searches_agrees_with_itself_under_iteration_budgets():
    run = _run("--game", "forum-romanum", "--players", "2", "--fast", "mcts(iterations=200)",
               "--slow", "mcts(iterations=200)", "--games", "1", "--every", "15")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["positions"] > 0
    # Same spec and seed: the same move; the two seeds differ in the same way for both.
    assert report["fast_vs_slow"] == 1.0
    assert report["fast_vs_fast"] == report["slow_vs_slow"]
    assert report["fast_vs_greedy"] == report["slow_vs_greedy"]


def test_a_bad_spec_is_one_line_and_exit_2():
    run = _run("--game", "forum-romanum", "--fast", "mcts(bogus=1)", "--slow", "mcts")
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "bogus" in run.stderr
