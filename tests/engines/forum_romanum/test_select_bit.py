"""The k-th set bit, as random moves draw it (forumlab.core.bits.select_bit): the pdep
and the broadword selects agree with the plain loop on every kind of word, the choice
between them follows the compile target, and Forum Romanum's random_move stays a
uniform draw of a legal move."""
import numpy as np
import pytest
from numba import njit

from forumlab.core import bits
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_romanum import kernels as K


def _words(n: int, seed: int = 5):
    """Words of every density and both signs, with a valid k for each."""
    rng = np.random.default_rng(seed)
    xs, ks = [], []
    for i in range(n):
        width = [1, 3, 8, 17, 49, 63, 64][i % 7]
        x = int(rng.integers(0, 1 << 62)) << 2 | int(rng.integers(0, 4))
        x &= (1 << width) - 1
        x = x or 1 << (width - 1)
        x = x - (1 << 64) if x >= 1 << 63 else x
        xs.append(x)
        ks.append(int(rng.integers(0, bin(x & (2**64 - 1)).count("1"))))
    return np.array(xs, dtype=np.int64), np.array(ks, dtype=np.int64)


@njit
def _select_all(select, xs, ks):
    out = np.empty(len(xs), dtype=np.int64)
    for i in range(len(xs)):
        out[i] = select(xs[i], ks[i])
    return out


@njit
def _loop_all(xs, ks):
    out = np.empty(len(xs), dtype=np.int64)
    for i in range(len(xs)):
        out[i] = bits.nth_set_bit(xs[i], ks[i])
    return out


def test_broadword_select_matches_the_loop():
    xs, ks = _words(20_000)
    assert (_select_all(bits.select_bit_broadword, xs, ks) == _loop_all(xs, ks)).all()


def test_broadword_select_every_bit_of_edge_words():
    for x in (1, -1, -(1 << 63), (1 << 49) - 1, 0x5555555555555555, 0xFF00):
        x = np.int64(x)
        n = bin(int(x) & (2**64 - 1)).count("1")
        ks = np.arange(n, dtype=np.int64)
        xs = np.full(n, x, dtype=np.int64)
        assert (_select_all(bits.select_bit_broadword, xs, ks) == _loop_all(xs, ks)).all()


# pdep cannot run where the compile target lacks BMI2 (or has a slow one, where the engine
# never selects it); the portable select above is checked everywhere.
@pytest.mark.skipif(not bits.FAST_PDEP, reason="the compile target has no fast pdep")
def test_pdep_select_matches_the_loop():
    xs, ks = _words(20_000, seed=6)
    assert (_select_all(bits.select_bit_pdep, xs, ks) == _loop_all(xs, ks)).all()


def test_pdep_is_chosen_only_where_it_is_fast():
    assert bits.target_has_fast_pdep("icelake-server", "+avx2,+bmi2,+popcnt")
    assert not bits.target_has_fast_pdep("znver2", "+avx2,+bmi2,+popcnt")  # microcoded before Zen 3
    assert bits.target_has_fast_pdep("znver3", "+bmi2")
    assert not bits.target_has_fast_pdep("haswell", "+avx2,-bmi2")
    assert not bits.target_has_fast_pdep("generic", "")  # e.g. aarch64: no such feature
    assert (bits.select_bit is bits.select_bit_pdep) == bits.FAST_PDEP


@pytest.mark.parametrize("players, plies", [(3, 35), (2, 40)])
def test_random_move_draws_only_legal_moves_and_reaches_each(players, plies):
    """After the hands are empty a move is (piece, empty cell): every pair comes up."""
    state = create_game("forum-romanum", {}, players=players).new_state(4)
    rng = make_rng(9)
    for _ in range(plies):
        state.play(int(K.random_move(state.array, rng)))
    legal = {int(m) for m in state.legal_moves()}
    seen = {int(K.random_move(state.array, rng)) for _ in range(40 * len(legal))}
    assert seen == legal
