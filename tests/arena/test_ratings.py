"""Tests of the tournament ratings: Plackett–Luce with seat effects, ties, posterior intervals,
separation, summaries, matrices."""

import itertools
import json
import math
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.arena.ratings import (
    ELO_PER_NAT,
    RatedGame,
    RatingsError,
    fit_plackett_luce,
    format_matrices,
    format_ratings_table,
    rate,
    ratings_report,
)
from forumlab.arena.separation import find_separation
from forumlab.arena.store import ResultStore
from forumlab.cli import main


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
    denom = (a + b + c + nu2 * (math.sqrt(a * b) + math.sqrt(a * c) + math.sqrt(b * c))
             + nu3 * (a * b * c) ** (1 / 3))
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
    by_game = sum(fit.order_log_probability(g.agents, g.ranks) for g in games)
    assert fit.log_likelihood == pytest.approx(by_game)


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
    r = rate(games, anchor="z")
    assert r.elo_interval["z"] == (0.0, 0.0)
    # The uncertainty of a difference does not depend on where the scale's zero is.
    assert named.difference_sd("x", "z") == pytest.approx(default.difference_sd("x", "z"))
    assert named.elo_sd["x"] == pytest.approx(default.difference_sd("x", "y") * ELO_PER_NAT)


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
    r = rate(hand_example())
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


def test_posterior_sd_is_the_inverse_fisher_information_of_bradley_terry():
    # The data of the analytic two-player test: A at home wins 15 of 20, B at home 8 of 20.
    # With u = theta_A - theta_B, the two home-win logits are d1 = u - delta and d2 = -u - delta,
    # fitted from independent games, so var(u) = var(delta) = (1/(20 p1 q1) + 1/(20 p2 q2)) / 4.
    games = []
    for k in range(20):
        games += rotations(f"g{k}", ["A", "B"], [(1, 2) if k < 15 else (2, 1), (1, 2) if k < 8 else (2, 1)])
    r = rate(games, prior_sd=1e3)
    var = (1 / (20 * 0.75 * 0.25) + 1 / (20 * 0.4 * 0.6)) / 4
    sd_elo = math.sqrt(var) * ELO_PER_NAT
    assert r.fit.elo_sd["B"] == pytest.approx(sd_elo, rel=1e-4)
    assert r.fit.seat_elo_sd[2] == pytest.approx([0.0, sd_elo], rel=1e-4)
    lo, hi = r.elo_interval["B"]
    assert (hi - lo) / 2 == pytest.approx(1.959964 * sd_elo, rel=1e-4)
    assert (lo + hi) / 2 == pytest.approx(r.fit.elo["B"])
    # Likelihood of superiority = Phi(gap / sd).
    z = (r.fit.theta["A"] - r.fit.theta["B"]) / math.sqrt(var)
    assert r.superiority["A"]["B"] == pytest.approx(0.5 * math.erfc(-z / math.sqrt(2)), rel=1e-4)


def test_superiority_and_intervals_from_the_posterior():
    rng = np.random.default_rng(11)
    games = sample_pl_games(rng, {"strong": 400, "mid": 0, "weak": -400}, {2: [0, -50], 4: [0, 0, 0, 0]},
                            {2: 30, 4: 0})
    r = rate(games)
    assert r.superiority["strong"]["weak"] > 0.99
    assert r.superiority["weak"]["strong"] < 0.01
    assert r.ranking() == ["strong", "mid", "weak"]
    for a in r.fit.agents:
        lo, hi = r.elo_interval[a]
        assert lo <= r.fit.elo[a] <= hi
    assert r.seat_elo_interval[2][0] == (0.0, 0.0)
    assert r.separation.connected
    # Repeated (seating, ranks) patterns are fitted once with their count as weight: the
    # likelihood is still the sum over every game.
    assert len({(g.agents, g.ranks) for g in games}) < len(games)
    by_game = sum(r.fit.order_log_probability(g.agents, g.ranks) for g in games)
    assert r.fit.log_likelihood == pytest.approx(by_game)


def test_fewer_games_give_wider_intervals():
    rng = np.random.default_rng(4)
    elo = {"x": 0, "y": 100, "z": 200}
    small = rate(sample_pl_games(rng, elo, {3: [0, 0, 0]}, {3: 4}), anchor="x")
    large = rate(sample_pl_games(rng, elo, {3: [0, 0, 0]}, {3: 64}), anchor="x")
    for a in ("y", "z"):
        # sd shrinks like 1/sqrt(games): 16 times the games, about a quarter of the width.
        assert 2.5 < small.fit.elo_sd[a] / large.fit.elo_sd[a] < 6


