"""Forma: the Python facade (configuration, results) over the kernels, notation and display.

Rules: ``shared/rules/forma.md`` of the project (Ravensburger 1973 rulebook plus this
project's DECISIONs); the engine's own decisions are listed in
:mod:`forumlab.engines.forma.scoring`. For players, the rules, the notation and every
decision this project made are in ``docs/games/forma.md`` of the repository.
Configuration:

- ``players``: 2, 3 (variant) or 4 (default). With 2 players each owns two sets,
  treated as one colour.
- ``obstacles``: ``"random"`` (default: 25 grey stones and the tower drawn from the
  game's seed, see :mod:`forumlab.engines.forma.setup`), ``"none"``, or a list of up to
  25 square names for the grey stones.
- ``tower``: the tower's square name, only with an explicit list (``None`` = no tower).

Explicit layouts must keep the setup rules (tower off the edge, no two obstacles
touching along an edge); random layouts are uniform over all layouts that keep
them. A free square enclosed by the layout itself stays free and scores nobody. The
config and the seed define the game completely, so records replay exactly.

Notation: ``P5/3@h7`` (piece, orientation, top-left square of its bounding box; see
:mod:`forumlab.engines.forma.pieces`) and ``pass``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.game import Game, LazyKernels
from ...core.params import Param
from . import notation, view
from .layout import (
    BRIDGES_EW,
    BRIDGES_NS,
    ENCLOSED,
    MARKERS_USED,
    MAX_STONES,
    N_PLAYERS,
    PASSES,
    PLY,
    SQUARES_PLACED,
    STONES_CLAIMED,
    TERMINAL,
    TOWER_OWNER,
)
from .pieces import parse_square, square_name
from .render import pieces_left, render_board

# The engine's numba modules (the kernels, the setup) are imported where they are used,
# so that listing the game and its options imports no numba (tests/project/test_light_imports.py).


def _square(text: str) -> int:
    try:
        return parse_square(text.strip())
    except ValueError:
        raise ValueError(f"bad square {text!r}") from None


def _check_layout(obstacles: str | list[str], options: dict) -> str | list[str]:
    """The ``obstacles`` option's deep check: a list's squares exist (returned in canonical
    spelling) and, with the tower, keep the setup rules."""
    if isinstance(obstacles, str):
        return obstacles
    stones = [_square(name) for name in obstacles]
    try:
        tower = None if options["tower"] is None else _square(options["tower"])
    except ValueError:  # reported by the tower's own check
        tower = None
    from .setup import layout_problems

    problem = layout_problems(stones, tower)
    if problem:
        raise ValueError(f"bad obstacle layout: {problem}")
    return [square_name(q) for q in stones]


def _check_tower(tower: str | None, options: dict) -> str | None:
    """The ``tower`` option's deep check: a square that exists, with a list of obstacles."""
    if tower is None:
        return None
    if isinstance(options["obstacles"], str):
        raise ValueError("a tower may only be given with an explicit obstacles list")
    return square_name(_square(tower))


