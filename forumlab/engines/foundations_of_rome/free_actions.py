"""Free actions of the modules (trades and their answers, steals, invocation uses) and
the setup keeps of objectives and roles.

Free actions are legal in normal and final turns of the seat to move, before its main
action, never in setup or while an answer is due. Legal-move order: trades by partner
seat, then the item given, then the item asked (items ordered ``-``, lots by index,
``$1``..``$10``, ``F2``, ``F4``, cards by id, which is their item-code order); steals by
lot; uses by card id (``U:G20=<s>`` by seat).
"""
import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index
from ...core.rng import rand_below
from .data import (
    ANSWER_YES,
    G_BACCHUS,
    G_CONCORDIA,
    G_DISCORDIA,
    G_FLAMEN,
    G_FORTUNA,
    G_IANUS,
    G_IUNO,
    G_MARS,
    G_MERCURIUS,
    G_NUMA,
    G_PLUTO,
    G_SATURNUS,
    G_TERMINUS,
    G_VULCANUS,
    INVOCATION_ONGOING,
    ITEM_CARD,
    ITEM_F2,
    ITEM_F4,
    ITEM_LOT,
    ITEM_NONE,
    ITEM_SILVER,
    N_INVOCATIONS,
    N_ITEMS,
    NUMA_BASE,
    P_DOMINUS,
    RESIDENTIAL,
    SILVER_ITEMS,
    STEAL_BASE,
    TRADE_BASE,
    USE_BASE,
)
from .layout import (
    BUILT,
    EF_DISCORDIA,
    EF_FLAMEN,
    EF_IANUS,
    EF_VULCANUS,
    EFFECTS,
    INV_HOLDER,
    INV_ONGOING,
    INV_SPENT,
    INV_STATUS,
    INV_UNUSED,
    MAX_TRADES_OPT,
    MOD_INVOCATIONS,
    MOD_STEALING,
    MOD_TRADING,
    MODULES,
    N_PLAYERS,
    OFFER,
    OFFERS,
    OWN,
    PH_ANSWER,
    PHASE,
    PLAYER,
    POP,
    RESUME,
    ROLE,
    SILVER,
    SIZE,
    SRC_INVOCATIONS,
    TOKEN_POOL,
    TOKENS2,
    TOKENS4,
)
from .pieces import marker_supply, refresh_modifiers
from .scoring import add_vp, count_type, markers_on_board


@njit(cache=True, inline="always")
def _owns(s, p, cell):
    return (s[OWN + 2 * p + (cell >> 6)] >> (cell & 63)) & 1


@njit(cache=True)
def seat_items(s, p, out):
    """The items seat p can trade now, in item-code order, into out; returns the count."""
    k = 0
    out[k] = ITEM_NONE
    k += 1
    for w in range(2):
        bits = s[OWN + 2 * p + w] & ~s[BUILT + 2 * p + w]
        while bits != 0:
            out[k] = ITEM_LOT + 64 * w + lowest_bit_index(bits)
            k += 1
            bits &= bits - 1
    for m in range(1, min(SILVER_ITEMS, s[SILVER + p]) + 1):
        out[k] = ITEM_SILVER + m
        k += 1
    if s[TOKENS2 + p] > 0:
        out[k] = ITEM_F2
        k += 1
    if s[TOKENS4 + p] > 0:
        out[k] = ITEM_F4
        k += 1
    if s[MODULES] & MOD_INVOCATIONS:
        for g in range(1, N_INVOCATIONS + 1):
            if s[INV_HOLDER + g] == p and s[INV_STATUS + g] != INV_SPENT:
                out[k] = ITEM_CARD + g
                k += 1
    return k


@njit(cache=True, inline="always")
def _marker_delta(s, item):
    """(lots, markers) an item carries: a lot needs a marker, an ongoing Mars is one."""
    if ITEM_LOT <= item <= ITEM_SILVER:
        return 1, 0
    if item == ITEM_CARD + G_MARS and s[INV_STATUS + G_MARS] == INV_ONGOING:
        return 0, 1
    return 0, 0


