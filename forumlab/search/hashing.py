"""A 64-bit Zobrist-style hash of a whole state array, for transposition tables.

Classic Zobrist hashing XORs together one random key per (feature, value) pair,
read from a pre-drawn table. Our states are flat int64 arrays whose slots hold
anything from small counters to full 64-bit bitboards, so a table per slot value is
impossible. Instead the key of (slot i, value v) is *computed* by a mixing
function: the SplitMix64 finalizer (Stafford's "Mix13") applied to
``v + (i + FIRST_STEP) * golden``, i.e. the SplitMix64 output for state ``v`` at step
``i + FIRST_STEP``. The finalizer is a bijection with full avalanche, so the keys behave as a
random tabulation, and

    hash(s) = XOR over slots i of key(i, s[i])

is a Zobrist hash of the state that works for every game without per-game tables.

``FIRST_STEP`` is 2, not 1: states used to begin with a slot holding a per-game constant
(the game's id), and keying slot ``i`` with the step that slot had then changes every
hash only by XOR with one per-game constant. Transposition tables index and compare keys
after XOR-ing them with nothing but other constants, so exactly the same positions share
an entry as before, and every search - move, value, node count - stays bit for bit.

It is *not* incremental: the search recomputes it from the whole array (a few
dozen multiply/shift steps for Forum Romanum's 33 slots) at every interior node,
which is cheap next to move generation and evaluation and keeps the engines free of
hash-maintenance code. Every slot is hashed, including bookkeeping such as the ply
counter and the RNG word, so two positions only share a key if their arrays are
equal (up to 64-bit collisions, which transposition tables detect as well as any
Zobrist table would, by storing the full key).
"""
import numpy as np
from numba import njit

from ..core.rng import GOLDEN_GAMMA as _GOLDEN
from ..core.rng import mix64

FIRST_STEP = 2  # the SplitMix64 step of slot 0 (see above)


@njit(cache=True, inline="always")
def slot_key(i, v):
    """The Zobrist key of value ``v`` (int64) in slot ``i`` (uint64)."""
    return mix64(np.uint64(v) + np.uint64(i + FIRST_STEP) * _GOLDEN)


@njit(cache=True)
def state_hash(s):
    """64-bit hash of a state array (returned as int64 so it can live in int64 tables)."""
    h = np.uint64(0)
    for i in range(s.shape[0]):
        h ^= slot_key(i, s[i])
    return np.int64(h)


@njit(cache=True, inline="always")
def salted(key, salt):
    """A key derived from ``key`` for a variant of the same position (e.g. which
    opponent is searching in best-reply search), as int64."""
    return np.int64(np.uint64(key) ^ mix64(np.uint64(salt + 1) * _GOLDEN))


def state_hash_py(array) -> int:
    """Pure-Python reference of :func:`state_hash` (a test oracle), as an unsigned int."""
    mask = (1 << 64) - 1

    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    h = 0
    for i, v in enumerate(array.tolist()):
        h ^= mix((int(v) + (i + FIRST_STEP) * 0x9E3779B97F4A7C15) & mask)
    return h
