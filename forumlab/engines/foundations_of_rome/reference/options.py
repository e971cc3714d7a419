"""Game options: validation with one-line ConfigError messages."""

from __future__ import annotations

import operator
from dataclasses import dataclass

from forumlab.core.errors import ConfigError

from .catalogue import (
    CONSUL_LEVELS,
    DEFAULT_DEED_PRICES,
    DEFAULT_MAX_TURNS,
    GRID_SIZE,
    MODULES_KNOWN,
    START_SILVER,
)

OPTION_NAMES = ("players", "modules", "draft", "deed_prices", "max_turns",
                "objectives", "consul", "max_trades", "start_silver")


def _integer(value, name: str) -> int:
    if isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ConfigError(f"{name} must be an integer, not {value!r}") from None


@dataclass(frozen=True)
class Options:
    """Validated options of one game (see the spec's "Options" section)."""

    players: int = 3
    modules: tuple[str, ...] = ()
    draft: bool = False
    deed_prices: tuple[int, ...] = DEFAULT_DEED_PRICES
    max_turns: int = DEFAULT_MAX_TURNS
    objectives: str = "hidden"
    consul: bool | str = False
    max_trades: int = 1
    # Study option beyond the spec (not a published rule): each seat's starting silver,
    # for the balance study of the start-silver rule. None means the spec's 5 + seat.
    start_silver: tuple[int, ...] | None = None

    def seat_start_silver(self, seat: int) -> int:
        """A seat's starting silver: the spec's START_SILVER + seat unless overridden."""
        return START_SILVER + seat if self.start_silver is None else self.start_silver[seat]

    @property
    def monuments(self) -> bool:
        return "monuments" in self.modules

    @property
    def trading(self) -> bool:
        return "trading" in self.modules

    @property
    def stealing(self) -> bool:
        return "stealing" in self.modules

    @property
    def favor_tokens(self) -> bool:
        """Favor tokens exist with Trading or Stealing."""
        return self.trading or self.stealing

    @property
    def objectives_module(self) -> bool:
        return "objectives" in self.modules

    @property
    def hidden_objectives(self) -> bool:
        return self.objectives_module and self.objectives == "hidden"

    @property
    def invocations(self) -> bool:
        return "invocations" in self.modules

    @property
    def roles(self) -> bool:
        return "roles" in self.modules

    @property
    def grid_players(self) -> int:
        """The player count the city, deeds and display follow (1 human: the 2-player
        city)."""
        return max(2, self.players)

    def config(self) -> dict:
        """The options as a JSON-ready dict (the record's ``config``)."""
        config = {"players": self.players, "modules": list(self.modules), "draft": self.draft,
                  "deed_prices": list(self.deed_prices), "max_turns": self.max_turns}
        # Module options are recorded only where they act, so base-game configs stay as before.
        if self.objectives_module:
            config["objectives"] = self.objectives
        if self.trading:
            config["max_trades"] = self.max_trades
        if self.consul:
            config["consul"] = self.consul
        if self.start_silver is not None:  # the study option, recorded only when used
            config["start_silver"] = list(self.start_silver)
        return config


def validate(**options) -> Options:
    """Options from keyword values, checked; ConfigError (one line) for anything wrong.

    Args:
        options: any of ``players`` (2-5), ``modules`` (list of module names),
            ``draft`` (bool), ``deed_prices`` (6 non-decreasing non-negative integers),
            ``max_turns`` (>= 1), ``objectives`` ("hidden"/"public"), ``consul`` (false,
            true = "standard", "standard", "hard", "challenge": 1-4 players, no module but
            monuments), ``max_trades`` (0-3), and the study option ``start_silver`` (one
            non-negative integer per seat; not in the spec).

    Returns:
        The Options.
    """
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise ConfigError(f"unknown option {unknown[0]!r} (known: {', '.join(OPTION_NAMES)})")
    players = _integer(options.get("players", 3), "players")
    consul = options.get("consul", False)
    if consul is True:
        consul = "standard"
    if consul is not False and consul not in CONSUL_LEVELS:
        raise ConfigError(f"consul must be false, true, 'standard', 'hard' or 'challenge', not {consul!r}")
    if consul and not 1 <= players <= 4:
        raise ConfigError(f"players must be 1-4 with the Will of the Consul, not {players}")
    if not consul and players not in GRID_SIZE:
        raise ConfigError(f"players must be 2-5 (1 only with the Will of the Consul), not {players}")

    modules = options.get("modules", ())
    if isinstance(modules, str) or not isinstance(modules, (list, tuple)):
        raise ConfigError(f"modules must be a list of module names, not {modules!r}")
    for name in modules:
        if name not in MODULES_KNOWN:
            raise ConfigError(f"unknown module {name!r} (known: {', '.join(MODULES_KNOWN)})")
    if len(set(modules)) != len(modules):
        raise ConfigError(f"modules lists a module twice: {list(modules)}")
    if consul:
        others = [name for name in modules if name != "monuments"]
        if others:
            raise ConfigError(f"the Will of the Consul allows only the monuments module, not {others[0]!r}")

    draft = options.get("draft", False)
    if not isinstance(draft, bool):
        raise ConfigError(f"draft must be true or false, not {draft!r}")

    prices = options.get("deed_prices", DEFAULT_DEED_PRICES)
    if isinstance(prices, str) or not isinstance(prices, (list, tuple)) or len(prices) != 6:
        raise ConfigError(f"deed_prices must be a list of 6 integers, not {prices!r}")
    prices = tuple(_integer(p, "each deed price") for p in prices)
    if min(prices) < 0 or any(a > b for a, b in zip(prices, prices[1:])):
        raise ConfigError(f"deed_prices must be non-negative and non-decreasing, not {list(prices)}")

    max_turns = _integer(options.get("max_turns", DEFAULT_MAX_TURNS), "max_turns")
    if max_turns < 1:
        raise ConfigError(f"max_turns must be >= 1, not {max_turns}")

    objectives = options.get("objectives", "hidden")
    if objectives not in ("hidden", "public"):
        raise ConfigError(f"objectives must be 'hidden' or 'public', not {objectives!r}")
    max_trades = _integer(options.get("max_trades", 1), "max_trades")
    if not 0 <= max_trades <= 3:
        raise ConfigError(f"max_trades must be 0-3, not {max_trades}")
    # Study option (not in the spec): equal to the spec's rule it is stored as None.
    silver = options.get("start_silver")
    if silver is not None:
        if isinstance(silver, str) or not isinstance(silver, (list, tuple)) or len(silver) != players:
            raise ConfigError(f"start_silver must be a list of {players} integers, not {silver!r}")
        silver = tuple(_integer(x, "each start_silver") for x in silver)
        if min(silver) < 0:
            raise ConfigError(f"start_silver must be non-negative, not {list(silver)}")
        if silver == tuple(START_SILVER + seat for seat in range(players)):
            silver = None
    return Options(players, tuple(modules), draft, prices, max_turns, objectives, consul, max_trades,
                   silver)
