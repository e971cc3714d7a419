"""The bulk of the differential check (forumlab.testing.differential): at every
configuration a game lists in its conformance data, the further seeded games it asks
for ("differential"), played by the numba engine and the reference engine together.
The kit's own ``differential`` check (tests/conformance/test_conformance.py) plays the
configurations' first seeds in the quick tier; these are the slow tier's."""
import pytest

from forumlab.core.registry import create_game, game_names
from forumlab.testing.differential import differential_game, differential_seeds
from forumlab.testing.reference import conformance_data

# At least this many differential games per game with a reference engine (the kit's
# seeds, these and the targeted ones of tests/engines/<game>/test_*_differential.py):
# about the coverage of the per-game harnesses the kit replaced.
MINIMUM_GAMES = {"forum-romanum": 1000, "forma": 250, "foundations-of-rome": 900, "forum-trajanum": 450}


def _cases():
    for name in game_names():
        for index, entry in enumerate(conformance_data(name).get("configs", [])):
            if entry.get("differential"):
                yield pytest.param(name, index, id=f"{name}-{index}-{entry['config']}")


@pytest.mark.slow
@pytest.mark.parametrize("name, index", _cases())
def test_the_engines_agree_on_many_seeded_games(name, index):
    entry = conformance_data(name)["configs"][index]
    game = create_game(name, entry["config"])
    for seed in differential_seeds(entry):
        differential_game(game, seed)


@pytest.mark.parametrize("name", sorted(MINIMUM_GAMES))
def test_every_game_lists_enough_differential_games(name):
    entries = conformance_data(name)["configs"]
    total = sum(len(entry.get("seeds", (0, 1))) + len(differential_seeds(entry)) for entry in entries)
    assert total >= MINIMUM_GAMES[name], f"{name}: {total} differential games listed"


def test_every_game_of_forumlab_names_a_reference_engine():
    assert sorted(MINIMUM_GAMES) == sorted(n for n in game_names() if conformance_data(n).get("reference"))
