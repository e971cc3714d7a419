"""The loop versions of array routines used by the generic search kernels."""
import numpy as np
import pytest

from forumlab.search.arrays import copy_into, stable_argsort


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 64, 1001])
def test_stable_argsort_is_numpys_mergesort(n):
    rng = np.random.default_rng(n)
    ties = rng.integers(0, 4, n).astype(np.float64)  # many equal values: order must be stable
    assert stable_argsort(ties).tolist() == np.argsort(ties, kind="mergesort").tolist()
    moves = rng.integers(-10**9, 10**9, n)
    assert moves[stable_argsort(moves)].tolist() == np.sort(moves).tolist()


def test_copy_into_copies_the_source_over_the_front_of_dst():
    dst = np.zeros(5, dtype=np.int64)
    copy_into(dst, np.array([3, -1, 7], dtype=np.int64))
    assert dst.tolist() == [3, -1, 7, 0, 0]
