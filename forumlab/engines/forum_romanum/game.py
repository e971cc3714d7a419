"""Forum Romanum: the Python facade (notation, rendering, results) over the kernels.

Rules: ``shared/rules/forum-romanum.md`` of the project (2019 English rulebook of
Kramer's 1988 game plus this project's DECISIONs). For players, the rules, the notation
and every decision this project made are in ``docs/games/forum-romanum.md`` of the
repository. Decisions taken here where the spec is silent:

- Move notation in the 2-player game prefixes the *global* colour id 0-3 (player 0
  owns colours 0 and 1, player 1 owns 2 and 3), e.g. ``2:d4`` or ``3:d4-e5``. The
  prefix may be left out when only one colour can move (the second sub-move of a
  turn, and always in 3-6 player games, where it must equal the mover's seat).
- The turn cap counts completed turns: the game is truncated after
  ``max_rounds * players`` turns (a 2-player turn is two plies). If the game also
  ends naturally on that ply it is not marked truncated.
- Final settlement (deadlocked regions) is applied at a capped end too, since the
  spec applies it to "every region that is deadlocked when the game ends".
- Ranks are shared competition ranks (1, 1, 3) on the players' summed scores.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.errors import ConfigError, IllegalMoveError
from ...core.game import Game, Kernels
from . import kernels as forum_kernels
from .layout import (
    ALL_REGIONS,
    BOARD,
    COLUMNS,
    FROM_HAND,
    HAND,
    MAX_MOVES,
    N_COLOURS,
    N_REGIONS,
    OCCUPIED,
    PLY,
    REGION_MASKS,
    REGION_NAMES,
    REGION_VALUES,
    SCORE,
    SETTLED,
    SIZE,
    TRUNCATED,
    cell_name,
    decode_move,
    encode_move,
    parse_cell,
)

_COLOUR_SYMBOLS = "ABCDEF"
# Section (S1-S7) of each cell, reading order: drawn beside the board.
_SECTION_ROWS = ("1112222", "1112222", "3344455", "3344455", "3344455", "6666777", "6666777")

LEGEND = """\
How Forum Romanum scores (the numbers right of the board are the sections):
  23 regions: rows R1-R7, columns Ca-Cg, diagonals D1 (a1-g7) and D2 (g1-a7),
  each worth 7, and sections S1-S7, worth their cells: 6 8 6 9 6 8 6.
  When the last empty cell of a region is filled:
  - one colour has the most pieces in it: it scores the region's value, the
    colour with the fewest loses 4 (2 each if tied). The region is SETTLED:
    it never scores again, whatever moves in or out later.
  - the most is tied: the region is DEADLOCKED: no points now; it is checked
    again if it empties and fills up again. At the end, every colour tied
    for most in a deadlocked region gets +4 and the fewest loses 4 (2 if tied).
  The game ends when every region is settled or deadlocked."""
# Keeps max_rounds * players far inside int64 in the kernels' cap test.
MAX_ROUNDS_LIMIT = 10**9


class ForumRomanum(Game):
    """Forum Romanum for 2-6 players; ``max_rounds`` caps the game (0 = no cap)."""

    name = "forum-romanum"
    tensor_module = "forumlab.engines.forum_romanum.tensor"
    min_players = 2
    max_players = 6
    # MCTS tuned against greedy at 0.2 CPU s per move and for 1 s over 0.1 s; figures: docs/results.md.
    mcts_defaults = {"rollout": "none", "c": 0.05, "hscale": 2.0, "order_depth": 3, "imm": 0.5}
    mcts_defaults_by_players = {3: {"reward": "rank", "hrelative": True, "rollout": "sample", "cutoff": 3}}
    kernels = Kernels.from_module(forum_kernels, MAX_MOVES)

    def __init__(self, players: int = 3, max_rounds: int = 100):
        super().__init__(players)
        if (not isinstance(max_rounds, int) or isinstance(max_rounds, bool)
                or not 0 <= max_rounds <= MAX_ROUNDS_LIMIT):
            raise ConfigError(
                f"max_rounds must be an integer from 0 (no cap) to {MAX_ROUNDS_LIMIT}, not {max_rounds!r}"
            )
        self.max_rounds = max_rounds

    @property
    def config(self) -> dict[str, Any]:
        """``players`` and ``max_rounds``."""
        return {"players": self.players, "max_rounds": self.max_rounds}

    @property
    def colours(self) -> int:
        """Number of colours (4 in the 2-player game)."""
        return 4 if self.players == 2 else self.players

    def initial_array(self, seed: int) -> np.ndarray:
        """The start position of a game with this seed (empty board, seat 0 to move)."""
        return forum_kernels.new_state(self.players, self.max_rounds, seed)

    # ---- notation ------------------------------------------------------------------
    def format_move(self, array: np.ndarray, move: int) -> str:
        """Notation of a move code (the position is not needed here).

        Args:
            array: the position (unused).
            move: a move code.

        Returns:
            ``d4`` (from the hand) or ``d4-e5`` (a move on the board); in the 2-player game
            prefixed by the colour, e.g. ``2:d4``.
        """
        colour, src, dst = decode_move(int(move))
        text = cell_name(dst) if src == FROM_HAND else f"{cell_name(src)}-{cell_name(dst)}"
        return f"{colour}:{text}" if self.players == 2 else text

    def parse_move(self, array: np.ndarray, text: str) -> int:
        """Move code for a notation string (legality is not checked here).

        Args:
            array: the position; without a colour prefix, its only movable colour is used.
            text: ``d4`` or ``d4-e5``, optionally prefixed by a colour id, e.g. ``1:d4``.

        Returns:
            The move code.

        Raises:
            IllegalMoveError: ``text`` is not a string, is malformed, names a colour the game
                does not have, or lacks the prefix while several colours can move.
        """
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text, not {text!r}")
        raw = text.strip()
        colour = None
        body = raw
        if ":" in raw:
            prefix, body = raw.split(":", 1)
            if not (prefix.isascii() and prefix.isdigit()) or int(prefix) >= self.colours:
                raise IllegalMoveError(f"malformed move {text!r}: bad colour {prefix!r}")
            colour = int(prefix)
        movable = self._movable_colours(array)
        if colour is None:
            if len(movable) != 1:
                raise IllegalMoveError(
                    f"move {text!r} needs a colour prefix, one of "
                    + ", ".join(f"'{c}:'" for c in movable)
                )
            colour = movable[0]
        try:
            if "-" in body:
                a, b = body.split("-", 1)
                src, dst = parse_cell(a), parse_cell(b)
            else:
                src, dst = FROM_HAND, parse_cell(body)
        except ValueError:
            raise IllegalMoveError(
                f"malformed move {text!r} (expected e.g. 'd4' or 'd4-e5'"
                + (", prefixed by a colour such as '1:'" if self.players == 2 else "")
                + ")"
            ) from None
        return encode_move(colour, src, dst)

    def _movable_colours(self, array: np.ndarray) -> list[int]:
        first = sorted({decode_move(int(m))[0] for m in self._legal(array)})
        return first

    def _legal(self, array: np.ndarray) -> np.ndarray:
        out = np.empty(MAX_MOVES, dtype=np.int64)
        return out[: forum_kernels.legal_moves(array, out)]

    # ---- results -------------------------------------------------------------------
    def plies(self, array: np.ndarray) -> int:
        """Plies played so far (a 2-player turn is two plies)."""
        return int(array[PLY])

    def is_truncated(self, array: np.ndarray) -> bool:
        """Whether the ``max_rounds`` cap ended the game (not set if the rules also ended it)."""
        return bool(array[TRUNCATED])

    def details(self, array: np.ndarray) -> dict[str, Any]:
        """Forum Romanum's result fields.

        Args:
            array: the position.

        Returns:
            ``colour_scores`` and ``pieces_in_hand`` (per colour), ``settled`` and
            ``deadlocked`` (region ids, see :func:`settled_regions`).
        """
        n_colours = int(array[N_COLOURS])
        return {
            "colour_scores": [int(array[SCORE + c]) for c in range(n_colours)],
            "settled": settled_regions(array),
            "deadlocked": deadlocked_regions(array),
            "pieces_in_hand": [int(array[HAND + c]) for c in range(n_colours)],
        }

    def render(self, array: np.ndarray) -> str:
        """The board with one symbol per colour, scores, pieces in hand and the settled and
        deadlocked regions.

        Args:
            array: the position.

        Returns:
            Multi-line text.
        """
        n_colours = int(array[N_COLOURS])
        lines = ["    " + " ".join(COLUMNS) + "     sections S1-S7"]
        for row in range(SIZE):
            cells = []
            for col in range(SIZE):
                i = row * SIZE + col
                symbol = "."
                for c in range(n_colours):
                    if (int(array[BOARD + c]) >> i) & 1:
                        symbol = _COLOUR_SYMBOLS[c]
                cells.append(symbol)
            lines.append(f"{row + 1:>2}  " + " ".join(cells) + "     " + " ".join(_SECTION_ROWS[row]))
        owners = (
            [f"{_COLOUR_SYMBOLS[c]}=colour {c} (player {c // 2})" for c in range(n_colours)]
            if self.players == 2
            else [f"{_COLOUR_SYMBOLS[c]}=player {c}" for c in range(n_colours)]
        )
        lines.append("    " + ", ".join(owners))
        lines.append(
            "    scores: "
            + " ".join(f"{_COLOUR_SYMBOLS[c]}{int(array[SCORE + c]):+d}" for c in range(n_colours))
            + "   in hand: "
            + " ".join(f"{_COLOUR_SYMBOLS[c]}{int(array[HAND + c])}" for c in range(n_colours))
        )
        settled = [REGION_NAMES[r] for r in settled_regions(array)]
        dead = [REGION_NAMES[r] for r in deadlocked_regions(array)]
        lines.append(f"    settled: {' '.join(settled) or '-'}"
                     + ("   (filled with a sole leader, scored once: never scores again)" if settled else ""))
        lines.append(f"    deadlocked: {' '.join(dead) or '-'}"
                     + ("   (full, tie for most: scores at the end, or when refilled)" if dead else ""))
        return "\n".join(lines)

    # ---- a person at the table (the ``human`` agent and ``play``) ------------------
    def render_seat(self, array: np.ndarray, seat: int, full: bool = False) -> str:
        """:meth:`render` with a last line naming the person's colour(s).

        Args:
            array: the position.
            seat: the person's seat.
            full: unused (the picture is small).

        Returns:
            Multi-line text.
        """
        if self.players == 2:
            mine = (f"{_COLOUR_SYMBOLS[2 * seat]} and {_COLOUR_SYMBOLS[2 * seat + 1]} "
                    f"(colours {2 * seat} and {2 * seat + 1})")
        else:
            mine = _COLOUR_SYMBOLS[seat]
        return self.render(array) + f"\n    you are {mine}; 'legend' explains the sections and regions"

    def legend(self) -> str:
        """What the regions are and what "settled" and "deadlocked" mean."""
        return LEGEND

    def ply_news(self, before: np.ndarray, after: np.ndarray, seat: int) -> list[str]:
        """The regions a ply settled or deadlocked, with the points they moved.

        Args:
            before: the position before the ply.
            after: the position after it.
            seat: the seat being told (everything is public here).

        Returns:
            Lines such as ``"S1 settled (worth 6): A +6, B -2, C -2"``; none when no
            region filled.
        """
        n_colours = int(after[N_COLOURS])
        changes = [(c, int(after[SCORE + c]) - int(before[SCORE + c])) for c in range(n_colours)]
        points = ", ".join(f"{_COLOUR_SYMBOLS[c]} {d:+d}" for c, d in changes if d)
        lines = []
        new = [r for r in settled_regions(after) if r not in settled_regions(before)]
        if new:
            names = " ".join(f"{REGION_NAMES[r]} (worth {int(REGION_VALUES[r])})" for r in new)
            lines.append(f"settled: {names}: {points or 'no points'}")
        elif points:  # the final settlement of deadlocked regions at the end
            lines.append(f"deadlocked regions scored at the end: {points}")
        dead = [r for r in deadlocked_regions(after) if r not in deadlocked_regions(before)]
        if dead:
            lines.append("deadlocked (full, tie for most): " + " ".join(REGION_NAMES[r] for r in dead))
        return lines


def settled_regions(array: np.ndarray) -> list[int]:
    """Ids of the settled regions."""
    settled = int(array[SETTLED]) & ALL_REGIONS
    return [r for r in range(N_REGIONS) if (settled >> r) & 1]


def deadlocked_regions(array: np.ndarray) -> list[int]:
    """Ids of the regions that are full but unsettled (so their lead is tied)."""
    occ = int(array[OCCUPIED])
    settled = int(array[SETTLED])
    return [
        r
        for r in range(N_REGIONS)
        if not (settled >> r) & 1 and occ & int(REGION_MASKS[r]) == int(REGION_MASKS[r])
    ]


