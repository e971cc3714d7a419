"""The Python API and the adapters check their arguments as the command line does.

A bad argument raises one of the library's own exceptions (forumlab.core.errors and
AgentSpecError, all ForumlabErrors) with a one-line message, never a TypeError,
KeyError or ValueError from deep inside, and never goes through converted (a seed of
1.5 is refused, not played as 1). ``run_tournament`` checks everything before it creates
its results file. KEY=VALUE lists refuse a key given twice however it is spelt.
"""
import os

import numpy as np
import pytest
from click.testing import CliRunner

import forumlab
from forumlab.agents.spec import AgentSpecError
from forumlab.cli import main
from forumlab.core.errors import ConfigError, ForumlabError, GameRegistrationError
from forumlab.core.options import parse_key_values
from forumlab.core.registry import game_names
from tests.cli.test_records_cli import assert_bad_input


def _one_line(exc_info) -> str:
    message = str(exc_info.value)
    assert message and "\n" not in message
    return message


# ---------------------------------------------------------------- seeds
@pytest.mark.parametrize("seed", [1.5, 2.0, "3", True, None, 2**70, -(2**64)])
def test_make_agent_refuses_a_seed_that_is_not_a_64_bit_integer(seed):
    with pytest.raises(AgentSpecError) as info:
        forumlab.make_agent("greedy", seed=seed)
    assert "seed" in _one_line(info)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts(iterations=5)", "paranoid(depth=1)"])
def test_every_agent_class_checks_its_seed_itself(spec):
    # the check lives in Agent.__init__, so agents made without the registry are covered
    cls = type(forumlab.make_agent(spec))
    with pytest.raises(AgentSpecError, match="seed must be an integer"):
        cls(seed=1.5)


def test_integer_seeds_of_numpy_and_the_64_bit_edges_are_taken():
    assert forumlab.make_agent("greedy", seed=np.int64(7)).seed == 7
    assert forumlab.make_agent("greedy", seed=2**63 - 1).seed == 2**63 - 1
    assert forumlab.make_agent("greedy", seed=-(2**63)).seed == -(2**63)


@pytest.mark.parametrize("seed", [1.5, "1", True, 2**64])
def test_new_state_and_play_refuse_a_bad_seed(seed):
    game = forumlab.load_game("forum-romanum", players=2)
    with pytest.raises(ConfigError) as info:
        game.new_state(seed)
    _one_line(info)
    with pytest.raises(ConfigError) as info:
        forumlab.play(game, ["random", "random"], seed=seed)
    assert "seed" in _one_line(info)


# ---------------------------------------------------------------- load_game and play
def test_load_game_refuses_a_name_that_is_not_text_and_a_bad_option():
    with pytest.raises(ConfigError):
        forumlab.load_game(5)
    with pytest.raises(ConfigError, match="integer"):
        forumlab.load_game("forma", players=2.5)
    with pytest.raises(ConfigError):
        forumlab.load_game("forma", name="x")  # an option of that name, not load_game's own argument


@pytest.mark.parametrize("agents, error", [
    ("random", AgentSpecError),  # a string is not a list of seats
    ([1, 2], AgentSpecError),
    ([None, "random"], AgentSpecError),
    (["random"], ConfigError),  # one agent for two seats
    (["random", "random", "random"], ConfigError),
])
def test_play_refuses_agents_that_are_not_one_agent_or_spec_per_seat(agents, error):
    game = forumlab.load_game("forum-romanum", players=2)
    with pytest.raises(error) as info:
        forumlab.play(game, agents, seed=1)
    _one_line(info)


def test_play_refuses_a_game_that_is_neither_a_game_nor_a_name():
    with pytest.raises(ConfigError, match="game must be"):
        forumlab.play(3, ["random", "random"])


# ---------------------------------------------------------------- run_tournament
@pytest.mark.parametrize("kwargs, error, words", [
    ({"workers": -1}, ConfigError, "workers"),
    ({"workers": 1.5}, ConfigError, "workers"),
    ({"workers": True}, ConfigError, "workers"),
    ({"workers": 100_000}, ConfigError, "workers"),
    ({"progress": "yes"}, ConfigError, "progress"),
    ({"seed": 1.5}, ConfigError, "seed"),
    ({"games_per_lineup": 1.5}, ConfigError, "games_per_lineup"),
    ({"players": "2"}, ConfigError, "players"),
    ({"format": "swiss"}, ConfigError, "format"),
    ({"game": "forma"}, ConfigError, "game"),  # a game option of that name, not a clash
])
def test_run_tournament_refuses_before_creating_the_results_file(tmp_path, kwargs, error, words):
    db = tmp_path / "results.db"
    with pytest.raises(error) as info:
        forumlab.run_tournament("forma", ["random", "greedy"], db, **kwargs)
    assert words in _one_line(info)
    assert os.listdir(tmp_path) == []  # no results file (nor a side file) left behind


@pytest.mark.parametrize("game, agents, db, error", [
    ("forma", "random", "x.db", AgentSpecError),  # a string would be a pool of its letters
    ("forma", [1, 2], "x.db", AgentSpecError),
    (3, ["random", "greedy"], "x.db", ConfigError),
    ("forma", ["random", "greedy"], 5, ConfigError),
])
def test_run_tournament_refuses_arguments_of_the_wrong_type(tmp_path, monkeypatch, game, agents, db, error):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error) as info:
        forumlab.run_tournament(game, agents, db)
    _one_line(info)
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------- KEY=VALUE lists
@pytest.mark.parametrize("pairs", [
    ["max_rounds=3", "max_rounds=4"],
    ["max_rounds=3", "max-rounds=4"],  # the same key once dashes are underscores
    ["max_rounds=3", " max_rounds =4"],  # ... and once spaces are stripped
])
def test_parse_key_values_refuses_a_key_given_twice(pairs):
    with pytest.raises(ConfigError, match="max_rounds given twice"):
        parse_key_values(pairs)


