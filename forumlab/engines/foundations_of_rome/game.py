"""Foundations of Rome: the Python facade (options, notation, rendering, results).

Rules: ``shared/rules/foundations-of-rome.md``: the base game, the ``draft`` option,
every module and the Will of the Consul.

Options: ``players`` 2-5 (1-4 with the Consul), ``modules`` (a list from "monuments",
"trading", "stealing", "objectives", "invocations", "roles"), ``objectives``
("hidden"/"public"), ``consul`` (false, true = "standard", "standard", "hard",
"challenge"; only "monuments" and the draft may be added), ``max_trades`` (0-3, default
1), ``draft`` (bool), ``deed_prices`` (six non-decreasing non-negative integers, default
2,3,4,6,8,10), ``max_turns`` (main actions before the game is cut off, default 1000).
``objectives`` and ``max_trades`` are validated always and act only with their module;
``config`` records ``objectives`` only with Objectives, ``max_trades`` only with
Trading and ``consul`` only when on, so base-game records are unchanged.

Study option beyond the spec (not part of the published rules): ``start_silver``, one
non-negative integer per seat (default 5, 6, 7, 8, 9 cut to the player count, the spec's
"seat i starts with 5+i silver"), for the balance study of the start-silver rule. It
appears in ``config`` only when it differs from the default, so records of the
published rules keep the spec's config.

Notation (the spec's): ``I``, ``D3``, ``K:c4``, ``R3L@c3,c4,d4``, ``M12@e4,f4,e5,f5``,
``T2:d3/$4``, ``Y``, ``N``, ``S:d4``, ``U:G3``, ``U:G20=1``, ``K:O16``, ``K:P10``; cells in
ascending index, lot names with the row number as written (``a10``); seats and amounts
are decimals without leading zeros. A module's notation is malformed without the module.

A Will of the Consul game is cooperative: ``result()`` reports the players' VP as
``scores``, every rank 1, every seat a winner iff each player's VP exceeds the Consul's,
plus ``consul_vp`` and ``consul_margin`` (min over seats of VP - Consul VP), which is
every seat's reward (the ``scores`` kernel gives it to every seat, so search agents
play for the team).
Decisions where the spec is silent: :mod:`.kernels`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.errors import ConfigError, IllegalMoveError
from ...core.game import Game, Kernels
from . import hidden
from . import kernels as for_kernels
from .data import (
    ALL_CODE_NAMES,
    CODE_NAMES,
    CODE_SHAPE,
    LOT_MARKERS,
    MONUMENT_NAMES,
    N_PLAYER_CODES,
    PL_BASE,
    PL_CELLS,
    PL_NCELLS,
    PLACEMENT_INDEX,
)
from .layout import (
    ANSWER_NO,
    ANSWER_YES,
    BUILD_BASE,
    CELL_BLD,
    CONSUL_CHALLENGE,
    CONSUL_HARD,
    CONSUL_HOLDER,
    CONSUL_OWN,
    CONSUL_STANDARD,
    CONSUL_VP,
    DISPLAY,
    DRAFT_ROUND,
    ERA,
    EXTRA_MARKERS,
    FINAL_LEFT,
    HAND_N,
    INCOME,
    INV_HOLDER,
    INV_STATUS,
    INVOCATION_CARD,
    ITEM_CARD,
    ITEM_F2,
    ITEM_F4,
    ITEM_LOT,
    ITEM_NONE,
    ITEM_SILVER,
    KEEP_OBJ,
    KEEP_ROLE,
    MAX_MOVES,
    MODULE_BITS,
    MON_BUILT,
    MON_LEFT,
    N_ITEMS,
    N_PLAYERS,
    N_SRC,
    NUMA_BASE,
    OFFER,
    OWN,
    PH_ANSWER,
    PH_DRAFT,
    PH_FINAL,
    PH_OBJ,
    PH_OVER,
    PH_ROLE,
    PHASE,
    PICK,
    PICK_BASE,
    PILE_LEN,
    PILE_POS,
    PLAYER,
    PLY,
    POP,
    PRICES,
    ROLE,
    SILVER,
    SIZE,
    SLOTS,
    SOURCE_NAMES,
    STEAL_BASE,
    SUPPLY,
    TOKENS2,
    TOKENS4,
    TRADE_BASE,
    TRUNCATED,
    TURNS,
    USE_BASE,
    VP,
    VP_SRC,
    cell_name,
    decode_build,
    encode_build,
    parse_cell,
)
from .pieces import marker_supply
from .scoring import instance_code, instance_owner

MODULE_NAMES = ("monuments", "trading", "stealing", "objectives", "invocations", "roles")
CONSUL_LEVELS = {"standard": CONSUL_STANDARD, "hard": CONSUL_HARD, "challenge": CONSUL_CHALLENGE}
DEFAULT_PRICES = (2, 3, 4, 6, 8, 10)
DEFAULT_START_SILVER = (5, 6, 7, 8, 9)  # the spec: seat i starts with 5 + i silver
MAX_TURNS_LIMIT = 1_000_000
SEATS = "ABCDE"
CODE_BY_NAME = {name: code for code, name in enumerate(CODE_NAMES)}
STATUS_NAMES = ("unused", "ongoing", "spent")


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _decimal(text: str) -> bool:
    """A decimal without a leading zero (``0`` itself allowed)."""
    return text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


def _parse_card(text: str) -> int:
    if not text.startswith("G") or not _decimal(text[1:]) or not 1 <= int(text[1:]) <= 20:
        raise ValueError(f"{text!r} is not an invocation G1-G20")
    return int(text[1:])


def format_item(item: int, n: int) -> str:
    """A trade item's notation: ``-``, a lot, ``$n``, ``F2``/``F4`` or ``G<g>``."""
    if item == ITEM_NONE:
        return "-"
    if item <= ITEM_SILVER:
        return cell_name(item - ITEM_LOT, n)
    if item <= ITEM_SILVER + 10:
        return f"${item - ITEM_SILVER}"
    if item == ITEM_F2:
        return "F2"
    if item == ITEM_F4:
        return "F4"
    return f"G{item - ITEM_CARD}"


