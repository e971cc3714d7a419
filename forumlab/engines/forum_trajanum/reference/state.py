"""A game in progress: setup, the round/turn/cycle machine, legal moves and effects.

Pending work is a stack (``state.stack``, top = last): action items run at once, decision
items wait for a ply unless they have a single option (applied automatically, not a ply)
or none (skipped). Items pushed by a decision run before anything below them, which is
the spec's depth-first order. The draft is the item ``("draft",)``: its decisions come
from the draft queue.
"""

from __future__ import annotations

import copy
import itertools
import operator
import re

from forumlab.core.errors import GameOverError, IllegalMoveError
from forumlab.core.ranks import shared_ranks

from . import hidden, scoring
from .catalogue import (
    AREA_BONUS_CODES,
    BUILDABLE,
    CLASS_ORDER,
    CLASS_ROWS,
    COLOUR_LETTER,
    COLUMN_VALUE,
    CORNERS,
    CYPRESSES,
    GAME_NAME,
    GREYS,
    OPPOSITE_CORNER,
    POOL,
    PRESTIGE_MAX,
    RIVER,
    STREETS,
    TRACK_BENEFITS,
    VP_SOURCES,
    WORKERS,
    cell_name,
    forum_name,
    street_cells,
)
from .chance import Chance
from .colonia import active_citizens, new_player, resources_left, row_active
from .forum import Forum
from .options import Options, validate

_SHAPE = re.compile(r"^(setup|take|keep|use|cit|conv|build|track|env|pick|pay) \S+( \S+)?$")
ACTIONS = {"round", "turn", "resolve", "tile_done", "grey", "colour", "track_end", "gain",
           "round_end", "next_round", "cycle_score"}
ROW_BONUS = {1: ("env", "free"), 2: ("pick", "area1"), 3: ("pick", "CT"), 4: ("pick", "CA"),
             5: ("pick", "worker")}


def _adjacent(a: int, b: int) -> bool:
    ra, ca, rb, cb = a // 6, a % 6, b // 6, b % 6
    return abs(ra - rb) + abs(ca - cb) == 1


