"""The balance lab's statistics: the seat fit is the ratings' fit, the chi-square tail, the
paired covariance, the family correction, and the variant syntax."""
import math

import numpy as np
import pytest

from forumlab.arena.balance_analysis import analyse_study
from forumlab.arena.balance_fit import fit_seats, robust_covariance
from forumlab.arena.balance_stats import adjusted_z, chi2_sf, family_size, paired_covariance
from forumlab.arena.balance_study import parse_variant, split_options
from forumlab.arena.plackett_luce import RatedGame
from forumlab.arena.ratings import rate
from forumlab.core.errors import ConfigError
from tests.toy_planted import PlantedVariant, competition_ranks, draw_study, planted_fpa


@pytest.mark.parametrize("players, ties", [(2, False), (3, True), (4, False), (4, True)])
def test_seat_fit_is_the_ratings_seat_fit(players, ties):
    rng = np.random.default_rng(players)
    values = np.array([0.4] + [0.0] * (players - 1)) + rng.gumbel(size=(300, players))
    ranks = competition_ranks(np.floor(values * 2) if ties else values)
    fit = fit_seats(ranks)
    r = rate([RatedGame(group=str(i), agents=("a",) * players, ranks=tuple(int(x) for x in row),
                        scores=tuple(float(-x) for x in row)) for i, row in enumerate(ranks)])
    assert np.allclose(fit.delta() * 400 / math.log(10), r.fit.seat_elo[players], atol=1e-6)


def test_influences_sum_to_the_estimate_they_explain():
    """One game's influence is its leave-in effect: the fit moves by about it when the game
    is counted twice (first-order), the sandwich of a fair game is near the model's."""
    rng = np.random.default_rng(7)
    ranks = competition_ranks(rng.gumbel(size=(2000, 3)))
    fit = fit_seats(ranks)
    robust = robust_covariance(fit.seat_influence())
    model = np.linalg.inv(fit.hessian)[:2, :2]
    assert np.allclose(np.sqrt(np.diag(robust)), np.sqrt(np.diag(model)), rtol=0.1)
    doubled = fit_seats(np.vstack([ranks, ranks[:1]]))
    assert np.allclose(doubled.params[:2] - fit.params[:2], fit.seat_influence()[0], atol=2e-4)


@pytest.mark.parametrize("df, x", [(1, 3.841459), (2, 5.991465), (3, 7.814728), (4, 9.487729), (5, 11.0705)])
def test_chi_square_tail_at_the_5_percent_points(df, x):
    assert chi2_sf(x, df) == pytest.approx(0.05, abs=2e-6)
    assert chi2_sf(0.0, df) == 1.0


def test_identical_games_in_two_variants_differ_by_nothing():
    rng = np.random.default_rng(3)
    infl = rng.normal(size=(50, 2))
    units = [str(i) for i in range(50)]
    paired, independent, pairs = paired_covariance(units, infl, units, infl)
    assert pairs == 50 and np.allclose(paired, 0) and np.all(np.diag(independent) > 0)
    # Unrelated units: no pairing, so the paired covariance is the independent one.
    other = [f"x{i}" for i in range(50)]
    paired, independent, pairs = paired_covariance(units, infl, other, infl)
    assert pairs == 0
    # (each side's n/(n-1) factor against the union's 2n/(2n-1))
    assert np.allclose(paired * (99 / 100), independent * (49 / 50), rtol=1e-9)


def test_the_family_counts_every_seat_and_test_shown():
    assert family_size(1, 4) == 5  # 4 seats + the joint test
    assert family_size(2, 4) == 15  # 3 columns x (4 seats + 1 test)
    assert adjusted_z(1) == pytest.approx(1.959964, abs=1e-6)


def test_same_luck_in_two_variants_is_measured_as_a_pairing_gain():
    rng = np.random.default_rng(11)
    variants = [PlantedVariant("a", planted_fpa(0, 4)), PlantedVariant("b", planted_fpa(40, 4))]
    paired = analyse_study(draw_study(rng, variants, 600, pairing=0.9))["differences"][0]
    alone = analyse_study(draw_study(rng, variants, 600, pairing=0.0))["differences"][0]
    assert paired["pairing"]["seat_variance_vs_independent"] < 0.6
    assert alone["pairing"]["seat_variance_vs_independent"] == pytest.approx(1.0, abs=0.15)
    assert paired["length"]["variance_vs_independent"] < 0.3


def test_the_report_holds_every_part():
    rng = np.random.default_rng(2)
    study = draw_study(rng, [PlantedVariant("a", planted_fpa(0, 3)), PlantedVariant("b", planted_fpa(0, 3), 120)],
                       200, pairing=0.5)
    report = analyse_study(study)
    assert [v["name"] for v in report["variants"]] == ["a", "b"]
    assert report["differences"][0]["variant"] == "b" and report["differences"][0]["against"] == "a"
    for v in report["variants"]:
        assert abs(sum(s["elo"] for s in v["seats"])) < 1e-6  # against the average seat
        assert abs(sum(s["win_rate"] for s in v["seats"]) - 1) < 1e-9
        assert v["first_player_advantage"]["elo"] == pytest.approx(1.5 * v["seats"][0]["elo"])
        assert v["sources"] is None
    assert report["differences"][0]["length"]["difference"] == pytest.approx(20, abs=3)


@pytest.mark.parametrize("text, expected", [
    ('modules=["monuments"]', ['modules=["monuments"]']),
    ("a=1,b=[1,2],c=x", ["a=1", "b=[1,2]", "c=x"]),
    ('a="x,y", b=2', ['a="x,y"', "b=2"]),
    ("", []),
])
def test_variant_options_split_at_top_level_commas(text, expected):
    assert split_options(text) == expected


def test_variant_syntax():
    assert parse_variant("base=") == ("base", {})
    assert parse_variant("base") == ("base", {})
    assert parse_variant('m=modules=["monuments","trading"],draft=true') == (
        "m", {"modules": ["monuments", "trading"], "draft": True})
    for bad in ("=x=1", "a b=x=1", "m=modules", "m=a=1,a=2"):
        with pytest.raises(ConfigError):
            parse_variant(bad)


def test_a_variant_whose_games_all_tie_flags_no_seat():
    # Every game a four-way tie says nothing about seats: the intervals must be undefined,
    # not the near-zero width the per-game influences (all 0) would give.
    rng = np.random.default_rng(4)
    study = draw_study(rng, [PlantedVariant("base", planted_fpa(0, 4))], 40)
    base = study[0]
    tied = type(base)(name="tied", options={}, units=list(base.units), ranks=np.ones_like(base.ranks),
                      scores=np.zeros_like(base.scores), plies=base.plies.copy())
    report = analyse_study([base, tied])
    v = report["variants"][1]
    assert not any(s["flagged"] for s in v["seats"]) and all(s["interval"] is None for s in v["seats"])
    assert not v["first_player_advantage"]["flagged"] and not v["no_seat_matters"]["rejected"]
    d = report["differences"][0]
    assert not any(s["flagged"] for s in d["seats"]) and not d["no_seat_matters"]["rejected"]
