"""Games by name. Engines are imported lazily so that listing games stays cheap.

A game is found, in this order, in

- the built-in table below (one line per game that ships with forumlab);
- games registered in this process with :func:`register_game` (tests, notebooks);
- the ``forumlab.games`` entry-point group of installed packages, which every
  process sees (arena workers too), e.g. in a third-party pyproject.toml::

      [project.entry-points."forumlab.games"]
      my-game = "mypackage.game:MyGame"

Every game class is checked against the protocol's generic limits
(:mod:`forumlab.core.limits`) when it is first loaded, so a game that breaks one is
refused with a clear message instead of misbehaving inside a search.
"""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from .errors import GameRegistrationError, UnknownGameError
from .game import Game
from .limits import check_game_class

ENTRY_POINT_GROUP = "forumlab.games"

# name -> "module:Class"; engines register here when they land.
_GAMES: dict[str, str] = {
    "forum-romanum": "forumlab.engines.forum_romanum.game:ForumRomanum",
    "forma": "forumlab.engines.forma.game:Forma",
}
_REGISTERED: dict[str, type[Game]] = {}  # register_game, this process only
_CHECKED: dict[str, type[Game]] = {}  # name -> class that passed check_game_class


def _entry_point_targets() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted({*_GAMES, *_REGISTERED, *_entry_point_targets()})


def _import_target(name: str, target: str) -> Any:
    module, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise GameRegistrationError(f"game {name!r}: cannot load {target!r}: {exc}") from None


def get_game_class(name: str) -> type[Game]:
    """The Game subclass for a registered name.

    Raises:
        UnknownGameError: no game has this name.
        GameRegistrationError: the game cannot be loaded or breaks a generic limit.
    """
    if name in _REGISTERED:
        return _REGISTERED[name]
    target = _GAMES.get(name) if isinstance(name, str) else None
    if target is None and isinstance(name, str):
        target = _entry_point_targets().get(name)
    if target is None:
        known = ", ".join(game_names())
        raise UnknownGameError(f"unknown game {name!r} (known: {known})")
    cls = _import_target(name, target)
    if _CHECKED.get(name) is not cls:
        check_game_class(name, cls)
        _CHECKED[name] = cls
    return cls


def register_game(name: str, game: type[Game] | str) -> type[Game]:
    """Register a game under ``name`` in this process, after checking it.

    For games outside forumlab that a test or a notebook plays in this process
    (worker processes of a local tournament do not see it; a package that wants
    them to declares a ``forumlab.games`` entry point instead).

    Args:
        name: the game's name (what configs, records and the CLI use); it must be
            the class's ``name`` and not a built-in game's.
        game: the Game subclass, or its ``"module:Class"`` path.

    Returns:
        The registered class.

    Raises:
        GameRegistrationError: a taken or mismatched name, a class that cannot be
            loaded, or one that breaks a limit of generic code
            (:func:`forumlab.core.limits.check_game_class`).
    """
    if not isinstance(name, str) or not name:
        raise GameRegistrationError(f"a game name must be non-empty text, not {name!r}")
    if name in _GAMES:
        raise GameRegistrationError(f"game {name!r} is built in and cannot be registered again")
    cls = _import_target(name, game) if isinstance(game, str) else game
    check_game_class(name, cls)
    if cls.name != name:
        raise GameRegistrationError(f"game {name!r} cannot register: its class is named {cls.name!r}")
    if _REGISTERED.get(name, cls) is not cls:
        raise GameRegistrationError(f"game {name!r} is already registered")
    _REGISTERED[name] = cls
    return cls


def unregister_game(name: str) -> None:
    """Forget a game registered with :func:`register_game` (no-op if it is not)."""
    _REGISTERED.pop(name, None)


def create_game(name: str, config: dict[str, Any] | None = None, **options) -> Game:
    """A configured game from its name and options (config dict and/or keywords)."""
    merged = dict(config or {})
    merged.update(options)
    return get_game_class(name).from_config(merged)
