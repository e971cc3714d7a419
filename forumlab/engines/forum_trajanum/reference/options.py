"""Game options (players, intro, setup) with one-line ConfigError messages."""

from __future__ import annotations

import operator
from dataclasses import dataclass

from forumlab.core.errors import ConfigError

OPTION_NAMES = ("players", "intro", "setup")


@dataclass(frozen=True)
class Options:
    """Validated options of one game (the spec's "Options" section)."""

    players: int = 3
    intro: bool = False
    setup: str = "choose"

    def config(self) -> dict:
        """The options as a record's ``config``."""
        return {"players": self.players, "intro": self.intro, "setup": self.setup}


def validate(**options) -> Options:
    """Options from keyword values, checked.

    Args:
        options: ``players`` (2-4, default 3), ``intro`` (bool, default False),
            ``setup`` ("choose" default, or "fixed").

    Returns:
        The Options. Raises ConfigError (one line) for anything else.
    """
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise ConfigError(f"unknown option {unknown[0]!r} (known: {', '.join(OPTION_NAMES)})")
    players = options.get("players", 3)
    if isinstance(players, bool):
        raise ConfigError(f"players must be an integer, not {players!r}")
    try:
        players = operator.index(players)
    except TypeError:
        raise ConfigError(f"players must be an integer, not {players!r}") from None
    if not 2 <= players <= 4:
        raise ConfigError(f"players must be 2-4, not {players}")
    intro = options.get("intro", False)
    if not isinstance(intro, bool):
        raise ConfigError(f"intro must be true or false, not {intro!r}")
    setup = options.get("setup", "choose")
    if setup not in ("choose", "fixed"):
        raise ConfigError(f"setup must be 'choose' or 'fixed', not {setup!r}")
    return Options(players, intro, setup)
