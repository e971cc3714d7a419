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
1. Chance: the stream is ``forumlab.core.rng`` (``make_rng(derive_seed("forum-trajanum",
   seed))``, ``rand_below``); deck order before the shuffle is R1,R1,..,R6,R6,Ca,Ca,..,Cf,Cf.
2. Notation is strict, never normalised: ``take`` lists its pair in reading order (row,
   then column) with ``rv`` last (``take a4 c2`` is illegal, ``take c2 a4`` legal); a
   double's payment is grey group first, a ``bb`` double's groups plain first then ``xA``
   by x in r,b,g,y; ``pay`` rows ascending; ``pick`` pairs in T A C U V order. Anything
   not in ``legal_moves()`` raises IllegalMoveError "ply N (seat s): 'text' is illegal"
   (or "is malformed" when it is not "<word> <args>"); a ply after the end raises
   GameOverError.
3. Automatic decisions (single legal option, not plies): a ``setup`` in "fixed" mode, a
   ``take`` with one affordable pair, ``cit`` with one free row, ``track`` at level 1,
   ``pay -`` with no coins or no citizens, ``build -`` with no conversion and no build.
   ``env`` always offers ``env -`` beside a legal cell, so it is never automatic.
4. PI's diagonal eagle point is +1 per envoy diagonally next to at least one eagle, on
   top of its 2 (on an eagle) or 1 (orthogonally next to one) points; never per eagle.
5. A crane scored at a cycle end turns colourless even when it scores 0.
6. The Merchant side is taken when a citizen is placed in row 3 (also the setup female);
   payment never re-activates it since it is "for good".
7. The start player passes to the right after the cycle-end payment (payment runs in the
   turn order of the round just played); it also passes after round 12 (no effect).
8. VP sources (``result()["vp_by_source"]``): ``column`` (triumphal columns built),
   ``track_end`` (the column scored when a track reaches 4), ``bonus`` (the ``V`` area
   bonus), ``crane``, ``colonia``, ``eagles``, ``area`` (largest group with prestige),
   ``trajan``.
9. A held tile is public from the start of its holder's turn; a taken tile is known to
   its taker, a passed tile to the passer and (once the draft ends) the receiver, a river
   tile to its owner, corner tiles to everyone.
10. ``observation(seat)`` is the full summary of a copy with the other seats' draft of
    this round undone (step (a)), with tile types the seat does not know shown as "?",
    the undrawn street cards as a count per pile, and without the move list and the
    who-saw-what lists.
11. ``determinize(seat, rng)`` draws in this order: one Fisher-Yates shuffle of the hidden
    tile types of owner 0, 1, .., n-1 (order: the owner's board a1..f6 then rv, its unplaced
    pool, held tiles by seat (k, r), passed tiles by receiver, draft tiles by seat), then
    one shuffle of every undrawn street card over all undrawn positions of the three
    piles together (the piles are exchangeable). ``rng`` is a ``chance.Chance``, an int
    word or a ``forumlab.core.rng`` uint64 array (two 31-bit draws of which seed the stream).
    Undoing a draft resets the tile's who-saw list (a river tile: its owner only). If
    after the undo the head of the queue has a single legal take, it is applied again
    automatically (it reveals nothing).
12. Trajan symbol ``eagle`` counts own envoys on an eagle or orthogonally next to one;
    ``lvl>=2 on 2 tracks`` is at least 2 tracks at level >= 2.
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
