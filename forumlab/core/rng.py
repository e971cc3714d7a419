"""A tiny, fast, seedable RNG usable inside numba kernels.

The generator is SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom
number generators", OOPSLA 2014): one 64-bit word of state, passes BigCrush, and
costs a handful of multiplies. Its state is a 1-element uint64 array so kernels can
advance it in place and Python can copy or store it freely. Every agent, playout and
engine-internal chance event draws from such an array, which makes (seed, moves)
replays exact across processes and machines.
"""
import numpy as np
from numba import njit

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


def make_rng(seed: int) -> np.ndarray:
    """A fresh generator state for an integer seed.

    Args:
        seed: any Python or numpy integer; it is taken modulo 2**64.

    Returns:
        A 1-element uint64 array, advanced in place by the kernels that draw from it.

    Raises:
        TypeError: ``seed`` is not an integer.
    """
    if not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, not {type(seed).__name__}")
    return np.array([int(seed) & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)


@njit(cache=True, inline="always")
def mix64(z):
    """The SplitMix64 finalizer: a bijective 64-bit mix with full avalanche (uint64)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def next_u64(rng):
    """Advance the generator and return 64 random bits as uint64."""
    z = rng[0] + GOLDEN_GAMMA
    rng[0] = z
    return mix64(z)


@njit(cache=True, inline="always")
def rand_below(rng, n):
    """A random int64 in [0, n) for 0 < n < 2**32 (multiply-shift; bias < n / 2**32)."""
    return np.int64(((next_u64(rng) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def rand_float(rng):
    """A random float64 in [0, 1) with 53 bits of precision."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def derive_seed(*parts) -> int:
    """Derive a 63-bit seed from a master seed and labels (stable across processes).

    Python's hash() is salted per process, so we hash the parts' text with
    BLAKE2b instead.

    Args:
        *parts: the master seed and labels (e.g. ``seed, "views"``); each is used as ``str(part)``.

    Returns:
        A seed in [0, 2**63).
    """
    import hashlib

    h = hashlib.blake2b("\x1f".join(str(p) for p in parts).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "little") & 0x7FFFFFFFFFFFFFFF
