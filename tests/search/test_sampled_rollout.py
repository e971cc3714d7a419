"""The sampled-greedy rollout policy (``mcts(rollout=sample, samples=K)``): each rollout
ply plays the best of K random legal moves by the mover's one-ply heuristic. Checked
against a replay of the same random stream, in Forma (rejection-sampled random moves)
and Forum Romanum."""
import numpy as np
import pytest

from forumlab.agents.registry import create_agent
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.search.greedy import sampled_greedy_move


def position(name, players, plies, seed=3):
    game = create_game(name, {"players": players})
    state = game.new_state(seed)
    mover = create_agent("random", seed=seed)
    for _ in range(plies):
        state.play(mover.act(state))
    return state


CASES = [("forma", 2, 20), ("forma", 4, 30), ("forum-romanum", 3, 25)]


@pytest.mark.parametrize("name,players,plies", CASES)
def test_one_sample_is_the_engines_random_move(name, players, plies):
    state = position(name, players, plies)
    k = state.game.kernels
    for seed in range(5):
        assert sampled_greedy_move(k.tag, state.array, make_rng(seed), 1) == k.random_move(
            state.array, make_rng(seed))


@pytest.mark.parametrize("name,players,plies", CASES)
def test_the_move_is_the_best_of_the_drawn_samples(name, players, plies):
    state = position(name, players, plies)
    k = state.game.kernels
    mover = state.current_player

    def value(move):
        child = state.array.copy()
        k.apply_move(child, move)
        return k.heuristic(child, mover)

    for seed in range(5):
        replay = make_rng(seed)
        drawn = [int(k.random_move(state.array, replay)) for _ in range(16)]
        best = max(drawn, key=value)  # the first drawn among equals, as the policy breaks ties
        assert sampled_greedy_move(k.tag, state.array, make_rng(seed), 16) == best
        assert int(best) in set(state.legal_moves().tolist())


def test_more_samples_find_better_moves_on_average():
    state = position("forma", 2, 20)
    k = state.game.kernels

    def value(move):
        child = state.array.copy()
        k.apply_move(child, move)
        return k.heuristic(child, state.current_player)

    one = np.mean([value(sampled_greedy_move(k.tag, state.array, make_rng(s), 1)) for s in range(40)])
    many = np.mean([value(sampled_greedy_move(k.tag, state.array, make_rng(s), 32)) for s in range(40)])
    assert many > one


@pytest.mark.parametrize("name,players", [("forma", 2), ("forum-romanum", 3)])
def test_a_search_with_sampled_rollouts_is_reproducible(name, players):
    state = position(name, players, 10)
    spec = "mcts(iterations=300, rollout=sample, samples=4, cutoff=4)"
    moves = {create_agent(spec, seed=7).act(state) for _ in range(2)}
    assert len(moves) == 1 and moves <= set(state.legal_moves().tolist())
