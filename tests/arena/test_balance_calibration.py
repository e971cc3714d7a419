"""The balance lab on the synthetic game of tests/toy_planted: few false alarms with nothing
planted, a planted first-player advantage found (the full figures: docs/balance.md,
``python -m benchmarks.balance_calibration``).

The studies are seeded, so the counts are fixed numbers; the bounds are binomial bounds
for the promised rates, far enough out that a correct lab cannot land beyond them by
chance (below: the chance of doing so, were the rate exactly the promised one), and near
enough that a lab without the correction lands beyond them.
"""
from benchmarks.balance_calibration import run_cell


def test_with_nothing_planted_a_study_rarely_flags_anything():
    # 4 players, 2 variants: 15 comparisons. At a false-alarm rate of 5%, 120 studies
    # give 6 alarms on average; 18 or more has a chance of about 3e-5 (this seed: 4).
    result = run_cell("null-4x2-100games", studies=120, seed=3)
    assert result["alarm"]["count"] <= 17, result["alarm"]
    # The same intervals read uncorrected alarm in about a third of the studies (this seed: 47).
    assert result["alarm_uncorrected"]["count"] >= 25, result["alarm_uncorrected"]


def test_a_planted_first_player_advantage_is_found():
    # 80 Elo at 400 games: found in nearly every study (docs/balance.md); 50 studies
    # finding it fewer than 40 times has a chance of 3e-5 at a power of 95% (this seed: 50).
    # The interval (99.67%: one of 15 comparisons) holds the planted size: 47 or more of
    # 50 fail with a chance of 2e-6 at that coverage.
    result = run_cell("fpa80-4x2", studies=50, seed=3)
    assert result["fpa_found"]["count"] >= 40, result["fpa_found"]
    assert result["fpa_covered"]["count"] >= 47, result["fpa_covered"]
    # A variant that changes the advantage by 100 Elo is told apart from the baseline (this seed: 30).
    change = run_cell("change100-4x2", studies=30, seed=3)
    assert change["fpa_diff_found"]["count"] >= 20, change["fpa_diff_found"]