def test_report_is_json_and_table_is_sorted_by_elo():
    games = [SimpleNamespace(group=g.group, agents=list(g.agents), ranks=list(g.ranks), scores=list(g.scores))
             for g in hand_example()]  # any record with the four fields is accepted
    r = rate(games, anchor="A")
    report = ratings_report(r)
    assert json.loads(json.dumps(report)) == report
    assert [row["agent"] for row in report["agents"]] == r.ranking()
    assert report["model"]["anchor"] == "A" and report["model"]["prior_sd"] == 2.0
    assert set(report["seats"]) == {"2", "3"} and report["seats"]["3"][0]["elo"] == 0.0
    assert report["head_to_head"]["A"]["B"]["meetings"] == 6
    row = report["agents"][0]
    assert row["elo_low"] < row["elo"] < row["elo_high"] or row["agent"] == "A"
    table = format_ratings_table(r)
    lines = table.splitlines()
    assert lines[0].split()[:4] == ["Agent", "Elo", "Interval", "LOS"]
    assert [line.split()[0] for line in lines[2:5]] == r.ranking()
    assert "3 players" in table and "2 players" in table


# ---------------------------------------------------------------------------------------
# Separation: agents whose distance to the rest only the prior sets.


def two_player(pairs):
    """Two-player games, one rotation group per (winner, loser) pair: the winner wins both seats."""
    games = []
    for k, (winner, loser) in enumerate(pairs):
        games += [RatedGame(f"g{k}", (winner, loser), (1, 2), (1, 0)),
                  RatedGame(f"g{k}", (loser, winner), (2, 1), (0, 1))]
    return games


def a_never_loses():
    """3-player games in which A always finishes first and B and C trade second place."""
    games = []
    for k in range(6):
        games += rotations(f"g{k}", ["A", "B", "C"], [(1, 2, 3), (2, 3, 1), (3, 1, 2)] if k % 2 else
                           [(1, 3, 2), (3, 2, 1), (2, 1, 3)])
    return games


def test_an_agent_that_never_loses_is_marked_everywhere():
    games = a_never_loses()
    r = rate(games, anchor="C")
    assert r.separation.position == {"A": "above"}
    assert r.separation.main == ("B", "C")
    report = ratings_report(r)
    flags = {row["agent"]: (row["separated"], row["separation"]) for row in report["agents"]}
    assert flags == {"A": (True, "above"), "B": (False, None), "C": (False, None)}
    assert "A never finished behind" in report["separation"]["note"]
    table = format_ratings_table(r).splitlines()
    assert table[2].split()[:2] == ["A", f"{round(r.fit.elo['A']):+d}*"]
    assert "*" not in table[3] + table[4]
    assert table[5].startswith("* A never finished behind the connected rest")
    # What the mark means: A's distance follows the prior, B's does not.
    wide = rate(games, anchor="C", prior_sd=4.0)
    assert wide.fit.elo["A"] - r.fit.elo["A"] > 150
    assert abs(wide.fit.elo["B"] - r.fit.elo["B"]) < 5
    assert r.fit.elo_sd["A"] > 2 * r.fit.elo_sd["B"]
    # Seat advantages of exactly balanced results come out as -1e-14 or so: printed as +0, not -0.
    seats = format_ratings_table(rate(games, anchor="A")).splitlines()[-1]
    assert "seat 1: +0 [" in seats and "-0 " not in seats


def test_a_cycle_of_wins_or_a_draw_connects():
    r = rate(two_player([("A", "B"), ("B", "C"), ("C", "A")]))
    assert r.separation.connected and r.separation.groups == (("A", "B", "C"),)
    assert ratings_report(r)["separation"]["note"] is None
    assert "*" not in format_ratings_table(r)
    # Two agents that only ever draw are level, not separated: a shared rank is evidence both ways.
    draws = [RatedGame("g", ("A", "B"), (1, 1), (0, 0)), RatedGame("g", ("B", "A"), (1, 1), (0, 0))]
    assert rate(draws).separation.connected


def test_an_anchor_that_never_wins_is_marked_and_named():
    games = two_player([("A", "B"), ("B", "C"), ("C", "A"), ("A", "D"), ("B", "D"), ("C", "D")])
    r = rate(games, anchor="D")
    assert r.separation.position == {"D": "below"}
    note = ratings_report(r)["separation"]["note"]
    assert "D never finished ahead of the connected rest" in note
    assert "anchor D is itself separated" in note


def test_separation_without_a_connected_rest_and_apart_groups():
    r = rate(two_player([("A", "B")]))
    assert r.separation.main is None and r.separation.position == {"A": "apart", "B": "apart"}
    assert r.separation.groups == (("A",), ("B",))
    assert "no group of agents" in ratings_report(r)["separation"]["note"]
    # A chain A > B > C > D > E of one-way results: groups are ordered best first.
    chain = find_separation(tuple("ABCDE"), np.triu(np.ones((5, 5)), 1))
    assert chain.groups == tuple((a,) for a in "ABCDE") and chain.main is None
    # A connected trio and a pair that never met it.
    score = np.zeros((5, 5))
    for i, j in [(0, 1), (1, 2), (2, 0), (3, 4), (4, 3)]:
        score[i, j] = 1
    sep = find_separation(tuple("ABCDE"), score)
    assert sep.main == ("A", "B", "C") and sep.position == {"D": "apart", "E": "apart"}
    # Games against itself (an agent in two seats) are no comparison.
    solo = rate([RatedGame("g", ("A", "A", "B"), (1, 2, 3), (0, 0, 0)),
                 RatedGame("g", ("B", "A", "A"), (1, 2, 3), (0, 0, 0)),
                 RatedGame("g", ("A", "B", "A"), (1, 2, 3), (0, 0, 0))])
    assert solo.separation.connected


