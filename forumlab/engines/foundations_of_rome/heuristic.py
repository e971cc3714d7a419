"""The heuristic evaluation of Foundations of Rome that the search agents use (numba).

A seat's value is its VP plus a rough worth of what it will still score in the era
scorings left (:func:`_value`) and of its module assets (:func:`_module_value`); the
heuristic is the player's value minus the best other seat's, in a Consul game the
team's margin over the Consul, and a position awaiting a trade answer is valued as the
partner's own heuristic would answer it (:func:`_offer_heuristic`).

Each part of a seat's value is a named term (:mod:`.terms`) multiplied by its weight
where the sum adds it, so the default weights (all 1) give the very value, bit for bit,
that the heuristic gave before it had terms (multiplying by 1.0 is exact, every addition
happens in the same order, and the terms split only sums of integers);
:func:`weighted_heuristic` takes other weights, and a stage-weights model when the weight
array is longer than the terms (:mod:`.stages`).
"""
import numpy as np
from numba import njit

from ...core.bits import popcount
from .consul import TOKEN_BASE
from .data import (
    ANSWER_NO,
    ANSWER_YES,
    CIVIC,
    CODE_MON_VP,
    CODE_SILVER,
    CODE_TRAY,
    CODE_TYPE,
    COMMERCIAL,
    G_APOLLO,
    G_AUGUR,
    G_CERES,
    G_MINERVA,
    G_QUIRINUS,
    INVOCATION_VP,
    N_INVOCATIONS,
    N_PLAYER_CODES,
    N_TOKENS,
    P_AEDILIS,
    P_CENSOR,
    P_FABER,
    P_LEGATUS,
    P_MERCATOR,
    P_NEGOTIATOR,
    P_PONTIFEX,
    P_PRAETOR,
    P_QUAESTOR,
    P_TRIBUNUS,
)
from .free_actions import do_answer
from .layout import (
    BUILT,
    CELL_BLD,
    CONSUL,
    CONSUL_SEAT,
    CONSUL_VP,
    ERA,
    INSTANCE_STRIDE,
    INV_HOLDER,
    INV_ONGOING,
    INV_STATUS,
    INV_UNUSED,
    MOD_INVOCATIONS,
    MOD_OBJECTIVES,
    MOD_ROLES,
    MOD_STEALING,
    MOD_TRADING,
    MODULES,
    N_PLAYERS,
    OFFER,
    PH_ANSWER,
    PH_OVER,
    PHASE,
    POP,
    ROLE,
    SILVER,
    SIZE,
    TOKENS2,
    TOKENS4,
    VP,
)
from .objectives import objectives_met
from .scoring import (
    civic_value,
    consul_margin,
    consul_population,
    consul_silver,
    has_ongoing,
    instance_code,
    instance_owner,
    markers_on_board,
)
from .stages import N_STAGES
from .terms import TERM_NAMES

T_VP, T_SILVER, T_RESIDENTIAL, T_COMMERCIAL, T_CIVIC, T_MONUMENTS, T_LOTS, T_MODULES = range(len(TERM_NAMES))
N_TERMS = len(TERM_NAMES)
DEFAULT_WEIGHTS = np.ones(len(TERM_NAMES))

# What a pending offer costs the heuristic: an offer that gains nothing (refused, or an
# even swap) must not tie with a main action that gains nothing either (Income on 40+
# silver), or greedy would pick one of the thousands of tied offers at random.
OFFER_COST = 1e-6

# Weights of the module assets in the heuristic (:func:`_module_value`), one vector so
# that a tuning script can play one weighting against another (:func:`heuristic_with`;
# docs/notebook/search.md, "Foundations of Rome module heuristic"): W_OBJECTIVES per VP
# of the objectives met now, W_AUGUR per objective met with Augur, W_UNUSED on top of an
# unused invocation's VP (a use still to come), W_ONGOING and W_ROLE scale the estimates
# of ongoing invocations' and roles' effects until the end; W_OFFER is added for the
# proposer of an offer that the partner accepts and that gains it something (its main
# action still follows, which the heuristic cannot see).
W_OBJECTIVES, W_AUGUR, W_UNUSED, W_ONGOING, W_ROLE, W_OFFER = 0, 1, 2, 3, 4, 5
MODULE_WEIGHTS = np.array([0.8, 3.0, 1.5, 1.0, 1.0, 0.0])

