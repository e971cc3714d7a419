"""Legal moves and their effects: draft picks, setup keeps, Income, Buy, Build
(monuments included), the free actions of the modules (:mod:`.free_actions`), the
Consul's turn (:mod:`.consul`) and the turn order around them (final turns, era ends,
the ``max_turns`` cap).

Rules: the spec's sections "A turn", "End of an era", "Monuments", the module sections
and the draft option. Decisions where the spec is silent: the package docstring.
"""
import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index, popcount
from ...core.movelist import contains
from ...core.rng import rand_below
from .consul import consul_place
from .data import (
    ANSWER_NO,
    ANSWER_YES,
    BUILD_BASE,
    CIVIC,
    CODE_SHAPE,
    CODE_SIZE,
    CODE_TYPE,
    COMMERCIAL,
    G_APOLLO,
    G_CERES,
    INCOME,
    KEEP_OBJ,
    KEEP_ROLE,
    MAX_BUILD_MOVES,
    MAX_MOVES,
    MAX_PL_PER_SHAPE,
    MIN_COUNT,
    MIN_START,
    MON_ON_BUILD,
    MON_REQ,
    N_CODES,
    N_PLAYER_CODES,
    N_SHAPES,
    ON_BUILD_SILVER3,
    ON_BUILD_VP2,
    P_ARCHITECTUS,
    P_ARGENTARIUS,
    P_FABER,
    P_LEGATUS,
    P_MERCATOR,
    PICK_BASE,
    PL_BASE,
    PL_BB,
    PL_CELLS,
    PL_NCELLS,
    REQ_BLD6,
    REQ_CIVIC2,
    REQ_COMM4,
    REQ_EDGE,
    REQ_LOTS14,
    REQ_POP6,
    REQ_RES3,
    REQ_RES4,
    REQ_SILVER3,
    REQ_SILVER4,
    REQ_SIZE3,
    REQ_SIZE4,
    STEAL_BASE,
    TRADE_BASE,
    USE_BASE,
)
from .free_actions import (
    do_answer,
    do_offer,
    do_steal,
    do_use,
    free_action_moves,
    random_trade,
    trade_total,
    trades_open,
)
from .layout import (
    BUILT,
    BUYER,
    CELL_BLD,
    CONSUL,
    CONSUL_HOLDER,
    CONSUL_OWN,
    CONSUL_SEAT,
    CONSUL_VP,
    DISPLAY,
    DRAFT_ROUND,
    EF_FLAMEN,
    EF_IANUS,
    EFFECTS,
    ERA,
    FINAL_LEFT,
    FREE_ACTION_MODULES,
    HAND_N,
    HANDS,
    INSTANCE_STRIDE,
    INV_HOLDER,
    INVOCATION_CARD,
    MAX_TURNS,
    MOD_INVOCATIONS,
    MOD_MONUMENTS,
    MOD_OBJECTIVES,
    MOD_ROLES,
    MODULES,
    MON_BUILT,
    MON_LEFT,
    MONUMENT_SLOT,
    N_PLAYERS,
    OBJ_DEALT,
    OBJ_KEPT,
    OFFERS,
    OWN,
    PH_ANSWER,
    PH_DRAFT,
    PH_FINAL,
    PH_OBJ,
    PH_OVER,
    PH_PLAY,
    PH_ROLE,
    PHASE,
    PICK,
    PILE_LEN,
    PILE_POS,
    PILE_ROOM,
    PILES,
    PLAYER,
    PLY,
    POP,
    ROLE,
    ROLE_DEALT,
    ROLE_PICK,
    SEEN,
    SILVER,
    SIZE,
    SLOTS,
    SRC_INVOCATIONS,
    SRC_MONUMENTS,
    SRC_ROLES,
    START_PLAYER,
    SUPPLY,
    TRUNCATED,
    TURNS,
)
from .objectives import score_objectives
from .pieces import board_empty, marker_supply, refresh_modifiers, slot_price
from .scoring import (
    add_vp,
    adjacent_instances,
    commercial_silver,
    has_ongoing,
    instance_code,
    instance_owner,
    population_of,
    score_end,
    score_era,
)
from .setup import first_setup_phase

