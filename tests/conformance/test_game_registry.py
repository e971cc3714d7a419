"""Registering games: the registry's ways in, and the generic limits every game must
keep (forumlab.core.limits), checked when a game registers or is first loaded."""
import dataclasses

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.cli import main as cli_main
from forumlab.core import registry
from forumlab.core.errors import ForumlabError, GameRegistrationError, UnknownGameError
from forumlab.core.layout import HEADER_SIZE
from forumlab.core.limits import check_game_class, generic_limits
from forumlab.core.registry import create_game, game_names, get_game_class, register_game, unregister_game
from tests import toy_goofspiel
from tests.toy_goofspiel import kernels as toy_kernels
from tests.toy_goofspiel.game import ToyGoofspiel

LIMITS = generic_limits()


def variant(name="toy-variant", **changes):
    """A subclass of the toy game named ``name`` with class attributes changed."""
    return type("Variant", (ToyGoofspiel,), {"name": name, **changes})


def with_moves(bound):
    return variant(kernels=dataclasses.replace(ToyGoofspiel.kernels, max_moves=bound))


@pytest.fixture(autouse=True)
def clean_registry():
    yield
    for name in ("toy-variant", toy_goofspiel.NAME):
        unregister_game(name)


def test_limits_are_read_from_the_generic_code_that_sets_them():
    from forumlab.search.mcts import _STRIDE_PRIMES
    from forumlab.search.minimax import MAX_PLAYERS, MAX_STACK

    assert LIMITS.max_moves == int(_STRIDE_PRIMES.min()) - 1 == 65536
    assert LIMITS.max_players == MAX_PLAYERS == 8
    assert LIMITS.max_state_size * 8 * (MAX_STACK + 1) <= 128 << 20


@pytest.mark.parametrize("name", ["forma", "forum-romanum"])
def test_built_in_games_keep_the_limits(name):
    cls = get_game_class(name)
    check_game_class(name, cls)  # does not raise
    assert cls.kernels.max_moves <= LIMITS.max_moves and cls.max_players <= LIMITS.max_players


def test_a_move_bound_beyond_the_mcts_stride_primes_is_refused():
    check_game_class("toy-variant", with_moves(LIMITS.max_moves))  # the bound itself is fine
    with pytest.raises(GameRegistrationError,
                       match=r"'toy-variant' cannot register: MAX_MOVES = 65537, "
                             r"but generic search needs 1\.\.65536 \(MCTS's stride primes"):
        register_game("toy-variant", with_moves(LIMITS.max_moves + 1))
    with pytest.raises(GameRegistrationError, match="MAX_MOVES = 0"):
        register_game("toy-variant", with_moves(0))
    assert "toy-variant" not in game_names()


def test_more_players_than_minimax_handles_is_refused():
    check_game_class("toy-variant", variant(max_players=LIMITS.max_players))
    with pytest.raises(GameRegistrationError, match=r"up to 9 players, but generic search handles at most 8 "
                                                    r"\(MAX_PLAYERS"):
        register_game("toy-variant", variant(max_players=9))
    with pytest.raises(GameRegistrationError, match="not a range of seats"):
        register_game("toy-variant", variant(min_players=3, max_players=2))


@pytest.mark.parametrize("size", [HEADER_SIZE - 1, LIMITS.max_state_size + 1, "25"])
def test_a_state_size_out_of_bounds_is_refused(monkeypatch, size):
    monkeypatch.setattr(toy_kernels, "STATE_SIZE", size)
    with pytest.raises(GameRegistrationError, match=rf"STATE_SIZE = {size!r}, but states need {HEADER_SIZE}\.\."):
        register_game("toy-variant", variant())


def test_a_kernel_module_without_a_protocol_function_is_refused(monkeypatch):
    monkeypatch.delattr(toy_kernels, "determinize")
    with pytest.raises(GameRegistrationError,
                       match="kernel module tests.toy_goofspiel.kernels lacks determinize"):
        register_game("toy-variant", variant())


