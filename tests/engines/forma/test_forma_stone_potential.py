"""Forma's heuristic term for stones (``stone_potential``), checked by hand.

A stone that only one colour touches can only be claimed by that colour; the term adds
10 x (that colour's sides / the stone's sides)**2 to its estimate (rules/forma.md,
"Enclosed obstacle stone"). Positions are built with the helpers of the engine tests.
"""
import numpy as np
import pytest

from forumlab.engines.forma import kernels as forma_kernels
from forumlab.engines.forma.layout import STUCK
from forumlab.engines.forma.potential import stone_potential
from tests.engines.forma.test_forma_engine import game, horizontal, one, put, script


def potential(state, weight=10.0) -> list[float]:
    est = np.zeros(state.game.players)
    stone_potential(state.array, est, weight)
    return est.tolist()


def test_an_untouched_stone_is_worth_nothing_to_anybody():
    assert potential(game(4, ["e5"]).new_state(0)) == [0, 0, 0, 0]


def test_a_stone_in_the_open_is_worth_the_squared_share_of_its_four_sides():
    state = script(game(4, ["e5"]).new_state(0), [(0, one("e4"))])
    assert potential(state) == pytest.approx([10 * (1 / 4) ** 2, 0, 0, 0])
    script(state, [(0, one("d5"))])
    assert potential(state) == pytest.approx([10 * (2 / 4) ** 2, 0, 0, 0])
    script(state, [(0, horizontal("I2", "f5"))])  # f5 g5
    assert potential(state) == pytest.approx([10 * (3 / 4) ** 2, 0, 0, 0])


def test_a_stone_at_the_edge_counts_only_its_sides_on_the_board():
    # a10 has three sides on the board (a9, b10, a11); player 1 holds two of them.
    state = script(game(4, ["a10"]).new_state(0), [(1, one("a9")), (1, one("a11"))])
    assert potential(state) == pytest.approx([0, 10 * (2 / 3) ** 2, 0, 0])


def test_a_stone_two_colours_touch_is_dead():
    state = script(game(4, ["e5"]).new_state(0), [(0, one("e4")), (1, one("f5"))])
    assert potential(state) == [0, 0, 0, 0]


def test_a_claimed_stone_is_no_longer_potential():
    state = script(game(4, ["e5"]).new_state(0), [
        (0, put("V3", "XX/X.", "d4")), (0, put("T4", ".X/XX/.X", "e5"))])
    assert state.result()["stones"] == [1, 0, 0, 0]
    assert potential(state) == [0, 0, 0, 0]


def test_a_marker_counts_as_its_colours_side():
    # Player 0 encloses the free square e6 (sides e5 stone, d6, f6, e7) with d7-f7: its
    # marker on e6 is one side of the stone on e5, so the stone is player 0's, one of four.
    state = script(game(4, ["e5"]).new_state(0), [
        (0, one("d6")), (0, one("f6")), (0, horizontal("I3", "d7"))])
    assert state.result()["enclosures"][0] == 1
    assert potential(state) == pytest.approx([10 * (1 / 4) ** 2, 0, 0, 0])


def test_both_colours_of_a_two_player_seat_count_as_one():
    state = script(game(2, ["e5"]).new_state(0), [(0, one("e4")), (0, horizontal("I2", "f5"))])
    assert potential(state) == pytest.approx([10 * (2 / 4) ** 2, 0])


def test_a_colour_that_cannot_place_gets_nothing():
    state = script(game(4, ["e5"]).new_state(0), [(2, one("e4"))])
    array = state.array.copy()
    array[STUCK] |= 1 << 2
    est = np.zeros(4)
    stone_potential(array, est, 10.0)
    assert est.tolist() == [0, 0, 0, 0]


def test_the_heuristic_counts_the_term_for_the_colour_building_round_a_stone():
    # Same squares for player 0 with and without a stone beside them: the difference in
    # player 0's heuristic is exactly the stone's potential (nothing else changes).
    with_stone = script(game(4, ["e5"]).new_state(0), [(0, one("e4")), (0, one("d5"))])
    without = script(game(4, ["p15"]).new_state(0), [(0, one("e4")), (0, one("d5"))])
    gap = (forma_kernels.heuristic(with_stone.array, 0)
           - forma_kernels.heuristic(without.array, 0))
    assert gap == pytest.approx(10 * (2 / 4) ** 2)


@pytest.mark.parametrize("stone, side", [("d4", "d3"), ("h7", "h6")])
def test_a_stone_on_a_words_top_bit_is_seen(stone, side):
    # d4 and h7 are squares 63 and 127: bit 63 of a bitboard word (a negative int64).
    state = script(game(4, [stone]).new_state(0), [(3, one(side))])
    assert potential(state) == pytest.approx([0, 0, 0, 10 * (1 / 4) ** 2])
