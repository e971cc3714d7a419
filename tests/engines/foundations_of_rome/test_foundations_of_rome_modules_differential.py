"""Foundations of Rome's modules and the Will of the Consul beyond the conformance kit's
differential games (forumlab.testing; the uniform seeded games at every configuration of
the game's conformance data are tests/conformance/test_conformance.py and
test_differential.py), against the plain-Python reference engine:

- games in which trade offers are drawn one time in four when there are other moves
  (uniform play offers trades at most turns), over single modules, pairs and the
  Consul, so that more of them is built;
- agent games (greedy, MCTS) with every module: agents build far more than random play
  (roles' and invocations' build effects, monuments, objectives met); MCTS also offers
  and answers trades.
"""
import pytest

from forumlab.core.registry import create_game
from forumlab.testing.differential import differential_game

from .test_foundations_of_rome_differential import AgentChooser

NAME = "foundations-of-rome"
ALL = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]
FEWER_OFFERS = [
    {"players": 2, "modules": ["objectives"], "objectives": "public"},
    {"players": 3, "modules": ["invocations", "roles"]},
    {"players": 4, "modules": ["monuments", "invocations"]},
    {"players": 5, "modules": ["trading", "invocations"]},
    {"players": 2, "modules": ALL, "max_trades": 3},
    {"players": 5, "modules": ALL, "max_trades": 0},
    {"players": 3, "modules": ["monuments"], "consul": "hard"},
    {"players": 4, "consul": "challenge"},
]


def fewer_offers(rng, legal, state):
    """A random move, offers (``T...``) one time in four when there are others."""
    others = [m for m in legal if not m.startswith("T")]
    if others and rng.random() < 0.75:
        return others[rng.randrange(len(others))]
    return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("config", FEWER_OFFERS, ids=str)
def test_engines_agree_with_fewer_trade_offers(config):
    differential_game(create_game(NAME, config), 0, choose=fewer_offers)


@pytest.mark.slow
@pytest.mark.parametrize("config", FEWER_OFFERS, ids=str)
def test_engines_agree_on_more_games_with_fewer_trade_offers(config):
    for seed in range(200, 206):
        differential_game(create_game(NAME, config), seed, choose=fewer_offers)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["greedy", "mcts(iterations=6)"])
def test_engines_agree_on_agent_games_with_every_module(spec):
    for seed, config in enumerate([{"players": 3, "modules": ALL}, {"players": 4, "modules": ALL[1:]},
                                   {"players": 2, "modules": ["monuments"], "consul": "hard"}]):
        differential_game(create_game(NAME, config), seed, choose=AgentChooser(spec, config["players"]))