@njit(cache=True)
def _trade_ok(s, p, q, give, get, sup_p, sup_q):
    if give == ITEM_NONE and get == ITEM_NONE:
        return False
    if ITEM_SILVER < give <= ITEM_SILVER + SILVER_ITEMS and ITEM_SILVER < get <= ITEM_SILVER + SILVER_ITEMS:
        return False
    lot_g, mk_g = _marker_delta(s, give)
    lot_r, mk_r = _marker_delta(s, get)
    # supply after = supply + lots given - lots received - markers given + markers received
    if sup_p + lot_g - lot_r - mk_g + mk_r < 0:
        return False
    return sup_q + lot_r - lot_g - mk_r + mk_g >= 0


@njit(cache=True, inline="always")
def trades_open(s):
    """Whether the seat to move may still offer a trade this turn."""
    return (s[MODULES] & MOD_TRADING) != 0 and s[OFFERS] < s[MAX_TRADES_OPT]


@njit(cache=True)
def _item_classes(s, items, n, out):
    """Counts of items by their marker effect: out[0] nothing, out[1] silver, out[2]
    other (tokens, cards), out[3] lots, out[4] an ongoing Mars."""
    out[:] = 0
    for i in range(n):
        item = items[i]
        if item == ITEM_NONE:
            out[0] += 1
        elif ITEM_SILVER < item <= ITEM_SILVER + SILVER_ITEMS:
            out[1] += 1
        else:
            lot, mk = _marker_delta(s, item)
            out[3 if lot else (4 if mk else 2)] += 1


# (lots, markers) carried by each item class of _item_classes
_CLASS_LOT = (0, 0, 0, 1, 0)
_CLASS_MK = (0, 0, 0, 0, 1)


@njit(cache=True)
def trade_count(s, mine, nm, theirs, nt, sup_p, sup_q):
    """How many offers of ``mine`` for ``theirs`` are legal (by item class, without
    listing them: the playout fast path)."""
    a = np.zeros(5, dtype=np.int64)
    b = np.zeros(5, dtype=np.int64)
    _item_classes(s, mine, nm, a)
    _item_classes(s, theirs, nt, b)
    total = 0
    for i in range(5):
        for j in range(5):
            if a[i] == 0 or b[j] == 0 or (i == 0 and j == 0) or (i == 1 and j == 1):
                continue
            lot_g, mk_g, lot_r, mk_r = _CLASS_LOT[i], _CLASS_MK[i], _CLASS_LOT[j], _CLASS_MK[j]
            if sup_p + lot_g - lot_r - mk_g + mk_r < 0 or sup_q + lot_r - lot_g - mk_r + mk_g < 0:
                continue
            total += a[i] * b[j]
    return total


@njit(cache=True)
def random_trade(s, p, r, rng):
    """The legal offer of seat p chosen by r (0 <= r < the number of legal offers): the
    partner by r, the items uniformly among the legal pairs (rejection sampling)."""
    mine = np.empty(48, dtype=np.int64)
    theirs = np.empty(48, dtype=np.int64)
    nm = seat_items(s, p, mine)
    sup_p = marker_supply(s, p)
    for q in range(s[N_PLAYERS]):
        if q == p:
            continue
        nt = seat_items(s, q, theirs)
        sup_q = marker_supply(s, q)
        c = trade_count(s, mine, nm, theirs, nt, sup_p, sup_q)
        if r >= c:
            r -= c
            continue
        while True:
            give = mine[rand_below(rng, nm)]
            get = theirs[rand_below(rng, nt)]
            if _trade_ok(s, p, q, give, get, sup_p, sup_q):
                return TRADE_BASE + (q * N_ITEMS + give) * N_ITEMS + get
    return -1