def test_parse_key_values_strips_keys():
    assert parse_key_values([" max_rounds =3", "obstacles= none"]) == {"max_rounds": 3, "obstacles": " none"}


def test_sprt_with_a_key_given_twice_is_refused_however_it_is_spaced(tmp_path, monkeypatch):
    # 'elo0 =1' used to be a third key that replaced elo0=0 after stripping
    monkeypatch.chdir(tmp_path)
    for text in ("elo0=0,elo1=10,elo0=1", "elo0=0, elo1=10, elo0 =1"):
        result = CliRunner().invoke(main, ["tournament", "run", "--game", "forma", "-p", "2", "-a", "random",
                                           "-a", "greedy", "--format", "gauntlet", "--candidate", "greedy",
                                           "--sprt", text, "--db", "t.db", "--no-progress"])
        assert_bad_input(result, "elo0 given twice")
    assert os.listdir(tmp_path) == []


def test_play_refuses_an_option_given_twice():
    result = CliRunner().invoke(main, ["play", "forum-romanum", "-o", "max_rounds=3", "-o", "max-rounds=4"])
    assert_bad_input(result, "max_rounds given twice")


def test_an_agent_spec_refuses_a_parameter_given_twice_however_it_is_spaced():
    with pytest.raises(AgentSpecError, match="given twice"):
        forumlab.make_agent("mcts(c=1, c =2)")


def test_forumlab_games_refuses_a_game_registered_twice(monkeypatch):
    monkeypatch.setenv("FORUMLAB_GAMES", "toy=a.b:C, toy =d.e:F")
    with pytest.raises(GameRegistrationError, match="toy given twice"):
        game_names()


# ---------------------------------------------------------------- OpenSpiel
@pytest.fixture(scope="module")
def spiel_forma():
    pytest.importorskip("pyspiel")
    from forumlab.interop.openspiel import SpielGame, register_games

    register_games()
    return next(c for c in SpielGame.__subclasses__() if c.forumlab_name == "forma")


@pytest.mark.parametrize("params, words", [
    ({"name": "x"}, "unknown parameter 'name'"),
    ({"options": '{"name": "x"}'}, "name"),  # used to clash with create_game's own argument
    ({"options": '{"bogus": 1}'}, "bogus"),
    ({"options": "[1]"}, "JSON object"),
    ({"options": "{bad"}, "JSON object"),
    ({"options": '{"players": 3}'}, "players"),
    ({"options": 5}, "options must be text"),
    ({"players": "2"}, "players must be an integer"),
    ({"players": True}, "players must be an integer"),
    ({"players": 9}, "players"),
    ({"seed": 1.5}, "seed must be an integer"),
    ({"seed": "1"}, "seed must be an integer"),
    ({"seed": -2}, "seed must be -1"),
    ({"seed": 2**31}, "seed must be -1"),
])
def test_openspiel_game_parameters_are_checked_with_the_librarys_errors(spiel_forma, params, words):
    with pytest.raises(ForumlabError) as info:
        spiel_forma(params)
    assert words in _one_line(info)


def test_openspiel_options_through_load_game_are_config_errors(spiel_forma):
    import pyspiel

    with pytest.raises(ConfigError, match="name"):
        pyspiel.load_game("python_forumlab_forma", {"options": '{"name": "x"}'})
    game = pyspiel.load_game("python_forumlab_forma", {"players": 2, "seed": 3, "options": ""})
    assert game.num_players() == 2


# ---------------------------------------------------------------- PettingZoo
def test_pettingzoo_arguments_are_checked_with_the_librarys_errors():
    pytest.importorskip("pettingzoo")
    from forumlab.interop.pettingzoo import env

    with pytest.raises(ConfigError, match="render_mode"):
        env("forma", render_mode="rgb_array")
    with pytest.raises(ConfigError, match="render_mode"):
        env("forma", render_mode=["ansi"])
    with pytest.raises(ConfigError, match="game must be"):
        env(3)
    with pytest.raises(ConfigError):
        env("forma", name="x")
    with pytest.raises(ConfigError):
        env("forma", game="x")  # a game option of that name, not a clash with the argument
    with pytest.raises(ConfigError, match="players"):
        env("forma", players=2.5)
    with pytest.raises(ConfigError, match="configured game"):
        env(forumlab.load_game("forma", players=2), players=3)
    e = env("forma", players=2)
    for seed in (1.5, -1, "1", True):
        with pytest.raises(ConfigError, match="seed"):
            e.reset(seed=seed)
    e.reset(seed=np.int64(2))
    assert e.unwrapped.state is not None


# ---------------------------------------------------------------- states
@pytest.mark.parametrize("seat", [99, -1, 2, 1.5, True])
def test_view_for_refuses_a_seat_the_game_does_not_have(seat):
    state = forumlab.load_game("forum-romanum", players=2).new_state(1)
    with pytest.raises((ValueError, ForumlabError)) as info:
        state.view_for(seat)
    assert "seat must be 0..1" in _one_line(info)


def test_play_refuses_a_move_code_that_is_not_an_integer():
    state = forumlab.load_game("forum-romanum", players=2).new_state(1)
    code = int(state.legal_moves()[0])
    for move in (code + 0.9, float(code), True):
        with pytest.raises(ForumlabError, match="must be an integer"):
            state.play(move)
    assert state.history == []
