"""Game options: ``KEY=VALUE`` pairs from the command line, and the one path that checks
every game's options against the game's declarations (``OPTIONS``)."""
from __future__ import annotations

import dataclasses
import inspect
import json
import weakref
from typing import Any

import numpy as np

from .errors import ConfigError
from .params import Param, show_value


def option_key(key: str) -> str:
    """The name a ``KEY=VALUE`` pair gives: stripped of surrounding spaces, dashes as
    underscores (so ``max-rounds``, `` max_rounds`` and ``max_rounds`` are one key)."""
    return key.strip().replace("-", "_")


def parse_key_values(pairs) -> dict:
    """``("max_rounds=50", "obstacles=none")`` -> ``{"max_rounds": 50, "obstacles": "none"}``.

    Values are read as JSON when they parse (numbers, lists, true/false), else as text;
    keys are stripped and their dashes become underscores.

    Args:
        pairs: ``KEY=VALUE`` strings (an iterable).

    Returns:
        The options as a dict.

    Raises:
        ConfigError: a pair has no ``=`` or no key, a key is given twice (after the
            spelling is normalised: ``max-rounds`` and ``max_rounds`` are one key, so
            neither silently wins), or a value nests lists too deeply.
    """
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        name = option_key(key)
        if not sep or not name:
            raise ConfigError(f"--option expects KEY=VALUE, got {pair!r}")
        if name in options:
            raise ConfigError(f"option {name} given twice")
        try:
            options[name] = json.loads(value)
        except RecursionError:
            raise ConfigError(f"--option {name}: the value nests lists too deeply") from None
        except ValueError:  # not JSON (or an integer of over 4300 digits): keep it as text
            options[name] = value
    return options


# ---- declared game options ------------------------------------------------------------
# A game declares its options once, as ``OPTIONS = {"players": Param(...), ...}`` on its
# class; the functions below are the one path that checks them, whichever way a game is
# made (its constructor, ``Game.from_config``, ``create_game``, the CLI's ``-o``, the API).


def _plain(value: Any) -> Any:
    """numpy integers as ints, tuples as lists, nested: what the declarations check."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def players_param(cls) -> Param:
    """The ``players`` declaration of a game that declares no options: the class's seat
    range, its constructor's default (else the fewest seats)."""
    default = inspect.signature(cls.__init__).parameters.get("players")
    start = default.default if default is not None and default.default is not inspect.Parameter.empty \
        else cls.min_players
    return Param(start, "number of players", kind=int, low=cls.min_players, high=cls.max_players)


def game_options(cls) -> dict[str, Param]:
    """A game class's option declarations, ``players`` first.

    Args:
        cls: a Game subclass.

    Returns:
        Its ``OPTIONS``, with the class's seat range on a ``players`` declared without a
        range or a validator; for a game that declares none, ``players`` alone.
    """
    declared = getattr(cls, "OPTIONS", None)
    key = (declared, cls.min_players, cls.max_players)
    cached = _GAME_OPTIONS.get(cls)
    if cached is None or cached[0] is not key[0] or cached[1:3] != key[1:]:
        cached = (*key, _game_options(cls, declared))
        _GAME_OPTIONS[cls] = cached
    return dict(cached[3])


# class -> (OPTIONS, min_players, max_players, declarations): building a players range costs
# more than checking a whole config, and every game made reads them.
_GAME_OPTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _game_options(cls, declared: dict | None) -> dict[str, Param]:
    if declared is None:
        return {"players": players_param(cls)}
    options = dict(declared)
    players = options.get("players")
    if players is not None and players.validate is None and players.low is None:
        # The seat range is the class's (min_players, max_players: what the arena and the
        # registry read); a count that depends on other options has a validator instead.
        options["players"] = dataclasses.replace(players, low=cls.min_players, high=cls.max_players)
    return options


def _check_players(game: str, param: Param, value: Any) -> Any:
    """``players`` keeps the wording records and the CLI have always shown for a count
    out of range (``forma takes 2-4 players, not 5``)."""
    if (param.kind is int and param.low is not None and param.high is not None
            and isinstance(value, int) and not isinstance(value, bool)
            and not param.low <= value <= param.high):
        raise ConfigError(f"{game} takes {param.low}-{param.high} players, not {value}")
    return param.check(value, game, "players")


