"""Foundations of Rome's bot view: the JSON a bot's seat is sent (forumlab-bot/1).

The view is built from the seat's determinization (``state.view_for(seat)``), whose hidden
parts are random samples (:mod:`.hidden`): the era piles' contents, the spare invocations,
other seats' hands, pending picks, hidden objectives and unrevealed roles, the order of
the Consul's token piles, the RNG word. None of those is read here except the seat's own
hand, pick, objectives and roles; of the rest only what every seat sees is sent (pile
sizes, hand sizes, whether a pick is pending). Schema: ``docs/games/foundations-of-rome.md``
("Bot view").
"""
from __future__ import annotations

from typing import Any

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
    CONSUL,
    CONSUL_HOLDER,
    CONSUL_OWN,
    CONSUL_SEAT,
    CONSUL_VP,
    DISPLAY,
    DRAFT_ROUND,
    EFFECT_NAMES,
    EFFECTS,
    ERA,
    EXTRA_MARKERS,
    FINAL_LEFT,
    HAND_N,
    HANDS,
    INV_HOLDER,
    INV_STATUS,
    INVOCATION_CARD,
    MAX_TURNS,
    MON_BUILT,
    MON_LEFT,
    N_PLAYERS,
    OBJ_DEALT,
    OBJ_KEPT,
    OBJ_PUBLIC,
    OFFER,
    OFFERS,
    OWN,
    PHASE,
    PICK,
    PILE_LEN,
    PILE_POS,
    PLAYER,
    PLY,
    POP,
    PRICES,
    ROLE,
    ROLE_DEALT,
    ROLE_PICK,
    SILVER,
    SIZE,
    SLOTS,
    START_PLAYER,
    SUPPLY,
    TOKEN_POOL,
    TOKENS2,
    TOKENS4,
    TRUNCATED,
    TURNS,
    VP,
    cell_name,
)
from .notation import format_offer
from .pieces import marker_supply
from .render import STATUS_NAMES
from .scoring import instance_code, instance_owner

# Phase names in the order of the PH_* constants of :mod:`.layout`.
PHASE_NAMES = ("draft", "play", "final", "over", "objective", "role", "answer")
# The view's keys in the order they are sent (the docs' schema table lists the same).
VIEW_KEYS = ("game", "seat", "to_move", "phase", "ply", "turns", "max_turns", "truncated", "era",
             "start_player", "final_left", "draft_round", "modules", "city_size", "buildings",
             "deed_board", "piles", "monuments", "favor_token_pool", "effects", "offer", "seats",
             "you", "consul", "scores")
SEAT_KEYS = ("seat", "vp", "silver", "population", "lots", "markers", "marker_limit",
             "monument_markers", "supply", "hand_size", "picked", "favor_tokens_2", "favor_tokens_4",
             "invocations", "role", "objective")
YOU_KEYS = ("hand", "pick", "objectives_dealt", "objective_kept", "roles_dealt", "role_picked")


def _lots(array: np.ndarray, base: int, n: int) -> list[str]:
    """Names of the lots set in the two-word bitboard at ``base``, in cell order."""
    return [cell_name(c, n) for c in range(n * n) if (int(array[base + (c >> 6)]) >> (c & 63)) & 1]


def _card(card: int, n: int) -> str:
    """A deed-board card: its lot, ``G<g>`` for an invocation, ``""`` for an empty slot."""
    if card < 0:
        return ""
    return f"G{card - INVOCATION_CARD}" if card >= INVOCATION_CARD else cell_name(card, n)


def _buildings(array: np.ndarray, n: int) -> list[dict[str, Any]]:
    """Every building on the board, in the order they were placed per seat."""
    cells: dict[int, list[int]] = {}
    for cell in range(n * n):
        if array[CELL_BLD + cell]:
            cells.setdefault(int(array[CELL_BLD + cell]), []).append(cell)
    return [{"owner": -1 if instance_owner(b) == CONSUL_SEAT else instance_owner(b),
             "building": ALL_CODE_NAMES[instance_code(b)],
             "lots": [cell_name(c, n) for c in cs]} for b, cs in sorted(cells.items())]


