"""A game in progress: setup, the turn-phase machine, legal moves and their effects.

Phases (``state.phase``): ``"draft"`` (setup picks ``K:<lot>``), ``"objectives"`` (setup
keeps ``K:O<k>``), ``"roles"`` (setup keeps ``K:P<k>``), ``"turn"`` (a normal turn: free
actions of modules, then one main action), ``"final"`` (an era's final turns: Income or
Build, free actions allowed), ``"answer"`` (the partner of a trade offer answers ``Y`` or
``N``; ``player`` is that partner), ``"over"``. Every ply, whoever makes it, goes through
``play``.
"""

from __future__ import annotations

import operator
import re

from forumlab.core.errors import GameOverError, IllegalMoveError
from forumlab.core.ranks import shared_ranks

from . import consul, hidden, scoring
from .catalogue import (
    BUILDINGS,
    CONSUL,
    CONSUL_START_DEEDS,
    FAVOR_START,
    FAVOR_TOKENS,
    GRID_SIZE,
    HAND_SIZE,
    INVOCATION_CARD_BASE,
    INVOCATIONS,
    INVOCATIONS_PER_PILE,
    LOT_MARKERS,
    MONUMENT_MARKERS,
    MONUMENT_ON_BUILD,
    MONUMENT_REQUIREMENTS,
    MONUMENTS,
    N_MONUMENTS,
    N_OBJECTIVES,
    N_ROLES,
    PIECES,
    RESIDENTIAL,
    SLOTS,
)
from .chance import GAME_NAME, SpecRng, era_pile_sizes
from .comparable import comparable
from .grid import grid
from .options import Options, validate

_BUILD = re.compile(r"([A-Z][A-Z0-9]*)@([a-z0-9,]+)")
_BUY = re.compile(r"D([0-9])")
_PICK = re.compile(r"K:([a-z][0-9]+)")
_KEEP = re.compile(r"K:([OP])([0-9]+)")
_TRADE = re.compile(r"T([0-9]+):([^/]+)/([^/]+)")
_STEAL = re.compile(r"S:([a-z0-9]+)")
_USE = re.compile(r"U:G([0-9]+)(?:=([0-9]+))?")
_NUMBER = re.compile(r"[1-9][0-9]*")
_SETUP_PHASES = ("draft", "objectives", "roles", "turn")
_TURN_PHASES = ("turn", "final")
_ONE_SHOT_FLAGS = {3: "ianus", 7: "vulcanus", 17: "discordia", 18: "flamen"}


def _number(text: str, low: int, high: int, what: str) -> int:
    """A decimal without leading zeros in [low, high]; ValueError otherwise."""
    if not _NUMBER.fullmatch(text) or not low <= int(text) <= high:
        raise ValueError(f"{what} must be {low}-{high}, not {text!r}")
    return int(text)


def is_invocation_card(card: int) -> bool:
    """Deed-board cards are lots (0..99) or invocations (100 + gid)."""
    return card > INVOCATION_CARD_BASE


