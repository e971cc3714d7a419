"""Forum Romanum: the Python facade, glue between the game protocol and the engine's
modules (kernels: :mod:`.kernels`; notation: :mod:`.notation`; text: :mod:`.render`;
results: :mod:`.scoring`).

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

from ...core.game import Game, LazyKernels
from ...core.params import Param
from .layout import PLY, TRUNCATED, colours_for

# The engine's numba modules are imported where they are used, so that listing the game
# and its options imports no numba (tests/project/test_light_imports.py).

# Keeps max_rounds * players far inside int64 in the kernels' cap test.
MAX_ROUNDS_LIMIT = 10**9


class ForumRomanum(Game):
    """Forum Romanum for 2-6 players; ``max_rounds`` caps the game (0 = no cap). Rules, notation
    and options for players: ``docs/games/forum-romanum.md``."""

    name = "forum-romanum"
    format_move_reads_position = False  # a move's text depends on its code alone
    score_sources_fast = True  # one compiled batch (sources.py): reports show them unasked
    # 2: random_move draws the k-th empty cell and the k-th piece (no redraws), so a seed's
    # random games differ from version 1's; recorded moves replay as before.
    engine_version = "2"
    tensor_module = "forumlab.engines.forum_romanum.tensor"
    min_players = 2
    max_players = 6
    # MCTS tuned against greedy at 0.2 CPU s per move and for 1 s over 0.1 s; figures: docs/results.md.
    mcts_defaults = {"rollout": "none", "c": 0.05, "hscale": 2.0, "order_depth": 3, "imm": 0.5}
    mcts_defaults_by_players = {3: {"reward": "rank", "hrelative": True, "rollout": "sample", "cutoff": 3}}
    kernels = LazyKernels("forumlab.engines.forum_romanum.kernels")

    # Declared once: checked by forumlab.core.options, listed by `forumlab games --options`.
    OPTIONS = {
        "players": Param(3, "number of players (2: two colours each)"),
        "max_rounds": Param(100, "stop after this many rounds and mark the game truncated; 0 = no cap",
                            low=0, high=MAX_ROUNDS_LIMIT),
    }

    def __init__(self, players: int = 3, max_rounds: int = 100):
        super().__init__(players, max_rounds=max_rounds)
        self.max_rounds = self.options["max_rounds"]

    @property
    def config(self) -> dict[str, Any]:
        """``players`` and ``max_rounds``."""
        return {"players": self.players, "max_rounds": self.max_rounds}

    @property
    def colours(self) -> int:
        """Number of colours (4 in the 2-player game)."""
        return colours_for(self.players)

    def initial_array(self, seed: int) -> np.ndarray:
        """The start position of a game with this seed (empty board, seat 0 to move)."""
        from .setup import new_state

        return new_state(self.players, self.max_rounds, seed)

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
        from .notation import format_move as format_code

        return format_code(move, self.players)

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
        from .notation import parse_move as parse_text

        return parse_text(array, text, self.players)

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
            ``deadlocked`` (region ids, see :func:`.scoring.settled_regions`).
        """
        from .scoring import result_details

        return result_details(array)

    def score_sources(self, seed: int, moves) -> list[dict[str, int]]:
        """Points per seat from ``rows``, ``columns``, ``diagonals``, ``sections`` (the
        settled regions of each kind) and ``deadlocks`` (the final settlement), summing to
        the seat's score (:mod:`.sources`, :mod:`.sources_replay`).

        Raises:
            IllegalMoveError: a move is malformed or not legal where it is played.
        """
        return self.score_sources_many([(seed, moves)])[0]

    def score_sources_many(self, games) -> list[list[dict[str, int]]]:
        """:meth:`score_sources` of many ``(seed, moves)`` games, replayed in one compiled batch."""
        from .sources_replay import sources_by_seat

        return sources_by_seat(self, games)

    def render(self, array: np.ndarray) -> str:
        """The board with one symbol per colour, scores, pieces in hand and the settled and
        deadlocked regions.

        Args:
            array: the position.

        Returns:
            Multi-line text.
        """
        from .render import render as board_text

        return board_text(array, self.players)

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
        from .render import seat_line

        return self.render(array) + "\n" + seat_line(seat, self.players)

    def legend(self) -> str:
        """What the regions are and what "settled" and "deadlocked" mean."""
        from .render import LEGEND

        return LEGEND

    def ply_news(self, before: np.ndarray, after: np.ndarray, seat: int) -> list[str]:
        """The regions a ply settled or deadlocked, with the points they moved.

        Args:
            before: the position before the ply.
            after: the position after it.
            seat: the seat being told (everything is public here).

        Returns:
            Lines such as ``"settled: S1 (worth 6): A +6, B -2, C -2"``; none when no
            region filled.
        """
        from .render import ply_news

        return ply_news(before, after)

    def bot_view(self, array: np.ndarray, seat: int) -> dict[str, Any]:
        """The seat's JSON view for bots (schema: ``docs/games/forum-romanum.md``)."""
        from . import view

        return view.bot_view(self, array, seat)
