"""Plain-Python reference engine for Forma.

Written straight from ``rules/forma.md`` for readability, not speed. It is the test oracle
for the numba engine (differential tests) and a baseline. It shares only the notation
conventions of :mod:`forumlab.engines.forma.pieces` (board indexing, the 21 shapes and their
orientation numbering) with the fast engine, never its rule code: an independent reading of
the spec catches mistakes that shared helpers would hide.

Moves
-----
``move = (piece * 8 + orientation) * 400 + anchor``: piece index in ``PIECE_NAMES``, the
orientation number of ``pieces.ORIENTATIONS`` and the square of the top-left corner of the
piece's bounding box (``a1`` = 0, ``t20`` = 399). ``PASS = 21 * 8 * 400`` is the pass move.

Board contents
--------------
``board()`` holds ``FREE`` (-1), ``STONE`` (-2, a grey obstacle stone), ``TOWER`` (-3) or the
player whose piece covers the square. ``markers()`` holds the player whose marker stone lies
on a square (a free square or a grey stone), else -1. A square is *free* (open for pieces,
an open side for enclosures) when it is ``FREE`` on the board and carries no marker.

Players
-------
2, 3 or 4 players move in seat order 0, 1, 2, ... In the 2-player game each player owns two
sets (44 pieces, 180 squares, 70 markers) and the two colours are one colour in every rule,
so the engine simply gives that player a double supply and knows no separate colours.

Scoring (``score_breakdown`` holds counts, ``scores`` the points)
-----------------------------------------------------------------
``score = squares + 10 * (enclosures + stones) + 50 * tower + 50 * (bridges_ns + bridges_ew)``

* ``squares``: piece squares placed.
* ``enclosures``: free squares enclosed. A free square is enclosed when none of its four
  sides is a free square (each is the edge, a stone, the tower, a piece square or a marker),
  so two touching free squares are never enclosed.
* ``stones``: grey stones enclosed: every side that is not the board edge is a piece square
  or marker of the mover's colour.
* ``tower``: 1 for the player whose placement closed the tower's last open side.
* ``bridges_ns`` / ``bridges_ew``: the maximum number of square-disjoint edge-connected
  chains of the player's squares (piece squares and markers, on free squares or on stones)
  from row 1 to row 20 / from column a to column t, computed as a max-flow with unit vertex
  capacities. A north-south and an east-west chain may share squares. They are reported as 0
  (and excluded from ``scores``) until the game is over; ``bridges(player)`` gives the live
  value at any time.

Decisions (where the spec leaves a gap)
---------------------------------------
* After a placement only the free squares next to the squares just covered are checked for
  enclosure; every one found is enclosed by the mover (+10 each, one placement can close
  several) and gets the mover's marker, so it is no longer free and can never be covered.
  No cascade is possible: an enclosed square has no free neighbour, so marking it opens or
  closes no other free square's side.
* A free square enclosed by the setup alone (edges and obstacles) scores for nobody, gets no
  marker and stays free: a monomino may still cover it (scoring 1 square, nothing else).
* Stones are checked when a placement covers one of their sides or a marker lands on one of
  their sides in the same placement (a marker on a free square is a square of the mover's
  colour). A stone is claimed at most once (its marker stays). Obstacles never touch along
  an edge, so a stone's sides are only ever free squares, piece squares or markers.
* The tower goes to the mover when, after the placement (and the markers it earned), none of
  the tower's sides is free; this happens at most once.
* Markers: 35 per colour (70 for a 2-player pair). As the spec decides, an enclosure still
  scores and is still marked when the colour has no marker stones left.
* Passing: when the mover has no legal placement but the game is not over, the only legal
  move is ``PASS``. After every move the engine checks whether any player (with the pieces
  left in their supply) can still place anything; if nobody can, the game is over at once
  (no trailing passes) and ``legal_moves()`` is empty. This also covers a board with no free
  square left.
* Obstacles: ``obstacles="none"`` or an explicit list of square names for the grey stones
  (at most 25), ``tower=None`` or a square name. Random setup (``obstacles="random"``) is the
  numba engine's job; the reference engine rejects it. ``seed`` is stored but unused: all
  chance lives in the ``rng`` passed to ``random_move``.
"""

from __future__ import annotations

import random
from collections import deque
from functools import cache
from typing import Any

