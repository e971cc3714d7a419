"""Forum Trajanum: the Python facade (options, notation, rendering, results).

Rules: ``shared/rules/forum-trajanum.md`` (the authority); for players, the rules, the
notation and every decision this project made are in ``docs/games/forum-trajanum.md`` of
the repository. Options: ``players`` 2-4
(default 3), ``intro`` (bool, default false), ``setup`` ``"choose"`` (default) or
``"fixed"``. Notation: the spec's, strict (:mod:`.notation`).

Decisions where the spec is silent (the same as the reference engine's, listed in
``reference/__init__.py``; this engine was written without reading its rule code):

1. Chance: ``forumlab.core.rng`` from ``derive_seed("forum-trajanum", seed)``; the deck
   before its shuffle is R1,R1,..,R6,R6,Ca,Ca,..,Cf,Cf.
2. Notation is strict, never normalised (``take`` in reading order with ``rv`` last,
   payment groups grey first and a ``bb`` double's plain first then ``xA`` by r,b,g,y,
   ``pay`` rows ascending, ``pick`` pairs in T A C U V order); anything else is malformed.
3. Automatic decisions (not plies): a fixed ``setup``, a ``take`` with one affordable
   pair, ``cit`` with one free row (none: no effect), ``track`` at level 1, ``pay -``
   without coins or citizens, ``build -`` when no conversion and no build is possible.
   ``env`` always offers ``env -`` beside a legal cell; with no legal cell or an empty
   ship nothing happens.
4. PI: +1 per envoy diagonally next to at least one eagle, on top of its 2 or 1.
5. A crane scored at a cycle end turns colourless even when it scores 0.
6. The Merchant side comes with a citizen placed in row 3 (the setup female too) and stays.
7. Citizens are paid in the turn order of the round just played; then the start
   player passes to the right (also after round 12).
8. VP sources: column, track_end, bonus (the ``V`` area bonus), crane, colonia,
   eagles, area, trajan.
9. Who has seen a tile: its taker, its passer and (after the draft) its receiver, the
   owner for the river tile; corner tiles are face up; held tiles turn face up at the
   start of their holder's turn.
10. ``determinize``: :mod:`.hidden` (the reference's draw order, so the same stream gives
    the same state). Every envoy placement (free ones too) needs a non-empty ship.
11. Trajan ``eagle``: an own envoy on an eagle or orthogonally next to one; ``lvl>=2
    on 2 tracks``: two tracks at level 2 or more.
12. Results: scores are VP; ranks and winners follow (VP, active citizens, resources)
    (``rank_keys``); search values terminal positions by VP alone.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.game import Game, LazyKernels
from ...core.params import Param
from .layout import PLY

# The engine's numba modules are imported where they are used, so that listing the game
# and its options imports no numba (tests/project/test_light_imports.py).

SETUP_MODES = ("choose", "fixed")


class ForumTrajanum(Game):
    """Forum Trajanum for 2-4 players (standard edition of the project's spec). Rules, notation
    and options for players: ``docs/games/forum-trajanum.md``."""

    name = "forum-trajanum"  # setup.GAME_NAME, which seeds the game's RNG (a test checks they agree)
    format_move_reads_position = False  # a move's text depends on its code alone
    tensor_module = "forumlab.engines.forum_trajanum.tensor"
    min_players = 2
    max_players = 4
    perfect_information = False
    # MCTS tuned against greedy at 3 players, 0.2 CPU s per move; figures: docs/results.md.
    mcts_defaults = {"rollout": "none", "hscale": 10.0, "c": 0.3}
    kernels = LazyKernels("forumlab.engines.forum_trajanum.kernels")

    # Declared once: checked by forumlab.core.options, listed by `forumlab games --options`.
    OPTIONS = {
        "players": Param(3, "number of players"),
        "intro": Param(False, "the introductory game: only the cycle-III Trajan card is scored, once, "
                              "after cycle III"),
        "setup": Param("choose", "setup plies, or every seat takes 'setup rbgy/1/a1' automatically "
                                 "(no plies)", choices=SETUP_MODES),
    }

    def __init__(self, players: int = 3, intro: bool = False, setup: str = "choose"):
        super().__init__(players, intro=intro, setup=setup)
        self.intro = self.options["intro"]
        self.setup = self.options["setup"]

    @property
    def config(self) -> dict[str, Any]:
        return {"players": self.players, "intro": self.intro, "setup": self.setup}

    def initial_array(self, seed: int) -> np.ndarray:
        from .setup import new_state

        return new_state(self.players, self.intro, self.setup == "fixed", seed)

    # ---- notation ------------------------------------------------------------------
    def format_move(self, array: np.ndarray, move: int) -> str:
        from .notation import format_move as _format

        return _format(int(move))

    def parse_move(self, array: np.ndarray, text: str) -> int:
        from .notation import parse_move as _parse

        # No ply number here: replay and play prefix it.
        return _parse(text)

    # ---- results -------------------------------------------------------------------
    def plies(self, array: np.ndarray) -> int:
        return int(array[PLY])

    def observation(self, array: np.ndarray, seat: int) -> np.ndarray:
        from . import hidden

        return hidden.observation(array, seat)

    def rank_keys(self, array: np.ndarray, scores: list) -> list:
        """(VP, active citizens, resources) per seat: the rulebook's tie-breaks."""
        from .scoring import tie_break_keys

        return tie_break_keys(array, scores)

    def details(self, array: np.ndarray) -> dict[str, Any]:
        from .scoring import result_details

        return result_details(array)

    def render(self, array: np.ndarray) -> str:
        from .render import render as _render

        return _render(array)

    # ---- a person at the table (the ``human`` agent and ``play``) ------------------
    def render_seat(self, array: np.ndarray, seat: int, full: bool = False) -> str:
        """The picture a person at ``seat`` sees: the tiles that seat has seen named
        (its river tile, its draft, the tiles it holds or passed), what it has to decide
        when it is to move, and, unless ``full``, the other seats in two lines each.

        Args:
            array: the seat's view (a determinization from ``seat``): unseen tiles are
                drawn ``[??]`` whatever the view holds there.
            seat: the seat looking.
            full: draw every seat's Colonia.

        Returns:
            Multi-line text (about 20 lines with 4 players unless ``full``).
        """
        from .render import render as _render

        return _render(array, seat, brief=not full)

    def legend(self) -> str:
        """What each symbol of the board picture means."""
        from .render import LEGEND

        return LEGEND

    def bot_view(self, array: np.ndarray, seat: int) -> dict[str, Any]:
        """The seat's JSON view for bots (schema: ``docs/games/forum-trajanum.md``)."""
        from . import view

        return view.bot_view(self, array, seat)

    def move_note(self, array: np.ndarray, move: int) -> str:
        """What ``moves`` lists beside a move: the tribunes a ``take`` costs ("free",
        "1 tribune", "2 tribunes"); "" for other moves."""
        from .notation import move_note as _move_note

        return _move_note(array, move)

    def move_seen_by(self, array: np.ndarray, move: int, seat: int) -> str | None:
        """The move's notation, or None for another seat's ``take``/``keep`` in the
        draft (secret until the draft ends; then :meth:`ply_news` names the spaces
        taken). Every other ply, the setup ones too, is public."""
        from . import hidden

        if hidden.hides_move(array, move, seat):
            return None
        return self.format_move(array, move)

    def move_words(self, before: np.ndarray, move: int, after: np.ndarray, seat: int) -> str:
        """A ply in words as told to ``seat`` (from what ``seat`` observes only).

        Args:
            before: the true position before the ply.
            move: its move code.
            after: the true position after it.
            seat: the seat being told.

        Returns:
            A phrase such as ``"uses its kept tile: a coin"``; for a secret draft ply,
            what is secret about it.
        """
        if self.move_seen_by(before, move, seat) is None:
            return "its secret draft choice"
        from . import hidden
        from .notation import describe_move

        return describe_move(hidden.observation(before, seat), hidden.observation(after, seat), move, seat)

    def ply_news(self, before: np.ndarray, after: np.ndarray, seat: int) -> list[str]:
        """What else became public to ``seat`` in a ply: each seat's drafted spaces
        when the draft ends, the tile it received, a cycle's scoring, a new round's
        street cards (:func:`.notation.ply_news`; read from what ``seat`` observes)."""
        from . import hidden
        from .notation import ply_news

        return ply_news(hidden.observation(before, seat), hidden.observation(after, seat), seat)

