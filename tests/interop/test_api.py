"""The public Python API (forumlab.api, re-exported by forumlab) and the learning
interface of states: clone/undo, returns, the fixed action space, observation tensors."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import forumlab
from forumlab.core.actions import ActionSpace
from forumlab.core.errors import ConfigError, GameOverError, IllegalMoveError
from forumlab.core.game import State
from forumlab.testing import conformance as kit
from forumlab.testing.conformance import ConformanceError
from tests.toy_goofspiel.game import ToyGoofspiel

ROOT = Path(__file__).resolve().parents[2]


def _python(code_or_path: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *code_or_path], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600)


def test_the_readme_example_runs():
    """examples/api_example.py is the README's API example, verbatim."""
    run = _python([str(ROOT / "examples" / "api_example.py")])
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "<ForumRomanum(players=3, max_rounds=100) seed=1: ply 0, seat 0 to move>"
    assert lines[2] == "12288 49 (441,)"  # 49 opening placements of the 3-player game
    assert lines[3] == "[0.0, 0.0, 0.0]"
    assert sorted(json.loads(lines[5])) == [-1.0, 0.0, 1.0]  # three distinct ranks
    assert sum(line.startswith(("random:", "greedy:", "mcts(iterations=100):")) for line in lines) == 3


def test_import_forumlab_loads_no_game_and_no_api():
    run = _python(["-c", "import sys, forumlab; print(sorted(m for m in sys.modules "
                         "if m.startswith(('forumlab.api', 'forumlab.engines', 'forumlab.core.game'))))"])
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_api_is_loaded_on_first_use():
    assert forumlab.load_game.__module__ == "forumlab.api"
    assert "forma" in forumlab.game_names() and "mcts" in forumlab.agent_names()
    with pytest.raises(AttributeError):
        forumlab.no_such_function  # noqa: B018


def test_play_plays_the_game_the_command_line_plays(tmp_path):
    from forumlab.cli import main

    specs = ["greedy", "random", "mcts(iterations=30)"]
    record = forumlab.play(forumlab.load_game("forum-romanum", players=3), specs, seed=4)
    out = tmp_path / "game.json"
    cli = CliRunner().invoke(main, ["play", "forum-romanum", "--seed", "4", "-a", ",".join(specs),
                                    "--record", str(out)])
    assert cli.exit_code == 0, cli.output
    saved = json.loads(out.read_text())
    assert record.moves == saved["moves"] and record.agents == saved["agents"]
    assert record.result["ranks"] == saved["result"]["ranks"]
    assert forumlab.replay(record.to_json()).result() == forumlab.replay(out).result()


def test_play_takes_agent_objects_and_checks_the_seat_count():
    game = forumlab.load_game("forum-romanum", players=2)
    agents = [forumlab.make_agent("random", seed=1), forumlab.make_agent("greedy", seed=2)]
    record = forumlab.play(game, agents, seed=3)
    assert record.result["terminal"] and record.agents[1] == {"label": "greedy", "spec": "greedy", "seed": 2}
    with pytest.raises(ConfigError, match="1 agents for 2 players"):
        forumlab.play(game, agents[:1], seed=3)


def test_ratings_returns_data_and_prints_nothing(tmp_path, capsys):
    db = tmp_path / "t.db"
    report = forumlab.run_tournament("forum-romanum", ["random", "g=greedy"], db, players=2, workers=0)
    assert capsys.readouterr().out == ""
    assert report["played"] == 2 and report["games"] == 2
    assert {a["agent"] for a in report["agents"]} == {"random", "g"}
    again = forumlab.ratings(db)
    assert again["agents"] == report["agents"] and again["tournament"]["game"] == "forum-romanum"


def test_ratings_merges_copies_of_one_spec(tmp_path):
    db = tmp_path / "t.db"
    forumlab.run_tournament("forum-romanum", ["random", "g1=greedy", "g2=greedy"], db, players=3, workers=0)
    merged = forumlab.ratings(db, merge=("g=g1,g2",))
    assert {a["agent"] for a in merged["agents"]} == {"random", "g"}
    assert next(a for a in merged["agents"] if a["agent"] == "g")["entries"] == 2 * merged["games"]
    with pytest.raises(ConfigError, match="different specs"):
        forumlab.ratings(db, merge=("x=random,g1",))


# ---- returns: the documented mapping from ranks to values ------------------------------

def _finished_toy(players, keys):
    """A finished toy game whose rank keys are ``keys``."""
    game = type("Ranked", (ToyGoofspiel,), {"rank_keys": lambda self, array, scores: keys})(players=players)
    state = game.new_state(0)
    while not state.is_terminal:
        state.play(int(state.legal_moves()[0]))
    return state


