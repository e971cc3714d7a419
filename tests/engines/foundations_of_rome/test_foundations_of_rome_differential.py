"""Foundations of Rome beyond the conformance kit's differential games (forumlab.testing;
the uniform seeded games at every configuration of the game's conformance data are
tests/conformance/test_conformance.py and test_differential.py), against the
plain-Python reference engine (``forumlab/engines/foundations_of_rome/reference``,
written from the spec alone): other deed prices and a turn cap, the ``start_silver``
study option, and greedy games, which build far more (monuments above all) than
uniform random play.
"""
import pytest

from forumlab.agents.registry import create_agent
from forumlab.core.registry import create_game
from forumlab.testing.differential import differential_game

NAME = "foundations-of-rome"


def test_engines_agree_with_other_prices_and_a_cap():
    for seed in range(6):
        differential_game(create_game(NAME, players=3, modules=["monuments"], deed_prices=[0, 1, 1, 2, 3, 5],
                                      max_turns=60 + 7 * seed), seed)


@pytest.mark.parametrize("players, silver", [(2, [0, 0]), (3, [9, 5, 0]), (4, [5, 5, 5, 5]),
                                             (5, [1, 30, 2, 0, 7])])
def test_engines_agree_with_another_start_silver(players, silver):
    """The study option start_silver (beyond the spec), with and without the modules."""
    for seed in range(4):
        differential_game(create_game(NAME, players=players, start_silver=silver,
                                      modules=["monuments"] * (seed % 2), draft=seed >= 2), seed)


class AgentChooser:
    """Plays the moves of one agent per seat; counts the monuments built."""

    def __init__(self, spec: str, players: int):
        self.agents = [create_agent(spec, seed=q) for q in range(players)]
        self.monuments = 0

    def __call__(self, rng, legal, state):
        text = state.game.format_move(state.array, self.agents[state.current_player].choose(state))
        self.monuments += text.startswith("M")
        return text


def test_engines_agree_on_greedy_games_full_of_monuments():
    monuments = 0
    for seed in range(8):
        players = 2 + seed % 4
        game = create_game(NAME, players=players, modules=["monuments"], draft=seed % 2 == 0,
                           deed_prices=[1, 2, 3, 4, 5, 6] if seed % 3 == 0 else [2, 3, 4, 6, 8, 10])
        greedy = AgentChooser("greedy", players)
        differential_game(game, seed, choose=greedy)
        monuments += greedy.monuments
    assert monuments >= 5
