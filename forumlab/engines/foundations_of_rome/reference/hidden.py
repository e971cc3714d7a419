"""Hidden information: what one seat sees, and resampling the rest (spec, "Hidden
information").

Hidden from everyone: which deeds are in which era pile and their order, and the RNG word
(future chance). Hidden from other seats: draft hands and unrevealed picks. Every card not
yet public carries the bitmask of seats that have seen it (``state.seen``); a draft hand
moves as a unit, so all cards of a hand share one mask and a card once seen stays located.
"""

from __future__ import annotations

from .catalogue import INVOCATION_CARD_BASE, N_OBJECTIVES, N_ROLES
from .chance import SpecRng, as_rng


def _is_deed(card: int) -> bool:
    return card < INVOCATION_CARD_BASE


def observation(state, seat: int) -> dict:
    """Everything ``seat`` may see, as plain data: two states give equal observations
    exactly when ``seat`` cannot tell them apart.

    Args:
        state: a ReferenceState.
        seat: the observing seat.

    Returns:
        A dict of the public position plus the seat's own draft hand and pick, and, for
        each other seat's draft hand and pick, the cards ``seat`` knows are among them
        (sorted, without saying which one is the pending pick).
    """
    bit = 1 << seat
    units = []
    for other in range(state.options.players):
        if other == seat:
            continue
        unit = state.hands[other] + ([state.picks[other]] if state.picks[other] is not None else [])
        units.append((other, len(state.hands[other]), state.picks[other] is not None,
                      tuple(sorted(c for c in unit if state.seen[c] & bit))))
    return {
        "seat": seat,
        "phase": state.phase, "player": state.player, "era": state.era,
        "final_turns_left": state.final_turns_left, "main_actions": state.main_actions,
        "plies": state.plies, "truncated": state.truncated,
        "owner": tuple(state.owner),
        "buildings": tuple(sorted((cells, owner, code) for owner, code, cells in state.buildings.values())),
        "supply": tuple(tuple(sorted(s.items())) for s in state.supply),
        "marker_total": tuple(state.marker_total),
        "monument_markers": tuple(state.monument_markers),
        "display": tuple(state.display),
        "silver": tuple(state.silver),
        "vp_by_source": tuple(tuple(sorted(v.items())) for v in state.vp_by_source),
        "slots": tuple(state.slots),
        "pile_sizes": tuple(len(p) for p in state.piles),
        "own_hand": tuple(sorted(state.hands[seat])),
        "own_pick": state.picks[seat],
        "other_hands": tuple(units),
    } | _module_observation(state, seat)


def _module_observation(state, seat: int) -> dict:
    """The modules' public parts plus ``seat``'s own secret cards (only modules in play)."""
    o, out = state.options, {}
    others = [s for s in range(o.players) if s != seat]
    if o.favor_tokens or o.invocations or o.roles:
        out["trade"] = state._module_summary()["trade"]
        out["trades_this_turn"] = state.trades_this_turn
        out["turn_effects"] = tuple(sorted(state.turn_effects))
    if o.favor_tokens:
        out["tokens"] = tuple(tuple(t) for t in state.tokens)
        out["token_pool"] = state.token_pool
    if o.invocations:
        out["held"] = tuple(tuple(sorted(h.items())) for h in state.held)
        out["pile_invocations"] = tuple(sum(1 for c in p if not _is_deed(c)) for p in state.piles)
        out["spare_invocations"] = len(state.spare_invocations)
    if o.hidden_objectives:
        out["own_objectives"] = (tuple(state.obj_dealt[seat]), state.obj_kept[seat])
        out["objectives_kept"] = tuple(state.obj_kept[s] is not None for s in others)
    if o.objectives_module:
        out["public_objectives"] = tuple(state.public_objectives)
    if o.roles:
        revealed = state.roles[seat] is not None
        out["own_roles"] = (tuple(state.role_dealt[seat]), state.role_pick[seat])
        out["roles_chosen"] = tuple(state.role_pick[s] is not None for s in others)
        out["role_picks"] = tuple(state.role_pick) if revealed else None
        out["roles"] = tuple(state.roles)
    if o.consul:
        out["consul_vp"] = state.consul_vp
        out["consul_holder"] = state.consul_holder
        out["consul_pile_sizes"] = tuple(len(p) for p in state.consul_piles)
        out["consul_discards"] = tuple(tuple(d) for d in state.consul_discards)
    return out