class Forma(Game):
    """Forma for 2-4 players on a 20x20 board with obstacles. Rules, notation and options for
    players: ``docs/games/forma.md``."""

    name = "forma"
    format_move_reads_position = False  # a move's text depends on its code alone
    tensor_module = "forumlab.engines.forma.tensor"
    min_players = 2
    max_players = 4
    # 2: random setups uniform over the spec's layouts (they may enclose a free square)
    engine_version = "2"
    # MCTS tuned against greedy at 0.2 CPU s per move and for 1 s over 0.1 s; figures: docs/results.md.
    mcts_defaults = {"rollout": "sample", "samples": 8, "cutoff": 4, "order_depth": 2, "widen": 0.3,
                     "tree_depth": 2, "hscale": 30.0}
    mcts_defaults_by_players = {2: {"hrelative": True, "deepen": 30},
                                4: {"reward": "rank", "hrelative": True, "c": 0.3,
                                    "long_proposals": 1, "long_min_seconds": 1.0,
                                    "long_min_iterations": 8_000}}
    kernels = LazyKernels("forumlab.engines.forma.kernels")

    # Declared once: checked by forumlab.core.options, listed by `forumlab games --options`.
    OPTIONS = {
        "players": Param(4, "2: two sets each, played as one colour; 3 is a variant"),
        "obstacles": Param("random", "grey stones: drawn from the seed, none, or these squares",
                           choices=("random", "none"), items=Param("c3", "square", kind=str),
                           max_len=MAX_STONES, validate=_check_layout),
        "tower": Param(None, "the tower's square, only with a list of obstacles (none: no tower)",
                       kind=str, optional=True, validate=_check_tower),
    }

    def __init__(self, players: int = 4, obstacles: str | list[str] = "random", tower: str | None = None):
        super().__init__(players, obstacles=obstacles, tower=tower)
        self.obstacles: str | list[str] = self.options["obstacles"]
        self.tower: str | None = self.options["tower"]
        listed = isinstance(self.obstacles, list)
        self._stones: list[int] | None = [parse_square(q) for q in self.obstacles] if listed else None
        self._tower_square = parse_square(self.tower) if self.tower is not None else -1

    @property
    def config(self) -> dict[str, Any]:
        """``players``, ``obstacles`` (``"random"``, ``"none"`` or square names) and ``tower``."""
        obstacles = list(self.obstacles) if isinstance(self.obstacles, list) else self.obstacles
        return {"players": self.players, "obstacles": obstacles, "tower": self.tower}

    def layout(self, seed: int) -> tuple[list[int], int]:
        """The obstacle layout of a game with this seed.

        Args:
            seed: the game's seed (used only with ``obstacles="random"``).

        Returns:
            ``(stone squares, tower square or -1)``, as square indices.
        """
        if self.obstacles == "random":
            from .setup import random_layout

            return random_layout(seed)
        if self.obstacles == "none":
            return [], -1
        return list(self._stones), self._tower_square

    def setup_record(self, start) -> dict[str, Any]:
        """With ``obstacles="random"``: the stone and tower squares the seed drew, as the
        explicit ``obstacles``/``tower`` options (stones in square order).

        Args:
            start: the start position (``new_state(seed)``).

        Returns:
            ``{"obstacles": [square names], "tower": square name or None}``; ``{}`` when the
            config fixes the layout.
        """
        if self.obstacles != "random":
            return {}
        from .setup import obstacle_squares

        stones, tower = obstacle_squares(start.array)
        return {"obstacles": [square_name(q) for q in stones],
                "tower": square_name(tower) if tower >= 0 else None}

    def initial_array(self, seed: int) -> np.ndarray:
        """The start position: the layout of :meth:`layout`, every supply full, seat 0 to move."""
        from .setup import new_state

        stones, tower = self.layout(seed)
        return new_state(self.players, np.array(stones, dtype=np.int64), tower, seed)

    # ---- notation ------------------------------------------------------------------
    def format_move(self, array: np.ndarray, move: int) -> str:
        """Notation of a move code (the position is not needed in Forma; see :mod:`.notation`)."""
        return notation.format_move(move)

    def parse_move(self, array: np.ndarray, text: str) -> int:
        """Move code for a notation string, legality unchecked (see :mod:`.notation`);
        IllegalMoveError if ``text`` is not a string or is malformed."""
        return notation.parse_move(text)

    # ---- results -------------------------------------------------------------------
    def plies(self, array: np.ndarray) -> int:
        """Plies played so far (passes included)."""
        return int(array[PLY])

    def details(self, array: np.ndarray) -> dict[str, Any]:
        """Forma's result fields, per player unless noted.

        Args:
            array: the position.

        Returns:
            ``squares`` (covered by pieces), ``enclosures`` (free squares enclosed), ``stones``
            (claimed), ``tower``
            (its owner or None), ``markers_used``, ``pieces_left``, ``passes`` (a count), and
            once the game is over ``bridges_ns`` and ``bridges_ew``.
        """
        n = int(array[N_PLAYERS])
        terminal = bool(array[TERMINAL])
        owner = int(array[TOWER_OWNER])
        out = {
            "squares": [int(array[SQUARES_PLACED + p]) for p in range(n)],
            "enclosures": [int(array[ENCLOSED + p]) for p in range(n)],
            "stones": [int(array[STONES_CLAIMED + p]) for p in range(n)],
            "tower": owner if owner >= 0 else None,
            "markers_used": [int(array[MARKERS_USED + p]) for p in range(n)],
            "pieces_left": [pieces_left(array, p) for p in range(n)],
            "passes": int(array[PASSES]),
        }
        if terminal:
            out["bridges_ns"] = [int(array[BRIDGES_NS + p]) for p in range(n)]
            out["bridges_ew"] = [int(array[BRIDGES_EW + p]) for p in range(n)]
        return out

    def score_sources(self, seed: int, moves) -> list[dict[str, int]] | None:
        """The parts of each seat's score in points, its score sources (balance studies,
        reports): score = squares + 10 x (enclosures + stones) + 50 x tower + 50 x bridges
        (``docs/games/forma.md``).

        Args:
            seed: the game's seed.
            moves: its moves, as codes or in notation.

        Returns:
            Per seat ``squares``, ``enclosures``, ``stones``, ``tower`` and ``bridges``; None
            for a game not finished (bridges are counted at the end).

        Raises:
            IllegalMoveError: a move is malformed or not legal where it is played.
        """
        state = self.new_state(seed)
        for move in moves:
            state.play(move)
        result = state.result()
        if "bridges_ns" not in result:
            return None
        return [{"squares": result["squares"][p], "enclosures": 10 * result["enclosures"][p],
                 "stones": 10 * result["stones"][p], "tower": 50 * int(result["tower"] == p),
                 "bridges": 50 * (result["bridges_ns"][p] + result["bridges_ew"][p])}
                for p in range(len(result["squares"]))]

    def render(self, array: np.ndarray) -> str:
        """The board with scores, pieces left, markers used and the seat to move (:mod:`.render`)."""
        return render_board(array)

    def bot_view(self, array: np.ndarray, seat: int) -> dict[str, Any]:
        """The seat's JSON view for bots (schema: ``docs/games/forma.md``)."""
        return view.bot_view(self, array, seat)