# ---------------------------------------------------------------------------------------
# Matrices.


def test_matrices_show_head_to_head_counts_and_superiority():
    r = rate(hand_example())
    text = format_matrices(r).splitlines()
    order = r.ranking()
    assert text[0].startswith("Head-to-head")
    rows = {line.split()[1]: line.split()[2:] for line in text[3:6]}
    assert list(rows) == order
    col = {a: k for k, a in enumerate(order)}
    # A finished ahead of B in 2 of the 6 seat pairs of their common games; B and C met twice.
    assert rows["A"][col["B"]] == "2/6" and rows["B"][col["A"]] == "4/6"
    assert rows["B"][col["C"]] == "0.5/2" and rows["C"][col["B"]] == "1.5/2"
    assert rows["A"][col["C"]] == "-" and rows["A"][col["A"]] == "-"
    los_at = text.index(next(line for line in text if line.startswith("Likelihood")))
    los = {line.split()[1]: line.split()[2:] for line in text[los_at + 3 : los_at + 6]}
    for a in order:
        for b in order:
            if a != b:
                assert float(los[a][col[b]]) == pytest.approx(r.superiority[a][b], abs=0.005)
                assert r.superiority[a][b] + r.superiority[b][a] == pytest.approx(1.0)


def results_file(path, games):
    """A results file holding ``games`` (RatedGames with one player count), as a tournament writes it."""
    labels = sorted({a for g in games for a in g.agents})
    definition = TournamentDefinition(agents=tuple(PoolEntry(a, "random") for a in labels))
    n = games[0].players
    with ResultStore.create(path, definition, {}, synchronous="NORMAL") as store:
        for k, g in enumerate(games):
            store.record(GameOutcome(key=f"{g.group}-{k}", group=g.group, lineup=0, rotation=k % n, seed=k,
                                     labels=g.agents, specs=("random",) * n, agent_seeds=(0,) * n, moves=[],
                                     scores=list(g.scores), ranks=list(g.ranks), plies=0,
                                     termination=END_RULES))
    return path


def test_ratings_command_marks_separation_and_prints_matrices(tmp_path):
    db = str(results_file(tmp_path / "sep.db", a_never_loses()))
    runner = CliRunner()
    text = runner.invoke(main, ["ratings", db, "--anchor", "C"])
    assert text.exit_code == 0, text.output
    assert "* A never finished behind the connected rest" in text.stdout
    assert "Head-to-head" not in text.stdout
    with_matrix = runner.invoke(main, ["ratings", db, "--anchor", "C", "--matrix"])
    assert with_matrix.stdout.startswith(text.stdout)
    tail = with_matrix.stdout[len(text.stdout):]
    assert "Head-to-head" in tail and "Likelihood of superiority" in tail and "18/18" in tail
    report = json.loads(runner.invoke(main, ["ratings", db, "--json"]).stdout)
    assert [(row["agent"], row["separated"]) for row in report["agents"]][0] == ("A", True)
    assert report["separation"]["groups"] == [["A"], ["B", "C"]]
    csv_rows = runner.invoke(main, ["ratings", db, "--csv"]).stdout.splitlines()
    assert csv_rows[0].endswith(",separated") and csv_rows[1].startswith("A,") and csv_rows[1].endswith(",1")
    bad = runner.invoke(main, ["ratings", db, "--json", "--matrix"])
    assert bad.exit_code == 2 and bad.stderr.strip().startswith("error: ") and "\n" not in bad.stderr.strip()


# ---------------------------------------------------------------------------------------
# Recovery of known parameters: posterior interval coverage (benchmarks/coverage.py measures
# it per tournament size; this is a quick check that the intervals are neither far too narrow
# nor far too wide).


def test_posterior_intervals_cover_true_values():
    agent_elo = {"a0": 0, "a1": 100, "a2": -100, "a3": 200, "a4": 50, "a5": -50}
    seat_elo = {2: [0, -60], 3: [0, -30, -60], 4: [0, -20, -40, -60], 6: [0, 10, 20, -10, -20, -30]}
    rng = np.random.default_rng(2024)
    hits = checks = 0
    for _ in range(20):
        games = sample_pl_games(rng, agent_elo, seat_elo, {2: 40, 3: 30, 4: 25, 6: 15})
        r = rate(games, anchor="a0")
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
    assert checks == 20 * (5 + 1 + 2 + 3 + 5)
    assert 0.90 <= hits / checks <= 0.99, f"coverage {hits}/{checks}"
