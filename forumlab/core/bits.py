"""Bit tricks for int64 bitboards, compiled to single LLVM instructions.

numba has no public popcount / count-trailing-zeros, and the SWAR fallbacks cost
10-20 instructions in the hottest loops of every engine, so we emit LLVM's
`ctpop` and `cttz` intrinsics directly.

:func:`select_bit` (the k-th set bit) has no branch that depends on the data: random
moves draw with it, and a loop of ``k`` steps or a rejection loop mispredicts about
once a draw. It is one BMI2 ``pdep`` where the compile target has a fast one
(:data:`FAST_PDEP`, decided once at import from the CPU numba compiles for), else a
portable broadword select.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
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


# CPUs whose pdep is microcode, tens of cycles per call (AMD before Zen 3): the
# portable select beats it there.
_SLOW_PDEP_CPUS = frozenset({"bdver4", "znver1", "znver2"})


def target_has_fast_pdep(cpu_name: str, features: str) -> bool:
    """Whether a compile target (LLVM CPU name, LLVM feature string such as
    ``"+bmi2,-avx512f"``) has a BMI2 ``pdep`` worth using."""
    return "+bmi2" in features.split(",") and cpu_name not in _SLOW_PDEP_CPUS


def _numba_target() -> tuple[str, str]:
    """The CPU name and features numba compiles for (its own rule: the NUMBA_CPU_NAME
    and NUMBA_CPU_FEATURES settings, else the host's), so the choice below follows
    the code numba emits and caches."""
    import llvmlite.binding as ll
    from numba.core.codegen import get_host_cpu_features

    name = config.CPU_NAME or ll.get_host_cpu_name()
    if name == "host":
        name = ll.get_host_cpu_name()
    return name, config.CPU_FEATURES if config.CPU_FEATURES is not None else get_host_cpu_features()


FAST_PDEP = target_has_fast_pdep(*_numba_target())


@intrinsic
def _pdep(typingctx, source, mask):
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                            "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True, inline="always")
def select_bit_pdep(x, k):
    """Index of the k-th (0-based) set bit of x, for 0 <= k < popcount(x): the bit
    ``1 << k`` deposited on x's set bits (needs BMI2)."""
    return _cttz(_pdep(np.int64(1) << k, x))


def _select_in_byte() -> np.ndarray:
    table = np.zeros(256 * 8, dtype=np.uint8)
    for w in range(256):
        bits = [i for i in range(8) if (w >> i) & 1]
        table[8 * w: 8 * w + len(bits)] = bits
    return table


# SELECT_IN_BYTE[8 * w + j]: the index of the j-th set bit of the byte w (0 past its last).
SELECT_IN_BYTE = _select_in_byte()
_L8 = np.uint64(0x0101010101010101)
_H8 = np.uint64(0x8080808080808080)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)


@njit(cache=True, inline="always")
def select_bit_broadword(x, k):
    """Index of the k-th (0-based) set bit of x, for 0 <= k < popcount(x), without a
    data-dependent branch on any CPU.

    The running totals of the byte popcounts, one per byte of a word, are compared
    with k all at once (each byte has its top bit set where the total exceeds k; no
    byte borrows from the next since totals and k are below 128); the number of bytes
    at or below k is the byte holding the bit, and a table finishes inside the byte.
    """
    u = np.uint64(x)
    b = u - ((u >> np.uint64(1)) & _M1)
    b = (b & _M2) + ((b >> np.uint64(2)) & _M2)
    b = (b + (b >> np.uint64(4))) & _M4
    sums = b * _L8
    above = ((sums | _H8) - np.uint64(k + 1) * _L8) & _H8
    byte = _ctpop(np.int64(~above & _H8))
    shift = np.uint64(8 * byte)
    before = np.int64(((sums << np.uint64(8)) >> shift) & np.uint64(0xFF))
    w = np.int64((u >> shift) & np.uint64(0xFF))
    return 8 * byte + np.int64(SELECT_IN_BYTE[8 * w + k - before])


# The k-th set bit on this compile target (see the module docstring).
select_bit = select_bit_pdep if FAST_PDEP else select_bit_broadword