def test_bad_registrations_are_refused():
    with pytest.raises(GameRegistrationError, match="not a forumlab.core.game.Game subclass"):
        register_game("toy-variant", dict)
    with pytest.raises(GameRegistrationError, match="its class is named 'toy-goofspiel'"):
        register_game("toy-variant", ToyGoofspiel)
    with pytest.raises(GameRegistrationError, match="built in"):
        register_game("forma", variant(name="forma"))
    with pytest.raises(GameRegistrationError, match="cannot load 'tests.toy_goofspiel.game:Nope'"):
        register_game(toy_goofspiel.NAME, "tests.toy_goofspiel.game:Nope")
    register_game("toy-variant", variant())
    with pytest.raises(GameRegistrationError, match="already registered"):
        register_game("toy-variant", variant())
    assert issubclass(GameRegistrationError, ForumlabError)


def test_register_and_unregister_reach_child_processes_through_the_environment(monkeypatch):
    monkeypatch.delenv(registry.ENV_VAR, raising=False)
    with toy_goofspiel.registered():
        assert toy_goofspiel.NAME in game_names()
        assert create_game(toy_goofspiel.NAME, players=3).players == 3
        assert registry.os.environ[registry.ENV_VAR] == f"{toy_goofspiel.NAME}={toy_goofspiel.TARGET}"
    assert toy_goofspiel.NAME not in game_names()
    assert registry.ENV_VAR not in registry.os.environ
    with pytest.raises(UnknownGameError):
        create_game(toy_goofspiel.NAME)


def test_games_named_in_the_environment_are_found_and_checked(monkeypatch):
    monkeypatch.setenv(registry.ENV_VAR, f" {toy_goofspiel.NAME} = {toy_goofspiel.TARGET} ")
    assert toy_goofspiel.NAME in game_names()
    assert isinstance(create_game(toy_goofspiel.NAME), ToyGoofspiel)
    monkeypatch.setattr(toy_kernels, "STATE_SIZE", 10**9)
    registry._CHECKED.clear()
    with pytest.raises(GameRegistrationError, match="STATE_SIZE = 1000000000"):
        create_game(toy_goofspiel.NAME)
    monkeypatch.setenv(registry.ENV_VAR, "toy-goofspiel")
    with pytest.raises(GameRegistrationError, match="'toy-goofspiel' is not name=module:Class"):
        game_names()


def test_entry_point_games_are_found(monkeypatch):
    from importlib.metadata import EntryPoint

    plugin = EntryPoint(name=toy_goofspiel.NAME, value=toy_goofspiel.TARGET, group=registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points",
                        lambda group: [plugin] if group == registry.ENTRY_POINT_GROUP else [])
    assert toy_goofspiel.NAME in game_names()
    state = create_game(toy_goofspiel.NAME, players=2, cards=3).new_state(0)
    assert state.legal_move_texts() == ["1", "2", "3"]


def test_a_built_in_entry_beyond_a_limit_fails_with_one_line_on_the_cli(monkeypatch):
    monkeypatch.setitem(registry._GAMES, "toy-variant", "tests.conformance.test_game_registry:TooManyPlayers")
    with pytest.raises(GameRegistrationError):
        create_game("toy-variant")
    result = CliRunner().invoke(cli_main, ["play", "toy-variant"])
    assert result.exit_code == 2
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error: game 'toy-variant' cannot register: up to 9")


TooManyPlayers = variant(max_players=9)


def test_the_toy_game_starts_as_its_docstring_says():
    with toy_goofspiel.registered():
        state = create_game(toy_goofspiel.NAME, players=3, cards=4).new_state(4)
    assert state.legal_move_texts() == ["1", "2", "3", "4"]
    assert sorted(state.array[toy_kernels.DECK:toy_kernels.DECK + 4].tolist()) == [1, 2, 3, 4]
    state.play("4")
    state.play("4")
    state.play("3")  # seats 0 and 1 tie for the highest bid: the prize goes to nobody
    assert state.scores() == [0, 0, 0]
    assert state.current_player == 0
    assert np.count_nonzero(state.array[toy_kernels.BID:toy_kernels.BID + 3]) == 0