MODULE_ASSETS = MOD_TRADING | MOD_STEALING | MOD_OBJECTIVES | MOD_INVOCATIONS | MOD_ROLES


@njit(cache=True)
def _value(s, p, eras_left, best_pop, tw, w):
    """A seat's VP plus a rough worth of what it will score in the era scorings left:
    population, civic buildings, commercial silver and tray VP per scoring, silver
    (worth less once there is plenty), and lots (empty ones are future buildings);
    with the modules also their assets (:func:`_module_value`). ``best_pop`` is the
    highest population (the Consul's included) for a Consul game's population rule;
    ``tw`` the weights of the terms (:data:`.terms.TERM_NAMES` order), ``w`` the module
    weights (:data:`MODULE_WEIGHTS`)."""
    n = s[SIZE]
    # buildings' and monuments' parts apart (integers: summed again exactly at weight 1)
    civic = 0
    tray = 0
    income = 0
    mon_civic = 0
    mon_tray = 0
    mon_income = 0
    n_civic = 0
    n_comm = 0
    seen = np.zeros((CONSUL_SEAT + 1) * INSTANCE_STRIDE + 1, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or seen[b] or instance_owner(b) != p:
            continue
        seen[b] = True
        code = instance_code(b)
        monument = code >= N_PLAYER_CODES
        if CODE_TYPE[code] == CIVIC:
            if monument:
                mon_civic += civic_value(s, b)
            else:
                civic += civic_value(s, b)
            n_civic += 1
        elif CODE_TYPE[code] == COMMERCIAL:
            if monument:
                mon_income += CODE_SILVER[code]
                mon_tray += CODE_TRAY[code] + CODE_MON_VP[code]
            else:
                income += CODE_SILVER[code]
                tray += CODE_TRAY[code] + CODE_MON_VP[code]
            n_comm += 1
    empty = markers_on_board(s, p)
    built = popcount(s[BUILT + 2 * p]) + popcount(s[BUILT + 2 * p + 1])
    silver = s[SILVER + p]
    # Silver never scores at the end, so its worth stops at 40: with an unbounded worth,
    # seats with a large commercial income (or Apollo, Mercator, Ceres) valued Income
    # above every Buy, nobody emptied the deed board and games ran to the turn cap (1 of
    # 100 4-player base games under greedy self-play, every seat on 580-790 silver).
    worth = 0.35 * min(silver, 15) + 0.1 * min(max(silver - 15, 0), 25)
    if s[CONSUL] != 0:
        # the Consul's population rule: the leader scores the bonus, the others lose
        # the difference
        pop_term = 7.0 if s[POP + p] >= best_pop else 1.0 * (s[POP + p] - best_pop)
    else:
        pop_term = 1.3 * s[POP + p]
    weighted_income = tw[T_COMMERCIAL] * income + tw[T_MONUMENTS] * mon_income
    per_era = (tw[T_RESIDENTIAL] * pop_term + (tw[T_CIVIC] * civic + tw[T_MONUMENTS] * mon_civic)
               + (tw[T_COMMERCIAL] * tray + tw[T_MONUMENTS] * mon_tray) + weighted_income)
    lots = empty * (1.0 + 0.7 * eras_left) + 0.5 * built
    value = (tw[T_VP] * s[VP + p] + tw[T_SILVER] * worth + eras_left * per_era + tw[T_LOTS] * lots
             + 1.2 * eras_left * weighted_income)
    if s[MODULES] & MODULE_ASSETS:
        value += tw[T_MODULES] * _module_value(s, p, eras_left, empty, n_civic, n_comm, w)
    return value


@njit(cache=True)
def _module_value(s, p, eras_left, empty, n_civic, n_comm, w):
    """The worth of a seat's module assets: favor tokens (their end VP), objective
    progress (the VP of objectives met now, Augur's share), held invocations (unused:
    their VP and a use to come; ongoing: what they will still give) and its role's
    effects until the end."""
    mods = s[MODULES]
    value = 0.0
    if mods & (MOD_TRADING | MOD_STEALING):
        value += 2.0 * s[TOKENS2 + p] + 4.0 * s[TOKENS4 + p]
    augur = has_ongoing(s, p, G_AUGUR)
    if mods & MOD_OBJECTIVES:
        f = np.zeros(17, dtype=np.int64)
        count, vp = objectives_met(s, p, f)
        value += w[W_OBJECTIVES] * vp + (w[W_AUGUR] * count if augur else 0.0)
    if mods & MOD_INVOCATIONS:
        for g in range(1, N_INVOCATIONS + 1):
            if s[INV_HOLDER + g] != p:
                continue
            status = s[INV_STATUS + g]
            if status == INV_UNUSED:
                value += INVOCATION_VP[g] + w[W_UNUSED]
            elif status == INV_ONGOING:
                if g == G_CERES:
                    value += w[W_ONGOING] * 0.7 * eras_left * 2
                elif g == G_APOLLO:
                    value += w[W_ONGOING] * eras_left
                elif g == G_MINERVA:
                    value += w[W_ONGOING] * eras_left * n_civic
                elif g == G_QUIRINUS:
                    value += w[W_ONGOING] * empty
    role = s[ROLE + p]
    r = 0.0
    if role == P_MERCATOR:
        r = 0.7 * eras_left * 2
    elif role == P_AEDILIS:
        r = eras_left * n_civic
    elif role == P_NEGOTIATOR:
        r = eras_left * n_comm
    elif role == P_CENSOR:
        r = 1.0 * eras_left
    elif role == P_PRAETOR and not has_ongoing(s, p, G_QUIRINUS):
        r = empty
    elif role == P_QUAESTOR:
        # capped: an unbounded worth of silver made greedy Quaestors take Income
        # forever instead of buying the deeds that end the era
        r = min(s[SILVER + p], 30) / 3.0
    elif role == P_PONTIFEX:
        r = 2.0 * n_civic
    elif role == P_TRIBUNUS or role == P_LEGATUS or role == P_FABER:
        r = 1.0 * eras_left
    return value + w[W_ROLE] * r


@njit(cache=True)
def _consul_value(s, eras_left, best_pop):
    """The Consul's VP plus what its tokens will score in the era scorings left."""
    n = s[SIZE]
    civic = 0
    seen = np.zeros(N_TOKENS, dtype=np.bool_)
    for cell in range(n * n):
        b = s[CELL_BLD + cell]
        if b == 0 or instance_owner(b) != CONSUL_SEAT or seen[b - TOKEN_BASE]:
            continue
        seen[b - TOKEN_BASE] = True
        if CODE_TYPE[instance_code(b)] == CIVIC:
            civic += civic_value(s, b)
    cpop = consul_population(s)
    pop_term = 7.0 if cpop >= best_pop else 1.0 * (cpop - best_pop)
    # it also takes a card (and places a token) after most of the holder's turns
    return s[CONSUL_VP] + eras_left * (pop_term + civic + 2.0) + (consul_silver(s) if eras_left > 0 else 0)


@njit(cache=True)
def _settled_heuristic(s, player, tw, w):
    """The heuristic of a position without a pending offer (see :func:`heuristic`)."""
    eras_left = 0.0
    if s[PHASE] != PH_OVER:
        eras_left = 4.0 - s[ERA]
    if s[CONSUL] != 0:
        if s[PHASE] == PH_OVER:
            return float(consul_margin(s))
        best_pop = consul_population(s)
        for q in range(s[N_PLAYERS]):
            best_pop = max(best_pop, s[POP + q])
        worst = 1e18
        for q in range(s[N_PLAYERS]):
            worst = min(worst, _value(s, q, eras_left, best_pop, tw, w))
        return worst - _consul_value(s, eras_left, best_pop)
    vals = np.empty(s[N_PLAYERS], dtype=np.float64)
    _seat_values(s, eras_left, tw, w, vals)
    return _margin(vals, player)


@njit(cache=True)
def _seat_values(s, eras_left, tw, w, out):
    """Every seat's :func:`_value` (a game without the Consul) into out."""
    for q in range(s[N_PLAYERS]):
        out[q] = _value(s, q, eras_left, 0, tw, w)


@njit(cache=True)
def seat_values(s, tw, out):
    """Every seat's value into ``out[:players]`` with the term weights ``tw`` (in a
    Consul game with the Consul's population rule, the Consul's population counted)."""
    eras_left = 0.0
    if s[PHASE] != PH_OVER:
        eras_left = 4.0 - s[ERA]
    best_pop = 0
    if s[CONSUL] != 0:
        best_pop = consul_population(s)
        for q in range(s[N_PLAYERS]):
            best_pop = max(best_pop, s[POP + q])
    for q in range(s[N_PLAYERS]):
        out[q] = _value(s, q, eras_left, best_pop, tw, MODULE_WEIGHTS)


@njit(cache=True)
def _margin(vals, player):
    """The player's value minus the best other seat's."""
    best = -1e18
    for q in range(vals.shape[0]):
        if q != player and vals[q] > best:
            best = vals[q]
    return vals[player] - best


@njit(cache=True)
def _offer_heuristic(s, player, tw, w):
    """A position with a pending offer, valued as the partner will most likely answer:
    the outcome (items swapped, or not) its own heuristic prefers, refusal on a tie,
    which is what a greedy partner answers, less :data:`OFFER_COST` (plus ``W_OFFER``
    for the proposer of an accepted offer that helps it). Without this an offer looked
    like a pass (nothing changes until the answer), so greedy offered only where it
    would have passed."""
    partner = s[OFFER + 1]
    accepted = s.copy()
    do_answer(accepted, ANSWER_YES)
    refused = s.copy()
    do_answer(refused, ANSWER_NO)
    # (no Consul branch: a Consul game allows only the monuments module, so no offers)
    eras_left = 4.0 - s[ERA]
    yes = np.empty(s[N_PLAYERS], dtype=np.float64)
    no = np.empty(s[N_PLAYERS], dtype=np.float64)
    _seat_values(accepted, eras_left, tw, w, yes)
    _seat_values(refused, eras_left, tw, w, no)
    if _margin(yes, partner) > _margin(no, partner):
        value = _margin(yes, player)
        if player == s[OFFER] and value > _margin(no, player):
            value += w[W_OFFER]
        return value - OFFER_COST
    return _margin(no, player) - OFFER_COST


@njit(cache=True)
def heuristic(s, player):
    """The player's value minus the best other seat's (VP scale); in a Consul game the
    team's: the lowest seat value minus the Consul's (every seat shares it). A pending
    offer counts as answered the way the partner's own heuristic prefers."""
    return _heuristic(s, player, DEFAULT_WEIGHTS, MODULE_WEIGHTS)


@njit(cache=True)
def heuristic_with(s, player, w):
    """:func:`heuristic` with other module weights ``w`` (see :data:`MODULE_WEIGHTS`)."""
    return _heuristic(s, player, DEFAULT_WEIGHTS, w)


@njit(cache=True)
def weighted_heuristic(s, player, tw):
    """:func:`heuristic` with the weights ``tw`` on the terms (:data:`.terms.TERM_NAMES`
    order), or, when ``tw`` is longer than the terms, a stage-weights model: the term
    weights, then a row of multipliers per stage (:func:`stage_term_weights`)."""
    if tw.shape[0] > N_TERMS:
        return _heuristic(s, player, stage_term_weights(s, tw), MODULE_WEIGHTS)
    return _heuristic(s, player, tw, MODULE_WEIGHTS)


@njit(cache=True)
def stage_term_weights(s, tw):
    """The term weights a stage-weights model ``tw`` plays at ``s``: its term weights times
    the row of the position's stage (the era, :mod:`.stages`), or the term weights alone
    once the game is over (no stage left to weigh)."""
    out = tw[:N_TERMS].copy()
    if s[PHASE] != PH_OVER:
        row = N_TERMS * (1 + min(max(s[ERA] - 1, 0), N_STAGES - 1))
        for k in range(N_TERMS):
            out[k] *= tw[row + k]
    return out


@njit(cache=True)
def _heuristic(s, player, tw, w):
    """The heuristic with term weights ``tw`` and module weights ``w``."""
    if s[PHASE] == PH_ANSWER:
        return _offer_heuristic(s, player, tw, w)
    return _settled_heuristic(s, player, tw, w)
