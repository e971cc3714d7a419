"""Tests of the tournament ratings: Plackett–Luce with seat effects, ties, bootstrap, summaries."""

import itertools
import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from forumlab.arena.ratings import (
    ELO_PER_NAT,
    RatedGame,
    RatingsError,
    fit_plackett_luce,
    format_ratings_table,
    rate,
    ratings_report,
)


def rotations(group, lineup, results):
    """Games of one rotation group: ``results[r]`` are the ranks of rotation ``r`` (per seat)."""
    n = len(lineup)
    games = []
    for r, ranks in enumerate(results):
        agents = tuple(lineup[(s + r) % n] for s in range(n))
        games.append(RatedGame(group, agents, tuple(ranks), tuple(float(-x) for x in ranks)))
    return games


def sample_pl_games(rng, agent_elo, seat_elo, groups_per_count):
    """Games drawn from the Plackett–Luce model (Gumbel trick), in seat-rotation groups."""
    agents = sorted(agent_elo)
    games = []
    for n, n_groups in groups_per_count.items():
        for k in range(n_groups):
            lineup = [agents[i] for i in rng.choice(len(agents), size=n, replace=False)]
            for r in range(n):
                seated = lineup[r:] + lineup[:r]
                eta = np.array([(agent_elo[a] + seat_elo[n][s]) / ELO_PER_NAT for s, a in enumerate(seated)])
                order = np.argsort(-(eta + rng.gumbel(size=n)))
                ranks = np.empty(n, dtype=int)
                ranks[order] = np.arange(1, n + 1)
                games.append(RatedGame(f"{n}p-{k}", tuple(seated), tuple(int(x) for x in ranks),
                                       tuple(float(10 - x) for x in ranks)))
    return games


# ---------------------------------------------------------------------------------------
# Two players: Bradley–Terry with a first-move advantage.


def test_two_players_analytic_bradley_terry_with_seat_advantage():
    # A and B in both seat orders; A (seat 0) wins 15 of 20, B (seat 0) wins 8 of 20.
    # With a negligible prior the MLE solves the two logit equations exactly:
    #   theta_A - theta_B - delta = logit(15/20),  theta_B - theta_A - delta = logit(8/20).
    games = []
    for k in range(20):
        a_home = (1, 2) if k < 15 else (2, 1)
        b_home = (1, 2) if k < 8 else (2, 1)
        games += rotations(f"g{k}", ["A", "B"], [a_home, b_home])
    fit = fit_plackett_luce(games, prior_sd=1e3)
    logit = lambda p: math.log(p / (1 - p))  # noqa: E731
    assert fit.converged
    assert fit.theta["B"] - fit.theta["A"] == pytest.approx(-(logit(0.75) - logit(0.4)) / 2, abs=1e-4)
    assert fit.seat_delta[2][1] == pytest.approx(-(logit(0.75) + logit(0.4)) / 2, abs=1e-4)
    assert fit.seat_elo[2] == pytest.approx([0.0, fit.seat_delta[2][1] * ELO_PER_NAT])
    # P(seat-0 agent a beats seat-1 agent b) = 1 / (1 + exp(-(theta_a - theta_b - delta))).
    d = fit.seat_delta[2][1]
    p = 1 / (1 + math.exp(-(fit.theta["A"] - fit.theta["B"] - d)))
    assert math.exp(fit.order_log_probability(("A", "B"), (1, 2))) == pytest.approx(p)
    assert p == pytest.approx(0.75, abs=1e-4)


