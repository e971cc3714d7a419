"""Forma's rollout proposal (``proposal_move``) and the ``proposals`` option of sampled
rollouts, checked on positions a reader can draw: a proposal covers a square where points
are decided when there is one (beside a live stone or the tower, or the last free side of
a square), and is exactly the engine's random move when there is none."""
import numpy as np
import pytest

from forumlab.agents.registry import create_agent
from forumlab.agents.spec import AgentSpecError
from forumlab.core import dispatch
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forma import kernels as forma_kernels
from forumlab.engines.forma.data import COVER_IDX, COVER_START, PL_CODE, placement_squares
from forumlab.engines.forma.pieces import SQUARES, parse_square
from forumlab.engines.forma.proposals import tower_take
from forumlab.search.greedy import sampled_greedy_move
from tests.engines.forma.test_forma_engine import game, one, script


def proposed_squares(state, draws=200):
    """The squares covered by ``draws`` proposals (each drawn from its own stream)."""
    covered = []
    for seed in range(draws):
        move = int(forma_kernels.proposal_move(state.array, make_rng(seed)))
        assert move in set(state.legal_moves().tolist())
        covered.append(set(placement_squares(move)))
    return covered


def squares(*names):
    return {parse_square(n) for n in names}


def test_the_cover_table_lists_exactly_the_placements_on_each_square():
    for sq in (0, 19, 57, 210, 399):
        listed = {int(PL_CODE[i]) for i in COVER_IDX[COVER_START[sq]:COVER_START[sq + 1]]}
        every = {int(PL_CODE[i]) for i in range(PL_CODE.size) if sq in placement_squares(int(PL_CODE[i]))}
        assert listed == every
    assert COVER_START[-1] == COVER_IDX.size and COVER_START.size == SQUARES + 1


def test_an_untouched_stone_draws_every_proposal_beside_it():
    state = game(4, ["e5"]).new_state(0)
    sides = squares("e4", "e6", "d5", "f5")
    covered = proposed_squares(state)
    assert all(c & sides for c in covered)
    assert set().union(*(c & sides for c in covered)) == sides  # each side gets proposals


def test_the_tower_draws_proposals_beside_it():
    state = game(4, [], "j10").new_state(0)
    assert all(c & squares("j9", "j11", "i10", "k10") for c in proposed_squares(state))


def test_a_tower_with_three_free_sides_is_taken_by_the_u_that_wraps_it():
    # After a monomino on j9 the tower j10 has three free sides, i10, k10 and j11: only
    # a U pentomino opening upwards (i10 k10 / i11 j11 k11) covers all three at once.
    state = script(game(4, [], "j10").new_state(0), [(0, one("j9"))])
    assert state.current_player == 1
    wrap = squares("i10", "k10", "i11", "j11", "k11")
    for seed in range(20):
        move = int(tower_take(state.array, make_rng(seed)))
        assert set(placement_squares(move)) == wrap
        assert forma_kernels.proposal_move(state.array, make_rng(seed)) == move  # proposed first
    before = state.scores()[1]
    state.play(int(tower_take(state.array, make_rng(0))))
    assert state.result()["tower"] == 1 and state.scores()[1] == before + 5 + 50


def test_a_tower_with_one_free_side_is_taken_by_any_piece_covering_it():
    state = script(game(4, [], "j10").new_state(0),
                   [(0, one("j9")), (1, one("i10")), (2, one("k10"))])
    covered = {parse_square("j11")}
    takes = {int(tower_take(state.array, make_rng(seed))) for seed in range(30)}
    assert len(takes) > 1  # drawn among them, not always the first listed
    assert all(covered <= set(placement_squares(m)) for m in takes)
    assert takes <= set(state.legal_moves().tolist())


def test_no_tower_take_while_four_sides_are_open_or_the_tower_is_owned():
    state = game(4, [], "j10").new_state(0)
    assert tower_take(state.array, make_rng(0)) == -1  # no piece wraps four sides
    state = script(state, [(0, one("j9")), (1, one("i10")), (2, one("k10")), (3, one("j11"))])
    assert state.result()["tower"] == 3
    assert tower_take(state.array, make_rng(0)) == -1
    assert tower_take(game(4).new_state(0).array, make_rng(0)) == -1  # no tower


def test_the_last_free_side_of_a_square_draws_proposals():
    # After a2, the corner a1 has one free side left, b1: covering it scores 10.
    state = script(game(4).new_state(0), [(0, one("a2"))])
    assert all(parse_square("b1") in c for c in proposed_squares(state))


def test_with_nothing_contested_a_proposal_is_the_engines_random_move():
    # The stone e5 is dead (two colours touch it) and no free square has one free side.
    state = script(game(4, ["e5"]).new_state(0), [(0, one("e4")), (1, one("f5"))])
    for seed in range(20):
        assert forma_kernels.proposal_move(state.array, make_rng(seed)) == forma_kernels.random_move(
            state.array, make_rng(seed))


def test_proposals_stay_legal_through_whole_games():
    g = create_game("forma", {"players": 4})
    for seed in range(2):
        state = g.new_state(seed)
        mover = create_agent("greedy", seed=seed)
        while not state.is_terminal:
            legal = set(state.legal_moves().tolist())
            rng = make_rng(seed)
            assert all(int(forma_kernels.proposal_move(state.array, rng)) in legal for _ in range(10))
            state.play(mover.act(state))


def test_a_game_without_a_proposal_kernel_proposes_its_random_move():
    state = create_game("forum-romanum", {"players": 3}).new_state(2)
    k = state.game.kernels
    assert not hasattr(k.tag.module(), "proposal_move")
    for seed in range(5):
        expected = k.random_move(state.array, make_rng(seed))
        assert dispatch.proposal_move(k.tag, state.array, make_rng(seed)) == expected
        # compiled: all samples proposed is the same stream as none proposed
        assert (sampled_greedy_move(k.tag, state.array, make_rng(seed), 6, 6)
                == sampled_greedy_move(k.tag, state.array, make_rng(seed), 6, 0))


def test_sampled_rollouts_score_the_proposals_first():
    state = game(4, ["e5"]).new_state(0)
    k = state.game.kernels

    def value(move):
        child = state.array.copy()
        k.apply_move(child, move)
        return k.heuristic(child, 0)

    for seed in range(5):
        replay = make_rng(seed)
        drawn = [int(forma_kernels.proposal_move(state.array, replay)) for _ in range(3)]
        drawn += [int(forma_kernels.random_move(state.array, replay)) for _ in range(5)]
        best = max(drawn, key=value)  # the first drawn among equals
        assert sampled_greedy_move(k.tag, state.array, make_rng(seed), 8, 3) == best


def test_a_search_with_proposals_is_reproducible():
    state = game(4, ["e5", "k12"], "p4").new_state(3)
    spec = "mcts(iterations=300, rollout=sample, samples=8, proposals=4, cutoff=4)"
    moves = {create_agent(spec, seed=7).act(state) for _ in range(2)}
    assert len(moves) == 1 and moves <= set(state.legal_moves().tolist())


@pytest.mark.parametrize("spec", ["mcts(proposals=-1)", "mcts(proposals=0.5)"])
def test_bad_proposals_are_refused(spec):
    with pytest.raises(AgentSpecError, match="proposals"):
        create_agent(spec)


def test_the_cover_table_is_small_enough_for_numba_to_cache():
    # numba refuses to cache a kernel that freezes a global array of 1 MB or more
    assert COVER_IDX.nbytes < 1_000_000 and np.issubdtype(COVER_IDX.dtype, np.integer)
