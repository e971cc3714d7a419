"""The numba engine's Foundations of Rome position in the reference's ``summary()`` terms,
modules and the Consul included: the other half of the reference protocol's comparison
(``ReferenceState.engine_summary``). It reads the numba state's slots, so it is the one
part of this package that knows the fast engine; no rule code uses it."""
from __future__ import annotations

import json
from functools import cache

import numpy as np

from forumlab.engines.foundations_of_rome import layout as L
from forumlab.engines.foundations_of_rome.data import ALL_CODE_NAMES, N_PLAYER_CODES
from forumlab.engines.foundations_of_rome.notation import format_item
from forumlab.engines.foundations_of_rome.pieces import marker_supply
from forumlab.engines.foundations_of_rome.scoring import instance_code, instance_owner

from .options import validate
from .scoring import vp_sources

# An invocation's status slot (0, 1, 2) in the reference's words.
STATUS_NAMES = ("unused", "ongoing", "spent")
PHASES = {L.PH_DRAFT: "draft", L.PH_PLAY: "turn", L.PH_FINAL: "final", L.PH_OVER: "over",
          L.PH_OBJ: "objectives", L.PH_ROLE: "roles", L.PH_ANSWER: "answer"}


def _bit(a, base, c):
    return (int(a[base + (c >> 6)]) >> (c & 63)) & 1


def _board(a: np.ndarray) -> dict:
    """Lot owners (-2 the Consul) and buildings as [cells, owner, code], sorted."""
    n, players = int(a[L.SIZE]), int(a[L.N_PLAYERS])
    owner = [-1] * (n * n)
    for c in range(n * n):
        if _bit(a, L.CONSUL_OWN, c):
            owner[c] = -2
        for p in range(players):
            if _bit(a, L.OWN + 2 * p, c):
                owner[c] = p
    cells: dict[int, list[int]] = {}
    for c in range(n * n):
        if a[L.CELL_BLD + c]:
            cells.setdefault(int(a[L.CELL_BLD + c]), []).append(c)

    def who(b):
        o = int(instance_owner(b))
        return -2 if o == L.CONSUL_SEAT else o

    return {"owner": owner,
            "buildings": sorted([cs, who(b), ALL_CODE_NAMES[instance_code(b)]] for b, cs in cells.items())}


def _modules(a: np.ndarray) -> dict:
    """The modules' and the Consul's fields (every one, whether in play or not)."""
    n, players = int(a[L.SIZE]), int(a[L.N_PLAYERS])
    offer = None
    if a[L.OFFER] >= 0:
        offer = [int(a[L.OFFER]), int(a[L.OFFER + 1]), format_item(int(a[L.OFFER + 2]), n),
                 format_item(int(a[L.OFFER + 3]), n)]
    seats = range(players)
    return {
        "trade": offer,
        "trades_this_turn": int(a[L.OFFERS]),
        "turn_effects": sorted(name for bit, name in L.EFFECT_NAMES if int(a[L.EFFECTS]) & bit),
        "tokens": [[int(a[L.TOKENS2 + p]), int(a[L.TOKENS4 + p])] for p in seats],
        "token_pool": int(a[L.TOKEN_POOL]),
        "held": [[[g, STATUS_NAMES[int(a[L.INV_STATUS + g])]] for g in range(1, 21)
                  if a[L.INV_HOLDER + g] == p] for p in seats],
        "spare_invocations": [int(x) for x in a[L.SPARE:L.SPARE + a[L.SPARE_N]]],
        "obj_dealt": [sorted(int(x) for x in a[L.OBJ_DEALT + 2 * p:L.OBJ_DEALT + 2 * p + 2] if x)
                      for p in seats],
        "obj_kept": [int(a[L.OBJ_KEPT + p]) or None for p in seats],
        "public_objectives": [int(x) for x in a[L.OBJ_FACE_UP:L.OBJ_FACE_UP + 5] if x],
        "role_dealt": [sorted(int(x) for x in a[L.ROLE_DEALT + 2 * p:L.ROLE_DEALT + 2 * p + 2] if x)
                       for p in seats],
        "role_pick": [int(a[L.ROLE_PICK + p]) or None for p in seats],
        "roles": [int(a[L.ROLE + p]) or None for p in seats],
        "consul_vp": int(a[L.CONSUL_VP]),
        "consul_holder": int(a[L.CONSUL_HOLDER]),
        "consul_piles": [[int(x) for x in a[L.CPILE + 12 * k:L.CPILE + 12 * k + a[L.CPILE_N + k]]]
                         for k in range(4)],
        "consul_discards": [[int(x) for x in a[L.CDISC + 12 * k:L.CDISC + 12 * k + a[L.CDISC_N + k]]]
                            for k in range(4)],
    }


def array_summary(a: np.ndarray) -> dict:
    """Every field the reference's summary() may hold, from a numba state array (the
    comparison takes those the reference's summary has)."""
    players = int(a[L.N_PLAYERS])
    built = int(a[L.MON_BUILT])
    phase = int(a[L.PHASE])
    out = {
        "phase": PHASES[phase],
        "player": int(a[L.PLAYER]) if phase != L.PH_OVER else None,
        "era": int(a[L.ERA]),
        "final_turns_left": int(a[L.FINAL_LEFT]) if phase == L.PH_FINAL else 0,
        "main_actions": int(a[L.TURNS]),
        "plies": int(a[L.PLY]),
        "truncated": bool(a[L.TRUNCATED]),
        "supply": [{ALL_CODE_NAMES[c]: int(a[L.SUPPLY + p * N_PLAYER_CODES + c])
                    for c in range(N_PLAYER_CODES)} for p in range(players)],
        "marker_supply": [int(marker_supply(a, p)) for p in range(players)],
        "monument_markers": [int(a[L.MON_LEFT + p]) for p in range(players)],
        "display": [int(m) for m in a[L.DISPLAY:L.DISPLAY + 8] if m and not (built >> (int(m) - 1)) & 1],
        "silver": [int(a[L.SILVER + p]) for p in range(players)],
        "vp_by_source": [{name: int(a[L.VP_SRC + p * L.N_SRC + i]) for i, name in enumerate(L.SOURCE_NAMES)}
                         for p in range(players)],
        "slots": [int(x) for x in a[L.SLOTS:L.SLOTS + 6]],
        "piles": [[int(x) for x in a[L.PILES + e * L.PILE_ROOM + a[L.PILE_POS + e]:
                                     L.PILES + e * L.PILE_ROOM + a[L.PILE_LEN + e]]] for e in range(3)],
        "hands": [sorted(int(x) for x in a[L.HANDS + 6 * p:L.HANDS + 6 * p + a[L.HAND_N + p]])
                  for p in range(players)],
        "picks": [int(a[L.PICK + p]) if a[L.PICK + p] >= 0 else None for p in range(players)],
        "rng": int(a[L.RNG]) & 0xFFFFFFFFFFFFFFFF,
    }
    return out | _board(a) | _modules(a)


@cache
def _sources(config: str) -> tuple[str, ...]:
    return vp_sources(validate(**json.loads(config)))


def engine_summary(state) -> dict:
    """The numba position ``state`` (a forumlab State) in ``ReferenceState.summary()``'s
    terms: :func:`array_summary` with only the VP sources of the modules in play."""
    out = array_summary(state.array)
    keys = _sources(json.dumps(state.game.config, sort_keys=True))
    out["vp_by_source"] = [{k: v[k] for k in keys} for v in out["vp_by_source"]]
    return out
