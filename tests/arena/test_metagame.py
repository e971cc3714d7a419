"""The meta-game's pieces on hand-checkable games: equilibria, alpha-rank, the empirical game from
finishing orders, the likelihood of superiority, cycles and the verdict."""
import math

import numpy as np
import pytest

from forumlab.arena.alpharank import alpharank, fixation_probability
from forumlab.arena.empirical_game import empirical_game, head_to_head
from forumlab.arena.metagame import (
    COEXIST,
    CYCLES,
    DOMINATES,
    LEADS,
    analyse,
    dominance_threshold,
    find_cycle,
    pairwise_superiority,
    verdict,
)
from forumlab.arena.nash import exploitability, symmetric_nash
from forumlab.arena.plackett_luce import RatedGame, RatingsError

# Rock-paper-scissors as shares of opponents finished ahead of: row beats column -> 1.
RPS = np.array([[0.5, 1.0, 0.0],
                [0.0, 0.5, 1.0],
                [1.0, 0.0, 0.5]])


def test_rock_paper_scissors_has_the_uniform_equilibrium_and_alpharank():
    assert symmetric_nash(RPS) == pytest.approx([1 / 3] * 3)
    assert alpharank(RPS) == pytest.approx([1 / 3] * 3)


def test_a_dominated_strategy_gets_no_mass():
    # C loses to both A and B; A and B are even: every mix of A and B is an equilibrium, and the
    # one of largest support splits evenly.
    game = np.array([[0.5, 0.5, 0.7],
                     [0.5, 0.5, 0.6],
                     [0.3, 0.4, 0.5]])
    x = symmetric_nash(game)
    assert x[2] == 0.0
    assert x == pytest.approx([0.5, 0.5, 0.0])
    assert alpharank(game)[2] < 1e-6


def test_a_strictly_dominant_strategy_takes_all_the_mass():
    game = np.array([[0.5, 0.6, 0.7],
                     [0.4, 0.5, 0.6],
                     [0.3, 0.4, 0.5]])
    assert symmetric_nash(game) == pytest.approx([1, 0, 0])
    assert alpharank(game)[0] == pytest.approx(1.0)


def test_hawk_dove_has_its_known_mixed_equilibrium():
    # Hawk-dove with value V = 2 and cost C = 3: hawks play with probability V / C.
    v, c = 2.0, 3.0
    game = np.array([[(v - c) / 2, v],
                     [0.0, v / 2]])
    assert symmetric_nash(game) == pytest.approx([v / c, 1 - v / c])


def test_an_all_even_game_gives_the_uniform_mix():
    assert symmetric_nash(np.full((4, 4), 0.5)) == pytest.approx([0.25] * 4)
    assert alpharank(np.full((4, 4), 0.5)) == pytest.approx([0.25] * 4)


def test_the_equilibrium_of_random_constant_sum_games_cannot_be_exploited():
    rng = np.random.default_rng(7)
    for k in range(2, 7):
        for _ in range(20):
            h = rng.random((k, k))
            h = (h + 1 - h.T) / 2  # H + H.T = 1, as every head-to-head matrix
            x = symmetric_nash(h)
            assert x.sum() == pytest.approx(1.0) and x.min() >= 0
            assert exploitability(h, x) < 1e-9


def test_symmetric_nash_refuses_a_non_square_matrix():
    with pytest.raises(ValueError):
        symmetric_nash(np.zeros((2, 3)))


def test_neutral_drift_fixes_a_mutant_with_chance_one_over_the_population():
    assert fixation_probability(np.full((2, 2), 0.5), 0, 1, population=20) == pytest.approx(1 / 20)


