"""Plain-Python reference engine for Foundations of Rome.

Written straight from ``shared/rules/foundations-of-rome.md`` (the authority) for clarity,
not speed: the test oracle that the numba engine is checked against move by move. It
shares no code with the fast engine. Scope: the base game, the draft variant
(``draft=True``) and every module of the spec: ``modules=[...]`` from "monuments",
"trading", "stealing", "objectives" (``objectives="hidden"|"public"``), "invocations",
"roles", and the Will of the Consul (``consul="standard"|"hard"|"challenge"``, 1-4
players, only with "monuments" besides the draft).

Modules (one job each): ``catalogue`` (component data), ``grid`` (lots, neighbours,
footprints), ``chance`` (SplitMix64, shuffle, pile sizes), ``options`` (validation),
``state`` (setup, phase machine, legal moves, effects), ``scoring`` (adjacency, population,
era and end scoring), ``objectives`` (the 18 objective conditions), ``consul`` (the
Consul's token piles, placement and price floor), ``hidden`` (observation, determinize).

Usage::

    game = ReferenceFoundationsOfRome(players=3, modules=["monuments"], draft=False)
    state = game.new_game(seed=7)
    state.legal_moves()          # ["I", "D1", ..., "R1@c3", ...] in the spec's notation
    state.play("D2")             # IllegalMoveError (with the ply number) if not legal
    state.result()               # scores, ranks, winners, plies, terminal, truncated, ...
    replay({"config": game.config, "seed": 7, "moves": state.moves})

Module notation: ``T2:d3/$4`` (trade offer), ``Y``/``N`` (the partner's answer, a ply of
the partner: ``current_player()`` is the partner while ``phase == "answer"``), ``S:d4``,
``U:G3``, ``U:G20=1``, ``K:O16``, ``K:P10``. A module's notation is malformed in a game
without that module.

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
12. Options: ``objectives`` ("hidden"/"public") and ``max_trades`` (0-3) are validated
    always and act only with their module; ``consul=True`` means "standard"; with the
    Consul ``players`` is 1-4, without it 2-5; the Consul allows "monuments" (optional,
    not required: the spec says only monuments "may be added") and the draft, any other
    module is a ConfigError; so is an unknown option or module or a module listed twice.
    ``config()`` records ``objectives`` only with Objectives, ``max_trades`` only with
    Trading and ``consul`` only when on, so base-game records are unchanged.
13. ``determinize`` consumes its rng in this order: one shuffle of the unlocated deeds;
    (Invocations) one shuffle of the unrevealed eligible invocations (pile cards plus
    spares, ascending ids first) whose first cards fill the piles' invocation places in
    pile order, the rest staying spare; a shuffle of each era pile 1-3; one draw per other
    seat's pending draft pick (seat order); (hidden Objectives) one shuffle of the
    objectives the seat has not seen (ascending first), pairs dealt to the other seats in
    seat order, then one below(2) per other seat that has kept, choosing its kept card;
    (Roles) the same for roles before the reveal; after it, the unseen roles (neither in
    the seat's pair nor anyone's revealed choice) are shuffled and each other seat gets
    the next one as the other half of its pair; (Consul) a shuffle of each token pile,
    sizes 1-4; one draw for the new RNG word. A resampled card takes over the seen-mask
    of the place it lands in. ``observation`` leaves out the RNG word and the seen-masks.
14. Move errors name the 1-based ply and the seat: ``ply 12 (seat 2): 'D3' is illegal:
    ...``; a move after the end raises GameOverError.
15. ``observation(seat)`` holds the public position (lots, buildings, supplies, markers,
    display, silver, VP by source, slots, phase, seat to move, era, final turns left,
    pile and hand sizes, who has a pending pick) plus the seat's own hand and pick and,
    per other seat, the cards of its hand-and-pick the seat has seen (as a set); with the
    modules also favor tokens, held invocations with their status, each era pile's
    invocation count and the number of spare invocations, the pending trade offer, the
    turn's offers and "this turn" effects, public objectives, the seat's own dealt and
    kept objective and role, which other seats have kept, the roles after the reveal
    (every seat's original choice and the card it holds now), the Consul's VP, holder,
    pile sizes and discards.
16. Cards: invocation ``G<g>`` is card ``100 + g`` in slots and piles (lots are 0..99);
    ``spare_invocations`` lists the eligible cards dealt into no pile (ids ascending).
    Buying one needs no lot marker; its identity is public from the moment it is in a
    slot. The Consul's lots and tokens have the owner value -2 (``catalogue.CONSUL``);
    its tokens are buildings with code ``X<id>`` (ids 0-29 in the spec's order), which
    are not buildable notation.
17. Free actions (trades, steals, uses) are legal in normal and final turns of the seat
    to move (the spec's "free actions allowed" in final turns), never in setup or while
    an answer is due; a "this turn" effect (Ianus, Vulcanus, Discordia, Flamen) and the
    count of offers end with the main action that ends the turn (a truncation too).
18. ``legal_moves`` order: setup keeps by card id; ``Y``, ``N``; trades by partner seat,
    then the item given, then the item asked, items ordered ``-``, lots by index,
    ``$1``..``$10``, ``F2``, ``F4``, cards by id; steals by lot index; uses by card id
    (``U:G20=<s>`` by seat); then ``I``, ``D<k>``, builds as in decision 3.
19. Trades: an offer is legal iff the seat has offers left (``max_trades``; every offer
    counts, answered Y or N), the partner is another seat, not ``-/-``, not silver for
    silver, each side holds its item now (an own unbuilt lot, ``$n`` with 1 <= n <= 10
    and n <= its silver, a favor token of that side, an unused or ongoing invocation) and
    every marker supply stays >= 0 after the exchange (a lot needs the receiver's marker
    and frees the giver's; an ongoing Mars carries 1). The answer ``Y`` is then always
    legal (nothing can change in between); the two items change hands at once and the
    proposer's turn goes on in the phase it was in. Seat numbers and amounts are
    decimals without leading zeros; a seat out of range is malformed, one's own seat is
    illegal.
20. Steals: a Consul lot is no player's lot. Under Discordia the next steal uses it up
    even if the mover has a 2-VP token (no token is flipped or given).
21. Uses: any unused held card may be used whatever its effect (Ianus with nothing to
    build, Vulcanus in a final turn); an ongoing card in play cannot be used again but can
    be traded; a used one-shot card is spent and cannot be traded. Saturnus sets silver
    to the population (it may lower it). Pluto counts own unbuilt lots, Terminus own edge
    lots built or not, Iuno own residential buildings and monuments. Numa names another
    seat and is legal only if every marker supply stays >= 0 (Dominus's 2 markers move
    with the card); the swapped cards act for their new holders from then on, and
    Argentarius's +5 is not paid again.
22. Ianus: the next Build this turn (a monument or the Architectus no-op included) is
    not a main action and does not end the turn; Faber and Legatus count it as a Build.
    Unused by the end of the turn, it is lost.
23. Prices: the Consul's floor first, then Agrimensor -1 and Vulcanus -3, min 0.
24. Roles act from the reveal on, for the seat holding the card. Architectus: covering
    an own building of the same size is legal; the same code on exactly the cells of its
    own copy is legal even with none of that code in supply (it changes nothing but the
    turn), any other same-size build needs the code in supply. Censor's "leader" is a
    highest population among the players (ties friendly, 0 included); Tribunus scores
    when the seat is not a leader and has population >= 1 (a 0-population player
    scores nothing). Legatus counts size in cells (monuments included).
25. Scoring order of module effects: at an era scoring Censor and Tribunus come with the
    population step, Minerva and Aedilis after the civic step, Negotiator with the
    commercial step; at the end: lot markers (2 VP each with Praetor or an ongoing
    Quirinus, not 4), favor tokens, unused invocations' VP, Quaestor, Pontifex,
    objectives, Augur. VP sources (``vp_by_source``) gain, only for modules in play,
    ``favor_tokens``, ``invocations`` (Apollo, Minerva, Iuno, Bacchus, Terminus, Augur,
    unused cards' VP), ``roles``, ``objectives`` and ``start`` (the Consul game's 5 VP);
    Praetor/Quirinus marker points stay in ``lot_markers``.
26. Objectives: buildings counted include monuments; O4's corners are the city's four
    corner lots; O12 counts own buildings touching at least one building of another
    player; O17's residential and commercial neighbours may be anyone's; O10 reads the
    silver held after all other end scoring. Augur counts the objectives the seat scores
    (its kept card if hidden, every face-up card it meets if public). With
    ``objectives="public"`` there are no
    keep plies. Keeps (``K:O``, then ``K:P``) run seat 0..n-1 after the draft; they are
    not main actions; the last role choice reveals all roles (Argentarius: +5 silver).
27. The Consul: it acts after each main action of the holder in a normal turn while the
    board has a card (never after a free Build or in final turns, where the board is
    empty); the card passes one seat after each era scoring (with 1 player it stays).
    Its VP are ``consul_vp`` (start 5). M11's +2 VP reach it once, M12's silver not. The
    result adds ``consul_vp`` and ``consul_margin`` = min over seats of (VP - Consul VP),
    every seat's reward; ranks are all 1 and winners every seat iff the margin is > 0,
    also in a truncated game (on the VP so far).
28. Consul placement: the freed cells "in this step" are the cells of the discarded
    tokens outside T; each re-cover draws like the first (refilling from discards,
    which by then hold the tokens just discarded) and cannot overlap a token.
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
        options: ``players`` (2-5, default 3; 1-4 with the Consul), ``modules`` (a list
            from monuments, trading, stealing, objectives, invocations, roles),
            ``objectives`` ("hidden"/"public"), ``consul`` (false, true, "standard",
            "hard", "challenge"), ``max_trades`` (0-3, default 1), ``draft`` (bool),
            ``deed_prices`` (6 non-decreasing integers >= 0), ``max_turns`` (>= 1,
            default 1000); ConfigError (one line) for anything else.
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
