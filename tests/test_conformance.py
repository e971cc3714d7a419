"""Every registered game keeps the game protocol: the conformance kit, one test per
game and check (forumlab.testing.conformance)."""
import pytest

from forumlab.core.registry import game_names
from forumlab.testing.conformance import CHECKS, run_check


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("game", game_names())
def test_game_conforms(game, check):
    run_check(game, check)
