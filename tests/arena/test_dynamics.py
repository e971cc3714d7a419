"""Game dynamics on hand-made trajectories a reader can check by hand, and on a real game replayed."""
import pytest

from forumlab.api import load_game, play
from forumlab.arena.dynamics import (
    Trajectory,
    branching_by_decile,
    decisive_point,
    game_dynamics,
    lead_changes,
    mean_interval,
    sole_leader,
    summarise,
    turns,
)
from forumlab.arena.dynamics_replay import replay_trajectory

# Seat 1 trails seat 0 by 3 after ply 2, draws level at ply 3, leads from ply 4 on and wins.
COMEBACK = ((0, 0), (2, 0), (3, 0), (3, 3), (3, 5), (4, 6), (4, 9))


def comeback(**fields) -> Trajectory:
    base = dict(values=COMEBACK, movers=(0, 1, 0, 1, 0, 1), branching=(5, 5, 4, 4, 3, 1),
                winners=(1,), final_scores=(4, 9), key="k", group="g")
    return Trajectory(**{**base, **fields})


def test_a_winner_who_trails_then_leads():
    g = game_dynamics(comeback())
    assert g["plies"] == 6 and g["turns"] == 6
    assert g["lead_changes"] == 1  # seat 0 led after plies 1-2, seat 1 from ply 4: one change
    assert g["decisive_ply"] == 4 and g["decisiveness"] == pytest.approx(4 / 6)
    assert g["drama_points"] == 3  # 0 against 3 after ply 2
    assert g["drama"] == pytest.approx(3 / 9)  # of the winner's final 9
    assert g["behind"] == pytest.approx(2 / 7)  # behind after plies 1 and 2, of 7 points
    assert g["branching"] == pytest.approx(22 / 6)
    assert g["progress"]["winner_margin"][0] == 0 and g["progress"]["winner_margin"][-1] == 5
    assert g["progress"]["by_finish"][-1] == [9, 4]


def test_ties_for_the_lead_neither_count_nor_reset():
    assert sole_leader((3, 3, 1)) is None and sole_leader((1, 4, 3)) == 1
    assert lead_changes([(1, 0), (1, 1), (2, 1)]) == 0  # A, tie, A
    assert lead_changes([(1, 0), (1, 1), (1, 2)]) == 1  # A, tie, B
    assert lead_changes([(0, 0, 0), (1, 0, 0), (1, 2, 0), (1, 2, 3), (4, 2, 3)]) == 3


def test_a_win_on_a_tie_break_is_decided_only_at_the_end():
    values = ((0, 0), (1, 0), (1, 1))
    assert decisive_point(values, 1) == 2
    g = game_dynamics(Trajectory(values=values, movers=(0, 1), branching=(2, 2), winners=(1,),
                                 final_scores=(1, 1)))
    assert g["decisiveness"] == 1.0 and g["drama_points"] == 1


def test_a_wire_to_wire_win_and_a_shared_win():
    values = ((0, 0, 0), (2, 0, 0), (2, 1, 0), (3, 1, 1))
    g = game_dynamics(Trajectory(values=values, movers=(0, 1, 2), branching=(1, 1, 1), winners=(0,),
                                 final_scores=(3, 1, 1)))
    assert g["decisive_ply"] == 1 and g["drama_points"] == 0 and g["drama"] == 0 and g["behind"] == 0
    shared = game_dynamics(Trajectory(values=((0, 0), (1, 1)), movers=(0,), branching=(1,), winners=(0, 1),
                                      final_scores=(1, 1)))
    assert not shared["sole_winner"] and "decisiveness" not in shared


def test_turns_count_runs_of_one_seat():
    assert turns([0, 0, 1, 1, 1, 0, 2]) == 4 and turns([]) == 0


def test_branching_by_tenth_of_the_game():
    assert branching_by_decile(list(range(20))) == [0.5 + 2 * d for d in range(10)]
    five = branching_by_decile([10, 20, 30, 40, 50])  # five plies: every other tenth is empty
    assert five == [10, None, 20, None, 30, None, 40, None, 50, None]


def test_means_are_over_rotation_groups():
    m = mean_interval([1, 3, 5, None], ["a", "a", "b", "b"])
    assert m["mean"] == 3.5 and m["n"] == 3  # groups a (2) and b (5), equally weighted
    assert m["low"] == pytest.approx(3.5 - 1.959963984540054 * 1.5) and m["high"] > 5
    assert mean_interval([2.0], ["a"]) == {"mean": 2.0, "low": None, "high": None, "n": 1}
    s = summarise([game_dynamics(comeback(group="a")), game_dynamics(comeback(group="b"))])
    assert s["games"] == 2 and s["lead_changes"]["mean"] == 1 and s["lead_changes"]["low"] == 1
    assert s["progress"]["by_finish"][-1][0]["mean"] == 9


@pytest.mark.parametrize("name,agents", [("forum-romanum", ["greedy", "random", "greedy"]),
                                         ("forum-trajanum", ["random"] * 3)])
@pytest.mark.parametrize("lead", ["score", "heuristic"])
def test_a_real_game_replayed(lead, name, agents):
    # Forum Trajanum's heuristic still weighs held resources once the game is over: the
    # final standing must come from the scores, not from it.
    game = load_game(name, players=3)
    record = play(game, agents, seed=7)
    traj = replay_trajectory(game, record.seed, record.moves, lead)
    final = record.result["scores"]
    assert traj.plies == len(record.moves) == record.result["plies"]
    assert list(traj.final_scores) == final
    assert traj.winners == tuple(s for s, r in enumerate(record.result["ranks"]) if r == 1)
    assert all(b >= 1 for b in traj.branching) and traj.movers[0] == 0
    if lead == "score":
        assert list(traj.values[-1]) == final and traj.values[0] == (0, 0, 0)
    else:  # relative to the leader: the leader at 0, the others their deficit
        best = max(final)
        assert list(traj.values[-1]) == [s - best for s in final]
        assert all(max(row) == 0 for row in traj.values if any(row))
    g = game_dynamics(traj)
    if g["sole_winner"]:
        w = traj.winners[0]
        assert sole_leader(traj.values[g["decisive_ply"]]) == w
        assert g["decisive_ply"] == 0 or sole_leader(traj.values[g["decisive_ply"] - 1]) != w
