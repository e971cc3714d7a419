"""Small queries and bookkeeping shared by the move kernels: lot markers, population
modifiers, deed prices."""
from numba import njit

from ...core.bits import popcount
from .consul import consul_floor
from .data import G_MARS, G_VESTA, LOT_MARKERS, P_AGRIMENSOR, P_DOMINUS, P_PATRONUS
from .layout import (
    BUILT,
    CONSUL,
    EF_VULCANUS,
    EFFECTS,
    EXTRA_MARKERS,
    MOD_POP,
    N_PLAYERS,
    OWN,
    POP,
    PRICES,
    ROLE,
    SLOTS,
)
from .scoring import has_ongoing, population_of


@njit(cache=True, inline="always")
def marker_supply(s, p):
    """Lot markers in seat p's supply: 8 (+ Mars, Dominus) minus its owned unbuilt lots."""
    return LOT_MARKERS + s[EXTRA_MARKERS + p] - popcount(s[OWN + 2 * p] & ~s[BUILT + 2 * p]) - popcount(
        s[OWN + 2 * p + 1] & ~s[BUILT + 2 * p + 1])


@njit(cache=True, inline="always")
def board_empty(s):
    """True when no deed-board slot holds a card."""
    for k in range(6):
        if s[SLOTS + k] >= 0:
            return False
    return True


@njit(cache=True)
def refresh_modifiers(s):
    """Recompute every seat's extra lot markers (ongoing Mars 1, Dominus 2) and
    population modifiers (ongoing Vesta 2, Patronus 2) from the cards held now."""
    for p in range(s[N_PLAYERS]):
        role = s[ROLE + p]
        s[EXTRA_MARKERS + p] = (2 if role == P_DOMINUS else 0) + (1 if has_ongoing(s, p, G_MARS) else 0)
        mod = (2 if role == P_PATRONUS else 0) + (2 if has_ongoing(s, p, G_VESTA) else 0)
        if mod != s[MOD_POP + p]:
            s[MOD_POP + p] = mod
            s[POP + p] = population_of(s, p)


@njit(cache=True, inline="always")
def slot_price(s, p, j):
    """Seat p's price of deed-board slot j (0-5): the Consul's floor first, then
    Agrimensor -1 and Vulcanus -3, min 0."""
    price = s[PRICES + j]
    if s[CONSUL] != 0:
        price = max(price, consul_floor(s))
    if s[ROLE + p] == P_AGRIMENSOR:
        price -= 1
    if s[EFFECTS] & EF_VULCANUS:
        price -= 3
    return max(price, 0)
