"""Games by name. Engines are imported lazily so that listing games stays cheap."""
from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGameError
from .game import Game

# name -> "module:Class"; engines register here when they land.
_GAMES: dict[str, str] = {
    "forum-romanum": "forumlab.engines.forum_romanum.game:ForumRomanum",
    "forma": "forumlab.engines.forma.game:Forma",
}


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_GAMES)


def get_game_class(name: str) -> type[Game]:
    """The Game subclass for a registered name."""
    try:
        target = _GAMES[name]
    except KeyError:
        known = ", ".join(game_names())
        raise UnknownGameError(f"unknown game {name!r} (known: {known})") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def create_game(name: str, config: dict[str, Any] | None = None, **options) -> Game:
    """A configured game from its name and options (config dict and/or keywords)."""
    merged = dict(config or {})
    merged.update(options)
    return get_game_class(name).from_config(merged)
