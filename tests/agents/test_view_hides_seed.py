"""A view of a hidden-information game must not carry the game's seed.

The seed drives every shuffle of the setup, so an agent that could read it (from
``State.seed`` or from a slot of the array) could rebuild the true deal with
``game.new_state(seed)``. These tests play that attack and check it fails.
"""
import numpy as np
import pytest

from forumlab.core.registry import create_game

TRUE_SEED = 424242
HIDDEN_GAMES = [("foundations-of-rome", {"players": 3}), ("forum-trajanum", {"players": 3})]


def _advance(state, plies):
    rng = np.random.default_rng(5)
    for _ in range(plies):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        state.play(int(moves[rng.integers(len(moves))]))
    return state


@pytest.mark.parametrize("name,config", HIDDEN_GAMES)
def test_a_view_does_not_reveal_the_seed(name, config):
    game = create_game(name, **config)
    truth = _advance(game.new_state(TRUE_SEED), 4)
    for seat in range(game.players):
        view = truth.view_for(seat)
        assert view.seed != TRUE_SEED
        assert TRUE_SEED not in view.array.tolist()


@pytest.mark.parametrize("name,config", HIDDEN_GAMES)
def test_rebuilding_the_game_from_a_view_does_not_give_the_true_deal(name, config):
    game = create_game(name, **config)
    start = game.new_state(TRUE_SEED)
    view = start.view_for(0)
    candidates = {int(view.seed)} | {int(x) for x in view.array.tolist() if 0 <= x < 2**40}
    for candidate in candidates:
        assert not np.array_equal(game.new_state(candidate).array, start.array)
