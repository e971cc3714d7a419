"""Foundations of Rome: the Python facade (options, notation, rendering, results).

Rules: ``shared/rules/foundations-of-rome.md``; scope: the base game, the ``draft``
option and the Monuments module. The other modules ("trading", "stealing",
"objectives", "invocations", "roles") and the Consul are ConfigErrors "not implemented
yet"; the state (:mod:`.layout`) reserves move-code ranges for them.

Options: ``players`` 2-5, ``modules`` ``[]`` or ``["monuments"]``, ``draft`` (bool),
``deed_prices`` (six non-decreasing non-negative integers, default 2,3,4,6,8,10),
``max_turns`` (main actions before the game is cut off, default 1000).

Study option beyond the spec (not part of the published rules): ``start_silver``, one
non-negative integer per seat (default 5, 6, 7, 8, 9 cut to the player count, the spec's
"seat i starts with 5+i silver"), for the balance study of the start-silver rule. It
appears in ``config`` only when it differs from the default, so records of the
published rules keep the spec's config.

Notation (the spec's): ``I``, ``D3``, ``K:c4``, ``R3L@c3,c4,d4``, ``M12@e4,f4,e5,f5``;
cells in ascending index, lot names with the row number as written (``a10``).
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
    BUILD_BASE,
    CELL_BLD,
    DISPLAY,
    DRAFT_ROUND,
    ERA,
    FINAL_LEFT,
    HAND_N,
    INCOME,
    MAX_MOVES,
    MON_BUILT,
    MON_LEFT,
    N_PLAYERS,
    N_SRC,
    OWN,
    PH_DRAFT,
    PH_FINAL,
    PH_OVER,
    PHASE,
    PICK,
    PICK_BASE,
    PILE_LEN,
    PILE_POS,
    PLAYER,
    PLY,
    POP,
    PRICES,
    SILVER,
    SIZE,
    SLOTS,
    SOURCE_NAMES,
    SUPPLY,
    TRUNCATED,
    TURNS,
    VP,
    VP_SRC,
    cell_name,
    decode_build,
    encode_build,
    parse_cell,
)
from .moves import marker_supply
from .scoring import instance_code, instance_owner

KNOWN_LATER_MODULES = ("trading", "stealing", "objectives", "invocations", "roles")
DEFAULT_PRICES = (2, 3, 4, 6, 8, 10)
DEFAULT_START_SILVER = (5, 6, 7, 8, 9)  # the spec: seat i starts with 5 + i silver
MAX_TURNS_LIMIT = 1_000_000
SEATS = "ABCDE"
CODE_BY_NAME = {name: code for code, name in enumerate(CODE_NAMES)}


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


class FoundationsOfRome(Game):
    """Foundations of Rome for 2-5 players (base game, draft, Monuments)."""

    name = "foundations-of-rome"
    tensor_module = "forumlab.engines.foundations_of_rome.tensor"
    min_players = 2
    max_players = 5
    perfect_information = False
    # Measured with benchmarks.mcts_experiment (3 players, mcts(iterations=1000) against two
    # greedy seats, 24 games, seed 11): heuristic leaves (rollout=none, hscale=10, c=0.3)
    # +274 Elo [107, 441], win rate 0.67; random rollouts (the generic default) +154
    # [-40, 349] on 12 games (measured with reuse=false; tree reuse never applies to the
    # views of a hidden-information game since it checks that the old root leads to the
    # new position, which a resampled view does not).
    # Confirmed by a ladder tuning round robin (3 players, 0.2 CPU s, README "Foundations
    # of Rome"): these +201 [+72, +329] Elo over greedy; c=0.7, reward=rank, imm=0.5 and
    # ismcts=false all within +/-60 of it, none separated.
    mcts_defaults = {"rollout": "none", "hscale": 10.0, "c": 0.3}
    kernels = Kernels.from_module(for_kernels, MAX_MOVES)

    def __init__(self, players: int = 3, modules: list[str] | tuple[str, ...] = (), draft: bool = False,
                 deed_prices: list[int] | tuple[int, ...] = DEFAULT_PRICES, max_turns: int = 1000,
                 consul: bool | str = False, start_silver: list[int] | tuple[int, ...] | None = None):
        super().__init__(players)
        if not isinstance(modules, (list, tuple)) or not all(isinstance(m, str) for m in modules):
            raise ConfigError(f"modules must be a list of module names, not {modules!r}")
        for m in modules:
            if m in KNOWN_LATER_MODULES:
                raise ConfigError(f"module {m!r} is not implemented yet (only 'monuments')")
            if m != "monuments":
                known = ", ".join(("monuments", *KNOWN_LATER_MODULES))
                raise ConfigError(f"unknown module {m!r} (known: {known})")
        if len(set(modules)) != len(modules):
            raise ConfigError(f"a module is listed twice in {list(modules)!r}")
        if consul not in (False, None):
            raise ConfigError(f"consul={consul!r}: Will of the Consul is not implemented yet")
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
        self.draft = draft
        self.deed_prices = [int(x) for x in deed_prices]
        self.max_turns = int(max_turns)

    @property
    def config(self) -> dict[str, Any]:
        config = {"players": self.players, "modules": list(self.modules), "draft": self.draft,
                  "deed_prices": list(self.deed_prices), "max_turns": self.max_turns}
        if not self._default_silver:  # the study option, recorded only when used
            config["start_silver"] = list(self.start_silver)
        return config

    def initial_array(self, seed: int) -> np.ndarray:
        return for_kernels.new_state(self.players, "monuments" in self.modules, self.draft,
                                     self.deed_prices, self.max_turns, seed, self.start_silver)

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
        bcode, loc = decode_build(move)
        if move < BUILD_BASE or not 0 <= bcode < len(CODE_NAMES):
            raise ValueError(f"{move} is not a move code")
        pl = int(PL_BASE[n - 7, CODE_SHAPE[bcode]]) + loc
        cells = PL_CELLS[pl, :PL_NCELLS[pl]]
        return f"{CODE_NAMES[bcode]}@" + ",".join(cell_name(c, n) for c in cells)

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
        """Every move is public except another seat's draft pick, which stays secret
        (its lot shows on the board when the round's last pick reveals them all)."""
        n = int(array[SIZE])
        if PICK_BASE <= int(move) < PICK_BASE + n * n and int(array[PLAYER]) != seat:
            return None
        return self.format_move(array, move)

    # ---- results -------------------------------------------------------------------
    def plies(self, array: np.ndarray) -> int:
        return int(array[PLY])

    def is_truncated(self, array: np.ndarray) -> bool:
        return bool(array[TRUNCATED])

    def observation(self, array: np.ndarray, seat: int) -> np.ndarray:
        return hidden.observation(array, seat)

    def rank_keys(self, array: np.ndarray, scores: list) -> list:
        """(VP, silver) per seat: the spec's tie-break (more silver left, then shared)."""
        return [(score, int(array[SILVER + p])) for p, score in enumerate(scores)]

    def details(self, array: np.ndarray) -> dict[str, Any]:
        n = int(array[N_PLAYERS])
        return {
            "vp": [int(array[VP + p]) for p in range(n)],
            "silver": [int(array[SILVER + p]) for p in range(n)],
            "population": [int(array[POP + p]) for p in range(n)],
            "vp_by_source": [{name: int(array[VP_SRC + p * N_SRC + i]) for i, name in enumerate(SOURCE_NAMES)}
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
                if owner < 0:
                    row.append(".")
                else:
                    row.append(SEATS[owner] if array[CELL_BLD + cell] else SEATS[owner].lower())
            lines.append(f"{r + 1:>2}  " + " ".join(row))
        lines.append("    capital = building, lowercase = lot marker, . = unowned")
        lines.append("buildings: " + (", ".join(buildings_on_board(array)) or "none"))
        board = " ".join(f"D{k + 1}:{cell_name(int(array[SLOTS + k]), n) if array[SLOTS + k] >= 0 else '-'}"
                         f"(${int(array[PRICES + k])})" for k in range(6))
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
                         f"population {int(array[POP + p])} markers {marker_supply(array, p)}/{LOT_MARKERS}"
                         f"{extra}{hand} supply {supply or '-'}")
        phase = int(array[PHASE])
        if phase == PH_OVER:
            status = "game over" + (" (turn cap)" if array[TRUNCATED] else "")
        elif phase == PH_DRAFT:
            status = f"draft round {int(array[DRAFT_ROUND]) + 1}, {SEATS[int(array[PLAYER])]} to pick"
        else:
            final = f", final turns ({int(array[FINAL_LEFT])} left)" if phase == PH_FINAL else ""
            status = f"era {int(array[ERA])}{final}, {SEATS[int(array[PLAYER])]} to move"
        lines.append(status)
        return "\n".join(lines)


def buildings_on_board(array: np.ndarray) -> list[str]:
    """Every building on the board as ``A:R3L@c3,c4,d4`` (seat letter, code, lots)."""
    n = int(array[SIZE])
    cells: dict[int, list[int]] = {}
    for cell in range(n * n):
        b = int(array[CELL_BLD + cell])
        if b:
            cells.setdefault(b, []).append(cell)
    return [f"{SEATS[instance_owner(b)]}:{CODE_NAMES[instance_code(b)]}@"
            + ",".join(cell_name(c, n) for c in cs)
            for b, cs in sorted(cells.items())]