def _parse_item(text: str, n: int) -> int:
    if text == "-":
        return ITEM_NONE
    if text in ("F2", "F4"):
        return ITEM_F2 if text == "F2" else ITEM_F4
    if text.startswith("$"):
        if not _decimal(text[1:]) or not 1 <= int(text[1:]) <= 10:
            raise ValueError(f"{text!r}: silver is $1 to $10")
        return ITEM_SILVER + int(text[1:])
    if text.startswith("G"):
        return ITEM_CARD + _parse_card(text)
    return ITEM_LOT + parse_cell(text, n)


class FoundationsOfRome(Game):
    """Foundations of Rome for 2-5 players (base game, draft, Monuments)."""

    name = "foundations-of-rome"
    tensor_module = "forumlab.engines.foundations_of_rome.tensor"
    min_players = 2
    max_players = 5
    perfect_information = False
    # MCTS tuned against greedy at 3 players, 0.2 CPU s per move; figures: docs/results.md.
    mcts_defaults = {"rollout": "none", "hscale": 10.0, "c": 0.3}
    kernels = Kernels.from_module(for_kernels, MAX_MOVES)

    def __init__(self, players: int = 3, modules: list[str] | tuple[str, ...] = (), draft: bool = False,
                 deed_prices: list[int] | tuple[int, ...] = DEFAULT_PRICES, max_turns: int = 1000,
                 consul: bool | str = False, start_silver: list[int] | tuple[int, ...] | None = None,
                 objectives: str = "hidden", max_trades: int = 1):
        if consul is True:
            consul = "standard"
        if consul not in (False, None) and consul not in CONSUL_LEVELS:
            raise ConfigError(f"consul must be false, true, 'standard', 'hard' or 'challenge', "
                              f"not {consul!r}")
        self.consul = CONSUL_LEVELS.get(consul, 0) if consul else 0
        if self.consul and _is_int(players) and players == 1:
            self.players = 1  # the Consul also allows one human (the spec's DECISION)
        else:
            super().__init__(players)
            if self.consul and players > 4:
                raise ConfigError(f"the Will of the Consul takes 1-4 players, not {players}")
        if not isinstance(modules, (list, tuple)) or not all(isinstance(m, str) for m in modules):
            raise ConfigError(f"modules must be a list of module names, not {modules!r}")
        for m in modules:
            if m not in MODULE_NAMES:
                raise ConfigError(f"unknown module {m!r} (known: {', '.join(MODULE_NAMES)})")
        if len(set(modules)) != len(modules):
            raise ConfigError(f"a module is listed twice in {list(modules)!r}")
        if self.consul and any(m != "monuments" for m in modules):
            others = ", ".join(m for m in modules if m != "monuments")
            raise ConfigError(f"the Will of the Consul allows only the monuments module, not {others}")
        if objectives not in ("hidden", "public"):
            raise ConfigError(f"objectives must be 'hidden' or 'public', not {objectives!r}")
        if not _is_int(max_trades) or not 0 <= max_trades <= 3:
            raise ConfigError(f"max_trades must be an integer from 0 to 3, not {max_trades!r}")
        if not isinstance(draft, bool):
            raise ConfigError(f"draft must be true or false, not {draft!r}")
        if (not isinstance(deed_prices, (list, tuple)) or len(deed_prices) != 6
                or not all(_is_int(x) and 0 <= x <= 10**6 for x in deed_prices)
                or any(a > b for a, b in zip(deed_prices, deed_prices[1:]))):
            raise ConfigError("deed_prices must be 6 non-decreasing non-negative integers, "
                              f"not {deed_prices!r}")
        if not _is_int(max_turns) or not 1 <= max_turns <= MAX_TURNS_LIMIT:
            raise ConfigError(f"max_turns must be an integer from 1 to {MAX_TURNS_LIMIT}, not {max_turns!r}")
        default_silver = list(DEFAULT_START_SILVER[:players])
        if start_silver is None:
            start_silver = default_silver
        if (not isinstance(start_silver, (list, tuple)) or len(start_silver) != players
                or not all(_is_int(x) and 0 <= x <= 10**6 for x in start_silver)):
            raise ConfigError(f"start_silver must be {players} non-negative integers (one per seat), "
                              f"not {start_silver!r}")
        self.start_silver = [int(x) for x in start_silver]
        self._default_silver = self.start_silver == default_silver
        self.modules = list(modules)
        self.module_bits = sum(MODULE_BITS[m] for m in self.modules)
        self.objectives = objectives
        self.max_trades = int(max_trades)
        self.draft = draft
        self.deed_prices = [int(x) for x in deed_prices]
        self.max_turns = int(max_turns)

    @property
    def cooperative(self) -> bool:
        """True in a Will of the Consul game: the seats play as a team against the Consul."""
        return self.consul != 0

    @property
    def config(self) -> dict[str, Any]:
        config = {"players": self.players, "modules": list(self.modules), "draft": self.draft,
                  "deed_prices": list(self.deed_prices), "max_turns": self.max_turns}
        if "objectives" in self.modules:
            config["objectives"] = self.objectives
        if "trading" in self.modules:
            config["max_trades"] = self.max_trades
        if self.consul:
            config["consul"] = next(k for k, v in CONSUL_LEVELS.items() if v == self.consul)
        if not self._default_silver:  # the study option, recorded only when used
            config["start_silver"] = list(self.start_silver)
        return config

    def initial_array(self, seed: int) -> np.ndarray:
        return for_kernels.new_state(self.players, self.module_bits, self.draft, self.deed_prices,
                                     self.max_turns, seed, self.start_silver,
                                     self.objectives == "public", self.max_trades, self.consul)

    # ---- notation ------------------------------------------------------------------
    def format_move(self, array: np.ndarray, move: int) -> str:
        move = int(move)
        n = int(array[SIZE])
        if move == INCOME:
            return "I"
        if 1 <= move <= 6:
            return f"D{move}"
        if PICK_BASE <= move < PICK_BASE + n * n:
            return f"K:{cell_name(move - PICK_BASE, n)}"
        if STEAL_BASE <= move < STEAL_BASE + n * n:
            return f"S:{cell_name(move - STEAL_BASE, n)}"
        if USE_BASE < move < USE_BASE + 20:
            return f"U:G{move - USE_BASE}"
        if NUMA_BASE <= move < NUMA_BASE + 5:
            return f"U:G20={move - NUMA_BASE}"
        if KEEP_OBJ < move <= KEEP_OBJ + 18:
            return f"K:O{move - KEEP_OBJ}"
        if KEEP_ROLE < move <= KEEP_ROLE + 15:
            return f"K:P{move - KEEP_ROLE}"
        if move == ANSWER_YES:
            return "Y"
        if move == ANSWER_NO:
            return "N"
        if TRADE_BASE <= move < TRADE_BASE + 5 * N_ITEMS * N_ITEMS:
            code = move - TRADE_BASE
            seat, rest = divmod(code, N_ITEMS * N_ITEMS)
            give, get = divmod(rest, N_ITEMS)
            return f"T{seat}:{format_item(give, n)}/{format_item(get, n)}"
        bcode, loc = decode_build(move)
        if move < BUILD_BASE or not 0 <= bcode < len(CODE_NAMES):
            raise ValueError(f"{move} is not a move code")
        pl = int(PL_BASE[n - 7, CODE_SHAPE[bcode]]) + loc
        cells = PL_CELLS[pl, :PL_NCELLS[pl]]
        return f"{CODE_NAMES[bcode]}@" + ",".join(cell_name(c, n) for c in cells)

    def _module_assets(self, array: np.ndarray, p: int) -> str:
        """Seat p's public module assets for the picture: favor tokens, invocation cards
        (``*`` ongoing, ``-`` spent), role."""
        out = ""
        if self._has("trading") or self._has("stealing"):
            out += f" tokens {int(array[TOKENS2 + p])}x2 {int(array[TOKENS4 + p])}x4"
        if self._has("invocations"):
            marks = ("", "*", "-")
            held = [f"G{g}{marks[int(array[INV_STATUS + g])]}" for g in range(1, 21)
                    if array[INV_HOLDER + g] == p]
            out += " cards " + (",".join(held) or "-")
        if self._has("roles") and array[ROLE + p]:
            out += f" role P{int(array[ROLE + p])}"
        return out

    def _has(self, module: str) -> bool:
        return module in self.modules

    def parse_move(self, array: np.ndarray, text: str) -> int:
        # No ply number here: replay and play prefix it ("ply 12: illegal move ...").
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text, not {text!r}")
        n = int(array[SIZE])
        if text == "I":
            return INCOME
        if len(text) == 2 and text[0] == "D" and text[1] in "123456":
            return int(text[1])
        try:
            module_move = self._parse_module_move(text, n)
            if module_move is not None:
                return module_move
            if text.startswith("K:"):
                return PICK_BASE + parse_cell(text[2:], n)
            name, at, cells_text = text.partition("@")
            if not at or name not in CODE_BY_NAME:
                raise ValueError("expected I, D1-D6, K:<lot> or <building>@<lots>")
            cells = [parse_cell(c, n) for c in cells_text.split(",")]
        except ValueError as exc:
            raise IllegalMoveError(f"malformed move {text!r}: {exc}") from None
        if any(a >= b for a, b in zip(cells, cells[1:])):
            raise IllegalMoveError(f"malformed move {text!r}: lots must be in ascending order")
        bcode = CODE_BY_NAME[name]
        loc = PLACEMENT_INDEX.get((n, int(CODE_SHAPE[bcode]), tuple(cells)))
        if loc is None:
            raise IllegalMoveError(f"{text!r}: the lots are not the shape of {name}")
        return encode_build(bcode, loc)

    def move_seen_by(self, array: np.ndarray, move: int, seat: int) -> str | None:
        """Every move is public except another seat's draft pick (its lot shows on the
        board when the round's last pick reveals them all) and another seat's kept
        objective or role (hidden until the reveal), which stay secret."""
        if int(array[PLAYER]) != seat:
            n = int(array[SIZE])
            code = int(move)
            if PICK_BASE <= code < PICK_BASE + n * n:
                return None
            if KEEP_OBJ < code <= KEEP_OBJ + 18 or KEEP_ROLE < code <= KEEP_ROLE + 15:
                return None
        return self.format_move(array, move)

    def _parse_seat(self, text: str) -> int:
        if not _decimal(text) or int(text) >= self.players:
            raise ValueError(f"{text!r} is not a seat 0-{self.players - 1}")
        return int(text)

    def _parse_module_move(self, text: str, n: int) -> int | None:
        """Move code of a module's notation, None for other notation; ValueError if malformed."""
        if text in ("Y", "N"):
            if not self._has("trading"):
                raise ValueError("no trading in this game")
            return ANSWER_YES if text == "Y" else ANSWER_NO
        if text.startswith("K:O") or text.startswith("K:P"):
            kind, number = text[2], text[3:]
            limit, module, base = (18, "objectives", KEEP_OBJ) if kind == "O" else (15, "roles", KEEP_ROLE)
            if not self._has(module):
                raise ValueError(f"no {module} in this game")
            if not _decimal(number) or not 1 <= int(number) <= limit:
                raise ValueError(f"expected K:{kind}1 to K:{kind}{limit}")
            return base + int(number)
        if text.startswith("S:"):
            if not self._has("stealing"):
                raise ValueError("no stealing in this game")
            return STEAL_BASE + parse_cell(text[2:], n)
        if text.startswith("U:"):
            if not self._has("invocations"):
                raise ValueError("no invocations in this game")
            card, eq, seat = text[2:].partition("=")
            g = _parse_card(card)
            if g == 20:
                if not eq:
                    raise ValueError("Numa names a seat: U:G20=<seat>")
                return NUMA_BASE + self._parse_seat(seat)
            if eq:
                raise ValueError("only U:G20 names a seat")
            return USE_BASE + g
        if text.startswith("T"):
            if not self._has("trading"):
                raise ValueError("no trading in this game")
            seat, colon, rest = text[1:].partition(":")
            give, slash, get = rest.partition("/")
            if not colon or not slash:
                raise ValueError("expected T<seat>:<give>/<get>")
            q = self._parse_seat(seat)
            return TRADE_BASE + (q * N_ITEMS + _parse_item(give, n)) * N_ITEMS + _parse_item(get, n)
        return None

    # ---- results -------------------------------------------------------------------
    def plies(self, array: np.ndarray) -> int:
        return int(array[PLY])

    def is_truncated(self, array: np.ndarray) -> bool:
        return bool(array[TRUNCATED])

    def observation(self, array: np.ndarray, seat: int) -> np.ndarray:
        return hidden.observation(array, seat)

    def rank_keys(self, array: np.ndarray, scores: list) -> list:
        """(VP, silver) per seat: the spec's tie-break (more silver left, then shared);
        in a Consul game one shared key (every rank 1, the team wins or loses together)."""
        if self.consul:
            return [0] * len(scores)
        return [(score, int(array[SILVER + p])) for p, score in enumerate(scores)]

    def details(self, array: np.ndarray) -> dict[str, Any]:
        n = int(array[N_PLAYERS])
        out = self._details(array, n)
        if self.consul:
            # The cooperative result (spec): scores are the players' VP (the kernel's
            # scores are the shared margin), every rank 1 (rank_keys), winners every
            # seat iff the margin is > 0 (Game.team_won, also in a truncated game).
            out["scores"] = out["vp"]
            out["consul_vp"] = int(array[CONSUL_VP])
            out["consul_margin"] = int(for_kernels.consul_margin(array))
        return out

    def _details(self, array: np.ndarray, n: int) -> dict[str, Any]:
        names = SOURCE_NAMES[:6] + tuple(
            name for name, on in (("favor_tokens", "trading" in self.modules or "stealing" in self.modules),
                                  ("invocations", "invocations" in self.modules),
                                  ("roles", "roles" in self.modules),
                                  ("objectives", "objectives" in self.modules),
                                  ("start", bool(self.consul))) if on)
        return {
            "vp": [int(array[VP + p]) for p in range(n)],
            "silver": [int(array[SILVER + p]) for p in range(n)],
            "population": [int(array[POP + p]) for p in range(n)],
            "vp_by_source": [{name: int(array[VP_SRC + p * N_SRC + SOURCE_NAMES.index(name)])
                              for name in names}
                             for p in range(n)],
            "era": int(array[ERA]),
            "turns": int(array[TURNS]),
        }

    # ---- picture -------------------------------------------------------------------
    def render(self, array: np.ndarray) -> str:
        n, players = int(array[SIZE]), int(array[N_PLAYERS])
        lines = ["    " + " ".join("abcdefghij"[:n])]
        for r in range(n):
            row = []
            for c in range(n):
                cell = r * n + c
                owner = next((p for p in range(players)
                              if (int(array[OWN + 2 * p + (cell >> 6)]) >> (cell & 63)) & 1), -1)
                if owner < 0 and (int(array[CONSUL_OWN + (cell >> 6)]) >> (cell & 63)) & 1:
                    row.append("X" if array[CELL_BLD + cell] else "x")  # the Consul's lot
                elif owner < 0:
                    row.append(".")
                else:
                    row.append(SEATS[owner] if array[CELL_BLD + cell] else SEATS[owner].lower())
            lines.append(f"{r + 1:>2}  " + " ".join(row))
        lines.append("    capital = building, lowercase = lot marker, . = unowned"
                     + (", X/x = the Consul's token / lot" if self.consul else ""))
        lines.append("buildings: " + (", ".join(buildings_on_board(array)) or "none"))
        board = " ".join(f"D{k + 1}:{_card_name(int(array[SLOTS + k]), n)}(${int(array[PRICES + k])})"
                         for k in range(6))
        piles = "/".join(str(int(array[PILE_LEN + e] - array[PILE_POS + e])) for e in range(3))
        lines.append(f"deed board: {board}   piles {piles}")
        display = [int(array[DISPLAY + k]) for k in range(8) if array[DISPLAY + k]]
        if display:
            lines.append("monuments: " + ", ".join(
                f"M{m} {MONUMENT_NAMES[m - 1]}"
                + (" (built)" if (int(array[MON_BUILT]) >> (m - 1)) & 1 else "")
                for m in display))
        for p in range(players):
            supply = " ".join(f"{CODE_NAMES[c]}x{int(array[SUPPLY + p * N_PLAYER_CODES + c])}"
                              for c in range(N_PLAYER_CODES) if array[SUPPLY + p * N_PLAYER_CODES + c])
            extra = f" monument markers {int(array[MON_LEFT + p])}" if display else ""
            hand = ""
            if array[PHASE] == PH_DRAFT:
                hand = f" hand {int(array[HAND_N + p])}" + (" picked" if array[PICK + p] >= 0 else "")
            lines.append(f"{SEATS[p]}: VP {int(array[VP + p])} silver {int(array[SILVER + p])} "
                         f"population {int(array[POP + p])} markers {marker_supply(array, p)}/"
                         f"{LOT_MARKERS + int(array[EXTRA_MARKERS + p])}"
                         f"{extra}{hand} supply {supply or '-'}{self._module_assets(array, p)}")
        if self.consul:
            holder = SEATS[int(array[CONSUL_HOLDER])]
            lines.append(f"Consul: VP {int(array[CONSUL_VP])}, card held by {holder}")
        phase = int(array[PHASE])
        if phase == PH_OVER:
            status = "game over" + (" (turn cap)" if array[TRUNCATED] else "")
        elif phase == PH_DRAFT:
            status = f"draft round {int(array[DRAFT_ROUND]) + 1}, {SEATS[int(array[PLAYER])]} to pick"
        elif phase in (PH_OBJ, PH_ROLE):
            kind = "an objective" if phase == PH_OBJ else "a role"
            status = f"setup, {SEATS[int(array[PLAYER])]} to keep {kind}"
        elif phase == PH_ANSWER:
            offer = (f"T{int(array[OFFER + 1])}:{format_item(int(array[OFFER + 2]), n)}/"
                     f"{format_item(int(array[OFFER + 3]), n)}")
            status = (f"{SEATS[int(array[OFFER])]} offers {offer}, "
                      f"{SEATS[int(array[PLAYER])]} to answer Y or N")
        else:
            final = f", final turns ({int(array[FINAL_LEFT])} left)" if phase == PH_FINAL else ""
            status = f"era {int(array[ERA])}{final}, {SEATS[int(array[PLAYER])]} to move"
        lines.append(status)
        return "\n".join(lines)


def _card_name(card: int, n: int) -> str:
    """A deed-board card: its lot, ``G<g>`` for an invocation, ``-`` for none."""
    if card < 0:
        return "-"
    return f"G{card - INVOCATION_CARD}" if card >= INVOCATION_CARD else cell_name(card, n)


def buildings_on_board(array: np.ndarray) -> list[str]:
    """Every building on the board as ``A:R3L@c3,c4,d4`` (seat letter, code, lots; ``X``
    and ``X<id>`` for a Consul token)."""
    n = int(array[SIZE])
    cells: dict[int, list[int]] = {}
    for cell in range(n * n):
        b = int(array[CELL_BLD + cell])
        if b:
            cells.setdefault(b, []).append(cell)
    return [f"{(SEATS + 'X')[instance_owner(b)]}:{ALL_CODE_NAMES[instance_code(b)]}@"
            + ",".join(cell_name(c, n) for c in cs)
            for b, cs in sorted(cells.items())]
