"""Games by name. Engines are imported lazily so that listing games stays cheap.

A game is found, in this order, in

- the built-in table below (one line per game that ships with forumlab);
- games registered with :func:`register_game` (tests, notebooks, scripts). Such a
  registration is also written to the environment variable ``FORUMLAB_GAMES``
  (``name=module:Class`` pairs separated by commas), so the processes this one
  starts afterwards (warm-up children, a tournament's workers) know the game too;
  a user may set the variable by hand to plug a game into the CLI;
- the ``forumlab.games`` entry-point group of installed packages, which every
  process sees, e.g. in a third-party pyproject.toml::

      [project.entry-points."forumlab.games"]
      my-game = "mypackage.game:MyGame"

Every game class is checked against the protocol's generic limits
(:mod:`forumlab.core.limits`) when it is first loaded, so a game that breaks one is
refused with a clear message instead of misbehaving inside a search.
"""
from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points
from typing import Any

from .errors import GameRegistrationError, UnknownGameError
from .game import Game
from .limits import check_game_class

ENTRY_POINT_GROUP = "forumlab.games"
ENV_VAR = "FORUMLAB_GAMES"

# name -> "module:Class"; engines register here when they land.
_GAMES: dict[str, str] = {
    "forum-romanum": "forumlab.engines.forum_romanum.game:ForumRomanum",
    "forma": "forumlab.engines.forma.game:Forma",
    "foundations-of-rome": "forumlab.engines.foundations_of_rome.game:FoundationsOfRome",
    "forum-trajanum": "forumlab.engines.forum_trajanum.game:ForumTrajanum",
}
_REGISTERED: dict[str, type[Game]] = {}  # register_game, this process only
_CHECKED: dict[str, type[Game]] = {}  # name -> class that passed check_game_class


def _entry_point_targets() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _env_targets() -> dict[str, str]:
    """The ``FORUMLAB_GAMES`` registrations; GameRegistrationError if malformed."""
    targets = {}
    for pair in filter(None, (p.strip() for p in os.environ.get(ENV_VAR, "").split(","))):
        name, sep, target = (part.strip() for part in pair.partition("="))
        if not (sep and name and ":" in target):
            raise GameRegistrationError(f"{ENV_VAR}: {pair!r} is not name=module:Class")
        if name in targets:  # neither may silently win
            raise GameRegistrationError(f"{ENV_VAR}: {name} given twice")
        targets[name] = target
    return targets


def _set_env_targets(targets: dict[str, str]) -> None:
    if targets:
        os.environ[ENV_VAR] = ",".join(f"{n}={t}" for n, t in targets.items())
    else:
        os.environ.pop(ENV_VAR, None)


def game_names() -> list[str]:
    """Every game name this process can play.

    Returns:
        The built-in, registered, ``FORUMLAB_GAMES`` and entry-point names, sorted.

    Raises:
        GameRegistrationError: ``FORUMLAB_GAMES`` is malformed.
    """
    return sorted({*_GAMES, *_REGISTERED, *_env_targets(), *_entry_point_targets()})


def _import_target(name: str, target: str) -> Any:
    module, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise GameRegistrationError(f"game {name!r}: cannot load {target!r}: {exc}") from None


def get_game_class(name: str) -> type[Game]:
    """The Game subclass for a registered name, checked against the generic limits.

    Args:
        name: a game name, e.g. ``"forma"``.

    Returns:
        The Game subclass (loaded on first use, so listing games stays cheap).

    Raises:
        UnknownGameError: no game has this name.
        GameRegistrationError: the game cannot be loaded or breaks a generic limit.
    """
    if name in _REGISTERED:
        return _REGISTERED[name]
    target = _GAMES.get(name) if isinstance(name, str) else None
    if target is None and isinstance(name, str):
        target = _env_targets().get(name) or _entry_point_targets().get(name)
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

    For games outside forumlab that a test, a notebook or a script plays. Processes
    started afterwards learn the game from ``FORUMLAB_GAMES`` and import its class by
    module path, so the class must be importable there (not defined in
    ``__main__``). A process pool started before the registration (a fork server)
    does not see it; an installed package declares a ``forumlab.games`` entry point
    instead.

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
    if cls.__module__ != "__main__":  # another process's __main__ is another module
        _set_env_targets({**_env_targets(), name: f"{cls.__module__}:{cls.__qualname__}"})
    return cls


def unregister_game(name: str) -> None:
    """Forget a game registered with :func:`register_game` (no-op if it is not).

    Args:
        name: the registered name; also removed from ``FORUMLAB_GAMES``.
    """
    if _REGISTERED.pop(name, None) is not None:
        _set_env_targets({n: t for n, t in _env_targets().items() if n != name})


def create_game(name: str, config: dict[str, Any] | None = None, **options) -> Game:
    """A configured game.

    Args:
        name: a registered game name.
        config: the game's options, e.g. ``{"players": 3}`` (None: the defaults).
        **options: more options; they win over ``config``.

    Returns:
        The Game object.

    Raises:
        UnknownGameError, GameRegistrationError: as :func:`get_game_class`.
        ConfigError: an unknown option or a bad value.
    """
    merged = dict(config or {})
    merged.update(options)
    return get_game_class(name).from_config(merged)
