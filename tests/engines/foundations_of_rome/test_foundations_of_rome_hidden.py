"""Foundations of Rome hides the era piles (and, in the draft, hands and pending picks):
no agent can learn them from the state it is handed.

Agents only ever get ``State.view_for(seat)`` (the spy of tests/agents/test_agent_views.py
checks that for this game too), and a view is a function of what the seat may see:
two true states that the seat cannot tell apart give the same view, slot for slot, so
whatever an agent reads of the piles or of other seats' hands is independent of the
true hidden state.
"""
import numpy as np
import pytest

from forumlab.agents.base import Agent
from forumlab.arena.match import play_match
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.foundations_of_rome import layout as L
from tests.agents.test_agent_views import ViewSpy, assert_only_own_views_were_handed, spy_views  # noqa: F401

NAME = "foundations-of-rome"
HIDDEN = np.r_[L.PILES:L.PILES + 3 * L.PILE_ROOM, L.HANDS:L.HANDS + 6 * L.MAXP, L.PICK:L.PICK + L.MAXP]


class PileReader(Agent):
    """Reads the era piles and the other seats' hands of the state it is handed, and
    lets them pick its move (so a leak would change its play)."""

    name = "pilereader"
    reads: list[tuple[int, np.ndarray]] = []

    def choose(self, state):
        hidden = state.array[HIDDEN].copy()
        PileReader.reads.append((state.current_player, hidden))
        legal = state.legal_moves()
        return int(legal[int(hidden.sum()) % legal.size])


def _positions(game, seed, every=3):
    state = game.new_state(seed)
    rng = make_rng(seed)
    ply = 0
    while not state.is_terminal:
        if ply % every == 0:
            yield state
        state.play(int(game.kernels.random_move(state.array, rng)))
        ply += 1


@pytest.mark.parametrize("config", [{"players": 3, "draft": True, "modules": ["monuments"]},
                                    {"players": 2}, {"players": 5, "draft": True}])
def test_a_seat_view_is_the_same_for_every_truth_the_seat_cannot_tell_apart(config):
    game = create_game(NAME, config)
    other_truths = make_rng(123)
    checked = 0
    for state in _positions(game, 4):
        for seat in range(game.players):
            twin = state.copy()  # another truth, consistent with everything seat saw
            game.kernels.determinize(twin.array, seat, other_truths)
            assert np.array_equal(game.observation(twin.array, seat), game.observation(state.array, seat))
            mine = state.view_for(seat, make_rng(seat + 7)).array
            theirs = twin.view_for(seat, make_rng(seat + 7)).array
            assert np.array_equal(mine, theirs)
            checked += int(not np.array_equal(twin.array[HIDDEN], state.array[HIDDEN]))
    assert checked > 0  # the twins really had other hidden cards


def test_a_reading_agent_learns_nothing_hidden_in_a_match():
    """Play a 3-seat draft game with PileReaders, then the same game from a true start
    whose hidden cards seat 0 cannot tell apart: seat 0's first reads are identical."""
    reads = _first_reads_of_seat0(create_game(NAME, {"players": 3, "draft": True}), PileReader)
    assert reads[0][0] == reads[1][0] == 0
    assert np.array_equal(reads[0][1], reads[1][1])


def _first_reads_of_seat0(game, reader):
    """The first read of seat 0 in a 3-seat match from the true start (seed 6) and from a
    twin start whose hidden parts seat 0 cannot tell apart (``reader`` records into
    ``PileReader.reads``)."""
    reads = []
    for truth in ("real", "twin"):
        PileReader.reads = []
        start = game.new_state(6)
        if truth == "twin":
            game.kernels.determinize(start.array, 0, make_rng(99))
        original = game.initial_array
        game.initial_array = lambda seed, a=start.array: a.copy()
        try:
            play_match(game, [reader(seed=s) for s in range(3)], seed=6)
        finally:
            game.initial_array = original
        reads.append(PileReader.reads[0])
    return reads