class ReferenceState:
    """One Forum Trajanum position with its history (plain Python, for clarity)."""

    def __init__(self, options: Options, seed: int):
        self.options = options
        self.seed = seed
        self.n = n = options.players
        self.forum = Forum(n)
        self.envoys: dict[tuple[int, int], int] = {}
        self.moves: list[str] = []
        self.round = 0
        self.start = 0
        self.cards: list[str] = []
        self.queue: list[int] = []
        self.drafted: list[int] = []  # seats that finished the draft, in order
        self.draft: dict[int, dict] = {}  # per seat: this round's take/keep log
        self.passing: dict[int, dict] = {}  # receiver seat -> passed tile
        self.conv_used: dict[str, int] = {}
        self.terminal = False
        self._chance_setup(seed)
        self.stack: list[tuple] = [("round",)] + [("setup", s) for s in reversed(range(n))]
        self._advance()

    # ------------------------------------------------------------------ setup
    def _chance_setup(self, seed: int) -> None:
        rng = Chance.for_game(seed)
        deck = [s for s in STREETS for _ in range(2)]  # R1,R1,..,R6,R6,Ca,Ca,..,Cf,Cf
        rng.shuffle(deck)
        self.piles = [deck[0:8], deck[8:16], deck[16:24]]
        self.drawn = [0, 0, 0]
        self.trajan = [(pile, rng.randint(3) + 1) for pile in (1, 2, 3)]
        workers = list(WORKERS)
        rng.shuffle(workers)
        self.players = [new_player(workers[i]) for i in range(self.n)]
        for seat, p in enumerate(self.players):
            p["female"] = CLASS_ORDER[rng.randint(2)]
            pool = list(POOL)
            rng.shuffle(pool)
            p["pool"] = [self._tile(seat, t) for t in pool]
            p["vp"] = dict.fromkeys(VP_SOURCES, 0)

    @staticmethod
    def _tile(owner: int, kind: str, up: bool = False) -> dict:
        return {"o": owner, "t": kind, "up": up, "seen": []}

    def _setup_options(self, seat: int) -> dict:
        if self.options.setup == "fixed":
            return {"setup rbgy/1/a1": ("rbgy", 1, 0)}
        out = {}
        for perm in itertools.permutations(WORKERS):
            for choice in (1, 2):
                for corner in CORNERS:
                    colours = "".join(perm)
                    out[f"setup {colours}/{choice}/{cell_name(corner)}"] = (colours, choice, corner)
        return out

    def _apply_setup(self, item, payload) -> None:
        seat = item[1]
        colours, choice, corner = payload
        p = self.players[seat]
        p["crane"] = dict(zip(CORNERS, colours))
        row = CLASS_ROWS[p["female"]][choice - 1]
        self._place_citizen(seat, row)
        others = [c for c in CLASS_ORDER if c != p["female"]]  # lower class first
        board, pool = p["board"], p["pool"]
        board[corner] = self._tile(seat, "cit" + others[0], True)
        board[OPPOSITE_CORNER[corner]] = self._tile(seat, "cit" + others[1], True)
        free = [c for c in CORNERS if board[c] is None]
        for cell, tile in zip(free, pool[:2]):
            tile["up"] = True
            board[cell] = tile
        for cell, tile in zip(BUILDABLE, pool[2:30]):
            board[cell] = tile
        board[RIVER] = pool[30]
        pool[30]["seen"] = [seat]
        p["pool"] = None
        p["setup_done"] = True

    # ------------------------------------------------------------------ queries
    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def cycle(self) -> int:
        return max(1, (self.round - 1) // 4 + 1)

    def is_terminal(self) -> bool:
        return self.terminal

    def current_player(self) -> int:
        """The seat that makes the next ply (-1 once the game is over)."""
        if self.terminal:
            return -1
        top = self.stack[-1]
        return self.queue[0] if top[0] == "draft" else top[1]

    def vp(self, seat: int) -> int:
        return sum(self.players[seat]["vp"].values())

    def scores(self) -> list[int]:
        return [self.vp(s) for s in range(self.n)]

    def ranks(self) -> list[int]:
        """Shared ranks: VP, then active citizens, then resources left."""
        return shared_ranks([(self.vp(s), active_citizens(p), resources_left(p))
                             for s, p in enumerate(self.players)])

    def winners(self) -> list[int]:
        if not self.terminal:
            return []
        return [s for s, r in enumerate(self.ranks()) if r == 1]

    def result(self) -> dict:
        """Scores, ranks, winners, plies, terminal, and per seat resources, active
        citizens and VP by source."""
        return {
            "scores": self.scores(), "ranks": self.ranks(), "winners": self.winners(),
            "plies": self.plies, "terminal": self.terminal,
            "resources": [dict(p["res"]) for p in self.players],
            "active_citizens": [active_citizens(p) for p in self.players],
            "vp_by_source": [dict(p["vp"]) for p in self.players],
        }

    def summary(self) -> dict:
        """The whole state as plain data, hidden parts included, but for the stack of
        pending work (this engine's own bookkeeping, which another engine need not have)."""
        out = hidden.summary(self, None)
        out.pop("stack")
        return out

    # ------------------------------------------------------------------ the reference protocol
    @classmethod
    def from_config(cls, config: dict, seed: int = 0) -> ReferenceState:
        """The start of the game ``config`` (a ``Game.config``; ConfigError for bad options)
        dealt from ``seed`` (decision 1: the numba engine's deal)."""
        return cls(validate(**config), operator.index(seed))

    @staticmethod
    def engine_summary(state) -> dict:
        """The numba engine's position (a forumlab State) in :meth:`summary`'s terms."""
        from forumlab.engines.forum_trajanum.summary import summary

        return summary(state.array)

    def record(self) -> dict:
        return {"format": "forumlab-record/1", "game": GAME_NAME, "config": self.options.config(),
                "seed": self.seed, "moves": list(self.moves)}

    def observation(self, seat: int) -> dict:
        """What ``seat`` may see (``hidden.observation``)."""
        return hidden.observation(self, seat)

    def determinize(self, seat: int, rng) -> ReferenceState:
        """Resample in place what ``seat`` cannot see (``hidden.determinize``); returns self."""
        hidden.determinize(self, seat, rng)
        self._advance()
        return self

    def copy(self) -> ReferenceState:
        return copy.deepcopy(self)

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[str]:
        """Every legal ply in the spec's notation; empty once the game is over."""
        if self.terminal:
            return []
        return list(self._options(self.stack[-1]))

    def play(self, text: str) -> ReferenceState:
        """Make one ply. Raises IllegalMoveError (malformed or illegal, with the ply number)."""
        if self.terminal:
            raise GameOverError(f"ply {self.plies + 1}: {text!r} after the end of the game")
        seat = self.current_player()
        if not isinstance(text, str) or not _SHAPE.match(text):
            raise IllegalMoveError(f"ply {self.plies + 1} (seat {seat}): {text!r} is malformed")
        options = self._options(self.stack[-1])
        if text not in options:
            raise IllegalMoveError(f"ply {self.plies + 1} (seat {seat}): {text!r} is illegal")
        self.moves.append(text)
        self._apply(self.stack[-1], options[text])
        self._advance()
        return self

    def _advance(self) -> None:
        while self.stack:
            top = self.stack[-1]
            if top[0] in ACTIONS:
                self.stack.pop()
                getattr(self, "_do_" + top[0])(*top[1:])
                continue
            if top[0] == "draft" and not self.queue:
                self.stack.pop()
                self._end_draft()
                continue
            options = self._options(top)
            if not options:
                self.stack.pop()
                continue
            if len(options) == 1:
                self._apply(top, next(iter(options.values())))
                continue
            return

    def _options(self, item: tuple) -> dict:
        kind = item[0]
        if kind == "draft":
            seat = self.queue[0]
            return self._take_options(seat) if "take" not in self.draft[seat] else self._keep_options(seat)
        return getattr(self, f"_{kind}_options")(*item[1:])

    def _apply(self, item: tuple, payload) -> None:
        kind = item[0]
        if kind == "draft":
            seat = self.queue[0]
            if "take" not in self.draft[seat]:
                self._apply_take(seat, payload)
            else:
                self._apply_keep(seat, payload)
            return
        if kind not in ("convbuild",) or payload[0] == "build":
            self.stack.pop()  # a conversion keeps the conversion/build decision open
        getattr(self, f"_apply_{kind}")(item, payload)

    # ------------------------------------------------------------------ rounds
    def _do_round(self) -> None:
        self.round += 1
        pile = self.cycle - 1
        k = self.drawn[pile]
        self.cards = self.piles[pile][k:k + 2]
        self.drawn[pile] = k + 2
        self.queue = self.turn_order()
        self.drafted = []
        self.draft = {s: {} for s in range(self.n)}
        self.passing = {}
        self.stack.append(("draft",))

    def turn_order(self) -> list[int]:
        return [(self.start + i) % self.n for i in range(self.n)]

    def _do_round_end(self) -> None:
        self.stack.append(("next_round",))
        if self.round % 4 == 0:
            self.stack.append(("cycle_score",))
            for seat in reversed(self.turn_order()):
                self.stack.append(("pay", seat))

    def _do_next_round(self) -> None:
        self.start = (self.start - 1) % self.n
        if self.round >= 12:
            self.terminal = True
            self.cards = []
        else:
            self.stack.append(("round",))

    def _do_cycle_score(self) -> None:
        cycle = self.cycle
        card = None
        if self.options.intro:
            card = self.trajan[2] if cycle == 3 else None
        else:
            card = self.trajan[cycle - 1]
        for seat, p in enumerate(self.players):
            for source, points in scoring.score_cycle(p, seat, self.envoys, self.forum, cycle, card).items():
                p["vp"][source] += points

    # ------------------------------------------------------------------ draft
    def _take_cost(self, board, first: int, second: int) -> int:
        cost, taken = 0, set()
        for space, street in ((first, self.cards[0]), (second, self.cards[1])):
            cells = street_cells(street)
            if space == RIVER:
                cost += 1
            elif space not in cells and any(board[c] is not None and c not in taken for c in cells):
                cost += 1
            taken.add(space)
        return cost

    def _take_options(self, seat: int) -> dict:
        p = self.players[seat]
        spaces = [c for c in range(37) if p["board"][c] is not None]
        out = {}
        for x, y in itertools.combinations(spaces, 2):
            cost = min(self._take_cost(p["board"], x, y), self._take_cost(p["board"], y, x))
            if cost <= p["res"]["T"]:
                out[f"take {cell_name(x)} {cell_name(y)}"] = (x, y, cost)
        return out

    def _apply_take(self, seat: int, payload) -> None:
        x, y, cost = payload
        p = self.players[seat]
        p["res"]["T"] -= cost
        tiles = {}
        uncovered = []
        for cell in (x, y):
            tile = p["board"][cell]
            p["board"][cell] = None
            if seat not in tile["seen"]:
                tile["seen"] = sorted(tile["seen"] + [seat])
            tiles[cell] = tile
            if cell in CORNERS:
                p["uncovered"].append(cell)
                uncovered.append(cell)
        self.draft[seat] = {"take": (x, y), "paid": cost, "tiles": tiles, "uncovered": uncovered}

    def _keep_options(self, seat: int) -> dict:
        x, y = self.draft[seat]["take"]
        return {f"keep {cell_name(x)}": x, f"keep {cell_name(y)}": y}

    def _apply_keep(self, seat: int, kept: int) -> None:
        log = self.draft[seat]
        log["kept"] = kept
        other = [c for c in log["take"] if c != kept][0]
        self.passing[(seat - 1) % self.n] = log["tiles"][other]
        self.queue.pop(0)
        self.drafted.append(seat)

    def _end_draft(self) -> None:
        for seat in range(self.n):
            log = self.draft[seat]
            received = self.passing[seat]
            if seat not in received["seen"]:
                received["seen"] = sorted(received["seen"] + [seat])
            self.players[seat]["held"] = {"k": log["tiles"][log["kept"]], "r": received}
        self.draft = {}
        self.passing = {}
        self.drafted = []
        self.stack.append(("round_end",))
        for seat in reversed(self.turn_order()):
            self.stack.append(("turn", seat))

    # ------------------------------------------------------------------ a turn
    def _do_turn(self, seat: int) -> None:
        for tile in self.players[seat]["held"].values():
            tile["up"] = True  # revealed at the holder's turn
        self.conv_used = {"MII": 0, "CI": 0, "CII": 0}
        self.stack.append(("convbuild", seat))
        self.stack.append(("use", seat))

    def _use_options(self, seat: int) -> dict:
        out = {"use k": ("k",), "use r": ("r",)}
        if self.players[seat]["res"]["T"] >= 2:
            out["use kr"] = ("k", "r")
            out["use rk"] = ("r", "k")
        return out

    def _apply_use(self, item, slots) -> None:
        seat = item[1]
        p = self.players[seat]
        if len(slots) == 2:
            p["res"]["T"] -= 2
        unused = [s for s in ("k", "r") if s not in slots]
        for slot in reversed(unused):
            self.stack.append(("tile_done", seat, slot))
        for slot in reversed(slots):
            self.stack.append(("tile_done", seat, slot))
            self.stack.append(("resolve", seat, slot))

    def _do_resolve(self, seat: int, slot: str) -> None:
        kind = self.players[seat]["held"][slot]["t"]
        if kind.startswith("cit"):
            self.stack.append(("cit", seat, kind[3], slot))
        else:
            self._gain(seat, kind)

    def _do_tile_done(self, seat: int, slot: str) -> None:
        p = self.players[seat]
        tile = p["held"].pop(slot)
        if tile.get("placed"):
            return
        if tile["o"] == seat:
            p["ship"] += 1

    def _cit_options(self, seat: int, cls: str, slot: str) -> dict:
        rows = self.players[seat]["rows"]
        return {f"cit {r}": r for r in CLASS_ROWS[cls] if len(rows[r]) < 2}

    def _apply_cit(self, item, row: int) -> None:
        seat, slot = item[1], item[3]
        self.players[seat]["held"][slot]["placed"] = True
        self._place_citizen(seat, row)
        if len(self.players[seat]["rows"][row]) == 2:
            if row == 6:
                self._gain(seat, "B")
            else:
                kind, arg = ROW_BONUS[row]
                self.stack.append((kind, seat, arg))

    def _place_citizen(self, seat: int, row: int) -> None:
        p = self.players[seat]
        p["rows"][row].append(True)
        if row == 3:
            p["merchant"] = True  # MI a): the Merchant side, for good

    def _gain(self, seat: int, code: str) -> None:
        p = self.players[seat]
        if code == "U":
            pos = p["prestige"]
            if row_active(p, 3):
                above = [c for c in CYPRESSES if c > pos]
                pos = above[0] if above else PRESTIGE_MAX
            else:
                pos += 1
            p["prestige"] = min(PRESTIGE_MAX, pos)
        elif code == "V":
            p["vp"]["bonus"] += 2
        else:
            p["res"][code] += 1

    def _do_gain(self, seat: int, code: str) -> None:
        self._gain(seat, code)

    # ------------------------------------------------------------------ conversions, build
    def _conv_options(self, seat: int) -> dict:
        p, out = self.players[seat], {}
        res = p["res"]
        if row_active(p, 4) and self.conv_used["MII"] < 1:
            for a, b in itertools.permutations("CTA", 2):
                if res[a] >= 1:
                    out[f"conv {a}>{b}"] = ("MII", a, b)
        if row_active(p, 5) and self.conv_used["CI"] < 2 and res["A"] >= 1:
            for w in WORKERS:
                out[f"conv A>{w}"] = ("CI", "A", w)
        if row_active(p, 6) and self.conv_used["CII"] < 1 and res["A"] >= 1:
            out["conv A>B"] = ("CII", "A", "B")
        return out

    def _convbuild_options(self, seat: int) -> dict:
        out = {text: ("conv",) + payload for text, payload in self._conv_options(seat).items()}
        out["build -"] = ("build", None)
        for text, payload in self._build_options(seat):
            out[text] = ("build", payload)
        return out

    @staticmethod
    def _affordable(res: dict, groups) -> bool:
        need: dict[str, int] = {}
        for _, cost in groups:
            for code, k in cost.items():
                need[code] = need.get(code, 0) + k
        return all(res[c] >= k for c, k in need.items())

    @staticmethod
    def _grey_pays():
        return [("B", {"B": 1})] + [(w + w, {w: 2}) for w in WORKERS]

    @staticmethod
    def _colour_pays(colour: str):
        return [(colour, {colour: 1})] + [(w + "A", {w: 1, "A": 1}) for w in WORKERS if w != colour]

    def _build_options(self, seat: int):
        """(text, (parts, cells, payment groups)) of every affordable build."""
        p = self.players[seat]
        res = p["res"]
        free = [c for c in BUILDABLE if p["board"][c] is None and p["built"][c] is None]
        # the affordable (piece, parts, payment) choices do not depend on the cells
        singles, greys_colour, structures = [], [], []
        for grey in GREYS:
            singles += [(grey, (grey,), [pay]) for pay in self._grey_pays() if self._affordable(res, [pay])]
        for colour in WORKERS:
            singles += [(colour, (colour,), [pay]) for pay in self._colour_pays(colour)
                        if self._affordable(res, [pay])]
        for grey in GREYS:
            for colour in WORKERS:
                for gp in self._grey_pays():
                    for cp in self._colour_pays(colour):
                        if self._affordable(res, [gp, cp]):
                            greys_colour.append((f"{grey}+{colour}", (grey, colour), [gp, cp]))
        for colour in WORKERS:
            for p1, p2 in itertools.combinations_with_replacement(self._colour_pays(colour), 2):
                if self._affordable(res, [p1, p2]):
                    structures.append((colour + colour, (colour, colour), [p1, p2]))
        out = []
        for cell in free:
            for piece, parts, pays in singles:
                out.append((f"build {piece}@{cell_name(cell)}/{pays[0][0]}", (parts, (cell,), pays)))
        for a, b in itertools.permutations(free, 2):
            if not _adjacent(a, b):
                continue
            names = f"{cell_name(a)},{cell_name(b)}"
            for piece, parts, pays in greys_colour + (structures if a < b else []):
                out.append((f"build {piece}@{names}/{pays[0][0]},{pays[1][0]}", (parts, (a, b), pays)))
        return out

    def _apply_convbuild(self, item, payload) -> None:
        seat = item[1]
        res = self.players[seat]["res"]
        if payload[0] == "conv":
            _, ability, a, b = payload
            self.conv_used[ability] += 1
            res[a] -= 1
            res[b] += 1
            return
        if payload[1] is None:
            return
        parts, cells, pays = payload[1]
        p = self.players[seat]
        for _, cost in pays:
            for code, k in cost.items():
                res[code] -= k
        for part, cell in zip(parts, cells):
            p["built"][cell] = part
        # benefits: the grey part first, then each colour part in cell order
        order = [(part, cell) for part, cell in zip(parts, cells) if part in GREYS]
        order += sorted(((part, cell) for part, cell in zip(parts, cells) if part not in GREYS),
                        key=lambda pc: pc[1])
        for part, _ in reversed(order):
            self.stack.append(("grey", seat, part) if part in GREYS else ("colour", seat, part))

    def _column_points(self, seat: int) -> int:
        return COLUMN_VALUE[self.cycle] + active_citizens(self.players[seat])

    def _do_grey(self, seat: int, grey: str) -> None:
        p = self.players[seat]
        if grey == "col":
            p["cols"] += 1
            p["vp"]["column"] += self._column_points(seat)
            return
        p["tracks"][grey] += 1
        level = p["tracks"][grey]
        if level <= 4:
            if level == 4:
                self.stack.append(("track_end", seat))
            self.stack.append(("track", seat, grey, level))

    def _do_track_end(self, seat: int) -> None:
        self.players[seat]["vp"]["track_end"] += self._column_points(seat)

    def _track_options(self, seat: int, track: str, level: int) -> dict:
        return {f"track {j}": j for j in range(1, level + 1)}

    def _apply_track(self, item, j: int) -> None:
        seat, track = item[1], item[2]
        for effect in reversed(TRACK_BENEFITS[track][j]):
            if effect == "area":
                self.stack.append(("pick", seat, "area"))
            elif effect == "worker":
                self.stack.append(("pick", seat, "worker"))
            elif effect == "envfree":
                self.stack.append(("env", seat, "free"))
            else:
                self.stack.append(("gain", seat, effect))

    def _do_colour(self, seat: int, colour: str) -> None:
        self.stack.append(("env", seat, colour))

    # ------------------------------------------------------------------ envoys, picks
    def _env_options(self, seat: int, mode: str) -> dict:
        p = self.players[seat]
        if p["ship"] < 1:
            return {}
        forum = self.forum
        empty = [c for c in sorted(forum.cells) if c not in self.envoys]
        if mode != "free":
            letter = COLOUR_LETTER[mode]
            empty = [c for c in empty if forum.colour[c] == letter]
            if not row_active(p, 1):
                started = {i for i, area in enumerate(forum.areas)
                           if forum.colour[area[0]] == letter
                           and any(c in self.envoys for c in area)
                           and any(c not in self.envoys for c in area)}
                if started:
                    empty = [c for c in empty if forum.area_of[c] in started]
        if not empty:
            return {}
        out = {f"env {forum_name(*c)}": c for c in empty}
        out["env -"] = None
        return out

    def _apply_env(self, item, cell) -> None:
        seat = item[1]
        if cell is None:
            return
        self.envoys[cell] = seat
        self.players[seat]["ship"] -= 1
        area = self.forum.area_of.get(cell)
        if area is not None and all(c in self.envoys for c in self.forum.areas[area]):
            self.stack.append(("pick", seat, "area"))

    def _pick_options(self, seat: int, kind: str) -> dict:
        if kind == "area" and row_active(self.players[seat], 2):
            return {f"pick {a}+{b}": (a, b) for a, b in itertools.combinations(AREA_BONUS_CODES, 2)}
        codes = {"area": AREA_BONUS_CODES, "area1": AREA_BONUS_CODES, "CT": "CT", "CA": "CA",
                 "worker": WORKERS}[kind]
        return {f"pick {c}": (c,) for c in codes}

    def _apply_pick(self, item, codes) -> None:
        for code in codes:
            self._gain(item[1], code)

    # ------------------------------------------------------------------ payment
    def _pay_options(self, seat: int) -> dict:
        p = self.players[seat]
        rows = [r for r in range(1, 7) if p["rows"][r]]
        out = {"pay -": ()}
        for k in range(1, min(len(rows), p["res"]["C"]) + 1):
            for chosen in itertools.combinations(rows, k):
                out["pay " + ",".join(map(str, chosen))] = chosen
        return out

    def _apply_pay(self, item, chosen) -> None:
        p = self.players[item[1]]
        p["res"]["C"] -= len(chosen)
        for r in range(1, 7):
            p["rows"][r] = [r in chosen] * len(p["rows"][r])