# Codes of each shape: SHAPE_CODES[sh, :SHAPE_NCODES[sh]] (player codes first).
SHAPE_NCODES = np.zeros(N_SHAPES, dtype=np.int64)
SHAPE_CODES = np.zeros((N_SHAPES, N_CODES), dtype=np.int64)
for _c in range(N_CODES):
    _sh = CODE_SHAPE[_c]
    SHAPE_CODES[_sh, SHAPE_NCODES[_sh]] = _c
    SHAPE_NCODES[_sh] += 1


# ---- small queries -----------------------------------------------------------------
@njit(cache=True)
def monument_stats(s, p, stats):
    """Seat p's figures for monument requirements, into ``stats``: civic, commercial,
    residential and all buildings on the board, largest building size, commercial
    silver, population, owned lots."""
    n = s[SIZE]
    stats[:] = 0
    seen = np.int64(0)  # bit set of the instance slots already counted
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or instance_owner(b) != p:
            continue
        bit = np.int64(1) << ((b - 1) % INSTANCE_STRIDE)
        if seen & bit:
            continue
        seen |= bit
        code = instance_code(b)
        t = CODE_TYPE[code]
        if t == CIVIC:
            stats[0] += 1
        elif t == COMMERCIAL:
            stats[1] += 1
        else:
            stats[2] += 1
        stats[3] += 1
        stats[4] = max(stats[4], CODE_SIZE[code])
    stats[5] = commercial_silver(s, p)
    stats[6] = s[POP + p]
    stats[7] = popcount(s[OWN + 2 * p]) + popcount(s[OWN + 2 * p + 1])


@njit(cache=True)
def requirement_met(req, stats):
    """Whether the stats meet a monument's requirement bits (edge checked apart)."""
    if (req & REQ_CIVIC2) and stats[0] < 2:
        return False
    if (req & REQ_POP6) and stats[6] < 6:
        return False
    if (req & REQ_LOTS14) and stats[7] < 14:
        return False
    if (req & REQ_COMM4) and stats[1] < 4:
        return False
    if (req & REQ_RES4) and stats[2] < 4:
        return False
    if (req & REQ_SIZE3) and stats[4] < 3:
        return False
    if (req & REQ_SILVER3) and stats[5] < 3:
        return False
    if (req & REQ_SIZE4) and stats[4] < 4:
        return False
    if (req & REQ_BLD6) and stats[3] < 6:
        return False
    if (req & REQ_SILVER4) and stats[5] < 4:
        return False
    if (req & REQ_RES3) and stats[2] < 3:
        return False
    return True


@njit(cache=True)
def on_edge(pl, n):
    """Whether placement pl contains a lot of the first or last row or column."""
    for j in range(PL_NCELLS[pl]):
        cell = PL_CELLS[pl, j]
        r = cell // n
        c = cell - r * n
        if r == 0 or c == 0 or r == n - 1 or c == n - 1:
            return True
    return False


@njit(cache=True)
def footprint_ok(s, p, pl, size, markers, same):
    """Build rules (a)-(c) for a building of ``size`` cells on placement pl (``same``:
    Architectus, own buildings of the same size may be covered too)."""
    if (PL_BB[pl, 0] & ~s[OWN + 2 * p]) | (PL_BB[pl, 1] & ~s[OWN + 2 * p + 1]):
        return False
    nc = PL_NCELLS[pl]
    covered = np.int64(0)  # bit set of the covered instances' slots (all seat p's)
    inside = 0
    outside = 0
    for j in range(nc):
        b = s[CELL_BLD + PL_CELLS[pl, j]]
        if b == 0:
            continue
        inside += 1
        code = instance_code(b)
        if code >= N_PLAYER_CODES or CODE_SIZE[code] > size or (CODE_SIZE[code] == size and not same):
            return False
        bit = np.int64(1) << ((b - 1) % INSTANCE_STRIDE)
        if not covered & bit:
            covered |= bit
            outside += CODE_SIZE[code]
    outside -= inside
    return markers + (nc - inside) >= outside