def test_two_players_matches_direct_bradley_terry_map_fit():
    rng = np.random.default_rng(7)
    agents = ["p", "q", "r", "s"]
    games, rows, wins = [], [], []
    for k in range(30):
        i, j = rng.choice(4, size=2, replace=False)
        for home, away in ((i, j), (j, i)):
            won = bool(rng.random() < 0.55)
            games.append(RatedGame(f"g{k}", (agents[home], agents[away]), (1, 2) if won else (2, 1), (0, 0)))
            x = np.zeros(5)
            x[home], x[away], x[4] = 1.0, -1.0, -1.0  # logit P(home wins) = th_h - th_a - delta
            rows.append(x)
            wins.append(float(won))
    X, y = np.array(rows), np.array(wins)
    beta = np.zeros(5)
    for _ in range(50):  # Newton on the logistic log-posterior with a N(0, 2^2) prior
        p = 1 / (1 + np.exp(-X @ beta))
        grad = X.T @ (y - p) - beta / 4
        hess = -(X.T * (p * (1 - p))) @ X - np.eye(5) / 4
        beta -= np.linalg.solve(hess, grad)
    p = 1 / (1 + np.exp(-X @ beta))
    bt_loglik = float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))

    fit = fit_plackett_luce(games, prior_sd=2.0)
    assert fit.anchor == "p"
    for k, a in enumerate(agents):
        assert fit.theta[a] == pytest.approx(beta[k] - beta[0], abs=1e-8)
    assert fit.seat_delta[2][1] == pytest.approx(beta[4], abs=1e-8)
    assert fit.log_likelihood == pytest.approx(bt_loglik, abs=1e-8)
    assert fit.tie == {}


# ---------------------------------------------------------------------------------------
# Shared ranks (Davidson–Luce).


def test_two_player_draws_follow_davidson():
    # Symmetric in A and B, so theta_A = theta_B; then the three outcome frequencies of the
    # seat pairs are fitted exactly: exp(delta) = away/home wins, nu = ties / sqrt(home * away).
    games = []
    a_home = [(1, 2)] * 6 + [(2, 1)] * 3 + [(1, 1)] * 3
    b_home = [(1, 2)] * 6 + [(2, 1)] * 3 + [(1, 1)] * 3
    for k, (x, y) in enumerate(zip(a_home, b_home)):
        games += rotations(f"g{k}", ["A", "B"], [x, y])
    fit = fit_plackett_luce(games, prior_sd=1e3)
    assert fit.theta["B"] == pytest.approx(0.0, abs=1e-6)
    assert fit.seat_delta[2][1] == pytest.approx(math.log(6 / 12), abs=1e-5)
    assert fit.tie[2] == pytest.approx(6 / math.sqrt(12 * 6), abs=1e-5)
    assert math.exp(fit.order_log_probability(("A", "B"), (1, 1))) == pytest.approx(0.25, abs=1e-5)


def test_shared_ranks_are_chosen_jointly():
    games = rotations("g", ["A", "B", "C"], [(1, 1, 3), (1, 2, 2), (1, 1, 1)])
    games += rotations("h", ["A", "C", "B"], [(1, 2, 3), (2, 1, 3), (3, 1, 1)])
    fit = fit_plackett_luce(games)
    assert set(fit.tie) == {2, 3}
    a, b, c = (math.exp(fit.theta[x] + fit.seat_delta[3][s]) for s, x in enumerate("ABC"))
    nu2, nu3 = fit.tie[2], fit.tie[3]
    denom = a + b + c + nu2 * (math.sqrt(a * b) + math.sqrt(a * c) + math.sqrt(b * c)) + nu3 * (a * b * c) ** (1 / 3)
    # A and B share first place, chosen together; C is then last with probability 1.
    expected = nu2 * math.sqrt(a * b) / denom
    assert math.exp(fit.order_log_probability(("A", "B", "C"), (1, 1, 3))) == pytest.approx(expected)
    # A alone first, then B and C chosen together from {B, C}.
    expected = a / denom * nu2 * math.sqrt(b * c) / (b + c + nu2 * math.sqrt(b * c))
    assert math.exp(fit.order_log_probability(("A", "B", "C"), (1, 2, 2))) == pytest.approx(expected)
    # The model is a proper distribution over all 13 weak orders of three entries.
    weak_orders = {tuple(1 + sum(o < v for o in r) for v in r) for r in itertools.product(range(3), repeat=3)}
    assert len(weak_orders) == 13
    total = sum(math.exp(fit.order_log_probability(("A", "B", "C"), r)) for r in weak_orders)
    assert total == pytest.approx(1.0)
    # The vectorised likelihood agrees with the game-by-game one.
    assert fit.log_likelihood == pytest.approx(sum(fit.order_log_probability(g.agents, g.ranks) for g in games))


