"""Forma: the Python facade (configuration, notation, rendering, results) over the kernels.

Rules: ``shared/rules/forma.md`` of the project (Ravensburger 1973 rulebook plus this
project's DECISIONs); the engine's own decisions are listed in
:mod:`forumlab.engines.forma.kernels`. For players, the rules, the notation and every
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

from ...core.errors import ConfigError, IllegalMoveError
from ...core.game import Game, Kernels
from . import kernels as forma_kernels
from .layout import (
    BRIDGES_EW,
    BRIDGES_NS,
    COLUMNS,
    ENCLOSED,
    MARKERS_PER_SET,
    MARKERS_USED,
    MARKS,
    MAX_MOVES,
    MAX_STONES,
    N_PLAYERS,
    N_SHAPES,
    OCC,
    PASS,
    PASSES,
    PIECE_NAMES,
    PIECES,
    PLAYER,
    PLY,
    SCORE,
    SIZE,
    SQUARES,
    SQUARES_PLACED,
    STONES,
    STONES_CLAIMED,
    SUPPLY,
    TERMINAL,
    TOWER,
    TOWER_OWNER,
    WORDS,
    decode_move,
    encode_move,
    format_placement,
    parse_placement,
    parse_square,
    square_name,
)
from .setup import layout_problems, random_layout

PLAYER_SYMBOLS = "ABCD"


def _plane_bit(array: np.ndarray, base: int, i: int) -> bool:
    return bool((int(array[base + (i >> 6)]) >> (i & 63)) & 1)


class Forma(Game):
    """Forma for 2-4 players on a 20x20 board with obstacles."""

    name = "forma"
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
    kernels = Kernels.from_module(forma_kernels, MAX_MOVES)

    def __init__(self, players: int = 4, obstacles: str | list[str] = "random", tower: str | None = None):
        super().__init__(players)
        if isinstance(obstacles, str):
            if obstacles not in ("random", "none"):
                raise ConfigError(
                    f"obstacles must be 'random', 'none' or a list of squares, not {obstacles!r}")
            if tower is not None:
                raise ConfigError("tower may only be given with an explicit obstacles list")
            self.obstacles: str | list[str] = obstacles
            self.tower = None
            self._stones: list[int] | None = None
            self._tower_square = -1
            return
        if not isinstance(obstacles, (list, tuple)):
            raise ConfigError(f"obstacles must be 'random', 'none' or a list of squares, not {obstacles!r}")
        if len(obstacles) > MAX_STONES:
            raise ConfigError(f"at most {MAX_STONES} grey stones, not {len(obstacles)}")
        stones = []
        for name in obstacles:
            if not isinstance(name, str):
                raise ConfigError(f"obstacle squares are names like 'c3', not {name!r}")
            try:
                stones.append(parse_square(name.strip()))
            except ValueError:
                raise ConfigError(f"bad obstacle square {name!r}") from None
        tower_square = -1
        if tower is not None:
            if not isinstance(tower, str):
                raise ConfigError(f"tower must be a square name like 'j10', not {tower!r}")
            try:
                tower_square = parse_square(tower.strip())
            except ValueError:
                raise ConfigError(f"bad tower square {tower!r}") from None
        problem = layout_problems(stones, tower_square if tower_square >= 0 else None)
        if problem:
            raise ConfigError(f"bad obstacle layout: {problem}")
        self.obstacles = [square_name(q) for q in stones]
        self.tower = square_name(tower_square) if tower_square >= 0 else None
        self._stones = stones
        self._tower_square = tower_square

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
        stones, tower = obstacle_squares(start.array)
        return {"obstacles": [square_name(q) for q in stones],
                "tower": square_name(tower) if tower >= 0 else None}

    def initial_array(self, seed: int) -> np.ndarray:
        """The start position: the layout of :meth:`layout`, every supply full, seat 0 to move."""
        stones, tower = self.layout(seed)
        return forma_kernels.new_state(self.players, np.array(stones, dtype=np.int64), tower, seed)

    # ---- notation ------------------------------------------------------------------
    def format_move(self, array: np.ndarray, move: int) -> str:
        """Notation of a move code (the position is not needed in Forma).

        Args:
            array: the position (unused).
            move: a move code.

        Returns:
            ``pass`` or piece/orientation@top-left square, e.g. ``P5/3@h7``.
        """
        move = int(move)
        if move == PASS:
            return "pass"
        return format_placement(*decode_move(move))

    def parse_move(self, array: np.ndarray, text: str) -> int:
        """Move code for a notation string (legality is not checked here).

        Args:
            array: the position (unused).
            text: ``pass`` (any case, surrounding spaces allowed) or a placement like ``P5/3@h7``.

        Returns:
            The move code.

        Raises:
            IllegalMoveError: ``text`` is not a string or is malformed.
        """
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text, not {text!r}")
        if text.strip().lower() == "pass":
            return PASS
        try:
            piece, orientation, anchor = parse_placement(text)
        except ValueError as exc:
            raise IllegalMoveError(f"malformed move {text!r}: {exc}") from None
        return encode_move(piece, orientation, anchor)

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

    def render(self, array: np.ndarray) -> str:
        """The board (players A-D, lowercase markers, ``#`` stones, ``T`` tower) with scores,
        pieces left, markers used and the seat to move.

        Args:
            array: the position.

        Returns:
            Multi-line text.
        """
        n = int(array[N_PLAYERS])
        board = board_symbols(array)
        lines = ["    " + " ".join(COLUMNS)]
        for row in range(SIZE):
            lines.append(f"{row + 1:>2}  " + " ".join(board[row * SIZE:(row + 1) * SIZE]))
        owner = int(array[TOWER_OWNER])
        lines.append(
            "    " + ", ".join(f"{PLAYER_SYMBOLS[p]}=player {p}" for p in range(n))
            + "; lowercase = marker, # = stone, T = tower, . = free"
        )
        markers_per_player = MARKERS_PER_SET * (2 if n == 2 else 1)
        scores = " ".join(f"{PLAYER_SYMBOLS[p]}{int(array[SCORE + p])}" for p in range(n))
        pieces = " ".join(f"{PLAYER_SYMBOLS[p]}{pieces_left(array, p)}" for p in range(n))
        markers = " ".join(f"{PLAYER_SYMBOLS[p]}{int(array[MARKERS_USED + p])}/{markers_per_player}"
                           for p in range(n))
        lines.append(f"    scores: {scores}   pieces left: {pieces}   markers: {markers}")
        tower = int(array[TOWER])
        status = "game over" if array[TERMINAL] else f"to move: {PLAYER_SYMBOLS[int(array[PLAYER])]}"
        tower_text = "" if tower < 0 else (
            f"   tower {square_name(tower)}: " + (PLAYER_SYMBOLS[owner] if owner >= 0 else "open"))
        lines.append(f"    {status}{tower_text}")
        return "\n".join(lines)


def pieces_left(array: np.ndarray, player: int) -> int:
    """Pieces still in a player's supply."""
    supply = int(array[SUPPLY + player])
    return sum((supply >> (3 * s)) & 7 for s in range(N_SHAPES))


def supply_counts(array: np.ndarray, player: int) -> dict[str, int]:
    """Pieces of each shape still in a player's supply, by name."""
    supply = int(array[SUPPLY + player])
    return {PIECE_NAMES[s]: (supply >> (3 * s)) & 7 for s in range(N_SHAPES)}


def board_symbols(array: np.ndarray) -> list[str]:
    """One character per square: player letter, lowercase marker, '#', 'T' or '.'."""
    n = int(array[N_PLAYERS])
    tower = int(array[TOWER])
    out = []
    for i in range(SQUARES):
        ch = "."
        if i == tower:
            ch = "T"
        elif _plane_bit(array, STONES, i):
            ch = "#"
        for p in range(n):
            if _plane_bit(array, PIECES + p * WORDS, i):
                ch = PLAYER_SYMBOLS[p]
            elif _plane_bit(array, MARKS + p * WORDS, i):
                ch = PLAYER_SYMBOLS[p].lower()
        out.append(ch)
    return out


def obstacle_squares(array: np.ndarray) -> tuple[list[int], int]:
    """(stone squares, tower square or -1) of a state."""
    stones = [i for i in range(SQUARES) if _plane_bit(array, STONES, i)]
    return stones, int(array[TOWER])


def board_contents(array: np.ndarray) -> list[int]:
    """400 entries like the reference engine's board(): -1 free, -2 stone, -3 tower,
    p for a piece of player p (markers are not shown here; see marker_owners)."""
    n = int(array[N_PLAYERS])
    tower = int(array[TOWER])
    out = []
    for i in range(SQUARES):
        v = -1
        if i == tower:
            v = -3
        elif _plane_bit(array, STONES, i):
            v = -2
        for p in range(n):
            if _plane_bit(array, PIECES + p * WORDS, i):
                v = p
        out.append(v)
    return out


def marker_owners(array: np.ndarray) -> list[int]:
    """400 entries: the player whose marker lies on the square, else -1."""
    n = int(array[N_PLAYERS])
    out = [-1] * SQUARES
    for p in range(n):
        for i in range(SQUARES):
            if _plane_bit(array, MARKS + p * WORDS, i):
                out[i] = p
    return out


def is_free(array: np.ndarray, square: int) -> bool:
    """Whether a square is free (no piece, obstacle or marker)."""
    return not _plane_bit(array, OCC, square)