@njit(cache=True)
def monument_allowed(s, p, m, stats, flamen):
    """Whether seat p may build displayed monument M<m> (displayed, unbuilt, marker
    left, requirement other than "edge" met, or ignored under Flamen)."""
    if s[MON_LEFT + p] <= 0 or (s[MON_BUILT] >> (m - 1)) & 1:
        return False
    for k in range(8):
        if s[DISPLAY + k] == m:
            return flamen or requirement_met(MON_REQ[N_PLAYER_CODES + m - 1], stats)
    return False


# ---- legal moves -------------------------------------------------------------------
@njit(cache=True)
def _keep_moves(base, a, b, out):
    out[0] = base + min(a, b)
    out[1] = base + max(a, b)
    return 2


@njit(cache=True)
def legal_moves(s, out):
    """Write the legal move codes to out and return their number."""
    return legal_moves_but(s, out, True)


@njit(cache=True)
def legal_moves_but(s, out, trades):
    """The legal moves into out, trade offers only if ``trades`` (the playout fast path
    samples them apart); returns their number."""
    phase = s[PHASE]
    if phase == PH_OVER:
        return 0
    p = s[PLAYER]
    k = 0
    if phase == PH_DRAFT:
        for j in range(s[HAND_N + p]):
            out[k] = PICK_BASE + s[HANDS + 6 * p + j]
            k += 1
        return k
    if phase >= PH_OBJ:
        if phase == PH_ANSWER:
            out[0] = ANSWER_YES
            out[1] = ANSWER_NO
            return 2
        if phase == PH_OBJ:
            return _keep_moves(KEEP_OBJ, s[OBJ_DEALT + 2 * p], s[OBJ_DEALT + 2 * p + 1], out)
        return _keep_moves(KEEP_ROLE, s[ROLE_DEALT + 2 * p], s[ROLE_DEALT + 2 * p + 1], out)
    if s[MODULES] & FREE_ACTION_MODULES:
        k = free_action_moves(s, p, out, k, trades)
    out[k] = INCOME
    k += 1
    if phase == PH_PLAY:
        has_marker = marker_supply(s, p) > 0
        for j in range(6):
            card = s[SLOTS + j]
            if card >= 0 and (has_marker or card >= INVOCATION_CARD) and s[SILVER + p] >= slot_price(s, p, j):
                out[k] = 1 + j
                k += 1
    return build_moves(s, p, out, k)


@njit(cache=True)
def _exact_own(s, p, pl, c):
    """Whether placement pl is exactly the cells of one of p's own buildings of code c."""
    b = s[CELL_BLD + PL_CELLS[pl, 0]]
    if b == 0 or instance_owner(b) != p or instance_code(b) != c:
        return False
    for j in range(1, PL_NCELLS[pl]):
        if s[CELL_BLD + PL_CELLS[pl, j]] != b:
            return False
    return True


