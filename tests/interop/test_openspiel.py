"""forumlab.interop.openspiel: every registered game as an OpenSpiel Python game."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed (pip install '.[openspiel]')")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from forumlab.agents.registry import create_agent  # noqa: E402
from forumlab.core.errors import ConfigError  # noqa: E402
from forumlab.core.registry import game_names, get_game_class  # noqa: E402
from forumlab.core.rng import make_rng  # noqa: E402
from forumlab.interop.openspiel import SpielState, register_games, short_name  # noqa: E402


@pytest.mark.parametrize("name", game_names())
def test_random_sim_test_passes(name):
    assert short_name(name) in register_games()
    players = get_game_class(name).min_players
    game = pyspiel.load_game(short_name(name), {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    assert game.get_type().provides_information_state_tensor
    shape = list(game.forumlab_game.observation_shape)
    assert game.information_state_tensor_shape() == shape == game.observation_tensor_shape()
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[-1])
    for seat in range(players):
        assert np.array_equal(state.information_state_tensor(seat), state.forumlab_state.observation(seat))


def test_the_seed_parameter_fixes_the_game_and_the_default_varies_it():
    register_games()
    fixed = pyspiel.load_game("python_forumlab_forma", {"players": 2, "seed": 5})
    assert str(fixed.new_initial_state()) == str(fixed.new_initial_state())
    varying = pyspiel.load_game("python_forumlab_forma", {"players": 2})
    assert str(varying.new_initial_state()) != str(varying.new_initial_state())
    again = pyspiel.load_game("python_forumlab_forma", {"players": 2})
    assert str(again.new_initial_state()) == str(pyspiel.load_game(
        "python_forumlab_forma", {"players": 2}).new_initial_state())
    with pytest.raises(ConfigError, match="seed must be -1"):
        pyspiel.load_game("python_forumlab_forma", {"players": 2, "seed": -5})


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


def test_cloning_draws_no_seed_and_copies_the_position():
    """OpenSpiel's clone makes a new initial state first; with seed = -1 that used to
    draw the next seed, so the games of a run depended on how often it cloned."""
    register_games()
    quiet = pyspiel.load_game("python_forumlab_forma", {"players": 2})
    busy = pyspiel.load_game("python_forumlab_forma", {"players": 2})
    first = busy.new_initial_state()
    assert str(first) == str(quiet.new_initial_state())
    fresh = busy.new_initial_state()
    twins = [first.clone(), fresh.clone()]  # also a clone of a state not yet used
    assert str(twins[0]) == str(first) and str(twins[1]) == str(fresh)
    assert str(quiet.new_initial_state()) == str(fresh)
    assert str(quiet.new_initial_state()) == str(busy.new_initial_state())
    twins[0].apply_action(twins[0].legal_actions()[0])
    assert twins[0].history() != first.history() and str(twins[0]) != str(first)


def _random_plies(state, rng, plies):
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", ["foundations-of-rome", "forum-trajanum"])
def test_the_information_state_tensor_is_the_same_for_truths_the_seat_cannot_tell_apart(name):
    register_games()
    game = pyspiel.load_game(short_name(name), {"players": 3, "seed": 11})
    state = game.new_initial_state()
    rng, other_truths = np.random.default_rng(0), make_rng(5)
    hidden_differs = 0
    for _ in range(4):
        for seat in range(3):
            truth = state.forumlab_state
            twin = truth.copy()  # another truth, consistent with everything the seat saw
            truth.game.kernels.determinize(twin.array, seat, other_truths)
            hidden_differs += int(not np.array_equal(twin.array, truth.array))
            tensor = state.information_state_tensor(seat)
            assert np.array_equal(SpielState(game, twin).information_state_tensor(seat), tensor)
            assert np.array_equal(tensor, state.observation_tensor(seat))
        _random_plies(state, rng, 7)
    assert hidden_differs > 0  # the twins really were other truths


def test_observers_through_make_observation_and_refused_types():
    register_games()
    game = pyspiel.load_game("python_forumlab_forum_trajanum", {"players": 2, "seed": 3})
    state = game.new_initial_state()
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, 1)
    assert np.array_equal(info.tensor, state.forumlab_state.observation(1))
    assert info.string_from(state, 1) == state.information_state_string(1)
    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="one seat's whole view"):
        make_observation(game, public)  # it would have been the seat's private view
    board = pyspiel.load_game("python_forumlab_forum_romanum", {"players": 2})
    assert make_observation(board, public).tensor.shape == tuple(board.forumlab_game.observation_shape)


def test_game_options_reach_the_engine_as_a_json_object():
    """OpenSpiel parameters are flat, so the game's other options travel as one JSON
    string; a malformed one is refused with a message, not ignored."""
    register_games()
    name = short_name("foundations-of-rome")
    game = pyspiel.load_game(name, {"players": 3, "options": '{"modules": ["trading", "stealing"]}'})
    assert game.forumlab_game.config["modules"] == ["trading", "stealing"]
    assert game.num_players() == 3
    assert pyspiel.load_game(name, {"players": 3}).forumlab_game.config.get("modules", []) == []
    for bad in ('{"modules": ', '["trading"]', '{"players": 4}'):
        with pytest.raises(Exception, match="options|players"):
            pyspiel.load_game(name, {"options": bad})