def test_the_empirical_game_counts_who_finished_ahead_of_whom_ties_half():
    games = [RatedGame("g1", ("A", "B", "C"), (1, 2, 2), (9, 5, 5)),
             RatedGame("g1", ("B", "C", "A"), (2, 1, 3), (5, 9, 1))]
    eg = empirical_game(games)
    assert eg.strategies == ("A", "B", "C") and eg.groups == 1
    # game 1: A ahead of B and C, B and C level; game 2: C ahead of B ahead of A
    assert eg.wins[0].tolist() == [[0, 1, 1], [1, 0, 0.5], [1, 1.5, 0]]
    assert eg.meetings[0].tolist() == [[0, 2, 2], [2, 0, 2], [2, 2, 0]]
    assert eg.head_to_head().tolist() == [[0.5, 0.5, 0.5], [0.5, 0.5, 0.25], [0.5, 0.75, 0.5]]


def test_the_empirical_game_skips_seats_of_one_strategy_and_strata_are_lineups():
    games = [RatedGame("x", ("A", "A", "B"), (1, 2, 3), (3, 2, 1)),
             RatedGame("y", ("A", "B", "B"), (3, 1, 2), (1, 3, 2)),
             RatedGame("z", ("A", "B", "A"), (2, 1, 3), (2, 3, 1))]
    eg = empirical_game(games)
    assert eg.strata.tolist() == [0, 1, 0]  # x and z hold the same lineup
    assert eg.meetings.sum(axis=0).tolist() == [[0, 6], [6, 0]]
    # x: both A ahead of B; y: both B ahead of A; z: B ahead of both A
    assert eg.wins.sum(axis=0).tolist() == [[0, 2], [4, 0]]


def test_the_empirical_game_refuses_mixed_player_counts_and_unknown_labels():
    with pytest.raises(RatingsError):
        empirical_game([RatedGame("a", ("A", "B"), (1, 2), (1, 0)),
                        RatedGame("b", ("A", "B", "A"), (1, 2, 3), (2, 1, 0))])
    with pytest.raises(RatingsError):
        empirical_game([RatedGame("a", ("A", "B"), (1, 2), (1, 0))], strategies=("A",))
    with pytest.raises(RatingsError):
        empirical_game([])


def test_a_bootstrap_resample_keeps_the_groups_of_each_lineup():
    games = [RatedGame(f"g{i}", ("A", "B") if i < 3 else ("B", "A"), (1, 2), (1, 0)) for i in range(5)]
    eg = empirical_game(games)
    wins, meetings = eg.resampled_counts(np.random.default_rng(1))
    assert meetings[0, 1] == 5


def test_with_one_group_per_lineup_groups_are_resampled_across_lineups():
    # Three lineups of one group each: resampling within lineups would always redraw the
    # same three groups and give intervals of width 0.
    games = [RatedGame(f"g{i}", lineup, (1, 2, 3), (3, 2, 1))
             for i, lineup in enumerate((("A", "B", "C"), ("A", "B", "D"), ("B", "C", "D")))]
    eg = empirical_game(games)
    rng = np.random.default_rng(2)
    draws = {tuple(eg.resampled_counts(rng)[1].ravel()) for _ in range(20)}
    assert len(draws) > 1


