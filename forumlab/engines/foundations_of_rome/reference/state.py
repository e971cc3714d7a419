"""A game in progress: setup, the turn-phase machine, legal moves and their effects.

Phases (``state.phase``): ``"draft"`` (setup picks ``K:<lot>``), ``"turn"`` (a normal turn:
free actions of modules, then one main action), ``"final"`` (an era's final turns: Income
or Build), ``"over"``. Every ply, whoever makes it, goes through ``play``; a later module
adds its plies (free actions, answers by another seat) as new move kinds and, where a seat
answers out of turn, as a new phase, without touching the others.
"""

from __future__ import annotations

import re

from forumlab.core.errors import GameOverError, IllegalMoveError
from forumlab.core.ranks import shared_ranks

from . import hidden, scoring
from .catalogue import (
    BUILDINGS,
    GRID_SIZE,
    HAND_SIZE,
    LOT_MARKERS,
    MONUMENT_MARKERS,
    MONUMENT_ON_BUILD,
    MONUMENT_REQUIREMENTS,
    MONUMENTS,
    N_MONUMENTS,
    PIECES,
    SLOTS,
)
from .chance import GAME_NAME, SpecRng, era_pile_sizes
from .grid import grid
from .options import Options

_BUILD = re.compile(r"([A-Z][A-Z0-9]*)@([a-z0-9,]+)")
_BUY = re.compile(r"D([0-9])")
_PICK = re.compile(r"K:([a-z][0-9]+)")


