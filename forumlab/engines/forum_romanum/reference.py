"""Plain-Python reference engine for Forum Romanum.

This engine is written straight from ``rules/forum-romanum.md`` for readability, not speed.
It is the test oracle for the numba engine (differential tests) and a baseline. It shares no
code with the fast engine on purpose: an independent reading of the spec catches mistakes
that a shared table or helper would hide.

Move encoding: ``move = colour * 4096 + src * 64 + dst`` where ``dst`` is the target cell
(0..48, index = (row-1)*7 + col, a1 = 0, g7 = 48) and ``src`` is ``PLACE`` (63) for a
placement from hand, else the cell the piece is taken from. ``colour`` is the global colour
id (in the 2-player game player 0 owns colours 0 and 1, player 1 owns colours 2 and 3).
"""

from __future__ import annotations

import operator
import random
from functools import cache
from typing import Any

SIZE = 7
CELLS = SIZE * SIZE
PLACE = 63
EMPTY = -1

PIECES_PER_COLOUR = {2: 8, 3: 10, 4: 8, 5: 6, 6: 5}
PIECES_COLOURS = 6  # the most colours of any player count (colour ids 0-5)

# Section tiling from the spec, one letter per cell in reading order (rows 1..7).
_SECTION_MAP = (
    "1112222",
    "1112222",
    "3344455",
    "3344455",
    "3344455",
    "6666777",
    "6666777",
)


def cell_index(name: str) -> int:
    """Return the cell index of a square name such as ``"d4"`` (a1 = 0, g7 = 48)."""
    if len(name) != 2 or name[0] not in "abcdefg" or name[1] not in "1234567":
        raise ValueError(f"bad cell name {name!r}")
    return (int(name[1]) - 1) * SIZE + "abcdefg".index(name[0])


def cell_name(index: int) -> str:
    """Return the square name (``"d4"``) of a cell index."""
    row, col = divmod(index, SIZE)
    return f"{'abcdefg'[col]}{row + 1}"


def encode_move(colour: int, src: int, dst: int) -> int:
    """Encode a move; ``src`` is ``PLACE`` (63) for a placement from hand."""
    return colour * 4096 + src * 64 + dst


def decode_move(move: int) -> tuple[int, int, int]:
    """Decode a move into ``(colour, src, dst)``."""
    return move // 4096, (move // 64) % 64, move % 64


def _build_regions() -> list[tuple[int, ...]]:
    """Return the 23 regions as tuples of cell indices, in the spec's id order."""
    regions: list[tuple[int, ...]] = []
    for row in range(SIZE):  # 0-6: rows 1..7
        regions.append(tuple(row * SIZE + col for col in range(SIZE)))
    for col in range(SIZE):  # 7-13: columns a..g
        regions.append(tuple(row * SIZE + col for row in range(SIZE)))
    regions.append(tuple(i * SIZE + i for i in range(SIZE)))  # 14: a1..g7
    regions.append(tuple(i * SIZE + (SIZE - 1 - i) for i in range(SIZE)))  # 15: g1..a7
    for section in "1234567":  # 16-22: sections I..VII
        regions.append(
            tuple(
                row * SIZE + col
                for row in range(SIZE)
                for col in range(SIZE)
                if _SECTION_MAP[row][col] == section
            )
        )
    return regions


REGIONS: list[tuple[int, ...]] = _build_regions()
REGION_VALUES: list[int] = [len(cells) for cells in REGIONS]
N_REGIONS = len(REGIONS)