def test_head_to_head_is_even_where_nothing_met():
    h = head_to_head(np.array([[0.0, 3.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
                     np.array([[0.0, 4.0, 0.0], [4.0, 0.0, 0.0], [0.0, 0.0, 0.0]]))
    assert h.tolist() == [[0.5, 0.75, 0.5], [0.25, 0.5, 0.5], [0.5, 0.5, 0.5]]


def test_likelihood_of_superiority_by_hand():
    # Two groups of two two-player games, A ahead of B in all four. Two pseudo-groups of the
    # mean size (2 meetings, one won): share 6/8; residuals 2 - 0.75 * 2 = 0.5 in each real
    # group; spread 2 * 0.25 + 2 * 0.25 * 2 = 1.5; var = 1.5 / 8^2 * 4/3 = 1/32; the gap
    # 6 - 4 = 2 meetings less the continuity half: 1.5 / 8.
    games = [RatedGame(f"g{g}", seats, (1, 2) if seats[0] == "A" else (2, 1), (1, 0))
             for g in range(2) for seats in (("A", "B"), ("B", "A"))]
    los = pairwise_superiority(empirical_game(games))
    expected = 0.5 * math.erfc(-(1.5 / 8) / math.sqrt(1 / 32) / math.sqrt(2))
    assert los[0, 1] == pytest.approx(expected)
    assert los[1, 0] == pytest.approx(1 - expected)
    assert los[0, 1] < 0.95  # four games are not enough to call it


def test_find_cycle_returns_a_shortest_cycle_or_none():
    beats = np.zeros((4, 4), dtype=bool)
    for a, b in ((0, 1), (1, 2), (2, 3), (3, 0), (2, 0)):
        beats[a, b] = True
    assert find_cycle(beats) == [0, 1, 2]
    transitive = np.triu(np.ones((4, 4), dtype=bool), 1)
    assert find_cycle(transitive) is None


def _los(pairs, k):
    los = np.full((k, k), 0.5)
    for (i, j), v in pairs.items():
        los[i, j], los[j, i] = v, 1 - v
    return los


def test_the_verdict_in_words():
    names = ("A", "B", "C")
    dominant = _los({(0, 1): 0.99, (0, 2): 0.96, (1, 2): 0.6}, 3)
    v = verdict(names, dominant, np.array([True, False, False]), 0)
    assert (v.kind, v.strategies) == (DOMINATES, ("A",))
    almost = _los({(0, 1): 0.99, (0, 2): 0.94, (1, 2): 0.6}, 3)
    v = verdict(names, almost, np.array([True, False, True]), 0)
    assert (v.kind, v.strategies) == (COEXIST, ("A", "C"))
    assert verdict(names, almost, np.array([True, False, False]), 0).kind == LEADS
    cycling = _los({(0, 1): 0.97, (1, 2): 0.99, (0, 2): 0.02}, 3)
    v = verdict(names, cycling, np.array([True, True, True]), 0)
    assert (v.kind, v.strategies) == (CYCLES, ("A", "B", "C"))
    assert "A beats B, B beats C, C beats A" in v.text


def test_with_two_strategies_dominance_is_a_two_sided_question():
    assert dominance_threshold(2) == pytest.approx(0.975)
    assert dominance_threshold(3) == 0.95
    two = _los({(0, 1): 0.96}, 2)
    assert verdict(("A", "B"), two, np.array([True, True]), 0).kind == COEXIST
    assert verdict(("A", "B"), _los({(0, 1): 0.98}, 2), np.array([True, False]), 0).kind == DOMINATES


def test_analyse_reports_intervals_that_hold_the_point_estimate():
    rng = np.random.default_rng(3)
    games = []
    for g in range(30):  # A ahead of B and C two times in three; B and C even
        for seats in (("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B")):
            order = rng.permutation(3) if rng.random() < 1 / 3 else None
            ranks = [0, 0, 0]
            if order is None:
                rest = [s for s in range(3) if seats[s] != "A"]
                rng.shuffle(rest)
                order = [seats.index("A"), *rest]
            for place, seat in enumerate(order):
                ranks[seat] = place + 1
            games.append(RatedGame(f"g{g}", seats, tuple(ranks), tuple(-r for r in ranks)))
    mg = analyse(empirical_game(games), bootstrap=100, seed=1)
    assert mg.verdict.kind == DOMINATES and mg.verdict.strategies == ("A",)
    assert mg.nash[0] == pytest.approx(1.0)
    for i in range(3):
        low, high = mg.nash_interval[i]
        assert low - 1e-12 <= mg.nash[i] <= high + 1e-12
    assert analyse(empirical_game(games), bootstrap=0).nash_interval.shape == (3, 2)
    with pytest.raises(ValueError):
        analyse(empirical_game(games), bootstrap=-1)