def test_ranks_must_be_competition_style():
    RatedGame("g", ("A", "B", "C"), (1, 1, 3), (2, 2, 1))
    with pytest.raises(RatingsError, match="competition-style"):
        RatedGame("g", ("A", "B", "C"), (1, 1, 2), (2, 2, 1))
    with pytest.raises(ValueError, match="2 ranks"):
        RatedGame("g", ("A", "B", "C"), (1, 2), (2, 2, 1))
    with pytest.raises(RatingsError, match="at least 2 seats"):
        RatedGame("g", ("A",), (1,), (0,))
    with pytest.raises(RatingsError, match="no games"):
        fit_plackett_luce([])
    with pytest.raises(RatingsError, match="prior_sd"):
        fit_plackett_luce(rotations("g", ["A", "B"], [(1, 2), (1, 2)]), prior_sd=0)


# ---------------------------------------------------------------------------------------
# Anchor, repeated agents, summaries, determinism, report.


def test_anchor_shifts_ratings_only():
    rng = np.random.default_rng(3)
    games = sample_pl_games(rng, {"x": 0, "y": 150, "z": -100}, {3: [0, 0, 0]}, {3: 20})
    default = fit_plackett_luce(games)
    named = fit_plackett_luce(games, anchor="y")
    assert default.anchor == "x" and default.elo["x"] == 0.0
    assert named.anchor == "y" and named.elo["y"] == 0.0
    for a in "xyz":
        assert named.elo[a] == pytest.approx(default.elo[a] - default.elo["y"], abs=1e-9)
        assert named.elo[a] == pytest.approx(named.theta[a] * ELO_PER_NAT)
    assert named.seat_elo == default.seat_elo
    assert named.log_likelihood == pytest.approx(default.log_likelihood)
    with pytest.raises(RatingsError, match="anchor agent 'w' did not play"):
        fit_plackett_luce(games, anchor="w")
    r = rate(games, anchor="z", bootstrap=20)
    assert r.elo_interval["z"] == (0.0, 0.0)


def test_undefeated_agent_stays_finite():
    games = [g for k in range(5) for g in rotations(f"g{k}", ["A", "B"], [(1, 2), (2, 1)])]
    fit = fit_plackett_luce(games, anchor="B")
    assert fit.converged and 0 < fit.elo["A"] < 2000
    assert fit.seat_delta[2][1] == pytest.approx(0.0, abs=1e-9)


def hand_example():
    return [
        RatedGame("g", ("A", "A", "B"), (1, 1, 3), (5, 5, 2)),
        RatedGame("g", ("A", "B", "A"), (2, 1, 3), (3, 4, 1)),
        RatedGame("g", ("B", "A", "A"), (1, 2, 2), (6, 3, 3)),
        RatedGame("h", ("B", "C"), (1, 1), (7, 7)),
        RatedGame("h", ("C", "B"), (1, 2), (9, 8)),
    ]


def test_summaries_on_a_hand_checkable_example():
    r = rate(hand_example(), bootstrap=10, seed=1)
    a, b, c = (r.agent_stats[x] for x in "ABC")
    # A sits twice in each 3-player game: the shared win of game 1 gives it 1/2 + 1/2.
    assert (a.games, a.entries) == (3, 6)
    assert a.win_rate == pytest.approx(1 / 6)
    assert a.mean_rank == pytest.approx(11 / 6)
    assert a.mean_score == pytest.approx(20 / 6)
    assert (b.games, b.entries) == (5, 5)
    assert b.win_rate == pytest.approx((0 + 1 + 1 + 0.5 + 0) / 5)
    assert b.mean_rank == pytest.approx((3 + 1 + 1 + 1 + 2) / 5)
    assert (c.games, c.win_rate, c.mean_rank, c.mean_score) == (2, 0.75, 1.0, 8.0)
    seats3 = r.seat_stats[3]
    assert [s.win_rate for s in seats3] == pytest.approx([0.5, 0.5, 0.0])
    assert [s.mean_rank for s in seats3] == pytest.approx([4 / 3, 4 / 3, 8 / 3])
    assert [s.win_rate for s in r.seat_stats[2]] == pytest.approx([0.75, 0.25])
    # Head-to-head: A ahead of B in both A-seats of game 1 only; same-agent pairs are ignored.
    assert r.head_to_head["A"]["B"] == (pytest.approx(2 / 6), 6)
    assert r.head_to_head["B"]["A"] == (pytest.approx(4 / 6), 6)
    assert r.head_to_head["B"]["C"] == (pytest.approx(0.25), 2)
    assert "A" not in r.head_to_head["A"] and "C" not in r.head_to_head.get("A", {})
    for x, y in itertools.permutations("ABC", 2):
        assert r.superiority[x][y] + r.superiority[y][x] == pytest.approx(1.0)


