"""Chance as the spec's "Setup (chance)" section defines it, drawn with forumlab.core.rng
(SplitMix64 started from ``derive_seed("forum-trajanum", seed)``, ``rand_below``)."""

from __future__ import annotations

import numpy as np

from forumlab.core.rng import derive_seed, make_rng, rand_below

from .catalogue import GAME_NAME


class Chance:
    """A SplitMix64 stream: ``randint(k)`` is 0..k and ``shuffle`` is the spec's Fisher-Yates."""

    def __init__(self, word: int):
        self.state = make_rng(int(word))

    @classmethod
    def for_game(cls, seed: int) -> Chance:
        """The stream a game with this seed draws its setup from."""
        return cls(derive_seed(GAME_NAME, seed))

    def randint(self, k: int) -> int:
        """A number 0..k: ``rand_below(k+1)``."""
        return int(rand_below(self.state, k + 1))

    def shuffle(self, items: list) -> None:
        """In place: for i = len-1 down to 1, swap items i and randint(0..i)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(i)
            items[i], items[j] = items[j], items[i]


def as_chance(rng) -> Chance:
    """A Chance from a Chance, an int word, or a forumlab.core.rng uint64 array (advanced
    by two ``rand_below(2**31)`` draws, which together seed the returned stream)."""
    if isinstance(rng, Chance):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return Chance(int(rng))
    try:
        word = int(rand_below(rng, 1 << 31)) * (1 << 31) + int(rand_below(rng, 1 << 31))
    except Exception:
        raise TypeError(f"rng must be a Chance, an int or a uint64 array, not {rng!r}") from None
    return Chance(word)