def _seat(array: np.ndarray, p: int, n: int) -> dict[str, Any]:
    """Seat p's public holdings (its hand only as a size: its cards are hidden)."""
    public_objectives = bool(array[OBJ_PUBLIC])
    return {
        "seat": p,
        "vp": int(array[VP + p]),
        "silver": int(array[SILVER + p]),
        "population": int(array[POP + p]),
        "lots": _lots(array, OWN + 2 * p, n),
        "markers": int(marker_supply(array, p)),
        "marker_limit": LOT_MARKERS + int(array[EXTRA_MARKERS + p]),
        "monument_markers": int(array[MON_LEFT + p]),
        "supply": {CODE_NAMES[c]: int(array[SUPPLY + p * N_PLAYER_CODES + c])
                   for c in range(N_PLAYER_CODES) if array[SUPPLY + p * N_PLAYER_CODES + c]},
        "hand_size": int(array[HAND_N + p]),
        "picked": bool(array[PICK + p] >= 0),
        "favor_tokens_2": int(array[TOKENS2 + p]),
        "favor_tokens_4": int(array[TOKENS4 + p]),
        "invocations": [{"card": f"G{g}", "status": STATUS_NAMES[int(array[INV_STATUS + g])]}
                        for g in range(1, N_INVOCATIONS + 1) if array[INV_HOLDER + g] == p],
        "role": f"P{int(array[ROLE + p])}" if array[ROLE + p] else "",
        # kept objectives are secret unless the game deals them face up
        "objective": f"O{int(array[OBJ_KEPT + p])}" if public_objectives and array[OBJ_KEPT + p] else "",
    }


def _you(array: np.ndarray, seat: int, n: int) -> dict[str, Any]:
    """The seat's own private holdings (the determinization never changes these)."""
    pick, hand = int(array[PICK + seat]), int(array[HAND_N + seat])
    return {
        "hand": sorted(cell_name(int(lot), n) for lot in array[HANDS + 6 * seat:HANDS + 6 * seat + hand]),
        "pick": cell_name(pick, n) if pick >= 0 else "",
        "objectives_dealt": [f"O{int(o)}" for o in array[OBJ_DEALT + 2 * seat:OBJ_DEALT + 2 * seat + 2] if o],
        "objective_kept": f"O{int(array[OBJ_KEPT + seat])}" if array[OBJ_KEPT + seat] else "",
        "roles_dealt": [f"P{int(r)}" for r in array[ROLE_DEALT + 2 * seat:ROLE_DEALT + 2 * seat + 2] if r],
        "role_picked": f"P{int(array[ROLE_PICK + seat])}" if array[ROLE_PICK + seat] else "",
    }


def _table(array: np.ndarray, n: int) -> dict[str, Any]:
    """What lies on the table for everyone: buildings, deed board, pile sizes, monuments,
    favor tokens, this turn's effects and a pending trade offer."""
    offer = ""
    if array[OFFER] >= 0:
        offer = format_offer(int(array[OFFER + 1]), int(array[OFFER + 2]), int(array[OFFER + 3]), n)
    return {
        "buildings": _buildings(array, n),
        "deed_board": [{"card": _card(int(array[SLOTS + k]), n), "price": int(array[PRICES + k])}
                       for k in range(DEED_SLOTS)],
        "piles": [int(array[PILE_LEN + e] - array[PILE_POS + e]) for e in range(3)],
        "monuments": [{"monument": f"M{int(m)}", "name": MONUMENT_NAMES[int(m) - 1],
                       "built": bool((int(array[MON_BUILT]) >> (int(m) - 1)) & 1)}
                      for m in array[DISPLAY:DISPLAY + 8] if m],
        "favor_token_pool": int(array[TOKEN_POOL]),
        "effects": [name for bit, name in EFFECT_NAMES if int(array[EFFECTS]) & bit],
        "offer": {"from": int(array[OFFER]), "text": offer, "offers_made": int(array[OFFERS])},
    }


def bot_view(game: Any, array: np.ndarray, seat: int) -> dict[str, Any]:
    """The JSON view of seat ``seat``'s determinization ``array`` (module docstring).

    Args:
        game: the :class:`~.game.FoundationsOfRome` facade.
        array: ``state.view_for(seat).array``: only its public parts and the seat's own
            holdings are read.
        seat: the seat the view is for.

    Returns:
        A dict with the keys of :data:`VIEW_KEYS`, in that order.
    """
    n, players = int(array[SIZE]), int(array[N_PLAYERS])
    consul = bool(array[CONSUL])
    seats = [_seat(array, p, n) for p in range(players)]
    return {
        "game": game.name,
        "seat": int(seat),
        "to_move": int(array[PLAYER]),
        "phase": PHASE_NAMES[int(array[PHASE])],
        "ply": int(array[PLY]),
        "turns": int(array[TURNS]),
        "max_turns": int(array[MAX_TURNS]),
        "truncated": bool(array[TRUNCATED]),
        "era": int(array[ERA]),
        "start_player": int(array[START_PLAYER]),
        "final_left": int(array[FINAL_LEFT]),
        "draft_round": int(array[DRAFT_ROUND]),
        "modules": list(game.modules),
        "city_size": n,
        **_table(array, n),
        "seats": seats,
        "you": _you(array, int(seat), n),
        "consul": {"vp": int(array[CONSUL_VP]) if consul else 0,
                   "holder": int(array[CONSUL_HOLDER]) if consul else -1,
                   "lots": _lots(array, CONSUL_OWN, n)},
        "scores": [s["vp"] for s in seats],
    }