@njit(cache=True)
def build_moves(s, p, out, k):
    """Append the legal builds of seat p to out[k:]; return the new count."""
    n = s[SIZE]
    ni = n - 7
    markers = marker_supply(s, p)
    same = s[ROLE + p] == P_ARCHITECTUS
    allowed = np.int64(0)  # bit c: code c may be built (supply, monument rules)
    any_shape = np.int64(0)  # bit sh: some allowed code has shape sh
    for c in range(N_PLAYER_CODES):
        if s[SUPPLY + p * N_PLAYER_CODES + c] > 0:
            allowed |= np.int64(1) << c
            any_shape |= np.int64(1) << CODE_SHAPE[c]
    flamen = (s[EFFECTS] & EF_FLAMEN) != 0
    if (s[MODULES] & MOD_MONUMENTS) and s[MON_LEFT + p] > 0:
        stats = np.zeros(8, dtype=np.int64)
        monument_stats(s, p, stats)
        for j in range(8):
            m = s[DISPLAY + j]
            if m > 0 and monument_allowed(s, p, m, stats, flamen):
                c = N_PLAYER_CODES + m - 1
                allowed |= np.int64(1) << c
                any_shape |= np.int64(1) << CODE_SHAPE[c]
    own0 = s[OWN + 2 * p]
    own1 = s[OWN + 2 * p + 1]
    for sh in range(N_SHAPES):
        if not (any_shape >> sh) & 1:
            continue
        base = PL_BASE[ni, sh]
        size = CODE_SIZE[SHAPE_CODES[sh, 0]]
        for w in range(2):
            bits = own0 if w == 0 else own1
            while bits != 0:
                first = 64 * w + lowest_bit_index(bits)
                bits &= bits - 1
                start = MIN_START[ni, sh, first]
                for loc in range(start, start + MIN_COUNT[ni, sh, first]):
                    pl = base + loc
                    if (PL_BB[pl, 0] & ~own0) | (PL_BB[pl, 1] & ~own1):
                        continue
                    if not footprint_ok(s, p, pl, size, markers, same):
                        continue
                    edge = -1
                    for j in range(SHAPE_NCODES[sh]):
                        c = SHAPE_CODES[sh, j]
                        if not (allowed >> c) & 1:
                            continue
                        if c >= N_PLAYER_CODES:
                            if (MON_REQ[c] & REQ_EDGE) and not flamen:
                                if edge < 0:
                                    edge = 1 if on_edge(pl, n) else 0
                                if edge == 0:
                                    continue
                        out[k] = BUILD_BASE + c * MAX_PL_PER_SHAPE + loc
                        k += 1
    if same:
        k = _architectus_noops(s, p, out, k)
    return k


