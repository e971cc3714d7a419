"""Hidden information: what one seat sees, and resampling the rest (spec, "Hidden
information").

Hidden from everyone: which deeds are in which era pile and their order, and the RNG word
(future chance). Hidden from other seats: draft hands and unrevealed picks. Every card not
yet public carries the bitmask of seats that have seen it (``state.seen``); a draft hand
moves as a unit, so all cards of a hand share one mask and a card once seen stays located.
"""

from __future__ import annotations

from .chance import SpecRng, as_rng


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
    }


def determinize(state, seat: int, rng) -> None:
    """Resample in place everything hidden from ``seat``, as the spec says.

    (1) Every card whose place ``seat`` does not know (in an era pile, or in another
    seat's draft hand or pick without ``seat``'s bit in its seen-mask) is redealt at
    random to those places (a place keeps its seen-mask, so sizes and masks stay), then
    each era pile is shuffled; every pending pick of another seat is redrawn from its
    hand (hand plus pick). (4) The state's RNG word is replaced by a draw from ``rng``.
    Steps (2) and (3) concern modules not in this engine yet.

    Args:
        state: a ReferenceState, changed in place.
        seat: the observing seat.
        rng: a SpecRng, an int word or a ``forumlab.core.rng`` uint64 array.
    """
    rng = as_rng(rng)
    bit = 1 << seat
    places = []  # (list holding the card, index); picks are addressed as ("pick", seat)
    for pile in state.piles:
        places += [(pile, i) for i in range(len(pile))]
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
    for pile in state.piles:
        rng.shuffle(pile)
    for other in range(state.options.players):
        if other != seat and state.picks[other] is not None:
            hand = state.hands[other]
            j = rng.below(len(hand) + 1)
            if j < len(hand):
                hand[j], state.picks[other] = state.picks[other], hand[j]
    state.rng = SpecRng(rng.next_u64())