def test_superiority_and_intervals_from_bootstrap():
    rng = np.random.default_rng(11)
    games = sample_pl_games(rng, {"strong": 400, "mid": 0, "weak": -400}, {2: [0, -50], 4: [0, 0, 0, 0]},
                            {2: 30, 4: 0})
    r = rate(games, bootstrap=50, seed=2)
    assert r.superiority["strong"]["weak"] > 0.99
    assert r.superiority["weak"]["strong"] < 0.01
    assert r.ranking() == ["strong", "mid", "weak"]
    for a in r.fit.agents:
        lo, hi = r.elo_interval[a]
        assert lo <= r.fit.elo[a] <= hi
    assert r.bootstrap_elo.shape == (50, 3)
    assert r.seat_elo_interval[2][0] == (0.0, 0.0)


def test_bootstrap_is_deterministic_given_seed():
    rng = np.random.default_rng(5)
    games = sample_pl_games(rng, {"x": 0, "y": 100, "z": 200}, {3: [0, 30, 60]}, {3: 12})
    r1, r2 = rate(games, bootstrap=30, seed=9), rate(games, bootstrap=30, seed=9)
    r3 = rate(games, bootstrap=30, seed=10)
    assert ratings_report(r1) == ratings_report(r2)
    assert np.array_equal(r1.bootstrap_elo, r2.bootstrap_elo)
    assert r1.fit.elo == r3.fit.elo
    assert r1.elo_interval != r3.elo_interval


def test_report_is_json_and_table_is_sorted_by_elo():
    games = [SimpleNamespace(group=g.group, agents=list(g.agents), ranks=list(g.ranks), scores=list(g.scores))
             for g in hand_example()]  # any record with the four fields is accepted
    r = rate(games, bootstrap=10)
    report = ratings_report(r)
    assert json.loads(json.dumps(report)) == report
    assert [row["agent"] for row in report["agents"]] == r.ranking()
    assert report["model"]["anchor"] == "A" and report["model"]["prior_sd"] == 2.0
    assert set(report["seats"]) == {"2", "3"} and report["seats"]["3"][0]["elo"] == 0.0
    assert report["head_to_head"]["A"]["B"]["meetings"] == 6
    table = format_ratings_table(r)
    lines = table.splitlines()
    assert lines[0].split()[:3] == ["Agent", "Elo", "95%"]
    assert [line.split()[0] for line in lines[2:5]] == r.ranking()
    assert "3 players" in table and "2 players" in table

    bare = rate(games, bootstrap=0)
    assert bare.elo_interval is None and bare.superiority is None
    assert ratings_report(bare)["agents"][0]["elo_low"] is None
    assert "-" in format_ratings_table(bare).splitlines()[2]


# ---------------------------------------------------------------------------------------
# Recovery of known parameters: bootstrap interval coverage.


@pytest.mark.slow
def test_bootstrap_intervals_cover_true_values():
    agent_elo = {"a0": 0, "a1": 100, "a2": -100, "a3": 200, "a4": 50, "a5": -50}
    seat_elo = {2: [0, -60], 3: [0, -30, -60], 4: [0, -20, -40, -60], 6: [0, 10, 20, -10, -20, -30]}
    rng = np.random.default_rng(2024)
    hits = checks = 0
    for rep in range(10):
        games = sample_pl_games(rng, agent_elo, seat_elo, {2: 40, 3: 30, 4: 25, 6: 15})
        r = rate(games, bootstrap=200, seed=rep)
        for a, true in agent_elo.items():
            if a != r.fit.anchor:
                lo, hi = r.elo_interval[a]
                hits += lo <= true <= hi
                checks += 1
        for n, per_seat in seat_elo.items():
            for s in range(1, n):
                lo, hi = r.seat_elo_interval[n][s]
                hits += lo <= per_seat[s] <= hi
                checks += 1
    assert checks == 10 * (5 + 1 + 2 + 3 + 5)
    assert 0.85 <= hits / checks <= 1.0, f"coverage {hits}/{checks}"