def determinize(state, seat: int, rng) -> None:
    """Resample in place everything hidden from ``seat``, as the spec says.

    (1) Every deed whose place ``seat`` does not know (in an era pile, or in another
    seat's draft hand or pick without ``seat``'s bit in its seen-mask) is redealt at
    random to those places (a place keeps its seen-mask, so sizes and masks stay); the
    unrevealed eligible invocations (those in the piles and the spare ones) are redealt
    to the piles' invocation places, the rest staying spare; then each era pile is
    shuffled; every pending pick of another seat is redrawn from its hand (hand plus
    pick). (2) Other seats' objective pairs and role pairs are redrawn from the cards
    ``seat`` has not seen, a kept or chosen card from its pair; after the reveal a
    seat's chosen role is public and only the other card of its pair is redrawn. (3)
    Each Consul pile is shuffled. (4) The state's RNG word is replaced by a draw from
    ``rng``. Steps of modules not in play draw nothing.

    Args:
        state: a ReferenceState, changed in place.
        seat: the observing seat.
        rng: a SpecRng, an int word or a ``forumlab.core.rng`` uint64 array.
    """
    rng = as_rng(rng)
    bit = 1 << seat
    places = []  # (list holding the card, index); picks are addressed as ("pick", seat)
    for pile in state.piles:
        places += [(pile, i) for i in range(len(pile)) if _is_deed(pile[i])]
    for other in range(state.options.players):
        if other == seat:
            continue
        hand = state.hands[other]
        places += [(hand, i) for i in range(len(hand)) if not state.seen[hand[i]] & bit]
        pick = state.picks[other]
        if pick is not None and not state.seen[pick] & bit:
            places.append((state.picks, other))
    cards = [holder[i] for holder, i in places]
    masks = [state.seen[c] for c in cards]
    rng.shuffle(cards)
    for (holder, i), card, mask in zip(places, cards, masks):
        holder[i] = card
        state.seen[card] = mask
    if state.options.invocations:
        spots = [(pile, i) for pile in state.piles for i in range(len(pile)) if not _is_deed(pile[i])]
        pool = sorted([pile[i] for pile, i in spots]
                      + [INVOCATION_CARD_BASE + g for g in state.spare_invocations])
        rng.shuffle(pool)
        for (pile, i), card in zip(spots, pool):
            pile[i] = card
        state.spare_invocations = sorted(c - INVOCATION_CARD_BASE for c in pool[len(spots):])
    for pile in state.piles:
        rng.shuffle(pile)
    for other in range(state.options.players):
        if other != seat and state.picks[other] is not None:
            hand = state.hands[other]
            j = rng.below(len(hand) + 1)
            if j < len(hand):
                hand[j], state.picks[other] = state.picks[other], hand[j]
    if state.options.hidden_objectives:
        _redeal_pairs(state, seat, rng, N_OBJECTIVES, state.obj_dealt, state.obj_kept, None)
    if state.options.roles:
        _redeal_pairs(state, seat, rng, N_ROLES, state.role_dealt, state.role_pick, state.roles)
    if state.options.consul:
        for pile in state.consul_piles:
            rng.shuffle(pile)
    state.rng = SpecRng(rng.next_u64())


def _redeal_pairs(state, seat: int, rng: SpecRng, cards: int, dealt: list, kept: list, revealed) -> None:
    """Step (2) for one kind of card (ids 1..cards): shuffle the cards ``seat`` has not
    seen (ascending first) and deal them to the other seats in seat order; before the
    reveal each other seat gets a pair, and a kept card is redrawn by one draw of
    below(2) per seat that has kept (seat order, after all pairs); after the reveal
    (``revealed`` holds the role cards) each other seat keeps its public choice and gets
    one new card as the other half of its pair."""
    others = [s for s in range(state.options.players) if s != seat]
    after_reveal = revealed is not None and revealed[seat] is not None
    seen = set(dealt[seat]) | (set(kept) if after_reveal else set())
    pool = [c for c in range(1, cards + 1) if c not in seen]
    rng.shuffle(pool)
    if after_reveal:
        for i, other in enumerate(others):
            dealt[other] = sorted([kept[other], pool[i]])
        return
    for i, other in enumerate(others):
        dealt[other] = sorted(pool[2 * i: 2 * i + 2])
    for other in others:
        if kept[other] is not None:
            kept[other] = dealt[other][rng.below(2)]