@pytest.mark.parametrize("keys, values", [
    ([3, 1], [1.0, -1.0]),
    ([2, 2], [0.0, 0.0]),
    ([5, 5, 1], [0.5, 0.5, -1.0]),            # a shared first place: positions 1 and 2
    ([1, 2, 3], [-1.0, 0.0, 1.0]),
    ([9, 4, 4], [1.0, -0.5, -0.5]),            # positions 2 and 3 shared: (0 - 1) / 2
    ([7, 7, 7], [0.0, 0.0, 0.0]),
])
def test_returns_follow_the_ranks(keys, values):
    assert _finished_toy(len(keys), keys).returns() == pytest.approx(values)


def test_returns_are_zero_before_the_end():
    assert ToyGoofspiel(players=3).new_state(0).returns() == [0.0, 0.0, 0.0]


# ---- undo and clone ----------------------------------------------------------------------

def test_undo_restores_every_earlier_position_and_refuses_at_the_start():
    state = forumlab.load_game("forum-romanum", players=2).new_state(5)
    positions = []
    for _ in range(12):
        positions.append(state.array.copy())
        state.play(int(state.legal_moves()[-1]))
    for expected in reversed(positions):
        state.undo()
        assert np.array_equal(state.array, expected)
    assert state.history == []
    with pytest.raises(GameOverError):
        state.undo()


def test_undo_replays_a_state_whose_history_was_rewritten():
    game = forumlab.load_game("forma", players=2)
    state = game.new_state(2)
    for _ in range(4):
        state.play(int(state.legal_moves()[0]))
    rebuilt = State(game, state.array.copy(), state.seed, state.history)
    rebuilt.undo()
    expected = game.new_state(2)
    for move in state.history[:3]:
        expected.play(move)
    assert np.array_equal(rebuilt.array, expected.array) and rebuilt.history == expected.history


def test_a_view_of_a_hidden_information_game_cannot_undo_into_the_truth():
    from forumlab.core.rng import make_rng

    state = forumlab.load_game("foundations-of-rome", players=3, draft=True).new_state(1)
    state.play(int(state.legal_moves()[0]))
    view = state.view_for(1, make_rng(3))
    with pytest.raises(GameOverError):
        view.undo()


# ---- the fixed action space --------------------------------------------------------------

def test_action_space_sizes_per_game():
    sizes = {("forum-romanum", 2): 16384, ("forum-romanum", 3): 12288, ("forma", 4): 30434,
             ("foundations-of-rome", 3): 115600, ("forum-trajanum", 3): 27065}
    for (name, players), size in sizes.items():
        assert forumlab.load_game(name, players=players).num_actions == size


def test_forma_pass_is_the_last_action():
    from forumlab.engines.forma.data import PASS

    game = forumlab.load_game("forma", players=2)
    state = game.new_state(0)
    assert state.action_to_move(game.num_actions - 1) == PASS
    assert state.move_to_action("pass") == game.num_actions - 1
    with pytest.raises(IllegalMoveError):
        state.action_to_move(game.num_actions)


def test_action_space_table_and_identity():
    table = ActionSpace(codes=np.array([40, 7, 1000]))
    assert [table.move_to_action(c) for c in (7, 40, 1000)] == [0, 1, 2]
    assert table.moves_of(np.array([2, 0])).tolist() == [1000, 7]
    with pytest.raises(IllegalMoveError):
        table.move_to_action(8)
    with pytest.raises(IllegalMoveError):
        table.actions_of(np.array([7, 41]))
    assert ActionSpace(size=5).actions_of(np.array([4, 0])).tolist() == [4, 0]


def test_an_action_space_missing_a_legal_move_is_caught():
    game = type("Small", (ToyGoofspiel,), {"action_space": ActionSpace(size=2)})(players=2)
    with pytest.raises(ConformanceError, match="^actions: a legal move is outside"):
        kit.check_actions(game, 0)


# ---- observation tensors -------------------------------------------------------------------

def test_an_observation_tensor_that_shows_hidden_bids_is_caught():
    def leaky(self, array, seat):  # the true array: other seats' bids of this round
        return array.astype(np.float32)

    game = type("Leaky", (ToyGoofspiel,), {"observation_tensor": leaky,
                                            "observation_shape": property(lambda self: (self.kernels.tag.module().STATE_SIZE,))})(players=3)
    with pytest.raises(ConformanceError, match="^observation: seat .* cannot tell apart"):
        kit.check_observation(game, 0)


def test_observation_of_two_truths_a_seat_cannot_tell_apart_is_equal_and_shows_its_own_hand():
    """Foundations of Rome with the draft: seat 0 sees its own hand, not seat 1's."""
    from forumlab.core.rng import make_rng

    state = forumlab.load_game("foundations-of-rome", players=3, draft=True).new_state(4)
    other_truth = state.view_for(0, make_rng(11))  # same for seat 0, other hidden cards
    assert not np.array_equal(other_truth.array, state.array)
    assert np.array_equal(other_truth.observation(0), state.observation(0))
    assert not np.array_equal(state.observation(0), state.observation(1))


def test_observation_checks_its_seat():
    state = forumlab.load_game("forum-romanum", players=2).new_state(0)
    with pytest.raises(ValueError, match="player must be a seat 0..1"):
        state.observation(2)
