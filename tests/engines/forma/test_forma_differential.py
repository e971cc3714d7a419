"""Targeted differential games of Forma: the numba engine against the plain-Python
reference engine (through forumlab.testing.differential) with move choices that uniform
random play rarely makes. The uniform seeded games at every configuration are the
conformance kit's (tests/conformance/test_conformance.py, test_differential.py).

- Games biased towards bridges: the mover prefers placements in its own strip along an
  edge (columns a-c for even seats, rows 1-3 for odd seats), so chains from edge to
  edge, rare in uniform play, are built and scored. Along the way the numba engine's
  ``count_moves`` (its fast count) must equal the number of legal moves.
- Games driven by the numba engine's ``random_move`` (the playout fast path), so its
  draws are played and compared too.
"""
import pytest

from forumlab.core.registry import create_game
from forumlab.engines.forma.moves import count_moves
from forumlab.testing.differential import differential_game, kernel_sampler


def in_strip(text: str, seat: int) -> bool:
    """Whether a placement's top-left square lies in the seat's strip."""
    square = text.partition("@")[2]
    return square[:1] in ("a", "b", "c") if seat % 2 == 0 else square[1:].isdigit() and int(square[1:]) <= 3


class StripBuilder:
    """Chooses mostly (85 %) a placement in the mover's strip, when there is one; keeps
    the (live) numba state it was shown, whose result is read after the game."""

    def __init__(self):
        self.state = None

    def __call__(self, rng, legal, state):
        self.state = state
        assert int(count_moves(state.array)) == len(legal)
        strip = [t for t in legal if in_strip(t, state.current_player)]
        if strip and rng.random() < 0.85:
            return strip[rng.randrange(len(strip))]
        return legal[rng.randrange(len(legal))]


@pytest.mark.slow
@pytest.mark.parametrize("config, games", [({"players": 2}, 20), ({"players": 4}, 20), ({"players": 3}, 5),
                                           ({"players": 4, "obstacles": "none"}, 5)])
def test_games_biased_towards_bridges_match_the_reference(config, games):
    game = create_game("forma", config)
    bridges = 0
    for seed in range(500, 500 + games):
        builder = StripBuilder()
        differential_game(game, seed, choose=builder)
        result = builder.state.result()
        bridges += sum(result["bridges_ns"]) + sum(result["bridges_ew"])
    if config["players"] == 2:  # with two sets a strip is long enough to reach across
        assert bridges > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_games_played_by_the_numba_sampler_match_the_reference(players):
    game = create_game("forma", players=players)
    for seed in range(600, 610):
        differential_game(game, seed, choose=kernel_sampler(seed))
