"""Foundations of Rome: the Python facade (options; glue to notation, rendering, results).

Rules: ``shared/rules/foundations-of-rome.md``: the base game, the ``draft`` option,
every module and the Will of the Consul; for players, the rules, the notation and every
decision this project made are in ``docs/games/foundations-of-rome.md`` of the repository.

Options: ``players`` 2-5 (1-4 with the Consul), ``modules`` (a list from "monuments",
"trading", "stealing", "objectives", "invocations", "roles"), ``objectives``
("hidden"/"public"), ``consul`` (false, true = "standard", "standard", "hard",
"challenge"; only "monuments" and the draft may be added), ``max_trades`` (0-3, default
1), ``draft`` (bool), ``deed_prices`` (six non-decreasing non-negative integers, default
2,3,4,6,8,10), ``max_turns`` (main actions before the game is cut off, default 1000).
``objectives`` and ``max_trades`` are validated always and act only with their module;
``config`` records ``objectives`` only with Objectives, ``max_trades`` only with
Trading and ``consul`` only when on, so base-game records are unchanged.

Study option beyond the spec (not part of the published rules): ``start_silver``, one
non-negative integer per seat (default 5, 6, 7, 8, 9 cut to the player count, the spec's
"seat i starts with 5+i silver"), for the balance study of the start-silver rule. It
appears in ``config`` only when it differs from the default, so records of the
published rules keep the spec's config.

Notation (the spec's): :mod:`.notation`; the picture: :mod:`.render`; the result's fields:
:func:`.scoring.result_details`.

A Will of the Consul game is cooperative: ``result()`` reports the players' VP as
``scores``, every rank 1, every seat a winner iff each player's VP exceeds the Consul's,
plus ``consul_vp`` and ``consul_margin`` (min over seats of VP - Consul VP), which is
every seat's reward (the ``scores`` kernel gives it to every seat, so search agents
play for the team).
Decisions where the spec is silent: the package docstring (``__init__.py``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.errors import ConfigError
from ...core.game import Game, LazyKernels
from ...core.params import Param
from . import notation
from .layout import (
    CONSUL_CHALLENGE,
    CONSUL_HARD,
    CONSUL_STANDARD,
    MODULE_BITS,
    PLAYER,
    PLY,
    TRUNCATED,
)

# The engine's numba modules are imported where they are used, so that listing the game
# and its options imports no numba (tests/project/test_light_imports.py).

MODULE_NAMES = ("monuments", "trading", "stealing", "objectives", "invocations", "roles")
CONSUL_LEVELS = {"standard": CONSUL_STANDARD, "hard": CONSUL_HARD, "challenge": CONSUL_CHALLENGE}
DEFAULT_PRICES = (2, 3, 4, 6, 8, 10)
DEFAULT_START_SILVER = (5, 6, 7, 8, 9)  # the spec: seat i starts with 5 + i silver
MAX_TURNS_LIMIT = 1_000_000


def _seat_count(players: int, options: dict) -> int:
    """``players``' deep check: 2-5, or 1-4 with the Will of the Consul (one human may
    play it alone: the spec's DECISION)."""
    if options["consul"] and not 1 <= players <= 4:
        raise ConfigError(f"foundations-of-rome: the Will of the Consul takes 1-4 players, not {players}")
    if not options["consul"] and not 2 <= players <= 5:
        raise ConfigError(f"foundations-of-rome takes 2-5 players (1 only with the Will of the Consul), "
                          f"not {players}")
    return players


def _non_decreasing(prices: list[int], options: dict) -> list[int]:
    """``deed_prices``' deep check: a later slot never costs less."""
    if any(a > b for a, b in zip(prices, prices[1:])):
        raise ValueError(f"the prices must be non-decreasing, not {prices}")
    return prices


def _consul_level(consul: bool | str | None, options: dict) -> str | bool:
    """``consul``'s deep check: true means "standard", none means false, and the Consul
    allows only the monuments module beside the draft."""
    level = "standard" if consul is True else (consul or False)
    others = [m for m in options["modules"] if m != "monuments"]
    if level and others:
        raise ValueError(f"the Will of the Consul allows only the monuments module, not {', '.join(others)}")
    return level


def _silver_per_seat(silver: list[int] | None, options: dict) -> list[int]:
    """``start_silver``'s deep check: one amount per seat (none: the spec's 5 + seat)."""
    players = options["players"]
    if silver is None:
        return list(DEFAULT_START_SILVER[:players])
    if len(silver) != players:
        raise ValueError(f"one amount per seat: {players} for {players} players, not {silver}")
    return silver


