"""forumlab.interop.openspiel: every registered game as an OpenSpiel Python game."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed (pip install '.[openspiel]')")

from open_spiel.python.algorithms import mcts  # noqa: E402

from forumlab.agents.registry import create_agent  # noqa: E402
from forumlab.core.registry import game_names, get_game_class  # noqa: E402
from forumlab.core.rng import make_rng  # noqa: E402
from forumlab.interop.openspiel import register_games, short_name  # noqa: E402


@pytest.mark.parametrize("name", game_names())
def test_random_sim_test_passes(name):
    assert short_name(name) in register_games()
    players = get_game_class(name).min_players
    game = pyspiel.load_game(short_name(name), {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_seed_parameter_fixes_the_game_and_the_default_varies_it():
    register_games()
    fixed = pyspiel.load_game("python_forumlab_forma", {"players": 2, "seed": 5})
    assert str(fixed.new_initial_state()) == str(fixed.new_initial_state())
    varying = pyspiel.load_game("python_forumlab_forma", {"players": 2})
    assert str(varying.new_initial_state()) != str(varying.new_initial_state())
    again = pyspiel.load_game("python_forumlab_forma", {"players": 2})
    assert str(again.new_initial_state()) == str(pyspiel.load_game(
        "python_forumlab_forma", {"players": 2}).new_initial_state())


def test_hidden_information_reaches_openspiel_only_as_the_seats_view():
    register_games()
    game = pyspiel.load_game("python_forumlab_foundations_of_rome", {"players": 3, "seed": 4})
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    true = state.forumlab_state
    view = true.view_for(0, make_rng(9))  # a position seat 0 cannot tell from the truth
    assert np.array_equal(np.array(state.observation_tensor(0)), view.observation(0))
    before = state.information_state_string(1)
    state.apply_action(state.legal_actions()[0])
    after = state.information_state_string(1)
    assert after.startswith(before) and after != before  # perfect recall: the past is kept
    assert state.information_state_string(0) != after


def test_openspiel_mcts_plays_forumlab_agents_through_the_adapter():
    """OpenSpiel's own MCTSBot (random rollouts, small budget) in seat 0 of a 3-player
    Forum Romanum, against forumlab's greedy and random agents, to the end."""
    register_games()
    game = pyspiel.load_game("python_forumlab_forum_romanum", {"players": 3, "seed": 2})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                       random_state=rng)
    ours = {1: create_agent("greedy", seed=1), 2: create_agent("random", seed=2)}
    state = game.new_initial_state()
    view_rng = make_rng(3)
    bot_moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == 0:
            action = bot.step(state)
            bot_moves += 1
        else:
            move = ours[seat].act(state.forumlab_state.view_for(seat, view_rng))
            action = state.forumlab_state.move_to_action(move)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert bot_moves > 5
    assert sorted(state.returns()) in ([-1.0, 0.0, 1.0], [-1.0, 0.5, 0.5], [-0.5, -0.5, 1.0], [0.0, 0.0, 0.0])
    assert state.forumlab_state.result()["terminal"]
