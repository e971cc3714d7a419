"""Chance exactly as the spec's "Chance and replay" section defines it.

SplitMix64 (the generator of ``forumlab.core.rng``) is re-written here in plain Python so
that this oracle depends on no numba code; a test checks it draws the same words as
``forumlab.core.rng``. The seed word is ``derive_seed("foundations-of-rome", seed)`` from
``forumlab.core.rng`` (BLAKE2b-64 of ``foundations-of-rome\\x1f<seed>``, 63 bits).
"""

from __future__ import annotations

from forumlab.core.rng import derive_seed

GAME_NAME = "foundations-of-rome"
_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB


class SpecRng:
    """One 64-bit SplitMix64 word; ``below`` and ``shuffle`` as the spec defines them."""

    __slots__ = ("word",)

    def __init__(self, word: int):
        self.word = int(word) & _MASK64

    @classmethod
    def for_game(cls, seed: int) -> SpecRng:
        """The generator a game with this seed starts from."""
        return cls(derive_seed(GAME_NAME, seed))

    def next_u64(self) -> int:
        """Advance and return 64 random bits."""
        self.word = (self.word + _GAMMA) & _MASK64
        z = self.word
        z = ((z ^ (z >> 30)) * _MUL1) & _MASK64
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """rand_below(n) = ((next_u64 >> 32) * n) >> 32, for 0 < n < 2**32."""
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place: for i from len-1 down to 1, swap i and rand_below(i+1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def as_rng(rng) -> SpecRng:
    """A SpecRng from a SpecRng (used as is), an int seed word, or a 1-element uint64 array
    of ``forumlab.core.rng`` (its word is read and advanced by one draw so that repeated
    calls differ)."""
    if isinstance(rng, SpecRng):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return SpecRng(rng)
    try:
        word = int(rng[0])
    except (TypeError, IndexError, ValueError):
        raise TypeError(f"rng must be a SpecRng, an int or a uint64 array, not {rng!r}") from None
    source = SpecRng(word)
    drawn = source.next_u64()
    rng[0] = source.word  # the caller's generator advances by one draw
    return SpecRng(drawn)

def era_pile_sizes(remaining: int) -> tuple[int, int, int]:
    """Sizes of era piles 1, 2, 3: ceil(r/3), ceil((r-e1)/2), the rest."""
    e1 = -(-remaining // 3)
    e2 = -(-(remaining - e1) // 2)
    return e1, e2, remaining - e1 - e2