@njit(cache=True)
def trade_total(s, p):
    """How many offers seat p may make now."""
    mine = np.empty(48, dtype=np.int64)
    theirs = np.empty(48, dtype=np.int64)
    nm = seat_items(s, p, mine)
    sup_p = marker_supply(s, p)
    total = 0
    for q in range(s[N_PLAYERS]):
        if q != p:
            nt = seat_items(s, q, theirs)
            total += trade_count(s, mine, nm, theirs, nt, sup_p, marker_supply(s, q))
    return total


@njit(cache=True)
def free_action_moves(s, p, out, k, trades=True):
    """Append seat p's legal free actions to out[k:] (offers only if ``trades``);
    return the new count."""
    mods = s[MODULES]
    np_ = s[N_PLAYERS]
    if trades and trades_open(s):
        mine = np.empty(48, dtype=np.int64)
        theirs = np.empty(48, dtype=np.int64)
        nm = seat_items(s, p, mine)
        sup_p = marker_supply(s, p)
        for q in range(np_):
            if q == p:
                continue
            nt = seat_items(s, q, theirs)
            sup_q = marker_supply(s, q)
            for a in range(nm):
                for b in range(nt):
                    if _trade_ok(s, p, q, mine[a], theirs[b], sup_p, sup_q):
                        out[k] = TRADE_BASE + (q * N_ITEMS + mine[a]) * N_ITEMS + theirs[b]
                        k += 1
    if mods & MOD_STEALING:
        disc = (s[EFFECTS] & EF_DISCORDIA) != 0
        if (disc or s[TOKENS2 + p] > 0) and marker_supply(s, p) > 0:
            n = s[SIZE]
            for cell in range(n * n):
                if _owns(s, p, cell) or (s[BUILT + 2 * p + (cell >> 6)] >> (cell & 63)) & 1:
                    continue
                victim = -1
                for q in range(np_):
                    if q != p and _owns(s, q, cell):
                        victim = q
                        break
                if victim < 0 or (s[BUILT + 2 * victim + (cell >> 6)] >> (cell & 63)) & 1:
                    continue
                r = cell // n
                c = cell - r * n
                near = 0
                if r > 0:
                    near += _owns(s, p, cell - n)
                if c > 0:
                    near += _owns(s, p, cell - 1)
                if c < n - 1:
                    near += _owns(s, p, cell + 1)
                if r < n - 1:
                    near += _owns(s, p, cell + n)
                if near >= 2:
                    out[k] = STEAL_BASE + cell
                    k += 1
    if mods & MOD_INVOCATIONS:
        for g in range(1, N_INVOCATIONS + 1):
            if s[INV_HOLDER + g] != p or s[INV_STATUS + g] != INV_UNUSED:
                continue
            if g != G_NUMA:
                out[k] = USE_BASE + g
                k += 1
                continue
            sup_p = marker_supply(s, p)
            dom_p = 2 if s[ROLE + p] == P_DOMINUS else 0
            for q in range(np_):
                if q == p:
                    continue
                dom_q = 2 if s[ROLE + q] == P_DOMINUS else 0
                if sup_p - dom_p + dom_q >= 0 and marker_supply(s, q) - dom_q + dom_p >= 0:
                    out[k] = NUMA_BASE + q
                    k += 1
    return k


@njit(cache=True)
def _move_item(s, item, a, b):
    """Item passes from seat a to seat b."""
    if item == ITEM_NONE:
        return
    if item <= ITEM_SILVER:
        cell = item - ITEM_LOT
        s[OWN + 2 * a + (cell >> 6)] &= ~(np.int64(1) << (cell & 63))
        s[OWN + 2 * b + (cell >> 6)] |= np.int64(1) << (cell & 63)
    elif item <= ITEM_SILVER + SILVER_ITEMS:
        s[SILVER + a] -= item - ITEM_SILVER
        s[SILVER + b] += item - ITEM_SILVER
    elif item == ITEM_F2:
        s[TOKENS2 + a] -= 1
        s[TOKENS2 + b] += 1
    elif item == ITEM_F4:
        s[TOKENS4 + a] -= 1
        s[TOKENS4 + b] += 1
    else:
        s[INV_HOLDER + item - ITEM_CARD] = b