def test_play_match_hands_each_agent_its_own_view_here_too(spy_views):  # noqa: F811
    game = create_game(NAME, players=3, draft=True)
    play_match(game, [ViewSpy(seed=s) for s in range(3)], seed=2)
    assert_only_own_views_were_handed()


# ---- the modules: objectives, roles, invocations and the Consul's piles ------------------
ALL = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]
MODULE_HIDDEN = np.r_[HIDDEN, L.OBJ_DEALT:L.OBJ_DEALT + 2 * L.MAXP, L.OBJ_KEPT:L.OBJ_KEPT + L.MAXP,
                      L.ROLE_DEALT:L.ROLE_DEALT + 2 * L.MAXP, L.ROLE_PICK:L.ROLE_PICK + L.MAXP,
                      L.SPARE:L.SPARE + 20, L.CPILE:L.CPILE + 48]


class SecretReader(PileReader):
    """Reads every hidden slot of the modules too (others' objectives and roles, spare
    invocations, the Consul's piles) and lets them pick its move."""

    name = "secretreader"

    def choose(self, state):
        hidden = state.array[MODULE_HIDDEN].copy()
        PileReader.reads.append((state.current_player, hidden))
        legal = state.legal_moves()
        return int(legal[int(hidden.sum()) % legal.size])


@pytest.mark.parametrize("config", [{"players": 3, "modules": ALL}, {"players": 4, "modules": ALL, "draft": True},
                                    {"players": 2, "modules": ["objectives", "roles", "invocations"]},
                                    {"players": 2, "modules": ["monuments"], "consul": "hard"}])
def test_module_views_are_the_same_for_every_truth_the_seat_cannot_tell_apart(config):
    """Another seat's dealt and kept objective, its dealt roles and choice before the
    reveal (the unchosen role after it), the spare invocations and the Consul's pile
    order never show in a seat's view."""
    game = create_game(NAME, config)
    other_truths = make_rng(321)
    changed = 0
    for ply, state in enumerate(_positions(game, 5, every=2)):
        if ply > 60:
            break
        for seat in range(game.players):
            twin = state.copy()
            game.kernels.determinize(twin.array, seat, other_truths)
            assert np.array_equal(game.observation(twin.array, seat), game.observation(state.array, seat))
            mine = state.view_for(seat, make_rng(seat + 7)).array
            theirs = twin.view_for(seat, make_rng(seat + 7)).array
            assert np.array_equal(mine, theirs)
            changed += int(not np.array_equal(twin.array[MODULE_HIDDEN], state.array[MODULE_HIDDEN]))
    assert changed > 0


def test_a_seat_keeps_seeing_its_own_objective_and_role_but_not_the_others():
    game = create_game(NAME, {"players": 3, "modules": ["objectives", "roles"]})
    state = game.new_state(8)
    for _ in range(4):  # three objective keeps and seat 0's role choice
        state.play(int(state.legal_moves()[0]))
    view = state.view_for(0, make_rng(1)).array
    for slot in (L.OBJ_DEALT, L.OBJ_DEALT + 1, L.OBJ_KEPT, L.ROLE_DEALT, L.ROLE_DEALT + 1, L.ROLE_PICK):
        assert view[slot] == state.array[slot]
    differs = 0
    for word in range(20):
        view = state.view_for(0, make_rng(word)).array
        differs += int(view[L.OBJ_KEPT + 1] != state.array[L.OBJ_KEPT + 1])
        assert view[L.OBJ_KEPT + 1] in view[L.OBJ_DEALT + 2:L.OBJ_DEALT + 4]
        assert view[L.ROLE_PICK + 1] == 0  # seat 1 has not chosen yet
    assert differs > 0


def test_a_reading_agent_learns_nothing_hidden_in_a_module_match():
    """Seat 0's first reads are the same in a game and in a twin game whose hidden
    objectives, roles and invocations seat 0 cannot tell apart."""
    reads = _first_reads_of_seat0(create_game(NAME, {"players": 3, "modules": ALL}), SecretReader)
    assert reads[0][0] == reads[1][0] == 0
    assert np.array_equal(reads[0][1], reads[1][1])
