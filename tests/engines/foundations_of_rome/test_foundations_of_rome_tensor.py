"""Foundations of Rome's observation tensor (forumlab/engines/foundations_of_rome/tensor.py)."""
import numpy as np
import pytest

from forumlab.core.registry import create_game
from forumlab.engines.foundations_of_rome.layout import MAX_TRADES_OPT, SEEN


@pytest.mark.parametrize("players", [2, 5])
def test_the_documented_shape_is_players_plus_1622(players):
    assert create_game("foundations-of-rome", players=players).observation_shape == (players + 1622,)


def test_no_seen_mask_slot_reaches_the_tensor_as_a_plain_number():
    """Game.observation blanks all 128 seen-mask slots (lots and invocation cards), so
    any of them kept as a plain entry would be a tensor entry that is always zero."""
    game = create_game("foundations-of-rome", players=3, modules=["monuments", "trading", "stealing", "objectives", "invocations", "roles"])
    plain = game._observation_encoder._plain
    assert not np.isin(plain, np.arange(SEEN, MAX_TRADES_OPT)).any()
    state = game.new_state(3)
    assert not state.game.observation(state.array, 0)[SEEN:MAX_TRADES_OPT].any()
