"""The text picture of a Foundations of Rome position (``State.render``): the city with
each lot's owner (capital letter: a building, lowercase: a lot marker), the buildings,
the deed board and piles, the monuments, each seat's figures and module assets, and
whose turn it is.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .data import (
    ALL_CODE_NAMES,
    CODE_NAMES,
    DEED_SLOTS,
    LOT_MARKERS,
    MONUMENT_NAMES,
    N_INVOCATIONS,
    N_PLAYER_CODES,
)
from .layout import (
    CELL_BLD,
    CONSUL_HOLDER,
    CONSUL_OWN,
    CONSUL_VP,
    DISPLAY,
    DRAFT_ROUND,
    ERA,
    EXTRA_MARKERS,
    FINAL_LEFT,
    HAND_N,
    INV_HOLDER,
    INV_STATUS,
    INVOCATION_CARD,
    MON_BUILT,
    MON_LEFT,
    N_PLAYERS,
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
    PILE_LEN,
    PILE_POS,
    PLAYER,
    POP,
    PRICES,
    ROLE,
    SILVER,
    SIZE,
    SLOTS,
    SUPPLY,
    TOKENS2,
    TOKENS4,
    TRUNCATED,
    VP,
    cell_name,
)
from .notation import format_offer
from .pieces import marker_supply
from .scoring import instance_code, instance_owner

SEATS = "ABCDE"
# An invocation card's status (INV_UNUSED, INV_ONGOING, INV_SPENT) by name, and as the
# mark the picture puts after a held card.
STATUS_NAMES = ("unused", "ongoing", "spent")
STATUS_MARKS = ("", "*", "-")


def render_board(array: np.ndarray, modules: Sequence[str], consul: int) -> str:
    """The picture of the position ``array`` of a game with ``modules`` (and the Consul
    level ``consul``, 0 without it), one line per row of the city, then the rest."""
    n, players = int(array[SIZE]), int(array[N_PLAYERS])
    lines = _city(array, n, players)
    lines.append("    capital = building, lowercase = lot marker, . = unowned"
                 + (", X/x = the Consul's token / lot" if consul else ""))
    lines.append("buildings: " + (", ".join(buildings_on_board(array)) or "none"))
    board = " ".join(f"D{k + 1}:{_card_name(int(array[SLOTS + k]), n)}(${int(array[PRICES + k])})"
                     for k in range(DEED_SLOTS))
    piles = "/".join(str(int(array[PILE_LEN + e] - array[PILE_POS + e])) for e in range(3))
    lines.append(f"deed board: {board}   piles {piles}")
    display = [int(array[DISPLAY + k]) for k in range(8) if array[DISPLAY + k]]
    if display:
        lines.append("monuments: " + ", ".join(
            f"M{m} {MONUMENT_NAMES[m - 1]}"
            + (" (built)" if (int(array[MON_BUILT]) >> (m - 1)) & 1 else "")
            for m in display))
    for p in range(players):
        lines.append(_seat_line(array, p, bool(display), modules))
    if consul:
        holder = SEATS[int(array[CONSUL_HOLDER])]
        lines.append(f"Consul: VP {int(array[CONSUL_VP])}, card held by {holder}")
    lines.append(_status(array, n))
    return "\n".join(lines)


def _city(array: np.ndarray, n: int, players: int) -> list[str]:
    """The column letters and one line per row of the city."""
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
    return lines


def _seat_line(array: np.ndarray, p: int, monuments: bool, modules: Sequence[str]) -> str:
    """Seat p's VP, silver, population, markers, monument markers, draft hand, supply
    and module assets."""
    supply = " ".join(f"{CODE_NAMES[c]}x{int(array[SUPPLY + p * N_PLAYER_CODES + c])}"
                      for c in range(N_PLAYER_CODES) if array[SUPPLY + p * N_PLAYER_CODES + c])
    extra = f" monument markers {int(array[MON_LEFT + p])}" if monuments else ""
    hand = ""
    if array[PHASE] == PH_DRAFT:
        hand = f" hand {int(array[HAND_N + p])}" + (" picked" if array[PICK + p] >= 0 else "")
    return (f"{SEATS[p]}: VP {int(array[VP + p])} silver {int(array[SILVER + p])} "
            f"population {int(array[POP + p])} markers {marker_supply(array, p)}/"
            f"{LOT_MARKERS + int(array[EXTRA_MARKERS + p])}"
            f"{extra}{hand} supply {supply or '-'}{_module_assets(array, p, modules)}")


def _module_assets(array: np.ndarray, p: int, modules: Sequence[str]) -> str:
    """Seat p's public module assets for the picture: favor tokens, invocation cards
    (``*`` ongoing, ``-`` spent), role."""
    out = ""
    if "trading" in modules or "stealing" in modules:
        out += f" tokens {int(array[TOKENS2 + p])}x2 {int(array[TOKENS4 + p])}x4"
    if "invocations" in modules:
        held = [f"G{g}{STATUS_MARKS[int(array[INV_STATUS + g])]}" for g in range(1, N_INVOCATIONS + 1)
                if array[INV_HOLDER + g] == p]
        out += " cards " + (",".join(held) or "-")
    if "roles" in modules and array[ROLE + p]:
        out += f" role P{int(array[ROLE + p])}"
    return out


def _status(array: np.ndarray, n: int) -> str:
    """The line saying what happens next: the phase and the seat to act."""
    phase = int(array[PHASE])
    if phase == PH_OVER:
        return "game over" + (" (turn cap)" if array[TRUNCATED] else "")
    if phase == PH_DRAFT:
        return f"draft round {int(array[DRAFT_ROUND]) + 1}, {SEATS[int(array[PLAYER])]} to pick"
    if phase in (PH_OBJ, PH_ROLE):
        kind = "an objective" if phase == PH_OBJ else "a role"
        return f"setup, {SEATS[int(array[PLAYER])]} to keep {kind}"
    if phase == PH_ANSWER:
        offer = format_offer(int(array[OFFER + 1]), int(array[OFFER + 2]), int(array[OFFER + 3]), n)
        return f"{SEATS[int(array[OFFER])]} offers {offer}, {SEATS[int(array[PLAYER])]} to answer Y or N"
    final = f", final turns ({int(array[FINAL_LEFT])} left)" if phase == PH_FINAL else ""
    return f"era {int(array[ERA])}{final}, {SEATS[int(array[PLAYER])]} to move"


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