class ReferenceState:
    """One Foundations of Rome position with its history (plain Python, for clarity).

    Lots: ``owner[cell]`` is the seat owning the lot's deed or -1; ``built[cell]`` the id
    of the building on it or -1; an owned unbuilt lot carries its owner's lot marker.
    ``buildings[id] = (owner, code, cells)``. Cards are lots: ``slots`` (slot 1 first),
    ``piles[e]`` (era e+1, index 0 on top), draft ``hands`` and ``picks``; ``seen[lot]``
    is the bitmask of seats that have seen a card not yet public (public cards are not
    listed). Invocation cards ``G<g>`` share slots and piles as card ``100 + g``.

    Modules: ``tokens[seat] = [2-VP side, 4-VP side]`` and ``token_pool`` (2-VP side up);
    ``held[seat] = {gid: "unused" | "ongoing" | "spent"}`` and ``spare_invocations`` (the
    eligible cards that were not dealt into a pile); ``obj_dealt``/``obj_kept`` (hidden
    objectives) or ``public_objectives``; ``role_dealt``, ``role_pick`` (the choice) and
    ``roles`` (the role card each seat holds after the reveal, None before);
    ``trades_this_turn``, ``turn_effects`` (this turn's Ianus, Vulcanus, Discordia,
    Flamen) and ``trade`` (the offer awaiting an answer); the Consul's ``consul_vp``,
    ``consul_holder``, ``consul_piles`` and ``consul_discards`` (token ids).
    """

    def __init__(self, options: Options, seed: int):
        n = options.players
        self.options = options
        self.seed = seed
        self.grid = grid(GRID_SIZE[options.grid_players])
        self.rng = SpecRng.for_game(seed)
        self.owner = [-1] * self.grid.cells
        self.built = [-1] * self.grid.cells
        self.buildings: dict[int, tuple[int, str, tuple[int, ...]]] = {}
        self.next_building = 0
        self.supply = [{p.code: p.copies for p in BUILDINGS} for _ in range(n)]
        self.monument_markers = [MONUMENT_MARKERS if options.monuments else 0] * n
        self.display: list[int] = []
        self.silver = [options.seat_start_silver(seat) for seat in range(n)]
        self.vp_by_source = [dict.fromkeys(scoring.vp_sources(options), 0) for _ in range(n)]
        if options.consul:
            for vp in self.vp_by_source:
                vp["start"] = scoring.start_vp(options)
        self.era = 1
        self.phase = "turn"
        self.player = 0
        self.final_turns_left = 0
        self.main_actions = 0
        self.moves: list[str] = []
        self.truncated = False
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.picks: list[int | None] = [None] * n
        self.seen: dict[int, int] = {}
        favor = FAVOR_START if options.favor_tokens else 0
        self.tokens = [[favor, 0] for _ in range(n)]
        self.token_pool = FAVOR_TOKENS - favor * n if options.favor_tokens else 0
        self.held: list[dict[int, str]] = [{} for _ in range(n)]
        self.spare_invocations: list[int] = []
        self.obj_dealt: list[list[int]] = [[] for _ in range(n)]
        self.obj_kept: list[int | None] = [None] * n
        self.public_objectives: list[int] = []
        self.role_dealt: list[list[int]] = [[] for _ in range(n)]
        self.role_pick: list[int | None] = [None] * n
        self.roles: list[int | None] = [None] * n
        self.trades_this_turn = 0
        self.turn_effects: set[str] = set()
        self.trade: tuple | None = None  # (proposer, partner, give, get, phase to resume)
        self.consul_vp = scoring.start_vp(options)
        self.consul_holder = 0
        self.consul_piles: list[list[int]] = [[] for _ in range(4)]
        self.consul_discards: list[list[int]] = [[] for _ in range(4)]
        self._setup()

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        """Every setup draw in the spec's order (absent modules' steps skipped)."""
        n, options = self.options.players, self.options
        deck = list(range(self.grid.cells))
        self.rng.shuffle(deck)
        hands = [deck[HAND_SIZE * i: HAND_SIZE * (i + 1)] for i in range(n)]
        start = HAND_SIZE * n + (CONSUL_START_DEEDS[options.consul] if options.consul else 0)
        consul_deeds = deck[HAND_SIZE * n:start]
        rest = deck[start:]
        e1, e2, _ = era_pile_sizes(len(rest))
        self.piles = [rest[:e1], rest[e1:e1 + e2], rest[e1 + e2:]]
        if options.invocations:
            eligible = [g for g, card in sorted(INVOCATIONS.items())
                        if not card.needs or any(m in options.modules for m in card.needs)]
            self.rng.shuffle(eligible)
            for e in range(3):
                chosen = eligible[INVOCATIONS_PER_PILE * e: INVOCATIONS_PER_PILE * (e + 1)]
                self.piles[e] += [INVOCATION_CARD_BASE + g for g in chosen]
            self.spare_invocations = sorted(eligible[3 * INVOCATIONS_PER_PILE:])
            for pile in self.piles:
                self.rng.shuffle(pile)
        self.slots = [self.piles[0].pop(0) for _ in range(SLOTS)]
        if options.monuments:
            monuments = list(range(1, N_MONUMENTS + 1))
            self.rng.shuffle(monuments)
            self.display = monuments[:n + 3]
        if options.objectives_module:
            objectives = list(range(1, N_OBJECTIVES + 1))
            self.rng.shuffle(objectives)
            if options.hidden_objectives:
                self.obj_dealt = [sorted(objectives[2 * i: 2 * i + 2]) for i in range(n)]
            else:
                self.public_objectives = objectives[:n]
        if options.roles:
            roles = list(range(1, N_ROLES + 1))
            self.rng.shuffle(roles)
            self.role_dealt = [sorted(roles[2 * i: 2 * i + 2]) for i in range(n)]
        if options.consul:
            consul.setup_piles(self)
        for card in deck:
            self.seen[card] = 0
        for card in self.slots:
            self.seen.pop(card, None)
        for lot in consul_deeds:  # one by one, each placed as the Consul places
            self._take_lot(CONSUL, lot)
            consul.place(self, lot)
        if options.draft:
            self.phase = "draft"
            self.hands = hands
            for seat, hand in enumerate(hands):
                for card in hand:
                    self.seen[card] = 1 << seat
        else:
            for seat, hand in enumerate(hands):
                for card in hand:
                    self._take_lot(seat, card)
            self.phase = self._next_setup_phase("draft")

    def _take_lot(self, seat: int, lot: int) -> None:
        """The seat owns the lot and puts a marker on it; its card is public."""
        self.owner[lot] = seat
        self.seen.pop(lot, None)

    def _next_setup_phase(self, after: str) -> str:
        """The setup step after ``after`` (draft, objectives, roles; absent ones skipped),
        or ``"turn"``; its first ply is seat 0's."""
        wanted = {"draft": self.options.draft, "objectives": self.options.hidden_objectives,
                  "roles": self.options.roles, "turn": True}
        self.player = 0
        return next(p for p in _SETUP_PHASES[_SETUP_PHASES.index(after) + 1:] if wanted[p])

    # ------------------------------------------------------------------ queries
    @property
    def plies(self) -> int:
        """Plies played so far."""
        return len(self.moves)

    def current_player(self) -> int:
        """The seat whose ply is due (the partner while a trade offer awaits its answer;
        after the end: the seat that would be next)."""
        return self.player

    @property
    def marker_total(self) -> list[int]:
        """Lot markers each seat has in all: 8, +1 for an ongoing Mars (G9) it holds, +2
        for the Dominus role (P5) it holds (both move with their card)."""
        return [LOT_MARKERS + self.ongoing(s, 9) + 2 * (self.role_of(s) == 5)
                for s in range(self.options.players)]

    def role_of(self, seat: int) -> int | None:
        """The role card ``seat`` holds once roles are revealed, else None."""
        return self.roles[seat]

    def ongoing(self, seat: int, gid: int) -> bool:
        """True iff ``seat`` holds invocation ``G<gid>`` in play as an ongoing effect."""
        return self.held[seat].get(gid) == "ongoing"

    def is_terminal(self) -> bool:
        """True once the game is over (by the rules or by ``max_turns``)."""
        return self.phase == "over"

    def markers_on_board(self, seat: int) -> int:
        """The seat's lot markers on the board = its owned unbuilt lots."""
        return sum(1 for c in range(self.grid.cells) if self.owner[c] == seat and self.built[c] < 0)

    def marker_supply(self, seat: int) -> int:
        """Lot markers the seat has left to place."""
        return (LOT_MARKERS + self.ongoing(seat, 9) + 2 * (self.role_of(seat) == 5)
                - self.markers_on_board(seat))

    def population(self, seat: int) -> int:
        """The seat's population."""
        return scoring.population(self, seat)

    def price(self, slot: int, seat: int) -> int:
        """What slot ``slot`` (1-6) costs ``seat``: the printed price, raised to the
        Consul's floor, then -1 for Agrimensor (P3) and -3 under Vulcanus (G7), min 0."""
        price = self.options.deed_prices[slot - 1]
        if self.options.consul:
            price = max(price, self.options.deed_prices[0] + consul.token_silver(self) // 2)
        if self.role_of(seat) == 3:
            price -= 1
        if "vulcanus" in self.turn_effects and seat == self.player:
            price -= 3
        return max(price, 0)

    def vp(self, seat: int) -> int:
        """The seat's VP so far."""
        return sum(self.vp_by_source[seat].values())

    def scores(self) -> list[int]:
        """VP per seat."""
        return [self.vp(s) for s in range(self.options.players)]

    def ranks(self) -> list[int]:
        """Shared ranks: more VP, then more silver; a full tie shares the rank. In a
        Consul game (cooperative) every seat ranks 1."""
        if self.options.consul:
            return [1] * self.options.players
        return shared_ranks([(self.vp(s), self.silver[s]) for s in range(self.options.players)])

    def consul_margin(self) -> int:
        """A Consul game's shared reward: min over seats of (VP - the Consul's VP)."""
        return min(self.vp(s) - self.consul_vp for s in range(self.options.players))

    def winners(self) -> list[int]:
        """Seats ranked 1 once the game is over, else none; in a Consul game every seat
        if each player's VP exceeds the Consul's, else none."""
        if not self.is_terminal():
            return []
        if self.options.consul:
            return list(range(self.options.players)) if self.consul_margin() > 0 else []
        return [s for s, r in enumerate(self.ranks()) if r == 1]

    def result(self) -> dict:
        """Scores, ranks, winners, plies, terminal, truncated, and per seat silver,
        population and VP by source (``vp_by_source``: population, civic, commercial,
        tray, monuments, lot_markers)."""
        n = self.options.players
        extra = {}
        if self.options.consul:
            extra = {"consul_vp": self.consul_vp, "consul_margin": self.consul_margin()}
        return extra | {
            "scores": self.scores(),
            "ranks": self.ranks(),
            "winners": self.winners(),
            "plies": self.plies,
            "terminal": self.is_terminal(),
            "truncated": self.truncated,
            "silver": list(self.silver),
            "population": [self.population(s) for s in range(n)],
            "vp_by_source": [dict(v) for v in self.vp_by_source],
        }

    def summary(self) -> dict:
        """The whole state as plain data, hidden parts included (pile order, hands,
        picks, the RNG word), in comparable form (``comparable``): what a differential
        test compares with another engine."""
        return comparable({
            "phase": self.phase, "player": self.player, "era": self.era,
            "final_turns_left": self.final_turns_left, "main_actions": self.main_actions,
            "plies": self.plies, "truncated": self.truncated,
            "owner": list(self.owner),
            "buildings": sorted((list(cells), owner, code) for owner, code, cells in self.buildings.values()),
            "supply": [dict(s) for s in self.supply],
            "marker_supply": [self.marker_supply(s) for s in range(self.options.players)],
            "monument_markers": list(self.monument_markers), "display": list(self.display),
            "silver": list(self.silver), "vp_by_source": [dict(v) for v in self.vp_by_source],
            "slots": list(self.slots), "piles": [list(p) for p in self.piles],
            "hands": [list(h) for h in self.hands], "picks": list(self.picks),
            "rng": self.rng.word,
        } | self._module_summary())

    def _module_summary(self) -> dict:
        """The modules' part of ``summary`` (only the modules in play, so that a base
        game's summary is unchanged)."""
        o, out = self.options, {}
        if o.favor_tokens or o.invocations or o.roles:
            out["trade"] = list(self.trade[:2]) + [self._format_item(i) for i in self.trade[2:4]] \
                if self.trade else None
            out["trades_this_turn"] = self.trades_this_turn
            out["turn_effects"] = sorted(self.turn_effects)
        if o.favor_tokens:
            out["tokens"] = [list(t) for t in self.tokens]
            out["token_pool"] = self.token_pool
        if o.invocations:
            out["held"] = [sorted(h.items()) for h in self.held]
            out["spare_invocations"] = list(self.spare_invocations)
        if o.objectives_module:
            out["obj_dealt"] = [list(p) for p in self.obj_dealt]
            out["obj_kept"] = list(self.obj_kept)
            out["public_objectives"] = list(self.public_objectives)
        if o.roles:
            out["role_dealt"] = [list(p) for p in self.role_dealt]
            out["role_pick"] = list(self.role_pick)
            out["roles"] = list(self.roles)
        if o.consul:
            out["consul_vp"] = self.consul_vp
            out["consul_holder"] = self.consul_holder
            out["consul_piles"] = [list(p) for p in self.consul_piles]
            out["consul_discards"] = [list(p) for p in self.consul_discards]
        return out

    def record(self) -> dict:
        """The game so far as a record (format forumlab-record/1)."""
        return {"format": "forumlab-record/1", "game": GAME_NAME, "config": self.options.config(),
                "seed": self.seed, "moves": list(self.moves)}

    def observation(self, seat: int) -> dict:
        """Everything ``seat`` may see (``hidden.observation``)."""
        return hidden.observation(self, seat)

    def determinize(self, seat: int, rng) -> ReferenceState:
        """Resample in place what ``seat`` cannot see (``hidden.determinize``); returns self.

        Args:
            seat: the observing seat.
            rng: a SpecRng, an int word or a ``forumlab.core.rng`` uint64 array.
        """
        hidden.determinize(self, seat, rng)
        return self

    # ------------------------------------------------------------------ the reference protocol
    @classmethod
    def from_config(cls, config: dict, seed: int = 0) -> ReferenceState:
        """The start of the game ``config`` (a ``Game.config``; ConfigError for bad options)
        dealt from ``seed`` (decision 1: the numba engine's deal)."""
        return cls(validate(**config), operator.index(seed))

    @staticmethod
    def engine_summary(state) -> dict:
        """The numba engine's position (a forumlab State) in :meth:`summary`'s terms."""
        from .engine_view import engine_summary

        return engine_summary(state)

    def copy(self) -> ReferenceState:
        """An independent copy."""
        other = ReferenceState.__new__(ReferenceState)
        other.__dict__.update(self.__dict__)
        other.rng = SpecRng(self.rng.word)
        for name in ("owner", "built", "monument_markers", "display", "silver",
                     "moves", "slots", "picks", "spare_invocations", "obj_kept", "public_objectives",
                     "role_pick", "roles"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("tokens", "obj_dealt", "role_dealt", "consul_piles", "consul_discards"):
            setattr(other, name, [list(x) for x in getattr(self, name)])
        other.held = [dict(h) for h in self.held]
        other.turn_effects = set(self.turn_effects)
        other.buildings = dict(self.buildings)
        other.seen = dict(self.seen)
        other.supply = [dict(s) for s in self.supply]
        other.vp_by_source = [dict(v) for v in self.vp_by_source]
        other.piles = [list(p) for p in self.piles]
        other.hands = [list(h) for h in self.hands]
        return other

    # ------------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[str]:
        """Every legal ply in the spec's notation; empty once the game is over.

        Order: setup picks (draft by lot index, ``K:O``/``K:P`` by card id); ``Y``, ``N``;
        free actions (trades, steals, uses: ``_free_actions``), ``I``, ``D1``..``D6``,
        builds in catalogue order (R, C, V codes, then monuments by id), each by ascending
        cells.
        """
        if self.phase == "over":
            return []
        if self.phase == "draft":
            return [f"K:{self.grid.names[c]}" for c in sorted(self.hands[self.player])]
        if self.phase == "objectives":
            return [f"K:O{k}" for k in self.obj_dealt[self.player]]
        if self.phase == "roles":
            return [f"K:P{k}" for k in self.role_dealt[self.player]]
        if self.phase == "answer":
            return ["Y", "N"]
        seat = self.player
        moves = self._free_actions(seat) + ["I"]
        if self.phase == "turn":
            moves += [f"D{k}" for k in range(1, len(self.slots) + 1) if self._buy_problem(seat, k) is None]
        moves += [self._format_build(code, cells) for code, cells in self._legal_builds(seat)]
        return moves

    def random_move(self, rng) -> str:
        """A legal move drawn uniformly with ``rng`` (a ``random.Random``)."""
        moves = self.legal_moves()
        if not moves:
            raise GameOverError("no legal moves: the game is over")
        return moves[rng.randrange(len(moves))]

    def _free_actions(self, seat: int) -> list[str]:
        """Free actions open to ``seat`` before its main action (turn and final turns):
        trades by partner seat, then by the item given, then by the item asked (items in
        the order ``-``, lots by index, ``$1``..``$10``, ``F2``, ``F4``, cards by id);
        steals by lot index; uses by card id (``U:G20=<seat>`` by seat)."""
        moves = []
        o = self.options
        if o.trading and self.trades_this_turn < o.max_trades:
            gives = self._items(seat)
            for partner in range(o.players):
                if partner == seat:
                    continue
                gets = self._items(partner)
                for give in gives:
                    for get in gets:
                        if self._trade_problem(seat, partner, give, get) is None:
                            moves.append(f"T{partner}:{self._format_item(give)}/{self._format_item(get)}")
        if o.stealing:
            moves += [f"S:{self.grid.names[c]}" for c in range(self.grid.cells)
                      if self._steal_problem(seat, c) is None]
        if o.invocations:
            for gid in sorted(self.held[seat]):
                targets = [t for t in range(o.players) if t != seat] if gid == 20 else [None]
                for target in targets:
                    if self._use_problem(seat, gid, target) is None:
                        moves.append(f"U:G{gid}" + ("" if target is None else f"={target}"))
        return moves

    # ------------------------------------------------------------------ free actions: rules
    def _items(self, seat: int) -> list[tuple]:
        """Every item ``seat`` could give in a trade, in notation order."""
        items = [("-",)]
        items += [("L", c) for c in range(self.grid.cells) if self.owner[c] == seat and self.built[c] < 0]
        items += [("$", k) for k in range(1, min(10, self.silver[seat]) + 1)]
        items += [("F", side) for side, count in zip((2, 4), self.tokens[seat]) if count]
        items += [("G", g) for g in sorted(self.held[seat]) if self.held[seat][g] != "spent"]
        return items

    def _format_item(self, item: tuple) -> str:
        kind = item[0]
        if kind == "-":
            return "-"
        if kind == "L":
            return self.grid.names[item[1]]
        return f"{kind}{item[1]}" if kind != "$" else f"${item[1]}"

    def _item_problem(self, seat: int, item: tuple) -> str | None:
        """Why ``seat`` cannot give ``item`` now, or None."""
        kind = item[0]
        if kind == "L" and (self.owner[item[1]] != seat or self.built[item[1]] >= 0):
            return f"seat {seat} does not own {self.grid.names[item[1]]} as an empty lot"
        if kind == "$" and self.silver[seat] < item[1]:
            return f"seat {seat} has {self.silver[seat]} silver, not {item[1]}"
        if kind == "F" and not self.tokens[seat][0 if item[1] == 2 else 1]:
            return f"seat {seat} has no favor token on its {item[1]}-VP side"
        if kind == "G" and self.held[seat].get(item[1], "spent") == "spent":
            return f"seat {seat} holds no unused or ongoing G{item[1]}"
        return None

    def _markers_after(self, moves: list[tuple[int, int, tuple]]) -> str | None:
        """Whether every seat keeps a marker supply >= 0 after items change hands:
        ``moves`` lists (giver, receiver, item); a lot needs the receiver's marker and
        frees the giver's, an ongoing Mars carries 1 marker, Dominus 2 (``role`` items)."""
        delta = [0] * self.options.players
        for giver, receiver, item in moves:
            if item[0] == "L":
                delta[giver] += 1
                delta[receiver] -= 1
            elif item[0] == "G" and item[1] == 9 and self.held[giver].get(9) == "ongoing":
                delta[giver] -= 1
                delta[receiver] += 1
            elif item[0] == "role" and item[1] == 5:
                delta[giver] -= 2
                delta[receiver] += 2
        for seat, d in enumerate(delta):
            if d and self.marker_supply(seat) + d < 0:
                return f"seat {seat} would be left without a lot marker for it"
        return None

    def _trade_problem(self, seat: int, partner: int, give: tuple, get: tuple) -> str | None:
        """Why ``T<partner>:<give>/<get>`` is not legal for ``seat`` now, or None."""
        if self.phase not in _TURN_PHASES:
            return "no free action now"
        if partner == seat:
            return "a seat cannot trade with itself"
        if self.trades_this_turn >= self.options.max_trades:
            return f"seat {seat} has made {self.trades_this_turn} trade offer(s) this turn (max_trades " \
                   f"{self.options.max_trades})"
        if give[0] == "-" and get[0] == "-":
            return "a trade needs an item on one side at least"
        if give[0] == "$" and get[0] == "$":
            return "silver is not traded for silver"
        return (self._item_problem(seat, give) or self._item_problem(partner, get)
                or self._markers_after([(seat, partner, give), (partner, seat, get)]))

    def _steal_problem(self, seat: int, lot: int) -> str | None:
        """Why ``S:<lot>`` is not legal for ``seat`` now, or None."""
        name = self.grid.names[lot]
        victim = self.owner[lot]
        if self.phase not in _TURN_PHASES:
            return "no free action now"
        if victim < 0 or victim == seat:
            return f"{name} is not another player's lot"
        if self.built[lot] >= 0:
            return f"{name} is built"
        if sum(1 for nb in self.grid.neighbours[lot] if self.owner[nb] == seat) < 2:
            return f"seat {seat} owns fewer than 2 lots next to {name}"
        if self.marker_supply(seat) < 1:
            return f"seat {seat} has no lot marker in supply"
        if "discordia" not in self.turn_effects and not self.tokens[seat][0]:
            return f"seat {seat} has no favor token on its 2-VP side"
        return None

    def _use_problem(self, seat: int, gid: int, target: int | None) -> str | None:
        """Why ``U:G<gid>`` (``=target`` for Numa) is not legal for ``seat`` now, or None."""
        if self.phase not in _TURN_PHASES:
            return "no free action now"
        status = self.held[seat].get(gid)
        if status is None:
            return f"seat {seat} does not hold G{gid}"
        if status != "unused":
            return f"G{gid} is {'spent' if status == 'spent' else 'already in play'}"
        if gid == 20:
            if target == seat:
                return "Numa swaps with another seat"
            return self._markers_after([(seat, target, ("role", self.roles[seat])),
                                        (target, seat, ("role", self.roles[target]))])
        return None

    def _format_build(self, code: str, cells) -> str:
        return f"{code}@{','.join(self.grid.names[c] for c in cells)}"

    def _buy_problem(self, seat: int, k: int) -> str | None:
        """Why ``D<k>`` is not legal for ``seat`` now, or None (an invocation card needs
        no lot marker)."""
        if k > len(self.slots):
            return f"slot {k} is empty"
        if self.silver[seat] < self.price(k, seat):
            return f"slot {k} costs {self.price(k, seat)} and seat {seat} has {self.silver[seat]} silver"
        if not is_invocation_card(self.slots[k - 1]) and self.marker_supply(seat) < 1:
            return f"seat {seat} has no lot marker in supply"
        return None

    def _owned_mask(self, seat: int) -> int:
        return sum(1 << c for c in range(self.grid.cells) if self.owner[c] == seat)

    def _cover_problem(self, seat: int, size: int, cells) -> str | None:
        """Rules (a)-(c) of a Build of ``size`` cells on ``cells`` by ``seat``, or None
        (Architectus, P4, may also cover own buildings of the same size)."""
        for c in cells:
            if self.owner[c] != seat:
                return f"seat {seat} does not own {self.grid.names[c]}"
        covered = {self.built[c] for c in cells if self.built[c] >= 0}
        freed = 0
        same_size_ok = self.role_of(seat) == 4
        for bid in covered:
            owner, code, bcells = self.buildings[bid]
            piece = PIECES[code]
            if owner != seat:
                return f"{code} on {self.grid.names[bcells[0]]} is not seat {seat}'s"
            if piece.monument:
                return f"monument {code} cannot be covered"
            if piece.size > size or (piece.size == size and not same_size_ok):
                return f"{code} on {self.grid.names[bcells[0]]} is not smaller than the new building"
            freed += sum(1 for c in bcells if c not in cells)
        empty = sum(1 for c in cells if self.built[c] < 0)
        if self.marker_supply(seat) + empty < freed:
            return f"seat {seat} lacks lot markers for the {freed} lots the build frees"
        return None

    def _monument_problem(self, seat: int, mid: int) -> str | None:
        """Why monument ``mid`` cannot be built by ``seat`` now (footprint aside), or None
        (Flamen, G18, lifts the requirements this turn)."""
        if mid not in self.display:
            return f"M{mid} is not on display"
        if self.monument_markers[seat] < 1:
            return f"seat {seat} has no monument marker left"
        if "flamen" in self.turn_effects:
            return None
        for req in MONUMENT_REQUIREMENTS[mid]:
            if req[0] != "edge" and not self._requirement_holds(seat, req):
                return f"seat {seat} does not meet M{mid}'s requirement {req}"
        return None

    def _requirement_holds(self, seat: int, req: tuple) -> bool:
        own = [PIECES[code] for owner, code, _ in self.buildings.values() if owner == seat]
        kind = req[0]
        if kind == "count":
            return sum(1 for p in own if p.kind == req[1]) >= req[2]
        if kind == "buildings":
            return len(own) >= req[1]
        if kind == "lots":
            return sum(1 for o in self.owner if o == seat) >= req[1]
        if kind == "size":
            return any(p.size >= req[1] for p in own)
        if kind == "silver":
            return scoring.commercial_silver(self, seat) >= req[1]
        if kind == "population":
            return self.population(seat) >= req[1]
        raise AssertionError(f"unknown requirement {req}")

    def _needs_edge(self, mid: int) -> bool:
        return ("edge",) in MONUMENT_REQUIREMENTS[mid] and "flamen" not in self.turn_effects

    def _legal_builds(self, seat: int) -> list[tuple[str, tuple[int, ...]]]:
        owned = self._owned_mask(seat)
        out = []
        architectus = self.role_of(seat) == 4
        pieces = [p for p in BUILDINGS if self.supply[seat][p.code] > 0 or architectus]
        if self.options.monuments:
            pieces += [MONUMENTS[m] for m in sorted(self.display) if self._monument_problem(seat, m) is None]
        for piece in pieces:
            edge = piece.monument and self._needs_edge(piece.monument)
            # Architectus may rebuild a code it has none left of exactly on its own copy.
            only = None if piece.monument or self.supply[seat][piece.code] > 0 else {
                cells for owner, code, cells in self.buildings.values()
                if owner == seat and code == piece.code}
            for cells, mask in self.grid.footprints(piece.shape):
                if mask & ~owned:
                    continue
                if only is not None and cells not in only:
                    continue
                if edge and not any(c in self.grid.edge for c in cells):
                    continue
                if self._cover_problem(seat, piece.size, cells) is None:
                    out.append((piece.code, cells))
        return out

    # ------------------------------------------------------------------ parsing
    def _parse_item(self, text: str) -> tuple:
        """A trade item: ``-``, a lot, ``$n`` (1-10), ``F2``/``F4``, ``G<k>``."""
        if text == "-":
            return ("-",)
        if text.startswith("$"):
            return ("$", _number(text[1:], 1, 10, "silver in a trade"))
        if text in ("F2", "F4"):
            return ("F", int(text[1]))
        if text.startswith("G"):
            if not self.options.invocations:
                raise ValueError("there are no invocation cards in this game")
            return ("G", _number(text[1:], 1, 20, "an invocation card"))
        return ("L", self.grid.parse_lot(text))

    def _parse_seat(self, text: str) -> int:
        return _number(text, 0, self.options.players - 1, "a seat") if text != "0" else 0

    def _parse(self, text) -> tuple:
        """``(kind, args...)`` of a move text; ValueError with the reason if malformed.
        A module's notation is malformed in a game without that module."""
        if not isinstance(text, str):
            raise ValueError(f"a move is a notation string, not {type(text).__name__}")
        o = self.options
        if text == "I":
            return ("I",)
        if text in ("Y", "N") and o.trading:
            return ("A", text == "Y")
        match = _BUY.fullmatch(text)
        if match:
            k = int(match.group(1))
            if not 1 <= k <= SLOTS:
                raise ValueError("deed-board slots are 1-6")
            return ("D", k)
        match = _PICK.fullmatch(text)
        if match:
            return ("K", self.grid.parse_lot(match.group(1)))
        match = _KEEP.fullmatch(text)
        if match and (o.hidden_objectives if match.group(1) == "O" else o.roles):
            if match.group(1) == "O":
                return ("KO", _number(match.group(2), 1, N_OBJECTIVES, "an objective"))
            return ("KP", _number(match.group(2), 1, N_ROLES, "a role"))
        match = _TRADE.fullmatch(text)
        if match and o.trading:
            return ("T", self._parse_seat(match.group(1)), self._parse_item(match.group(2)),
                    self._parse_item(match.group(3)))
        match = _STEAL.fullmatch(text)
        if match and o.stealing:
            return ("S", self.grid.parse_lot(match.group(1)))
        match = _USE.fullmatch(text)
        if match and o.invocations:
            gid = _number(match.group(1), 1, 20, "an invocation card")
            if (gid == 20) != (match.group(2) is not None):
                raise ValueError("Numa names a seat (U:G20=<seat>), no other card does")
            target = None if match.group(2) is None else self._parse_seat(match.group(2))
            return ("U", gid, target)
        match = _BUILD.fullmatch(text)
        if match:
            code, cell_text = match.groups()
            piece = PIECES.get(code)
            if piece is None or code.startswith("X") or (piece.monument and not self.options.monuments):
                raise ValueError(f"{code} is not a building of this game")
            cells = tuple(self.grid.parse_lot(name) for name in cell_text.split(","))
            if list(cells) != sorted(set(cells)):
                raise ValueError("cells must be listed once each in ascending index order")
            if cells not in {f for f, _ in self.grid.footprints(piece.shape)}:
                raise ValueError(f"the cells do not form {code}'s shape {piece.shape}")
            return ("B", piece, cells)
        raise ValueError("not a move of this game (I, D<k>, <code>@<cells>, K:<lot>"
                         + "".join(f", {n}" for n, on in (("T<s>:<give>/<get>, Y, N", o.trading),
                                                          ("S:<lot>", o.stealing),
                                                          ("U:G<k>", o.invocations),
                                                          ("K:O<k>", o.hidden_objectives),
                                                          ("K:P<k>", o.roles)) if on) + ")")

    _PHASE_MOVE = {"draft": ("K", "the draft is running: pick a lot with K:<lot>"),
                   "objectives": ("KO", "objectives are being chosen: keep one with K:O<k>"),
                   "roles": ("KP", "roles are being chosen: keep one with K:P<k>"),
                   "answer": ("A", "a trade offer awaits its answer: Y or N")}
    _NOT_NOW = {"K": "no draft pick is due", "KO": "no objective is being chosen",
                "KP": "no role is being chosen", "A": "no trade offer awaits an answer"}

    def _problem(self, move: tuple) -> str | None:
        """Why a well-formed move is not legal here (for the error message), or None."""
        seat, kind = self.player, move[0]
        expected = self._PHASE_MOVE.get(self.phase)
        if expected:
            if kind != expected[0]:
                return expected[1]
            if kind == "K" and move[1] not in self.hands[seat]:
                return f"{self.grid.names[move[1]]} is not in seat {seat}'s draft hand"
            if kind == "KO" and move[1] not in self.obj_dealt[seat]:
                return f"O{move[1]} is not one of seat {seat}'s dealt objectives"
            if kind == "KP" and move[1] not in self.role_dealt[seat]:
                return f"P{move[1]} is not one of seat {seat}'s dealt roles"
            return None
        if kind in self._NOT_NOW:
            return self._NOT_NOW[kind]
        if kind == "T":
            return self._trade_problem(seat, *move[1:])
        if kind == "S":
            return self._steal_problem(seat, move[1])
        if kind == "U":
            return self._use_problem(seat, move[1], move[2])
        if kind == "I":
            return None
        if kind == "D":
            if self.phase == "final":
                return "no Buy in an era's final turns (Income or Build only)"
            return self._buy_problem(seat, move[1])
        piece, cells = move[1], move[2]
        if (piece.code, cells) in self._legal_builds(seat):
            return None
        if piece.monument:
            problem = self._monument_problem(seat, piece.monument)
            if problem is None and self._needs_edge(piece.monument) \
                    and not any(c in self.grid.edge for c in cells):
                problem = f"{piece.code} must cover an edge lot"
        elif self.supply[seat][piece.code] < 1:
            problem = f"seat {seat} has no {piece.code} left in supply"
        else:
            problem = None
        return problem or self._cover_problem(seat, piece.size, cells) or "not legal"

    # ------------------------------------------------------------------ play
    def play(self, text: str) -> ReferenceState:
        """Play one ply given in notation; returns self.

        Raises:
            GameOverError: the game is over.
            IllegalMoveError: the move is malformed or not legal here (the message names
                the ply number, 1-based, and the seat).
        """
        ply = self.plies + 1
        if self.phase == "over":
            raise GameOverError(f"ply {ply}: the game is over; no more moves")
        try:
            move = self._parse(text)
        except ValueError as exc:
            raise IllegalMoveError(f"ply {ply} (seat {self.player}): {text!r} is malformed: {exc}") from None
        problem = self._problem(move)
        if problem is not None:
            raise IllegalMoveError(f"ply {ply} (seat {self.player}): {text!r} is illegal: {problem}")
        self.moves.append(text)
        kind = move[0]
        if kind == "K":
            self._pick(move[1])
        elif kind in ("KO", "KP"):
            self._keep(kind, move[1])
        elif kind == "A":
            self._answer(move[1])
        elif kind == "T":
            self.trades_this_turn += 1
            self.trade = (self.player, move[1], move[2], move[3], self.phase)
            self.phase = "answer"
            self.player = move[1]
        elif kind == "S":
            self._steal(self.player, move[1])
        elif kind == "U":
            self._use(self.player, move[1], move[2])
        elif kind == "I":
            self.silver[self.player] += scoring.income(self, self.player)
            if self.ongoing(self.player, 10):  # Apollo
                self.vp_by_source[self.player]["invocations"] += 1
            self._after_main_action(era_ends=False)
        elif kind == "D":
            self._after_main_action(era_ends=self._buy(move[1]))
        else:
            free = "ianus" in self.turn_effects
            self.turn_effects.discard("ianus")
            self._build(self.player, move[1], move[2])
            self._build_rewards(self.player, move[1])
            if not free:
                self._after_main_action(era_ends=False)
        return self

    def _pick(self, lot: int) -> None:
        """A secret draft pick; after the last seat's pick all are revealed and marked and
        every hand passes to the next seat."""
        n = self.options.players
        self.hands[self.player].remove(lot)
        self.picks[self.player] = lot
        if self.player < n - 1:
            self.player += 1
            return
        for seat in range(n):
            self._take_lot(seat, self.picks[seat])
            self.picks[seat] = None
        self.hands = [self.hands[(seat - 1) % n] for seat in range(n)]
        for seat, hand in enumerate(self.hands):
            for card in hand:
                self.seen[card] |= 1 << seat
        self.player = 0
        if not self.hands[0]:
            self.phase = self._next_setup_phase("draft")

    def _keep(self, kind: str, card: int) -> None:
        """A secret setup keep of an objective (``KO``) or a role (``KP``), seat by seat;
        after the last role choice all roles are revealed (Argentarius: +5 silver)."""
        n = self.options.players
        (self.obj_kept if kind == "KO" else self.role_pick)[self.player] = card
        if self.player < n - 1:
            self.player += 1
            return
        if kind == "KP":
            self.roles = list(self.role_pick)
            for seat in range(n):
                if self.roles[seat] == 2:
                    self.silver[seat] += 5
        self.phase = self._next_setup_phase("objectives" if kind == "KO" else "roles")

    def _answer(self, yes: bool) -> None:
        """The partner's answer; on ``Y`` the two items change hands. The proposer's turn
        goes on."""
        proposer, partner, give, get, phase = self.trade
        self.trade = None
        self.phase = phase
        self.player = proposer
        if yes:
            self._hand_over(proposer, partner, give)
            self._hand_over(partner, proposer, get)

    def _hand_over(self, giver: int, receiver: int, item: tuple) -> None:
        kind = item[0]
        if kind == "L":  # the deed with it; the receiver's marker replaces the giver's
            self.owner[item[1]] = receiver
        elif kind == "$":
            self.silver[giver] -= item[1]
            self.silver[receiver] += item[1]
        elif kind == "F":
            side = 0 if item[1] == 2 else 1
            self.tokens[giver][side] -= 1
            self.tokens[receiver][side] += 1
        elif kind == "G":
            self.held[receiver][item[1]] = self.held[giver].pop(item[1])

    def _steal(self, seat: int, lot: int) -> None:
        """The lot and deed pass to ``seat``; it flips a 2-VP token and gives it to the
        victim (not under Discordia, which this steal uses up)."""
        victim = self.owner[lot]
        if "discordia" in self.turn_effects:
            self.turn_effects.discard("discordia")
        else:
            self.tokens[seat][0] -= 1
            self.tokens[victim][1] += 1
        self.owner[lot] = seat

    def _use(self, seat: int, gid: int, target: int | None) -> None:
        """Play invocation ``G<gid>``: an ongoing card stays in play, a one-shot is spent."""
        vp = self.vp_by_source[seat]
        n = self.options.players
        self.held[seat][gid] = "ongoing" if INVOCATIONS[gid].ongoing else "spent"
        own_lots = [c for c in range(self.grid.cells) if self.owner[c] == seat]
        if gid in _ONE_SHOT_FLAGS:
            self.turn_effects.add(_ONE_SHOT_FLAGS[gid])
        elif gid == 1:
            self.silver[seat] += 3
        elif gid == 2:
            self.silver[seat] += 5
        elif gid == 8:
            self.silver[seat] += sum(1 for c in own_lots if self.built[c] < 0)
        elif gid == 11:
            vp["invocations"] += 2 * scoring.own_count(self, seat, RESIDENTIAL)
        elif gid == 12:
            vp["invocations"] += 4
            for other in range(n):
                if other != seat:
                    self.silver[other] += 2
        elif gid == 13:
            self.silver[seat] = self.population(seat)
        elif gid == 15:
            vp["invocations"] += sum(1 for c in own_lots if c in self.grid.edge)
        elif gid == 16:
            if self.token_pool:
                self.token_pool -= 1
                self.tokens[seat][0] += 1
        elif gid == 20:
            self.roles[seat], self.roles[target] = self.roles[target], self.roles[seat]

    def _build_rewards(self, seat: int, piece) -> None:
        """Faber (P15): +1 silver per Build; Legatus (P14): +2 VP per Build of size >= 4."""
        role = self.role_of(seat)
        if role == 15:
            self.silver[seat] += 1
        if role == 14 and piece.size >= 4:
            self.vp_by_source[seat]["roles"] += 2

    def _buy(self, k: int) -> bool:
        """Buy slot k; returns True when the board is left empty (the era ends)."""
        seat = self.player
        self.silver[seat] -= self.price(k, seat)
        card = self.slots.pop(k - 1)
        if is_invocation_card(card):
            self.held[seat][card - INVOCATION_CARD_BASE] = "unused"
        else:
            self._take_lot(seat, card)
        self._refill_slot()
        return not self.slots

    def _refill_slot(self) -> None:
        """Slot 6 gets the top card of the current era pile, if any."""
        pile = self.piles[self.era - 1]
        if pile:
            card = pile.pop(0)
            self.seen.pop(card, None)
            self.slots.append(card)

    def _build(self, seat: int, piece, cells: tuple[int, ...]) -> None:
        """Put ``piece`` on ``cells``: covered buildings return whole to their owner's
        supply; footprint markers return and every freed cell gets one (markers are
        implied by owned unbuilt lots)."""
        for bid in {self.built[c] for c in cells if self.built[c] >= 0}:
            owner, code, bcells = self.buildings.pop(bid)
            self.supply[owner][code] += 1
            for c in bcells:
                self.built[c] = -1
        bid = self.next_building
        self.next_building += 1
        self.buildings[bid] = (seat, piece.code, cells)
        for c in cells:
            self.built[c] = bid
        if piece.monument:
            self.monument_markers[seat] -= 1
            self.display.remove(piece.monument)
            effect = MONUMENT_ON_BUILD.get(piece.monument)
            if effect:
                for owner in sorted({self.buildings[b][0] for b in scoring.adjacent_buildings(self, bid)}):
                    if owner == CONSUL:  # the Consul gains M11's VP, not M12's silver
                        self.consul_vp += effect[1] if effect[0] == "vp" else 0
                    elif effect[0] == "vp":
                        self.vp_by_source[owner]["monuments"] += effect[1]
                    else:
                        self.silver[owner] += effect[1]
        else:
            self.supply[seat][piece.code] -= 1

    def _after_main_action(self, era_ends: bool) -> None:
        """Count the main action, apply the cap, then pass the turn, run the Consul's
        turn, final turns, era scoring and the next era's refill as the rules say."""
        n = self.options.players
        self.main_actions += 1
        self.trades_this_turn = 0
        self.turn_effects.clear()
        if self.main_actions >= self.options.max_turns:
            self.phase = "over"
            self.truncated = True
            return
        buyer = self.player
        self.player = (self.player + 1) % n
        if self.phase == "turn":
            if era_ends:
                self.phase = "final"
                self.final_turns_left = n  # buyer's left round to the buyer
            elif self.options.consul and buyer == self.consul_holder and self.slots:
                self._consul_turn()
        else:  # a final turn was taken
            self.final_turns_left -= 1
            if self.final_turns_left == 0:
                self._end_era(last=buyer)

    def _consul_turn(self) -> None:
        """The Consul takes the slot-1 card free (slide, refill), places a token, and if
        the board is now empty the final turns run from the holder's left to the holder."""
        lot = self.slots.pop(0)
        self._take_lot(CONSUL, lot)
        self._refill_slot()
        consul.place(self, lot)
        if not self.slots:
            self.phase = "final"
            self.final_turns_left = self.options.players
            self.player = (self.consul_holder + 1) % self.options.players

    def _end_era(self, last: int) -> None:
        """Era scoring; then the next era (the buyer's left starts) or the game end."""
        scoring.era_scoring(self)
        if self.era == 3:
            scoring.end_scoring(self)
            self.phase = "over"
            return
        self.era += 1
        self.consul_holder = (self.consul_holder + 1) % self.options.players
        pile = self.piles[self.era - 1]
        while pile and len(self.slots) < SLOTS:
            card = pile.pop(0)
            self.seen.pop(card, None)
            self.slots.append(card)
        self.phase = "turn"
        self.player = (last + 1) % self.options.players