def _as_int(value, what: str) -> int:
    """Return ``value`` as a Python int (numpy integers welcome), else ValueError."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{what} must be an integer, got {value!r}") from None


class ReferenceForumRomanum:
    """A Forum Romanum game state with its rules, written for clarity.

    ``players`` is 2..6; ``max_rounds`` is the turn cap (a round is one turn of every
    player; 0 means no cap).
    """

    def __init__(self, players: int, max_rounds: int = 100):
        players = _as_int(players, "players")
        max_rounds = _as_int(max_rounds, "max_rounds")
        if players not in PIECES_PER_COLOUR:
            raise ValueError(f"players must be 2..6, got {players}")
        if max_rounds < 0:
            raise ValueError(f"max_rounds must be >= 0, got {max_rounds}")
        self.players = players
        self.n_colours = 4 if players == 2 else players
        self.max_rounds = max_rounds
        # One ply per colour per round: 2 players x 2 sub-moves, or one ply per player.
        self.plies_per_round = self.n_colours
        self.cells: list[int] = [EMPTY] * CELLS
        self.hand: list[int] = [PIECES_PER_COLOUR[players]] * self.n_colours
        self.scores: list[int] = [0] * self.n_colours  # settlement during play
        self.final_bonus: list[int] = [0] * self.n_colours  # final settlement at the end
        self.settled: list[bool] = [False] * N_REGIONS
        self.player = 0
        # 2-player game: the colour that must play the second sub-move, else None.
        self.pending_colour: int | None = None
        self.plies = 0
        self.terminal = False
        self.truncated = False

    # ----------------------------------------------------------------- queries
    def copy(self) -> ReferenceForumRomanum:
        """Return an independent copy of this state."""
        other = ReferenceForumRomanum.__new__(ReferenceForumRomanum)
        other.__dict__.update(self.__dict__)
        for name in ("cells", "hand", "scores", "final_bonus", "settled"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def current_player(self) -> int:
        """Return the seat to move (after the end: the seat that would move next)."""
        return self.player

    def is_terminal(self) -> bool:
        """Return True once the game has ended (naturally or by the turn cap)."""
        return self.terminal

    def board(self) -> list[int]:
        """Return the 49 cells: -1 if empty, else the colour id on it."""
        return list(self.cells)

    def pieces_in_hand(self) -> list[int]:
        """Return the number of pieces each colour still has in hand."""
        return list(self.hand)

    def colour_scores(self) -> list[int]:
        """Return each colour's score, including final settlement once terminal."""
        return [s + b for s, b in zip(self.scores, self.final_bonus)]

    def player_scores(self) -> list[int]:
        """Return each player's score (2 players: sum of the player's two colours)."""
        per_colour = self.colour_scores()
        if self.players == 2:
            return [per_colour[0] + per_colour[1], per_colour[2] + per_colour[3]]
        return per_colour

    def settled_regions(self) -> list[int]:
        """Return the ids of settled regions, ascending."""
        return [r for r in range(N_REGIONS) if self.settled[r]]

    def deadlocked_regions(self) -> list[int]:
        """Return the ids of regions that are full but not settled, ascending.

        Settlement runs after every ply, so a full unsettled region always has a tied
        highest count: that is exactly the spec's deadlock.
        """
        return [r for r in range(N_REGIONS) if not self.settled[r] and self._is_full(r)]

    def colours_to_move(self) -> list[int]:
        """Return the colours that may make the next ply."""
        if self.players != 2:
            return [self.player]
        if self.pending_colour is not None:
            return [self.pending_colour]
        return [2 * self.player, 2 * self.player + 1]

    def legal_codes(self) -> list[int]:
        """Return all legal move codes, ascending; empty once the game has ended."""
        if self.terminal:
            return []
        empties = [c for c in range(CELLS) if self.cells[c] == EMPTY]
        moves: list[int] = []
        for colour in self.colours_to_move():
            if self.hand[colour] > 0:
                sources = [PLACE]
            else:
                sources = [c for c in range(CELLS) if self.cells[c] == colour]
            for src in sources:
                for dst in empties:
                    moves.append(encode_move(colour, src, dst))
        moves.sort()
        return moves

    def random_move(self, rng: random.Random) -> int:
        """Return a legal move code drawn uniformly at random with ``rng``."""
        moves = self.legal_codes()
        if not moves:
            raise ValueError("no legal moves: the game has ended")
        return moves[rng.randrange(len(moves))]

    # ----------------------------------------------------------------- play
    def apply(self, move: int) -> None:
        """Play one ply. Raises ValueError if ``move`` is not legal here."""
        if self.terminal:
            raise ValueError(f"move {move} played after the end of the game")
        move = _as_int(move, "move")  # accepts numpy integers from the fast engine
        if move < 0:
            raise ValueError(f"illegal move {move}")
        colour, src, dst = decode_move(move)
        if colour not in self.colours_to_move():
            raise ValueError(f"illegal move {move}: colour {colour} may not move now")
        if dst >= CELLS or self.cells[dst] != EMPTY:
            raise ValueError(f"illegal move {move}: target cell is not an empty board cell")
        if self.hand[colour] > 0:
            if src != PLACE:
                raise ValueError(f"illegal move {move}: colour {colour} must place from hand")
            self.hand[colour] -= 1
        else:
            if src >= CELLS or self.cells[src] != colour:
                raise ValueError(f"illegal move {move}: no piece of colour {colour} on source")
            self.cells[src] = EMPTY
        self.cells[dst] = colour
        self.plies += 1
        self._advance_turn(colour)
        self._settle()
        self._check_end()

    def _advance_turn(self, colour: int) -> None:
        """Pass the turn on (or hand the 2-player turn to the other colour)."""
        if self.players == 2 and self.pending_colour is None:
            self.pending_colour = colour ^ 1  # the player's other colour
            return
        self.pending_colour = None
        self.player = (self.player + 1) % self.players

    def _is_full(self, region: int) -> bool:
        return all(self.cells[c] != EMPTY for c in REGIONS[region])

    def _counts(self, region: int) -> list[int]:
        """Per-colour piece counts in a region (every colour of the game, zeros included)."""
        counts = [0] * self.n_colours
        for c in REGIONS[region]:
            if self.cells[c] != EMPTY:
                counts[self.cells[c]] += 1
        return counts

    def _penalise_lowest(self, counts: list[int], candidates: list[int], target: list[int]):
        """Lowest count among ``candidates`` loses 4 alone, or 2 each if tied."""
        if not candidates:
            return
        lowest = min(counts[c] for c in candidates)
        losers = [c for c in candidates if counts[c] == lowest]
        penalty = 4 if len(losers) == 1 else 2
        for c in losers:
            target[c] -= penalty

    def _settle(self) -> None:
        """Settle every unsettled full region with a unique highest count."""
        for region in range(N_REGIONS):
            if self.settled[region] or not self._is_full(region):
                continue
            counts = self._counts(region)
            highest = max(counts)
            leaders = [c for c in range(self.n_colours) if counts[c] == highest]
            if len(leaders) > 1:
                continue  # deadlocked: a current state, re-checked when it fills again
            self.scores[leaders[0]] += REGION_VALUES[region]
            # A unique leader is never also lowest, so the candidates are all colours.
            self._penalise_lowest(counts, list(range(self.n_colours)), self.scores)
            self.settled[region] = True

    def _check_end(self) -> None:
        """End the game naturally or by the turn cap, then run final settlement."""
        natural = all(self.settled[r] or self._is_full(r) for r in range(N_REGIONS))
        capped = self.max_rounds > 0 and self.plies >= self.max_rounds * self.plies_per_round
        if not (natural or capped):
            return
        self.terminal = True
        self.truncated = not natural
        self._final_settlement()

    def _final_settlement(self) -> None:
        """Score every region deadlocked at the end (spec, 'End of the game')."""
        for region in self.deadlocked_regions():
            counts = self._counts(region)
            highest = max(counts)
            leaders = [c for c in range(self.n_colours) if counts[c] == highest]
            others = [c for c in range(self.n_colours) if counts[c] != highest]
            for c in leaders:
                self.final_bonus[c] += 4
            # DECISION (spec): if every colour is tied for highest, nobody loses.
            self._penalise_lowest(counts, others, self.final_bonus)

    # ----------------------------------------------------------------- the reference protocol
    # forumlab.testing.reference.ReferenceEngine: moves as notation texts, the position as
    # plain data. The notation is the project's (docs/games/forum-romanum.md): ``d4`` from
    # the hand, ``d4-e5`` on the board, in the 2-player game prefixed by the colour, ``2:d4``.
    @classmethod
    def from_config(cls, config: dict[str, Any], seed: int = 0) -> ReferenceForumRomanum:
        """The start of a game ``{"players": n, "max_rounds": m}``; no chance, so the
        seed changes nothing."""
        return cls(config["players"], config.get("max_rounds", 100))

    def move_text(self, move: int) -> str:
        """The notation of a move code."""
        return _move_texts(self.players == 2)[move]

    def legal_moves(self) -> list[str]:
        """Every legal ply as notation, in ascending code order; empty once the game has ended."""
        texts = _move_texts(self.players == 2)
        return [texts[move] for move in self.legal_codes()]

    def play(self, text: str) -> None:
        """Play the ply written ``text``. Raises ValueError if it is malformed or not legal."""
        move = _move_codes(self.players == 2).get(text)
        if move is None:
            raise ValueError(f"{text!r} is not a Forum Romanum move")
        if self.players != 2:  # the text names no colour: the mover's own (colour id = seat)
            move = encode_move(self.player, *decode_move(move)[1:])
        self.apply(move)

    def summary(self) -> dict[str, Any]:
        """The position as plain data: board, hands, scores, regions, plies, truncation."""
        return {"board": self.board(), "pieces_in_hand": self.pieces_in_hand(),
                "colour_scores": self.colour_scores(), "scores": self.player_scores(),
                "settled": self.settled_regions(), "deadlocked": self.deadlocked_regions(),
                "plies": self.plies, "truncated": self.truncated}

    def result(self) -> dict[str, Any]:
        """Scores (per player), colour scores, shared ranks, winners (once over), plies,
        terminal, truncated, settled and deadlocked regions."""
        scores = self.player_scores()
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        return {"scores": scores, "colour_scores": self.colour_scores(), "ranks": ranks,
                "winners": [p for p, r in enumerate(ranks) if r == 1] if self.terminal else [],
                "plies": self.plies, "terminal": self.terminal, "truncated": self.truncated,
                "settled": self.settled_regions(), "deadlocked": self.deadlocked_regions()}

    @staticmethod
    def engine_summary(state) -> dict[str, Any]:
        """The numba engine's position (a forumlab State) in :meth:`summary`'s terms."""
        from forumlab.engines.forum_romanum.layout import BOARD

        array, game = state.array, state.game
        details = game.details(array)
        n_colours = len(details["colour_scores"])
        board = [EMPTY] * CELLS
        for colour in range(n_colours):
            for cell in range(CELLS):
                if (int(array[BOARD + colour]) >> cell) & 1:
                    board[cell] = colour
        return {"board": board, "pieces_in_hand": details["pieces_in_hand"],
                "colour_scores": details["colour_scores"], "scores": [int(x) for x in state.scores()],
                "settled": details["settled"], "deadlocked": details["deadlocked"],
                "plies": game.plies(array), "truncated": game.is_truncated(array)}


@cache
def _move_texts(prefixed: bool) -> list[str]:
    """The notation of every move code (index = code; codes that name no move get ``?``),
    with the colour prefix of the 2-player game when ``prefixed``; built once."""
    texts = ["?"] * encode_move(PIECES_COLOURS, 0, 0)
    for colour in range(PIECES_COLOURS):
        for src in [PLACE, *range(CELLS)]:
            for dst in range(CELLS):
                text = cell_name(dst) if src == PLACE else f"{cell_name(src)}-{cell_name(dst)}"
                texts[encode_move(colour, src, dst)] = f"{colour}:{text}" if prefixed else text
    return texts


@cache
def _move_codes(prefixed: bool) -> dict[str, int]:
    """Move code by notation (see :func:`_move_texts`; without the prefix, colour 0's
    code), built once."""
    codes: dict[str, int] = {}
    for code, text in enumerate(_move_texts(prefixed)):
        if text != "?":
            codes.setdefault(text, code)
    return codes
