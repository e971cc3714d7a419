"""Forum Trajanum hides face-down tiles, unrevealed held tiles, the undrawn street
cards and the other seats' draft of the current round: no agent can learn them from
the state it is handed.

Agents only ever get ``State.view_for(seat)``. ``determinize`` shuffles the hidden
types in place (the reference's draw order, its decision 11), so a view is not slot
for slot a function of what the seat saw, but its distribution is: two true states the
seat cannot tell apart give views that agree in distribution (tested statistically),
and the types a view shows on an opponent's just-drafted spaces follow the hidden
multiset, not the truth.
"""
import collections

import numpy as np
import pytest

from forumlab.arena.match import play_match
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_trajanum import layout as L
from tests.agents.test_agent_views import ViewSpy, assert_only_own_views_were_handed, spy_views  # noqa: F401

NAME = "forum-trajanum"


def _views(game, state, seat, rng, views):
    """``views`` views of seat, stacked; each keeps the seat's observation."""
    seen = game.observation(state.array, seat)
    arrays = []
    for _ in range(views):
        view = state.view_for(seat, rng).array
        assert np.array_equal(game.observation(view, seat), seen)
        arrays.append(view)
    return np.array(arrays)


@pytest.mark.parametrize("config, seed, plies", [({"players": 2, "setup": "choose"}, 4, 1),
                                                 ({"players": 3, "setup": "fixed"}, 4, 40),
                                                 ({"players": 4, "setup": "choose"}, 5, 9)])
def test_views_of_truths_a_seat_cannot_tell_apart_are_alike(config, seed, plies):
    """A true state and a twin (another truth consistent with all the seat saw): the
    views each gives the seat agree in distribution, slot by slot (chi-square
    homogeneity summed over every slot a view changes), so nothing the seat is handed
    depends on which truth holds."""
    game = create_game(NAME, config)
    state = game.new_state(seed)
    rng = make_rng(seed)
    for _ in range(plies):
        state.play(int(game.kernels.random_move(state.array, rng)))
    seat = state.current_player
    twin = state.copy()
    game.kernels.determinize(twin.array, seat, make_rng(77))
    assert not np.array_equal(twin.array, state.array)
    a = _views(game, state, seat, make_rng(1), 300)
    b = _views(game, twin, seat, make_rng(2), 300)
    chi2 = dof = 0.0
    for slot in np.flatnonzero((a != a[0]).any(axis=0) | (b != a[0]).any(axis=0)):
        ta, tb = collections.Counter(a[:, slot].tolist()), collections.Counter(b[:, slot].tolist())
        values = set(ta) | set(tb)
        for v in values:
            expected = (ta[v] + tb[v]) / 2
            chi2 += ((ta[v] - expected) ** 2 + (tb[v] - expected) ** 2) / expected
        dof += len(values) - 1
    assert dof > 20  # the views really resample something
    assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof)


def test_an_earlier_seats_draft_is_invisible_and_its_tiles_look_like_any_hidden_tile():
    """Seat 0 has taken and kept; seat 1 (to move) is handed views. In every view seat 0
    is still to draft and nothing is passed, and over many views the types shown on
    seat 0's two taken spaces follow seat 0's hidden multiset (chi-square), whatever
    they truly are."""
    game = create_game(NAME, {"players": 3, "setup": "fixed"})
    state = game.new_state(2)
    take = next(t for t in state.legal_move_texts() if "rv" not in t and "1" not in t and "6" not in t)
    state.play(take)
    state.play("keep " + take.split()[1])
    assert state.current_player == 1
    cells = [L.SEAT + L.TILE + (ord(n[0]) - 97) + 6 * (int(n[1]) - 1) for n in take.split()[1:]]
    truth = [int(state.array[L.D_TILES + k]) & L.TW_TYPE for k in range(2)]
    counts = collections.Counter()
    rng = make_rng(5)
    views = 1500
    for _ in range(views):
        view = state.view_for(1, rng).array
        assert view[L.QUEUE:L.QUEUE + view[L.QLEN]].tolist() == [1, 2, 0] and view[L.DLEN] == 0
        assert view[L.D_TAKE] == -1 and not view[L.PASSING:L.PASSING + 3].any()
        for cell in cells:
            counts[int(view[cell]) & L.TW_TYPE] += 1
    # seat 0's tiles hidden from seat 1: the face-down ones on its board (rv too) and the two drafted
    board = [int(w) for w in state.array[L.SEAT + L.TILE:L.SEAT + L.TILE + 37]]
    hidden = collections.Counter(w & L.TW_TYPE for w in board if w and not w & L.TW_UP)
    hidden.update(truth)
    total = sum(hidden.values())
    chi2 = sum((counts[t] - 2 * views * k / total) ** 2 / (2 * views * k / total) for t, k in hidden.items())
    assert set(counts) <= set(hidden)
    assert chi2 < 40, (chi2, counts, hidden)  # at most 11 types: a 1e-5 tail is below 40


def test_play_match_hands_each_agent_its_own_view_here_too(spy_views):  # noqa: F811
    game = create_game(NAME, players=3)
    play_match(game, [ViewSpy(seed=s) for s in range(3)], seed=2)
    assert_only_own_views_were_handed()