class FoundationsOfRome(Game):
    """Foundations of Rome for 2-5 players: the base game, the draft, all six modules and the
    Will of the Consul. Rules, notation and options for players:
    ``docs/games/foundations-of-rome.md``."""

    name = "foundations-of-rome"
    # A move's text depends on its code and the board's side, which the player count fixes.
    format_move_reads_position = False
    tensor_module = "forumlab.engines.foundations_of_rome.tensor"
    min_players = 2
    max_players = 5
    perfect_information = False
    # MCTS tuned against greedy at 3 players, 0.2 CPU s per move; figures: docs/results.md.
    mcts_defaults = {"rollout": "none", "hscale": 10.0, "c": 0.3}
    kernels = LazyKernels("forumlab.engines.foundations_of_rome.kernels")
    # Declared once: checked by forumlab.core.options, listed by `forumlab games --options`.
    OPTIONS = {
        "players": Param(3, "number of players: 2-5, or 1-4 with the Will of the Consul", kind=int,
                         validate=_seat_count),
        "modules": Param((), "modules in play", items=Param("monuments", "module", choices=MODULE_NAMES),
                         unique=True),
        "objectives": Param("hidden", "objectives dealt secretly, or face up for all (objectives module)",
                            choices=("hidden", "public")),
        "max_trades": Param(1, "trade offers a player may make per turn (trading module)", low=0, high=3),
        "draft": Param(False, "draft the starting deeds"),
        "consul": Param(False, "play together against the Will of the Consul (true = standard); only "
                               "monuments and the draft may be added",
                        choices=(False, True, *CONSUL_LEVELS), optional=True, validate=_consul_level),
        "deed_prices": Param(DEFAULT_PRICES, "the deed board's slot prices, non-decreasing",
                             items=Param(2, "price", low=0, high=10**6), min_len=6, max_len=6,
                             validate=_non_decreasing),
        "max_turns": Param(1000, "main actions before the game is cut off", low=1, high=MAX_TURNS_LIMIT),
        "start_silver": Param(None, "each seat's starting silver (none: 5, 6, 7, ... by seat); a study "
                                    "option, not a published rule",
                              items=Param(5, "amount", low=0, high=10**6), optional=True,
                              validate=_silver_per_seat),
    }

    def __init__(self, players: int = 3, modules: list[str] | tuple[str, ...] = (), draft: bool = False,
                 deed_prices: list[int] | tuple[int, ...] = DEFAULT_PRICES, max_turns: int = 1000,
                 consul: bool | str = False, start_silver: list[int] | tuple[int, ...] | None = None,
                 objectives: str = "hidden", max_trades: int = 1):
        super().__init__(players, modules=modules, draft=draft, deed_prices=deed_prices, max_turns=max_turns,
                         consul=consul, start_silver=start_silver, objectives=objectives,
                         max_trades=max_trades)
        options = self.options
        self.consul = CONSUL_LEVELS[options["consul"]] if options["consul"] else 0
        self.start_silver = options["start_silver"]
        self._default_silver = self.start_silver == list(DEFAULT_START_SILVER[:self.players])
        self.modules = options["modules"]
        self.module_bits = sum(MODULE_BITS[m] for m in self.modules)
        self.objectives = options["objectives"]
        self.max_trades = options["max_trades"]
        self.draft = options["draft"]
        self.deed_prices = options["deed_prices"]
        self.max_turns = options["max_turns"]

    @property
    def cooperative(self) -> bool:
        """True in a Will of the Consul game: the seats play as a team against the Consul."""
        return self.consul != 0

    @property
    def config(self) -> dict[str, Any]:
        config = {"players": self.players, "modules": list(self.modules), "draft": self.draft,
                  "deed_prices": list(self.deed_prices), "max_turns": self.max_turns}
        if "objectives" in self.modules:
            config["objectives"] = self.objectives
        if "trading" in self.modules:
            config["max_trades"] = self.max_trades
        if self.consul:
            config["consul"] = next(k for k, v in CONSUL_LEVELS.items() if v == self.consul)
        if not self._default_silver:  # the study option, recorded only when used
            config["start_silver"] = list(self.start_silver)
        return config

    def initial_array(self, seed: int) -> np.ndarray:
        from . import kernels as for_kernels
        from .setup import setup_options

        options = setup_options(self.players, self.module_bits, self.draft, self.deed_prices, self.max_turns,
                                self.start_silver, self.objectives == "public", self.max_trades, self.consul)
        return for_kernels.new_state(options, seed)

    # ---- notation (notation.py) ----------------------------------------------------
    def format_move(self, array: np.ndarray, move: int) -> str:
        return notation.format_move(array, move)

    def parse_move(self, array: np.ndarray, text: str) -> int:
        return notation.parse_move(array, text, self.players, self.modules)

    def move_seen_by(self, array: np.ndarray, move: int, seat: int) -> str | None:
        """Every move is public except another seat's draft pick and kept objective or
        role (:func:`.hidden.secret_move`)."""
        from . import hidden

        if int(array[PLAYER]) != seat and hidden.secret_move(array, move):
            return None
        return self.format_move(array, move)

    def move_words(self, before: np.ndarray, move: int, after: np.ndarray, seat: int) -> str:
        """A main action in words as told to ``seat`` ("" for a move secret from it and for
        the modules' moves; :func:`.words.move_words`)."""
        from .words import move_words

        text = self.move_seen_by(before, move, seat)
        return "" if text is None else move_words(before, after, text)

    def legend(self) -> str:
        """What the letters, codes and figures of the board picture mean."""
        from .words import LEGEND

        return LEGEND

    # ---- results -------------------------------------------------------------------
    def plies(self, array: np.ndarray) -> int:
        return int(array[PLY])

    def is_truncated(self, array: np.ndarray) -> bool:
        return bool(array[TRUNCATED])

    def observation(self, array: np.ndarray, seat: int) -> np.ndarray:
        from . import hidden

        return hidden.observation(array, seat)

    def rank_keys(self, array: np.ndarray, scores: list) -> list:
        """(VP, silver) per seat, one shared key in a Consul game (:func:`.scoring.tie_break_keys`)."""
        from .scoring import tie_break_keys

        return tie_break_keys(array, scores, self.consul)

    def details(self, array: np.ndarray) -> dict[str, Any]:
        from .scoring import result_details

        return result_details(array, self.modules, self.consul)

    # ---- picture (render.py) -------------------------------------------------------
    def render(self, array: np.ndarray) -> str:
        from .render import render_board

        return render_board(array, self.modules, self.consul)

    def bot_view(self, array: np.ndarray, seat: int) -> dict[str, Any]:
        """The seat's JSON view for bots (schema: ``docs/games/foundations-of-rome.md``)."""
        from . import view

        return view.bot_view(self, array, seat)
