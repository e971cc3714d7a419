"""Plain-Python reference engine for Foundations of Rome.

Written straight from ``shared/rules/foundations-of-rome.md`` (the authority) for clarity,
not speed: the test oracle that the numba engine is checked against move by move. It
shares no code with the fast engine. Scope: the base game, the draft variant
(``draft=True``) and the Monuments module (``modules=["monuments"]``); the other modules
are known names that raise ConfigError "not implemented yet".

Modules (one job each): ``catalogue`` (component data), ``grid`` (lots, neighbours,
footprints), ``chance`` (SplitMix64, shuffle, pile sizes), ``options`` (validation),
``state`` (setup, phase machine, legal moves, effects), ``scoring`` (adjacency, population,
era and end scoring), ``hidden`` (observation, determinize).

Usage::

    game = ReferenceFoundationsOfRome(players=3, modules=["monuments"], draft=False)
    state = game.new_game(seed=7)
    state.legal_moves()          # ["I", "D1", ..., "R1@c3", ...] in the spec's notation
    state.play("D2")             # IllegalMoveError (with the ply number) if not legal
    state.result()               # scores, ranks, winners, plies, terminal, truncated, ...
    replay({"config": game.config, "seed": 7, "moves": state.moves})

Extending to the other modules: cards are lot indices today; invocation cards would get
ids above the lots in the same slots and piles. Setup picks of objectives and roles are
new phases after ``"draft"``; trades, steals and invocation uses are new move kinds
offered by ``ReferenceState._free_actions``; a trade answer is a phase whose ``player``
is the partner; the Consul's turn runs in ``_after_main_action`` after the holder's turn;
price changes go into ``price``, population modifiers into ``scoring.population``, extra
lot markers into ``marker_total``, new VP sources into ``scoring.VP_SOURCES``.

Decisions (where the spec is silent; every other rule is the spec's, literally)
-----------------------------------------------------------------------------
1. RNG: SplitMix64 is re-written in plain Python (``chance.SpecRng``); its words,
   ``rand_below`` and hence every shuffle equal ``forumlab.core.rng``'s (tested), and the
   seed word is ``forumlab.core.rng.derive_seed("foundations-of-rome", seed)``.
2. Notation is strict: cells must be listed in ascending index (``R2@c4,c3`` is
   malformed, not normalised); lot names of the 10x10 city have two-digit rows
   (``a10``); ``D<k>`` is one digit 1-6 (``D0``, ``D7``, ``D01`` are malformed), a slot
   without a card is illegal. Pieces of one shape but different codes (``R2``/``C2``) are
   different moves on the same cells; identical copies of one code are one move.
3. ``legal_moves`` order (the spec fixes a set, not an order): draft picks by lot index;
   ``I``; ``D1``..``D6``; builds by code in the order R1 R2 R3L R3I R4O R4I C1 C2 C3L C3I
   C4O C4I V1F V2F V1L V2L V1M V2M V1G V2G, then monuments by id; each by ascending cells.
4. Draft: every round starts with seat 0 (the spec's "in seat order"); the deed board is
   revealed at setup, before the draft (the spec's setup draw order); hand i passes to
   seat i+1; the 6th round's single-card pick is still a ply. Draft picks are not main
   actions (``max_turns`` does not count them).
5. Lot markers are not stored: a seat's markers on the board are exactly its owned
   unbuilt lots, and its supply is 8 minus those (the spec's Buy and Build effects keep
   this invariant).
6. VP sources in ``result()["vp_by_source"]``: ``population`` (population step),
   ``civic`` (civic buildings' rules), ``commercial`` (era-3 silver scored as VP, of
   buildings and monuments alike), ``tray`` (tray VP of commercial buildings),
   ``monuments`` (civic monuments' rules, commercial monuments' VP each era, and the
   Temple of Jupiter's +2 VP to each owner of an adjacent building), ``lot_markers``.
7. Monument on-build effects (M11, M12) reach each owner of a building adjacent to the
   new monument once, the builder included, with adjacency taken after the build (so
   buildings it covered do not count).
8. Monument requirements are checked before the build; "own a building of size >= k"
   counts monuments too; "silver" is, as the spec defines it, the silver of own
   commercial buildings (not silver held); "edge" means the footprint contains a lot in
   the first or last row or column of the city.
9. The monument display keeps the shuffle's order (the first players+3 ids drawn).
10. ``max_turns`` must be >= 1 (there is no "no cap" value, since Income can go on
    forever). A truncated game gets no further scoring.
11. Before the end, ``ranks()`` are live ranks on (VP, silver) and ``winners()`` is empty.
12. Options the later modules need (``objectives`` "hidden"/"public", ``max_trades``
    0-3) are validated and accepted but have no effect yet; ``consul`` other than false
    is "not implemented yet"; an unknown option, an unknown module or a module listed
    twice is a ConfigError.
13. ``determinize`` consumes its rng in this order: one shuffle of the unlocated cards,
    a shuffle of each era pile 1-3, one draw per other seat's pending pick (seat order),
    one draw for the new RNG word. A resampled card takes over the seen-mask of the place
    it lands in. ``observation`` leaves out the RNG word and the seen-masks.
14. Move errors name the 1-based ply and the seat: ``ply 12 (seat 2): 'D3' is illegal:
    ...``; a move after the end raises GameOverError.
15. ``observation(seat)`` holds the public position (lots, buildings, supplies, markers,
    display, silver, VP by source, slots, phase, seat to move, era, final turns left,
    pile and hand sizes, who has a pending pick) plus the seat's own hand and pick and,
    per other seat, the cards of its hand-and-pick the seat has seen (as a set).
"""

from __future__ import annotations

import operator

from forumlab.core.errors import IllegalMoveError, RecordError

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
        if isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        return ReferenceState(self.options, operator.index(seed))


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
