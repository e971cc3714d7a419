"""Plain-Python reference engine for Forum Trajanum.

Written straight from ``shared/rules/forum-trajanum.md`` (the authority) for clarity, not
speed: the test oracle the numba engine will be checked against move by move. It shares no
code with any numba kernel.

Modules (one job each): ``catalogue`` (component data and tables), ``options``
(validation), ``chance`` (the setup stream from forumlab.core.rng), ``forum`` (areas,
groups, eagle points), ``colonia`` (a player's numbers), ``scoring`` (cycle-end scoring
and Trajan tasks), ``state`` (setup, the round/turn/cycle machine, legal moves,
effects), ``hidden`` (summary, observation, determinize).

Usage::

    game = ReferenceForumTrajanum(players=3, intro=False, setup="choose")
    state = game.new_game(seed=7)
    state.legal_moves()        # ["setup rbgy/1/a1", ...] in the spec's notation
    state.play("setup rbgy/1/a1")
    state.result()
    replay(state.record())

Decisions (where the spec is silent; every other rule is the spec's, literally)
-----------------------------------------------------------------------------
DECISIONS_PLACEHOLDER
"""

from __future__ import annotations

import operator

from forumlab.core.errors import IllegalMoveError, RecordError

from .catalogue import GAME_NAME
from .options import Options, validate
from .state import ReferenceState

__all__ = ["GAME_NAME", "ReferenceForumTrajanum", "ReferenceState", "replay"]


class ReferenceForumTrajanum:
    """The game with its options; ``new_game(seed)`` starts a ReferenceState.

    Args:
        options: ``players`` (2-4, default 3), ``intro`` (bool), ``setup``
            ("choose"/"fixed"); ConfigError (one line) for anything else.
    """

    name = GAME_NAME

    def __init__(self, **options):
        self.options: Options = validate(**options)

    @property
    def config(self) -> dict:
        """The options as a record's ``config``."""
        return self.options.config()

    def new_game(self, seed: int = 0) -> ReferenceState:
        """A fresh game; ``seed`` drives every chance draw of the setup."""
        if isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        return ReferenceState(self.options, operator.index(seed))


def replay(record: dict) -> ReferenceState:
    """Replay a record ``{"config": {...}, "seed": s, "moves": [...]}``.

    Raises:
        RecordError: another game's record or missing fields. ConfigError: bad options.
        IllegalMoveError: a bad move (with its ply number).
    """
    if not isinstance(record, dict) or not {"seed", "moves"} <= set(record):
        raise RecordError("a record needs 'seed' and 'moves'")
    if record.get("game", GAME_NAME) != GAME_NAME:
        raise RecordError(f"not a {GAME_NAME} record: game {record.get('game')!r}")
    state = ReferenceForumTrajanum(**record.get("config", {})).new_game(record["seed"])
    for text in record["moves"]:
        if state.is_terminal():
            raise IllegalMoveError(f"ply {state.plies + 1}: {text!r} after the end of the game")
        state.play(text)
    return state