def check_option_names(cls, given: dict) -> None:
    """Refuse an option the game does not declare.

    Args:
        cls: a Game subclass.
        given: the options given, by name.

    Raises:
        ConfigError: ``GAME: unknown option 'x' (options: ...)``.
    """
    params = game_options(cls)
    for key in given:
        if key not in params:
            raise ConfigError(f"{cls.name}: unknown option {key!r} (options: {', '.join(params)})")


def resolve_game_options(cls, given: dict) -> dict[str, Any]:
    """Check a game's options against its declarations (:func:`game_options`).

    Every declared option is checked by its :class:`~forumlab.core.params.Param` (type,
    range, choices, list shape), then every ``validate`` function runs in declaration
    order with all checked values at hand (e.g. a count that depends on ``players``).

    Args:
        cls: a Game subclass.
        given: the options given, by name (missing ones take their defaults).

    Returns:
        Every declared option's value, as the declarations return them (normalised:
        numpy integers as ints, tuples as lists, what the validators return).

    Raises:
        ConfigError: one line naming the game and the option: an unknown name, or a value
            that its declaration or validator refuses.
    """
    params = game_options(cls)
    check_option_names(cls, given)
    values = {}
    for name, param in params.items():
        value = _plain(given[name] if name in given else param.default)
        values[name] = (_check_players(cls.name, param, value) if name == "players"
                        else param.check(value, cls.name, name))
    for name, param in params.items():
        if param.validate is not None:
            try:
                values[name] = param.validate(values[name], values)
            except ValueError as exc:
                raise ConfigError(f"{cls.name}: option {name}: {exc}") from None
    return values


def declaration_problem(cls) -> str | None:
    """Where a game's option declarations and its constructor disagree, or None.

    ``OPTIONS`` must map names to Params and declare ``players``, and ``__init__`` must
    take exactly the declared options as keyword arguments, with the declared defaults.
    A game that declares no ``OPTIONS`` takes ``players`` only.

    Args:
        cls: a Game subclass.

    Returns:
        One line for the registry's refusal, or None.
    """
    declared = getattr(cls, "OPTIONS", None)
    if declared is not None:
        if not isinstance(declared, dict) or not all(isinstance(p, Param) for p in declared.values()):
            return "OPTIONS must map option names to forumlab.core.params.Param declarations"
        if "players" not in declared:
            return "OPTIONS does not declare players"
    declared = game_options(cls)
    if getattr(cls.__init__, "__qualname__", "") == "Game.__init__":
        return None  # the base class's constructor: players and the declared options, checked
    taken = {name: p for name, p in inspect.signature(cls.__init__).parameters.items() if name != "self"}
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in taken.values()):
        return "__init__ takes *args or **kwargs: it must name each declared option"
    for name in taken.keys() - declared.keys():
        return f"__init__ takes option {name!r}, which OPTIONS does not declare"
    for name in declared.keys() - taken.keys():
        return f"OPTIONS declares {name!r}, which __init__ does not take"
    for name, param in declared.items():
        default = taken[name].default
        if default is inspect.Parameter.empty:
            if name == "players" and getattr(cls, "OPTIONS", None) is None:
                continue  # players only, required: the base class's own signature
            return f"option {name!r} has no default in __init__ (OPTIONS: {param.default!r})"
        if _plain(default) != _plain(param.default):
            return f"option {name!r} defaults to {param.default!r} in OPTIONS but to {default!r} in __init__"
    return None


def option_text(value: Any) -> str:
    """A value as ``-o KEY=VALUE`` takes it: text bare, lists as JSON, ``true``, ``none``."""
    if isinstance(value, (list, tuple)):
        return json.dumps(_plain(value), separators=(",", ":"))
    return value if isinstance(value, str) else show_value(value)


def option_rows(cls) -> list[tuple[str, str, str, str]]:
    """A game's options for listings (``forumlab games --options GAME``, the docs).

    Args:
        cls: a Game subclass.

    Returns:
        One ``(name, default, allowed values, help)`` row per option, ``players`` first;
        the default as ``-o`` would take it, the allowed values compactly
        (:meth:`~forumlab.core.params.Param.type_text`).
    """
    return [(name, option_text(p.default), p.type_text(), p.help) for name, p in game_options(cls).items()]
