"""Bit tricks for int64 bitboards, compiled to single LLVM instructions.

numba has no public popcount / count-trailing-zeros, and the SWAR fallbacks cost
10-20 instructions in the hottest loops of every engine, so we emit LLVM's
`ctpop` and `cttz` intrinsics directly.
"""
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        # is_zero_undef=False: cttz(0) is defined (64) so callers need no guard.
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of an int64 bitboard."""
    return _ctpop(x)


@njit(cache=True, inline="always")
def lowest_bit_index(x):
    """Index of the lowest set bit of an int64 bitboard (64 if x == 0)."""
    return _cttz(x)


@njit(cache=True, inline="always")
def nth_set_bit(x, k):
    """Index of the k-th (0-based, from the least significant end) set bit of x."""
    for _ in range(k):
        x &= x - 1
    return _cttz(x)
