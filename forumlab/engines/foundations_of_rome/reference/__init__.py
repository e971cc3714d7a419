"""Plain-Python reference engine for Foundations of Rome.

DOCSTRING_PLACEHOLDER
"""

from __future__ import annotations

from forumlab.core.errors import IllegalMoveError, RecordError

from . import hidden
from .chance import GAME_NAME, SpecRng
from .options import Options, validate
from .state import ReferenceState

__all__ = ["GAME_NAME", "ReferenceFoundationsOfRome", "ReferenceState", "SpecRng", "replay"]


class ReferenceFoundationsOfRome:
    """The game with its options; ``new_game(seed)`` starts a ReferenceState.

    Args:
        options: ``players`` (2-5, default 3), ``modules`` ([] or ["monuments"]),
            ``draft`` (bool), ``deed_prices`` (6 non-decreasing integers >= 0),
            ``max_turns`` (>= 1, default 1000); ConfigError for anything else.
    """

    name = GAME_NAME

    def __init__(self, **options):
        self.options: Options = validate(**options)

    @property
    def config(self) -> dict:
        """The options as a record's ``config``."""
        return self.options.config()

    def new_game(self, seed: int = 0) -> ReferenceState:
        """A fresh game; ``seed`` drives the setup (spec, "Chance and replay")."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        return ReferenceState(self.options, seed)


def _observation(self, seat: int) -> dict:
    """Everything ``seat`` may see (see ``hidden.observation``)."""
    return hidden.observation(self, seat)


def _determinize(self, seat: int, rng) -> ReferenceState:
    """Resample in place what ``seat`` cannot see (see ``hidden.determinize``); returns self."""
    hidden.determinize(self, seat, rng)
    return self


ReferenceState.observation = _observation
ReferenceState.determinize = _determinize


def replay(record: dict) -> ReferenceState:
    """Replay a record ``{"config": {...}, "seed": s, "moves": [...]}`` (``game``, if given,
    must be foundations-of-rome).

    Raises:
        RecordError: a record of another game or without the needed fields.
        ConfigError: bad options. IllegalMoveError: a bad move (with its ply).
    """
    if not isinstance(record, dict) or not {"seed", "moves"} <= set(record):
        raise RecordError("a record needs 'seed' and 'moves'")
    if record.get("game", GAME_NAME) != GAME_NAME:
        raise RecordError(f"not a {GAME_NAME} record: game {record.get('game')!r}")
    state = ReferenceFoundationsOfRome(**record.get("config", {})).new_game(record["seed"])
    for text in record["moves"]:
        if state.is_terminal():
            raise IllegalMoveError(f"ply {state.plies + 1}: {text!r} after the end of the game")
        state.play(text)
    return state