@njit(cache=True)
def do_offer(s, p, move):
    """``T<q>:<give>/<get>``: the partner answers next."""
    code = move - TRADE_BASE
    get = code % N_ITEMS
    code //= N_ITEMS
    s[OFFER] = p
    s[OFFER + 1] = code // N_ITEMS
    s[OFFER + 2] = code % N_ITEMS
    s[OFFER + 3] = get
    s[OFFERS] += 1
    s[RESUME] = s[PHASE]
    s[PHASE] = PH_ANSWER
    s[PLAYER] = code // N_ITEMS


@njit(cache=True)
def do_answer(s, move):
    """``Y`` exchanges the items; either way the proposer's turn goes on."""
    p = s[OFFER]
    q = s[OFFER + 1]
    if move == ANSWER_YES:
        _move_item(s, s[OFFER + 2], p, q)
        _move_item(s, s[OFFER + 3], q, p)
        refresh_modifiers(s)
    s[OFFER] = -1
    s[PHASE] = s[RESUME]
    s[PLAYER] = p


@njit(cache=True)
def do_steal(s, p, cell):
    """``S:<lot>``: the lot passes to p; p's 2-VP token is flipped and given to the
    victim (none under Discordia, which it uses up)."""
    for q in range(s[N_PLAYERS]):
        if q != p and _owns(s, q, cell):
            s[OWN + 2 * q + (cell >> 6)] &= ~(np.int64(1) << (cell & 63))
            s[OWN + 2 * p + (cell >> 6)] |= np.int64(1) << (cell & 63)
            if s[EFFECTS] & EF_DISCORDIA:
                s[EFFECTS] &= ~EF_DISCORDIA
            else:
                s[TOKENS2 + p] -= 1
                s[TOKENS4 + q] += 1
            return


@njit(cache=True)
def do_use(s, p, move):
    """``U:G<g>`` / ``U:G20=<q>``: a one-shot card is spent, an ongoing one in play."""
    if move >= NUMA_BASE:
        g = G_NUMA
    else:
        g = move - USE_BASE
    s[INV_STATUS + g] = INV_ONGOING if INVOCATION_ONGOING[g] else INV_SPENT
    n = s[SIZE]
    if g == G_MERCURIUS:
        s[SILVER + p] += 3
    elif g == G_FORTUNA:
        s[SILVER + p] += 5
    elif g == G_IANUS:
        s[EFFECTS] |= EF_IANUS
    elif g == G_VULCANUS:
        s[EFFECTS] |= EF_VULCANUS
    elif g == G_PLUTO:
        s[SILVER + p] += markers_on_board(s, p)
    elif g == G_IUNO:
        add_vp(s, p, SRC_INVOCATIONS, 2 * count_type(s, p, RESIDENTIAL))
    elif g == G_BACCHUS:
        add_vp(s, p, SRC_INVOCATIONS, 4)
        for q in range(s[N_PLAYERS]):
            if q != p:
                s[SILVER + q] += 2
    elif g == G_SATURNUS:
        s[SILVER + p] = s[POP + p]
    elif g == G_TERMINUS:
        edge = 0
        for cell in range(n * n):
            if _owns(s, p, cell):
                r = cell // n
                c = cell - r * n
                if r == 0 or c == 0 or r == n - 1 or c == n - 1:
                    edge += 1
        add_vp(s, p, SRC_INVOCATIONS, edge)
    elif g == G_CONCORDIA:
        if s[TOKEN_POOL] > 0:
            s[TOKEN_POOL] -= 1
            s[TOKENS2 + p] += 1
    elif g == G_DISCORDIA:
        s[EFFECTS] |= EF_DISCORDIA
    elif g == G_FLAMEN:
        s[EFFECTS] |= EF_FLAMEN
    elif g == G_NUMA:
        q = move - NUMA_BASE
        s[ROLE + p], s[ROLE + q] = s[ROLE + q], s[ROLE + p]
    refresh_modifiers(s)