from forumlab.engines.forma.pieces import (
    COPIES_PER_SET,
    N_PIECES,
    ORIENTATIONS,
    PIECE_NAMES,
    SIZE,
    SQUARES,
    format_placement,
    parse_square,
    square_name,
)

PASS = N_PIECES * 8 * SQUARES  # 67200, one past the largest placement code

FREE = -1
STONE = -2
TOWER = -3
NO_MARKER = -1

MAX_STONES = 25
MARKERS_PER_SET = 35


def encode_move(piece: int, orientation: int, anchor: int) -> int:
    """Code of placing ``piece`` in ``orientation`` with its bounding box's top-left on ``anchor``."""
    if not (0 <= piece < N_PIECES and 0 <= orientation < 8 and 0 <= anchor < SQUARES):
        raise ValueError(f"bad placement (piece {piece}, orientation {orientation}, anchor {anchor})")
    return (piece * 8 + orientation) * SQUARES + anchor


def decode_move(code: int) -> tuple[int, int, int]:
    """``(piece, orientation, anchor)`` of a placement code; ValueError for PASS or out of range."""
    if not 0 <= code < PASS:
        raise ValueError(f"move {code} is not a placement code (PASS = {PASS})")
    piece_orientation, anchor = divmod(code, SQUARES)
    piece, orientation = divmod(piece_orientation, 8)
    return piece, orientation, anchor


def neighbours(square: int) -> list[int]:
    """The squares sharing an edge with ``square`` (2 in a corner, 3 on an edge, else 4)."""
    row, col = divmod(square, SIZE)
    result = []
    if row > 0:
        result.append(square - SIZE)
    if row < SIZE - 1:
        result.append(square + SIZE)
    if col > 0:
        result.append(square - 1)
    if col < SIZE - 1:
        result.append(square + 1)
    return result


def _square(name) -> int:
    """Square index of a name like 'h7' (ValueError for anything else)."""
    if not isinstance(name, str):
        raise ValueError(f"squares are given by name, e.g. 'h7', not {name!r}")
    return parse_square(name)


def _on_edge(square: int) -> bool:
    row, col = divmod(square, SIZE)
    return row in (0, SIZE - 1) or col in (0, SIZE - 1)


def _all_placements() -> list[list[tuple[int, tuple[int, ...], int]]]:
    """Per piece, every placement that fits on the empty board: ``(code, squares, bitmask)``.

    The bitmask has bit ``s`` set for each covered square ``s``; a placement is open when its
    mask does not meet the mask of blocked squares (a fast test of "all squares free").
    Listed in ascending code order.
    """
    table = []
    for piece, name in enumerate(PIECE_NAMES):
        placements = []
        for orientation, cells in enumerate(ORIENTATIONS[name]):
            height = 1 + max(r for r, _ in cells)
            width = 1 + max(c for _, c in cells)
            for anchor_row in range(SIZE - height + 1):
                for anchor_col in range(SIZE - width + 1):
                    anchor = anchor_row * SIZE + anchor_col
                    squares = tuple((anchor_row + r) * SIZE + anchor_col + c for r, c in cells)
                    mask = 0
                    for s in squares:
                        mask |= 1 << s
                    placements.append((encode_move(piece, orientation, anchor), squares, mask))
        table.append(placements)
    return table


PLACEMENTS = _all_placements()
PLACEMENT_SQUARES: dict[int, tuple[int, ...]] = {
    code: squares for per_piece in PLACEMENTS for code, squares, _ in per_piece
}


