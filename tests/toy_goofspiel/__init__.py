"""A toy game added the way a real one is: its own package, one registration, the
conformance kit (tests/conformance/test_toy_game.py).

Tiny Goofspiel: every player holds the cards 1..K; each round one card of a shuffled
prize deck of the values 1..K is turned up and every player bids a card from their
hand, in seat order but in secret (a simultaneous choice serialised into plies, the
way the design guide prescribes); the one highest bid wins the prize's value (a tie
for the highest wins nothing) and the bid cards are spent. After K rounds the
highest total wins. Hidden: the other seats' bids of the current round and the
order of the prizes not yet turned up, so ``determinize`` has real work to do.
"""

from contextlib import contextmanager

NAME = "toy-goofspiel"
TARGET = "tests.toy_goofspiel.game:ToyGoofspiel"


@contextmanager
def registered():
    """The toy game registered (this process and the ones it starts) while inside."""
    from forumlab.core.registry import register_game, unregister_game

    register_game(NAME, TARGET)
    try:
        yield
    finally:
        unregister_game(NAME)