@njit(cache=True)
def _architectus_noops(s, p, out, k):
    """Architectus: the same code on exactly the cells of an own building is legal even
    with none of that code in supply (it changes nothing but the turn); the codes in
    supply got these moves from the main loop already. Kept out of that loop, whose
    speed a per-move check there halved."""
    n = s[SIZE]
    ni = n - 7
    done = np.zeros(INSTANCE_STRIDE, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or instance_owner(b) != p or done[(b - 1) % INSTANCE_STRIDE]:
            continue
        done[(b - 1) % INSTANCE_STRIDE] = True
        c = instance_code(b)
        if c >= N_PLAYER_CODES or s[SUPPLY + p * N_PLAYER_CODES + c] > 0:
            continue
        sh = CODE_SHAPE[c]
        base = PL_BASE[ni, sh]
        for loc in range(MIN_START[ni, sh, cell], MIN_START[ni, sh, cell] + MIN_COUNT[ni, sh, cell]):
            if _exact_own(s, p, base + loc, c):
                out[k] = BUILD_BASE + c * MAX_PL_PER_SHAPE + loc
                k += 1
                break
    return k


# ---- the seat to act, legality, the playout move -----------------------------------
@njit(cache=True)
def current_player(s):
    """Seat to act."""
    return s[PLAYER]


@njit(cache=True)
def is_legal(s, move):
    """Whether ``move`` is one of ``legal_moves(s)`` (the optional protocol kernel,
    :data:`forumlab.core.dispatch.OPTIONAL`): the move lists are short, so by generating
    them; one kernel call from Python, cheaper there than a scan of the list."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    return contains(out, legal_moves(s, out), move)


@njit(cache=True)
def random_move(s, rng):
    """A uniformly random legal move."""
    if not s[MODULES] & FREE_ACTION_MODULES:
        # the base game's (and Monuments') list is far shorter: a smaller buffer
        out = np.empty(MAX_BUILD_MOVES, dtype=np.int64)
        n = legal_moves(s, out)
        return out[rand_below(rng, n)]
    out = np.empty(MAX_MOVES, dtype=np.int64)
    if (s[PHASE] == PH_PLAY or s[PHASE] == PH_FINAL) and trades_open(s):
        # Offers are most of the legal moves: count them by item class instead of
        # listing thousands, then draw uniformly over all legal moves.
        n = legal_moves_but(s, out, False)
        offers = trade_total(s, s[PLAYER])
        r = rand_below(rng, n + offers)
        if r >= offers:
            return out[r - offers]
        return random_trade(s, s[PLAYER], r, rng)
    n = legal_moves(s, out)
    return out[rand_below(rng, n)]


# ---- effects -----------------------------------------------------------------------
@njit(cache=True, inline="always")
def _set_bit(s, base, cell):
    s[base + (cell >> 6)] |= np.int64(1) << (cell & 63)


@njit(cache=True, inline="always")
def _clear_bit(s, base, cell):
    s[base + (cell >> 6)] &= ~(np.int64(1) << (cell & 63))


@njit(cache=True)
def _instance_on_board(s, inst):
    n = s[SIZE]
    for cell in range(n * n):
        if s[CELL_BLD + cell] == inst:
            return True
    return False


@njit(cache=True)
def do_build(s, p, bcode, loc):
    """Build bcode on its local placement loc for seat p (legality not checked)."""
    n = s[SIZE]
    pl = PL_BASE[n - 7, CODE_SHAPE[bcode]] + loc
    nc = PL_NCELLS[pl]
    # Covered buildings return whole to the supply; their cells outside the
    # footprint keep the lot and get a marker (markers are implicit: owned, unbuilt).
    for j in range(nc):
        b = s[CELL_BLD + PL_CELLS[pl, j]]
        if b == 0:
            continue
        for cell in range(n * n):
            if s[CELL_BLD + cell] == b:
                s[CELL_BLD + cell] = 0
                _clear_bit(s, BUILT + 2 * p, cell)
        s[SUPPLY + p * N_PLAYER_CODES + instance_code(b)] += 1
    if bcode < N_PLAYER_CODES:
        inst = 1 + p * INSTANCE_STRIDE + 2 * bcode
        if _instance_on_board(s, inst):
            inst += 1
        s[SUPPLY + p * N_PLAYER_CODES + bcode] -= 1
    else:
        m = bcode - N_PLAYER_CODES  # 0-based monument
        inst = 1 + p * INSTANCE_STRIDE + MONUMENT_SLOT + m
        s[MON_LEFT + p] -= 1
        s[MON_BUILT] |= np.int64(1) << m
    for j in range(nc):
        cell = PL_CELLS[pl, j]
        s[CELL_BLD + cell] = inst
        _set_bit(s, BUILT + 2 * p, cell)
    s[POP + p] = population_of(s, p)
    effect = MON_ON_BUILD[bcode]
    if effect != 0:
        adj = np.empty(32, dtype=np.int64)
        cells = PL_CELLS[pl]
        na = adjacent_instances(s, cells, nc, inst, adj)
        paid = np.zeros(CONSUL_SEAT + 1, dtype=np.bool_)
        for q in range(na):
            owner = instance_owner(adj[q])
            if paid[owner]:
                continue
            paid[owner] = True
            if owner == CONSUL_SEAT:  # the Consul gains M11's VP, not M12's silver
                if effect == ON_BUILD_VP2:
                    s[CONSUL_VP] += 2
            elif effect == ON_BUILD_VP2:
                add_vp(s, owner, SRC_MONUMENTS, 2)
            elif effect == ON_BUILD_SILVER3:
                s[SILVER + owner] += 3
    role = s[ROLE + p]
    if role == P_FABER:
        s[SILVER + p] += 1
    elif role == P_LEGATUS and CODE_SIZE[bcode] >= 4:
        add_vp(s, p, SRC_ROLES, 2)


@njit(cache=True)
def do_buy(s, p, k):
    """Buy the card on slot k (1-6): pay, take the lot (or the invocation), slide,
    refill slot 6."""
    j = k - 1
    lot = s[SLOTS + j]
    s[SILVER + p] -= slot_price(s, p, j)
    if lot >= INVOCATION_CARD:
        s[INV_HOLDER + lot - INVOCATION_CARD] = p
    else:
        _set_bit(s, OWN + 2 * p, lot)
    take_slot(s, j)


@njit(cache=True)
def take_slot(s, j):
    """Slot j's card is gone: the cards right of it slide left, slot 6 is refilled."""
    for q in range(j, 5):
        s[SLOTS + q] = s[SLOTS + q + 1]  # noqa
    e = s[ERA] - 1
    if s[PILE_POS + e] < s[PILE_LEN + e]:
        s[SLOTS + 5] = s[PILES + e * PILE_ROOM + s[PILE_POS + e]]
        s[PILE_POS + e] += 1
    else:
        s[SLOTS + 5] = -1


@njit(cache=True)
def do_pick(s, p, lot):
    """A draft pick: set aside until the round's last pick reveals them all."""
    h = HANDS + 6 * p
    cnt = s[HAND_N + p]
    for j in range(cnt):
        if s[h + j] == lot:
            s[h + j] = s[h + cnt - 1]
            s[h + cnt - 1] = -1
            break
    s[HAND_N + p] = cnt - 1
    s[PICK + p] = lot
    np_ = s[N_PLAYERS]
    if p + 1 < np_:
        s[PLAYER] = p + 1
        return
    for q in range(np_):
        _set_bit(s, OWN + 2 * q, s[PICK + q])
        s[PICK + q] = -1
    # Each hand passes to the next seat clockwise; its cards are seen there.
    hands = np.empty(6 * np_, dtype=np.int64)
    counts = np.empty(np_, dtype=np.int64)
    for q in range(np_):
        counts[q] = s[HAND_N + q]
        for j in range(6):
            hands[6 * q + j] = s[HANDS + 6 * q + j]
    for q in range(np_):
        to = (q + 1) % np_
        s[HAND_N + to] = counts[q]
        for j in range(6):
            lot_j = hands[6 * q + j]
            s[HANDS + 6 * to + j] = lot_j
            if lot_j >= 0:
                s[SEEN + lot_j] |= np.int64(1) << to
    s[DRAFT_ROUND] += 1
    s[PLAYER] = 0
    if s[DRAFT_ROUND] == 6:
        s[PHASE] = first_setup_phase(s)
        s[START_PLAYER] = 0


@njit(cache=True)
def do_keep(s, p, move):
    """``K:O<k>`` / ``K:P<k>`` in seat order; the last role choice reveals every role
    (Argentarius: +5 silver)."""
    np_ = s[N_PLAYERS]
    last = p + 1 == np_
    s[PLAYER] = 0 if last else p + 1
    if move < KEEP_ROLE:
        s[OBJ_KEPT + p] = move - KEEP_OBJ
        if last:
            s[PHASE] = PH_ROLE if s[MODULES] & MOD_ROLES else PH_PLAY
        return
    s[ROLE_PICK + p] = move - KEEP_ROLE
    if last:
        for q in range(np_):
            s[ROLE + q] = s[ROLE_PICK + q]
            if s[ROLE + q] == P_ARGENTARIUS:
                s[SILVER + q] += 5
        refresh_modifiers(s)
        s[PHASE] = PH_PLAY


@njit(cache=True)
def start_era(s, era):
    """Fill the deed board from the era's pile."""
    e = era - 1
    for k in range(6):
        if s[PILE_POS + e] < s[PILE_LEN + e]:
            s[SLOTS + k] = s[PILES + e * PILE_ROOM + s[PILE_POS + e]]
            s[PILE_POS + e] += 1
        else:
            s[SLOTS + k] = -1


@njit(cache=True)
def consul_turn(s):
    """After the holder's turn: the Consul takes the slot-1 card free and places a
    token; if the board empties, the final turns run from the holder's left."""
    lot = s[SLOTS]
    _set_bit(s, CONSUL_OWN, lot)
    take_slot(s, 0)
    consul_place(s, lot)
    if board_empty(s):
        s[PHASE] = PH_FINAL
        s[BUYER] = s[CONSUL_HOLDER]
        s[FINAL_LEFT] = s[N_PLAYERS]


@njit(cache=True)
def apply_move(s, move):
    """Play a legal move in place, with everything it triggers automatically."""
    p = s[PLAYER]
    np_ = s[N_PLAYERS]
    s[PLY] += 1
    phase = s[PHASE]
    if phase == PH_DRAFT:
        do_pick(s, p, move - PICK_BASE)
        return
    if move >= STEAL_BASE and move < BUILD_BASE:
        if phase == PH_ANSWER:
            do_answer(s, move)
        elif move >= TRADE_BASE:
            do_offer(s, p, move)
        elif move >= KEEP_OBJ:
            do_keep(s, p, move)
        elif move >= USE_BASE:
            do_use(s, p, move)
        else:
            do_steal(s, p, move - STEAL_BASE)
        return
    bought = False
    if move == INCOME:
        income = 5 + commercial_silver(s, p)
        if s[MODULES] & (MOD_ROLES | MOD_INVOCATIONS):
            if s[ROLE + p] == P_MERCATOR:
                income += 2
            if has_ongoing(s, p, G_CERES):
                income += 2
            if has_ongoing(s, p, G_APOLLO):
                add_vp(s, p, SRC_INVOCATIONS, 1)
        s[SILVER + p] += income
    elif move < PICK_BASE:
        do_buy(s, p, move)
        bought = True
    else:
        bcode = (move - BUILD_BASE) // MAX_PL_PER_SHAPE
        do_build(s, p, bcode, move - BUILD_BASE - bcode * MAX_PL_PER_SHAPE)
        if s[EFFECTS] & EF_IANUS:  # Ianus: this Build is a free action
            s[EFFECTS] &= ~EF_IANUS
            return
    s[TURNS] += 1
    s[EFFECTS] = 0
    s[OFFERS] = 0
    if s[TURNS] >= s[MAX_TURNS]:
        s[PHASE] = PH_OVER
        s[TRUNCATED] = 1
        return
    if phase == PH_PLAY:
        if bought and board_empty(s):
            s[PHASE] = PH_FINAL
            s[BUYER] = p
            s[FINAL_LEFT] = np_
        elif s[CONSUL] != 0 and p == s[CONSUL_HOLDER] and not board_empty(s):
            consul_turn(s)
        s[PLAYER] = (p + 1) % np_
        return
    s[FINAL_LEFT] -= 1
    if s[FINAL_LEFT] > 0:
        s[PLAYER] = (p + 1) % np_
        return
    era = s[ERA]
    score_era(s, era)
    if era == 3:
        score_end(s)
        if s[MODULES] & MOD_OBJECTIVES:
            score_objectives(s)
        s[PHASE] = PH_OVER
        return
    s[ERA] = era + 1
    start = (s[BUYER] + 1) % np_
    s[START_PLAYER] = start
    s[PLAYER] = start
    s[PHASE] = PH_PLAY
    if s[CONSUL] != 0:
        s[CONSUL_HOLDER] = (s[CONSUL_HOLDER] + 1) % np_
    start_era(s, era + 1)