class ReferenceForma:
    """A Forma game state with a readable, slow implementation of every rule."""

    def __init__(self, players: int, obstacles="none", tower=None, seed: int = 0):
        if players not in (2, 3, 4):
            raise ValueError(f"Forma is played by 2, 3 or 4 players, not {players!r}")
        self.players = players
        self.seed = seed
        sets = 2 if players == 2 else 1

        stones = self._parse_obstacles(obstacles)
        tower_square = None if tower is None else _square(tower)
        self._validate_setup(stones, tower_square)

        self._board = [FREE] * SQUARES
        self._markers = [NO_MARKER] * SQUARES
        for s in stones:
            self._board[s] = STONE
        if tower_square is not None:
            self._board[tower_square] = TOWER
        self._stones = stones
        self._tower = tower_square
        self._tower_owner = None

        # Bitmask of squares that are not free (covered, obstacle or marked).
        self._blocked = 0
        for s in range(SQUARES):
            if self._board[s] != FREE:
                self._blocked |= 1 << s

        self._supply = [[copies * sets for copies in COPIES_PER_SET] for _ in range(players)]
        self._markers_left = [MARKERS_PER_SET * sets] * players
        self._squares = [0] * players
        self._enclosures = [0] * players
        self._claimed_stones = [0] * players
        self._current = 0
        self._terminal = False
        self._final_bridges = None  # per player (ns, ew), filled when the game ends
        self._update_terminal()

    # ------------------------------------------------------------------ setup

    @staticmethod
    def _parse_obstacles(obstacles) -> list[int]:
        if isinstance(obstacles, str):
            if obstacles == "none":
                return []
            if obstacles == "random":
                raise ValueError(
                    "the reference engine takes no random setup; pass the stones as a list of squares"
                )
            raise ValueError(f"obstacles must be 'none' or a list of squares, not {obstacles!r}")
        try:
            names = list(obstacles)
        except TypeError:
            raise ValueError(f"obstacles must be 'none' or a list of squares, not {obstacles!r}") from None
        return [_square(name) for name in names]

    @staticmethod
    def _validate_setup(stones: list[int], tower: int | None) -> None:
        if len(stones) > MAX_STONES:
            raise ValueError(f"at most {MAX_STONES} grey stones, got {len(stones)}")
        if tower is not None and _on_edge(tower):
            raise ValueError(f"the tower may not stand on the edge ({square_name(tower)})")
        obstacles = stones + ([tower] if tower is not None else [])
        if len(set(obstacles)) != len(obstacles):
            raise ValueError("obstacles must stand on distinct squares")
        occupied = set(obstacles)
        for s in obstacles:
            for n in neighbours(s):
                if n in occupied:
                    raise ValueError(
                        f"obstacles may not touch along an edge ({square_name(s)}, {square_name(n)})"
                    )

    # ------------------------------------------------------------------ state access

    def copy(self) -> ReferenceForma:
        """An independent copy of this state."""
        other = object.__new__(ReferenceForma)
        other.__dict__.update(self.__dict__)
        other._board = list(self._board)
        other._markers = list(self._markers)
        other._stones = list(self._stones)
        other._supply = [list(row) for row in self._supply]
        other._markers_left = list(self._markers_left)
        other._squares = list(self._squares)
        other._enclosures = list(self._enclosures)
        other._claimed_stones = list(self._claimed_stones)
        if self._final_bridges is not None:
            other._final_bridges = list(self._final_bridges)
        return other

    def current_player(self) -> int:
        """The player to move (seat order 0, 1, 2, ...)."""
        return self._current

    def board(self) -> list[int]:
        """400 entries: -1 free, -2 grey stone, -3 tower, p >= 0 a piece square of player p."""
        return list(self._board)

    def markers(self) -> list[int]:
        """400 entries: the player whose marker lies on the square (free square or stone), else -1."""
        return list(self._markers)

    def supply(self) -> list[list[int]]:
        """Per player, how many of each of the 21 shapes are left (double in the 2-player game)."""
        return [list(row) for row in self._supply]

    def is_terminal(self) -> bool:
        """True once no player can place any piece."""
        return self._terminal

    # ------------------------------------------------------------------ moves

    def _is_free(self, square: int) -> bool:
        return self._board[square] == FREE and self._markers[square] == NO_MARKER

    def _placements(self, player: int, first_only: bool = False) -> list[int]:
        """Codes of the placements open to ``player`` now, ascending (or just the first one)."""
        found = []
        blocked = self._blocked
        for piece in range(N_PIECES):
            if self._supply[player][piece] == 0:
                continue
            for code, _, mask in PLACEMENTS[piece]:
                if mask & blocked == 0:
                    found.append(code)
                    if first_only:
                        return found
        return found

    def _can_place(self, player: int) -> bool:
        return bool(self._placements(player, first_only=True))

    def legal_codes(self) -> list[int]:
        """Legal move codes, ascending; ``[PASS]`` if the mover cannot place; ``[]`` once terminal."""
        if self._terminal:
            return []
        return self._placements(self._current) or [PASS]

    def random_move(self, rng: random.Random) -> int:
        """A move code drawn uniformly from ``legal_codes()``."""
        moves = self.legal_codes()
        if not moves:
            raise ValueError("the game is over: no moves")
        return rng.choice(moves)

    def apply(self, move: int) -> None:
        """Play ``move`` for the current player; ValueError if it is illegal."""
        if self._terminal:
            raise ValueError("the game is over")
        player = self._current
        if move == PASS:
            if self._can_place(player):
                raise ValueError(f"player {player} can place a piece and may not pass")
        else:
            self._place(player, move)
        self._current = (self._current + 1) % self.players
        self._update_terminal()

    def _place(self, player: int, move: int) -> None:
        squares = PLACEMENT_SQUARES.get(move)
        if squares is None:
            raise ValueError(f"move {move!r} is not a placement that fits on the board")
        piece, _, _ = decode_move(move)
        if self._supply[player][piece] == 0:
            placement = format_placement(*decode_move(move))
            raise ValueError(f"player {player} has no {PIECE_NAMES[piece]} left ({placement})")
        if not all(self._is_free(s) for s in squares):
            raise ValueError(f"{format_placement(*decode_move(move))} covers a square that is not free")

        self._supply[player][piece] -= 1
        for s in squares:
            self._board[s] = player
            self._blocked |= 1 << s
        self._squares[player] += len(squares)

        # Free squares whose last open side(s) this placement closed.
        new_markers = []
        for s in squares:
            for n in neighbours(s):
                if self._is_free(n) and not any(self._is_free(m) for m in neighbours(n)):
                    self._put_marker(player, n)
                    self._blocked |= 1 << n
                    self._enclosures[player] += 1
                    new_markers.append(n)

        changed = set(squares) | set(new_markers)
        touched = {n for s in changed for n in neighbours(s)}

        # Grey stones now surrounded by the mover's colour alone.
        for s in sorted(touched):
            if self._board[s] == STONE and self._markers[s] == NO_MARKER:
                if all(self._owner(n) == player for n in neighbours(s)):
                    self._put_marker(player, s)
                    self._claimed_stones[player] += 1

        # The tower, once its last open side is closed.
        if self._tower is not None and self._tower_owner is None and self._tower in touched:
            if not any(self._is_free(n) for n in neighbours(self._tower)):
                self._tower_owner = player

    def _put_marker(self, player: int, square: int) -> None:
        # Out of marker stones the enclosure still counts and is marked (spec DECISION).
        self._markers[square] = player
        self._markers_left[player] = max(0, self._markers_left[player] - 1)

    def _owner(self, square: int) -> int | None:
        """The player whose piece square or marker is on ``square``, else None."""
        if self._board[square] >= 0:
            return self._board[square]
        if self._markers[square] != NO_MARKER:
            return self._markers[square]
        return None

    def _update_terminal(self) -> None:
        if not any(self._can_place(p) for p in range(self.players)):
            self._terminal = True
            self._final_bridges = [self.bridges(p) for p in range(self.players)]

    # ------------------------------------------------------------------ scoring

    def score_breakdown(self) -> list[dict]:
        """Per player counts: squares, enclosures, stones, tower, bridges_ns, bridges_ew.

        Bridges are 0 until the game is over (they are scored at the end).
        """
        result = []
        for p in range(self.players):
            ns, ew = self._final_bridges[p] if self._terminal else (0, 0)
            result.append(
                {
                    "squares": self._squares[p],
                    "enclosures": self._enclosures[p],
                    "stones": self._claimed_stones[p],
                    "tower": 1 if self._tower_owner == p else 0,
                    "bridges_ns": ns,
                    "bridges_ew": ew,
                }
            )
        return result

    def scores(self) -> list[int]:
        """Points per player; bridges are included once the game is over (and only then)."""
        return [
            b["squares"]
            + 10 * (b["enclosures"] + b["stones"])
            + 50 * b["tower"]
            + 50 * (b["bridges_ns"] + b["bridges_ew"])
            for b in self.score_breakdown()
        ]

    def bridges(self, player: int) -> tuple[int, int]:
        """(north-south, east-west): max numbers of square-disjoint chains of ``player``'s squares."""
        owned = {s for s in range(SQUARES) if self._owner(s) == player}
        north = {s for s in owned if s < SIZE}
        south = {s for s in owned if s >= SQUARES - SIZE}
        west = {s for s in owned if s % SIZE == 0}
        east = {s for s in owned if s % SIZE == SIZE - 1}
        return _disjoint_chains(owned, north, south), _disjoint_chains(owned, west, east)


    # ------------------------------------------------------------------ the reference protocol
    # forumlab.testing.reference.ReferenceEngine: moves as notation texts (``pass`` or
    # ``P5/3@h7``, the project's notation, docs/games/forma.md), the position as plain data.

    @classmethod
    def from_config(cls, config: dict[str, Any], seed: int = 0) -> ReferenceForma:
        """The start of a game ``{"players": n, "obstacles": "none" or [squares], "tower":
        square or None}``. A random layout arrives as the explicit squares the numba
        engine's setup drew (``Game.setup_record``, merged into the config by the kit),
        since this engine draws no layouts."""
        return cls(config["players"], obstacles=config.get("obstacles", "none"), tower=config.get("tower"),
                   seed=seed)

    @staticmethod
    def move_text(move: int) -> str:
        """The notation of a move code."""
        return _move_texts()[move]

    def legal_moves(self) -> list[str]:
        """Every legal ply as notation, in ascending code order; ``[]`` once terminal."""
        texts = _move_texts()
        return [texts[move] for move in self.legal_codes()]

    def play(self, text: str) -> None:
        """Play the ply written ``text``; ValueError if it is malformed or illegal."""
        move = _move_codes().get(text)
        if move is None:
            raise ValueError(f"{text!r} is not a Forma move")
        self.apply(move)

    def summary(self) -> dict[str, Any]:
        """The position as plain data: board, markers, scores and their counts so far."""
        breakdown = self.score_breakdown()
        counts = {key: [b[key] for b in breakdown] for key in ("squares", "enclosures", "stones")}
        return {"board": self.board(), "markers": self.markers(), "scores": self.scores(), **counts,
                "tower": self._tower_owner}

    def result(self) -> dict[str, Any]:
        """The scores with their counts (``State.result()``'s fields), the bridges once over."""
        out = {key: value for key, value in self.summary().items() if key not in ("board", "markers")}
        if self._terminal:
            breakdown = self.score_breakdown()
            out["bridges_ns"] = [b["bridges_ns"] for b in breakdown]
            out["bridges_ew"] = [b["bridges_ew"] for b in breakdown]
        return out

    @staticmethod
    def engine_summary(state) -> dict[str, Any]:
        """The numba engine's position (a forumlab State) in :meth:`summary`'s terms."""
        from forumlab.engines.forma.render import board_contents, marker_owners

        details = state.game.details(state.array)
        return {"board": board_contents(state.array), "markers": marker_owners(state.array),
                "scores": [int(x) for x in state.scores()],
                **{key: details[key] for key in ("squares", "enclosures", "stones", "tower")}}


