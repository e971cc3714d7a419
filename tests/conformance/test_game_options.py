"""Game options are declared once (``OPTIONS``, forumlab.core.params.Param) and checked by
one path (forumlab.core.options): for every game, each declared default builds the game,
each value its declaration refuses is a one-line ConfigError naming the option, and the
constructor takes exactly the declared options (the registry refuses a game otherwise)."""
import numpy as np
import pytest

from forumlab.core.errors import ConfigError, GameRegistrationError
from forumlab.core.options import declaration_problem, game_options, parse_key_values, resolve_game_options
from forumlab.core.params import Param
from forumlab.core.registry import create_game, get_game_class, register_game, unregister_game
from tests import toy_goofspiel
from tests.toy_goofspiel.game import ToyGoofspiel

GAMES = ["forma", "forum-romanum", "forum-trajanum", "foundations-of-rome"]


@pytest.fixture(params=GAMES + [toy_goofspiel.NAME])
def game_class(request):
    if request.param == toy_goofspiel.NAME:
        with toy_goofspiel.registered():
            yield get_game_class(request.param)
    else:
        yield get_game_class(request.param)


def _bad_values(param: Param) -> list:
    """Values the declaration refuses: past each bound, an unknown choice, the wrong type,
    a list of the wrong length or with a bad element."""
    bad = [{"a": 1}]  # no option takes an object
    if param.kind is int:
        bad += [2.5, "3", True]
    if param.kind is bool:
        bad += ["yes", 1]
    if param.low is not None:
        bad.append(param.low - 1)
    if param.high is not None:
        bad.append(param.high + 1)
    if param.choices is not None:
        bad.append("no-such-choice")
    if param.items is not None:
        if param.max_len is not None:
            bad.append([param.items.default] * (param.max_len + 1))
        if param.items.choices is not None:
            bad.append(["no-such-choice"])
        if param.items.kind is int:
            bad.append([-1] * max(param.min_len, 1) if param.items.low == 0 else [0.5])
    return bad


def test_every_game_declares_its_options_and_its_constructor_agrees(game_class):
    assert game_class.OPTIONS is not None and next(iter(game_class.OPTIONS)) == "players"
    assert declaration_problem(game_class) is None
    for name, param in game_class.OPTIONS.items():
        assert param.help, f"{game_class.name}: option {name} has no help"


def test_each_declared_default_builds_the_default_game(game_class):
    default = game_class.from_config({})
    start = default.new_state(7).array
    for name, param in game_options(game_class).items():
        game = game_class.from_config({name: param.default})
        assert game.config == default.config
        assert np.array_equal(game.new_state(7).array, start)


def test_each_refused_value_is_one_config_error_line_naming_the_option(game_class):
    for name, param in game_options(game_class).items():
        for value in _bad_values(param):
            assert not param.accepts(value) or param.validate is not None
            with pytest.raises(ConfigError) as info:
                game_class.from_config({name: value})
            message = str(info.value)
            assert name in message and "\n" not in message, (name, value, message)


def test_an_unknown_option_names_itself_and_the_known_ones(game_class):
    with pytest.raises(ConfigError, match=rf"^{game_class.name}: unknown option 'colour' \(options: players"):
        game_class.from_config({"colour": 1})


def test_options_from_the_command_line_take_the_same_path():
    game = create_game("forum-romanum", parse_key_values(["max-rounds=50", "players=4"]))
    assert game.config == {"players": 4, "max_rounds": 50}
    with pytest.raises(ConfigError, match=r"^forum-romanum: option max_rounds must be an integer in 0\.\.1000000000 "
                                          r"\(got 'abc'\)$"):
        create_game("forum-romanum", parse_key_values(["max_rounds=abc"]))
    with pytest.raises(ConfigError, match=r"^forum-trajanum: option setup must be one of choose, fixed \(got 'x'\)$"):
        create_game("forum-trajanum", {"setup": "x"})


def test_deep_checks_are_the_declared_validators_and_name_the_option():
    with pytest.raises(ConfigError, match=r"^forma: option obstacles: bad square 'z1'$"):
        create_game("forma", {"obstacles": ["z1"]})
    with pytest.raises(ConfigError, match=r"^forma: option tower: a tower may only be given with an explicit"):
        create_game("forma", {"tower": "j10"})
    with pytest.raises(ConfigError, match=r"^foundations-of-rome: option deed_prices: the prices must be"):
        create_game("foundations-of-rome", {"deed_prices": [3, 2, 4, 6, 8, 10]})
    with pytest.raises(ConfigError, match=r"^foundations-of-rome: option modules: unknown module 'castles'"):
        create_game("foundations-of-rome", {"modules": ["castles"]})
    with pytest.raises(ConfigError, match=r"^foundations-of-rome: option start_silver: one amount per seat"):
        create_game("foundations-of-rome", {"players": 4, "start_silver": [5, 5, 5]})


def test_validators_normalise_what_they_accept():
    forma = create_game("forma", {"obstacles": [" c3 ", "e5"], "tower": "j10 "})
    assert forma.config == {"players": 4, "obstacles": ["c3", "e5"], "tower": "j10"}
    consul = create_game("foundations-of-rome", {"players": np.int64(1), "consul": True, "deed_prices": (2,) * 6})
    assert consul.config["consul"] == "standard" and consul.players == 1 and consul.deed_prices == [2] * 6
    assert resolve_game_options(ToyGoofspiel, {"cards": np.int64(5)}) == {"players": 2, "cards": 5}


# ---------------------------------------------------------------- declarations and constructor
class Undeclared(ToyGoofspiel):
    """Takes a ``speed`` option that its declarations do not know."""

    def __init__(self, players: int = 2, cards: int = 4, speed: int = 1):
        super().__init__(players, cards)


class Unaccepted(ToyGoofspiel):
    """Declares an option its constructor does not take."""

    OPTIONS = {**ToyGoofspiel.OPTIONS, "speed": Param(1, "how fast")}


class OtherDefault(ToyGoofspiel):
    """Its constructor's default is not the declared one."""

    def __init__(self, players: int = 2, cards: int = 5):
        super().__init__(players, cards)


@pytest.mark.parametrize("cls, words", [
    (Undeclared, "__init__ takes option 'speed', which OPTIONS does not declare"),
    (Unaccepted, "OPTIONS declares 'speed', which __init__ does not take"),
    (OtherDefault, "option 'cards' defaults to 4 in OPTIONS but to 5 in __init__"),
])
def test_the_registry_refuses_a_game_whose_constructor_and_declarations_disagree(cls, words):
    try:
        with pytest.raises(GameRegistrationError, match=rf"^game 'toy-variant' cannot register: {words}"):
            register_game("toy-variant", type("Variant", (cls,), {"name": "toy-variant"}))
    finally:
        unregister_game("toy-variant")
