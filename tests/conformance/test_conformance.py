"""Every registered game keeps the game protocol: the conformance kit, one test per
game and check (forumlab.testing.conformance), at every configuration the game lists
in its conformance data (forumlab.testing.reference.conformance_data). The toy game of
tests/toy_goofspiel, registered the way an outside game is, runs it too (it is the
only game here with hidden information in a simultaneous choice, so it exercises the
kit's determinize and view checks); it has no reference engine, so its differential
check reports a skip ("no reference engine")."""
import contextlib

import pytest

from forumlab.core.registry import game_names
from forumlab.testing.conformance import CHECKS, run_check
from tests import toy_goofspiel


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("game", [*game_names(), toy_goofspiel.NAME])
def test_game_conforms(game, check):
    with toy_goofspiel.registered() if game == toy_goofspiel.NAME else contextlib.nullcontext():
        run_check(game, check)