@cache
def _move_texts() -> list[str]:
    """The notation of every move code (index = code), built once."""
    return [format_placement(*decode_move(code)) for code in range(PASS)] + ["pass"]


@cache
def _move_codes() -> dict[str, int]:
    """Move code by notation, built once."""
    return {text: code for code, text in enumerate(_move_texts())}


def _disjoint_chains(owned: set[int], starts: set[int], ends: set[int]) -> int:
    """Maximum number of square-disjoint edge-connected chains in ``owned`` from ``starts`` to ``ends``.

    Menger's theorem as a max-flow: each square ``s`` becomes two nodes ``(s, "in")`` and
    ``(s, "out")`` joined by an arc of capacity 1 (a square carries at most one chain); arcs
    join ``out`` of a square to ``in`` of each owned neighbour, the source feeds the ``in`` of
    every start square and the ``out`` of every end square drains into the sink. Each BFS
    augmenting path in the residual graph adds one chain (Edmonds-Karp with unit capacities).
    """
    source, sink = "source", "sink"
    capacity: dict = {}  # residual capacity, capacity[u][v]

    def add_arc(u, v):
        capacity.setdefault(u, {})[v] = capacity.get(u, {}).get(v, 0) + 1
        capacity.setdefault(v, {}).setdefault(u, 0)  # reverse arc for the residual graph

    for s in owned:
        add_arc((s, "in"), (s, "out"))
        for n in neighbours(s):
            if n in owned:
                add_arc((s, "out"), (n, "in"))
        if s in starts:
            add_arc(source, (s, "in"))
        if s in ends:
            add_arc((s, "out"), sink)

    chains = 0
    while True:
        parent = {source: None}
        queue = deque([source])
        while queue and sink not in parent:
            u = queue.popleft()
            for v, cap in capacity.get(u, {}).items():
                if cap > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if sink not in parent:
            return chains
        v = sink
        while parent[v] is not None:
            u = parent[v]
            capacity[u][v] -= 1
            capacity[v][u] += 1
            v = u
        chains += 1