class ReferenceState:
    """One Foundations of Rome position with its history (plain Python, for clarity).

    Lots: ``owner[cell]`` is the seat owning the lot's deed or -1; ``built[cell]`` the id
    of the building on it or -1; an owned unbuilt lot carries its owner's lot marker.
    ``buildings[id] = (owner, code, cells)``. Cards are lots: ``slots`` (slot 1 first),
    ``piles[e]`` (era e+1, index 0 on top), draft ``hands`` and ``picks``; ``seen[lot]``
    is the bitmask of seats that have seen a card not yet public (public cards are not
    listed).
    """

    def __init__(self, options: Options, seed: int):
        n = options.players
        self.options = options
        self.seed = seed
        self.grid = grid(GRID_SIZE[n])
        self.rng = SpecRng.for_game(seed)
        self.owner = [-1] * self.grid.cells
        self.built = [-1] * self.grid.cells
        self.buildings: dict[int, tuple[int, str, tuple[int, ...]]] = {}
        self.next_building = 0
        self.supply = [{p.code: p.copies for p in BUILDINGS} for _ in range(n)]
        self.marker_total = [LOT_MARKERS] * n
        self.monument_markers = [MONUMENT_MARKERS if options.monuments else 0] * n
        self.display: list[int] = []
        self.silver = [options.seat_start_silver(seat) for seat in range(n)]
        self.vp_by_source = [dict.fromkeys(scoring.VP_SOURCES, 0) for _ in range(n)]
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
        self._setup()

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        """Every setup draw in the spec's order (absent modules' steps skipped)."""
        n = self.options.players
        deck = list(range(self.grid.cells))
        self.rng.shuffle(deck)
        hands = [deck[HAND_SIZE * i: HAND_SIZE * (i + 1)] for i in range(n)]
        rest = deck[HAND_SIZE * n:]
        e1, e2, _ = era_pile_sizes(len(rest))
        self.piles = [rest[:e1], rest[e1:e1 + e2], rest[e1 + e2:]]
        self.slots = [self.piles[0].pop(0) for _ in range(SLOTS)]
        if self.options.monuments:
            monuments = list(range(1, N_MONUMENTS + 1))
            self.rng.shuffle(monuments)
            self.display = monuments[:n + 3]
        for card in deck:
            self.seen[card] = 0
        for card in self.slots:
            del self.seen[card]
        if self.options.draft:
            self.phase = "draft"
            self.hands = hands
            for seat, hand in enumerate(hands):
                for card in hand:
                    self.seen[card] = 1 << seat
        else:
            for seat, hand in enumerate(hands):
                for card in hand:
                    self._take_lot(seat, card)

    def _take_lot(self, seat: int, lot: int) -> None:
        """The seat owns the lot and puts a marker on it; its card is public."""
        self.owner[lot] = seat
        self.seen.pop(lot, None)

    # ------------------------------------------------------------------ queries
    @property
    def plies(self) -> int:
        """Plies played so far."""
        return len(self.moves)

    def current_player(self) -> int:
        """The seat whose ply is due (after the end: the seat that would be next)."""
        return self.player

    def is_terminal(self) -> bool:
        """True once the game is over (by the rules or by ``max_turns``)."""
        return self.phase == "over"

    def markers_on_board(self, seat: int) -> int:
        """The seat's lot markers on the board = its owned unbuilt lots."""
        return sum(1 for c in range(self.grid.cells) if self.owner[c] == seat and self.built[c] < 0)

    def marker_supply(self, seat: int) -> int:
        """Lot markers the seat has left to place."""
        return self.marker_total[seat] - self.markers_on_board(seat)

    def population(self, seat: int) -> int:
        """The seat's population."""
        return scoring.population(self, seat)

    def price(self, slot: int, seat: int) -> int:
        """What slot ``slot`` (1-6) costs ``seat``."""
        return self.options.deed_prices[slot - 1]

    def vp(self, seat: int) -> int:
        """The seat's VP so far."""
        return sum(self.vp_by_source[seat].values())

    def scores(self) -> list[int]:
        """VP per seat."""
        return [self.vp(s) for s in range(self.options.players)]

    def ranks(self) -> list[int]:
        """Shared ranks: more VP, then more silver; a full tie shares the rank."""
        return shared_ranks([(self.vp(s), self.silver[s]) for s in range(self.options.players)])

    def winners(self) -> list[int]:
        """Seats ranked 1 once the game is over, else none."""
        if not self.is_terminal():
            return []
        return [s for s, r in enumerate(self.ranks()) if r == 1]

    def result(self) -> dict:
        """Scores, ranks, winners, plies, terminal, truncated, and per seat silver,
        population and VP by source (``vp_by_source``: population, civic, commercial,
        tray, monuments, lot_markers)."""
        n = self.options.players
        return {
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
        picks, the RNG word): what a differential test compares with another engine."""
        return {
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
        }

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

    def copy(self) -> ReferenceState:
        """An independent copy."""
        other = ReferenceState.__new__(ReferenceState)
        other.__dict__.update(self.__dict__)
        other.rng = SpecRng(self.rng.word)
        for name in ("owner", "built", "marker_total", "monument_markers", "display", "silver",
                     "moves", "slots", "picks"):
            setattr(other, name, list(getattr(self, name)))
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

        Order: draft picks by lot index, ``I``, ``D1``..``D6``, builds in catalogue order
        (R, C, V codes, then monuments by id), each by ascending cells.
        """
        if self.phase == "over":
            return []
        if self.phase == "draft":
            return [f"K:{self.grid.names[c]}" for c in sorted(self.hands[self.player])]
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
        """Free actions open to ``seat`` before its main action (turn and final turns).

        None exist in the base game and Monuments; Trading, Stealing and Invocations add
        theirs here (and their effects in ``play``), an answer by another seat becomes a
        phase of its own whose ``player`` is the answering seat.
        """
        return []

    def _format_build(self, code: str, cells) -> str:
        return f"{code}@{','.join(self.grid.names[c] for c in cells)}"

    def _buy_problem(self, seat: int, k: int) -> str | None:
        """Why ``D<k>`` is not legal for ``seat`` now, or None."""
        if k > len(self.slots):
            return f"slot {k} is empty"
        if self.silver[seat] < self.price(k, seat):
            return f"slot {k} costs {self.price(k, seat)} and seat {seat} has {self.silver[seat]} silver"
        if self.marker_supply(seat) < 1:
            return f"seat {seat} has no lot marker in supply"
        return None

    def _owned_mask(self, seat: int) -> int:
        return sum(1 << c for c in range(self.grid.cells) if self.owner[c] == seat)

    def _cover_problem(self, seat: int, size: int, cells) -> str | None:
        """Rules (a)-(c) of a Build of ``size`` cells on ``cells`` by ``seat``, or None."""
        for c in cells:
            if self.owner[c] != seat:
                return f"seat {seat} does not own {self.grid.names[c]}"
        covered = {self.built[c] for c in cells if self.built[c] >= 0}
        freed = 0
        for bid in covered:
            owner, code, bcells = self.buildings[bid]
            piece = PIECES[code]
            if owner != seat:
                return f"{code} on {self.grid.names[bcells[0]]} is not seat {seat}'s"
            if piece.monument:
                return f"monument {code} cannot be covered"
            if piece.size >= size:
                return f"{code} on {self.grid.names[bcells[0]]} is not smaller than the new building"
            freed += sum(1 for c in bcells if c not in cells)
        empty = sum(1 for c in cells if self.built[c] < 0)
        if self.marker_supply(seat) + empty < freed:
            return f"seat {seat} lacks lot markers for the {freed} lots the build frees"
        return None

    def _monument_problem(self, seat: int, mid: int) -> str | None:
        """Why monument ``mid`` cannot be built by ``seat`` now (footprint aside), or None."""
        if mid not in self.display:
            return f"M{mid} is not on display"
        if self.monument_markers[seat] < 1:
            return f"seat {seat} has no monument marker left"
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
        return ("edge",) in MONUMENT_REQUIREMENTS[mid]

    def _legal_builds(self, seat: int) -> list[tuple[str, tuple[int, ...]]]:
        owned = self._owned_mask(seat)
        out = []
        pieces = [p for p in BUILDINGS if self.supply[seat][p.code] > 0]
        if self.options.monuments:
            pieces += [MONUMENTS[m] for m in sorted(self.display) if self._monument_problem(seat, m) is None]
        for piece in pieces:
            edge = piece.monument and self._needs_edge(piece.monument)
            for cells, mask in self.grid.footprints(piece.shape):
                if mask & ~owned:
                    continue
                if edge and not any(c in self.grid.edge for c in cells):
                    continue
                if self._cover_problem(seat, piece.size, cells) is None:
                    out.append((piece.code, cells))
        return out

    # ------------------------------------------------------------------ parsing
    def _parse(self, text) -> tuple:
        """``(kind, args...)`` of a move text; ValueError with the reason if malformed."""
        if not isinstance(text, str):
            raise ValueError(f"a move is a notation string, not {type(text).__name__}")
        if text == "I":
            return ("I",)
        match = _BUY.fullmatch(text)
        if match:
            k = int(match.group(1))
            if not 1 <= k <= SLOTS:
                raise ValueError("deed-board slots are 1-6")
            return ("D", k)
        match = _PICK.fullmatch(text)
        if match:
            return ("K", self.grid.parse_lot(match.group(1)))
        match = _BUILD.fullmatch(text)
        if match:
            code, cell_text = match.groups()
            piece = PIECES.get(code)
            if piece is None or (piece.monument and not self.options.monuments):
                raise ValueError(f"{code} is not a building of this game")
            cells = tuple(self.grid.parse_lot(name) for name in cell_text.split(","))
            if list(cells) != sorted(set(cells)):
                raise ValueError("cells must be listed once each in ascending index order")
            if cells not in {f for f, _ in self.grid.footprints(piece.shape)}:
                raise ValueError(f"the cells do not form {code}'s shape {piece.shape}")
            return ("B", piece, cells)
        raise ValueError("not a move of this game (I, D<k>, <code>@<cells>, K:<lot>)")

    def _illegal_reason(self, move: tuple) -> str:
        """Why a well-formed move is not legal here (for the error message)."""
        seat, kind = self.player, move[0]
        if self.phase == "draft":
            if kind != "K":
                return "the draft is running: pick a lot with K:<lot>"
            return f"{self.grid.names[move[1]]} is not in seat {seat}'s draft hand"
        if kind == "K":
            return "no draft pick is due"
        if kind == "D":
            if self.phase == "final":
                return "no Buy in an era's final turns (Income or Build only)"
            return self._buy_problem(seat, move[1]) or "not legal"
        piece, cells = move[1], move[2]
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
        if text not in self.legal_moves():
            raise IllegalMoveError(
                f"ply {ply} (seat {self.player}): {text!r} is illegal: {self._illegal_reason(move)}")
        self.moves.append(text)
        kind = move[0]
        if kind == "K":
            self._pick(move[1])
        elif kind == "I":
            self.silver[self.player] += scoring.income(self, self.player)
            self._after_main_action(era_ends=False)
        elif kind == "D":
            self._after_main_action(era_ends=self._buy(move[1]))
        else:
            self._build(self.player, move[1], move[2])
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
            self.phase = "turn"

    def _buy(self, k: int) -> bool:
        """Buy slot k; returns True when the board is left empty (the era ends)."""
        seat = self.player
        self.silver[seat] -= self.price(k, seat)
        lot = self.slots.pop(k - 1)
        self._take_lot(seat, lot)
        pile = self.piles[self.era - 1]
        if pile:
            card = pile.pop(0)
            self.seen.pop(card, None)
            self.slots.append(card)
        return not self.slots

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
                    if effect[0] == "vp":
                        self.vp_by_source[owner]["monuments"] += effect[1]
                    else:
                        self.silver[owner] += effect[1]
        else:
            self.supply[seat][piece.code] -= 1

    def _after_main_action(self, era_ends: bool) -> None:
        """Count the main action, apply the cap, then pass the turn, run final turns, era
        scoring and the next era's refill as the rules say."""
        n = self.options.players
        self.main_actions += 1
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
        else:  # a final turn was taken
            self.final_turns_left -= 1
            if self.final_turns_left == 0:
                self._end_era(last=buyer)

    def _end_era(self, last: int) -> None:
        """Era scoring; then the next era (the buyer's left starts) or the game end."""
        scoring.era_scoring(self)
        if self.era == 3:
            scoring.end_scoring(self)
            self.phase = "over"
            return
        self.era += 1
        pile = self.piles[self.era - 1]
        while pile and len(self.slots) < SLOTS:
            card = pile.pop(0)
            self.seen.pop(card, None)
            self.slots.append(card)
        self.phase = "turn"
        self.player = (last + 1) % self.options.players
