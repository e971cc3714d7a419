"""The statistics of a balance study: seat effects per variant and between variants, game
length, scores and score sources, with intervals.

Every estimate here is a sum of per-game influences (a mean's ``(x_i - mean) / n``, a seat
fit's ``H^-1 u_i``, :mod:`forumlab.arena.balance_fit`), so one rule gives every interval:
its variance is the sum of squared influences (the sandwich), and the variance of a
difference between two variants is the sum over game seeds of the squared *difference* of
the two games' influences. Games of two variants on the same seed are thereby paired
whenever both were played, and the covariance that the pairing creates is measured, not
assumed; ``pairing`` reports the variance against that of independent runs of the same size.

Seat effects form one family of comparisons, corrected together (Bonferroni): every seat
of every variant, every seat of every difference (each variant against the first), and a
joint test of "no seat matters" for each variant and each difference. With ``m`` such
comparisons each interval has coverage ``1 - alpha/m`` and each test level ``alpha/m``, so
the chance that anything in the family is flagged when nothing is there is at most
``alpha`` (measured in benchmarks/balance_calibration.py). Game length, scores and score
sources are descriptions with plain 95% intervals, outside the family.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from .balance_fit import against_average, elo, robust_covariance

ALPHA = 0.05
Z95 = NormalDist().inv_cdf(0.975)
QUANTILES = (0.1, 0.5, 0.9)


@dataclass
class VariantGames:
    """One variant's games: per game its pairing unit (the game seed's key), ranks, scores
    and plies, and its points per scoring source (per seat, or None where not reported)."""

    name: str
    options: dict
    units: list[str]
    ranks: np.ndarray
    scores: np.ndarray
    plies: np.ndarray
    sources: list | None = field(default=None)

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.units)


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (Wilson 1927); shared wins count fractionally.

    Args:
        wins: successes (may be fractional).
        n: trials.
        z: standard normal quantile (1.96: a 95% interval).

    Returns:
        ``(low, high)``, clipped to [0, 1]; ``(0.0, 1.0)`` when ``n`` is 0.
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable of integer ``df`` degrees of freedom (closed form)."""
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, df // 2):
            term *= half / j
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * math.exp(-half) / math.gamma(1.5)
    for j in range(1, (df - 1) // 2 + 1):
        total += term
        term *= half / (j + 0.5)
    return min(1.0, total)


def family_size(variants: int, players: int) -> int:
    """Comparisons in the corrected family: seats of every variant and of every difference
    to the first variant, plus one joint test for each of those."""
    return (2 * variants - 1) * (players + 1)


def adjusted_z(comparisons: int, alpha: float = ALPHA) -> float:
    """The two-sided normal quantile of level ``alpha / comparisons`` (Bonferroni)."""
    return NormalDist().inv_cdf(1 - alpha / (2 * comparisons))


def _interval(centre: float, sd: float, z: float) -> list[float] | None:
    if not math.isfinite(sd):
        return None
    return [centre - z * sd, centre + z * sd]


def _excludes_zero(interval) -> bool:
    return interval is not None and (interval[0] > 0 or interval[1] < 0)


def _wald(estimate: np.ndarray, cov: np.ndarray, comparisons: int, alpha: float) -> dict:
    """The joint test that every component is 0, with its Bonferroni-adjusted p-value."""
    df = len(estimate)
    try:
        stat = float(estimate @ np.linalg.solve(cov, estimate))
    except np.linalg.LinAlgError:
        stat = math.nan
    p = chi2_sf(stat, df) if math.isfinite(stat) else 1.0
    return {"test": "Wald", "statistic": stat if math.isfinite(stat) else None, "df": df, "p": p,
            "p_adjusted": min(1.0, p * comparisons), "rejected": p < alpha / comparisons}


def seat_summary(delta: np.ndarray, cov: np.ndarray, players: int, z: float, comparisons: int,
                 alpha: float = ALPHA) -> dict:
    """Seat effects against the average seat, the first-player advantage and the joint test.

    Args:
        delta: seats 1..n-1 over seat 0 (natural-log units).
        cov: their covariance.
        players: seats.
        z: the family's interval quantile.
        comparisons: the family's size (for the joint test's level).
        alpha: the family's false-alarm rate.

    Returns:
        ``seats`` (per seat ``elo``, ``interval``, ``flagged``), ``first_player_advantage``
        (seat 0 against the average other seat: ``n/(n-1)`` times seat 0's effect, so it is
        flagged exactly when seat 0 is) and ``no_seat_matters``.
    """
    a = against_average(players)
    effect = elo(a @ delta)
    sd = np.sqrt(np.maximum(np.diag(elo(elo(a @ cov @ a.T))), 0.0))
    seats = []
    for s in range(players):
        iv = _interval(float(effect[s]), float(sd[s]), z)
        seats.append({"seat": s, "elo": float(effect[s]), "interval": iv, "flagged": _excludes_zero(iv)})
    scale = players / (players - 1)
    fpa_iv = _interval(scale * float(effect[0]), scale * float(sd[0]), z)
    return {"seats": seats,
            "first_player_advantage": {"elo": scale * float(effect[0]), "interval": fpa_iv,
                                       "flagged": _excludes_zero(fpa_iv)},
            "no_seat_matters": _wald(delta, cov, comparisons, alpha)}


def _mean_with_influence(per_game: list[np.ndarray]) -> tuple[float, np.ndarray]:
    """The mean of every value of every game, and each game's influence on it (the games,
    not the values, are independent)."""
    sizes = np.array([len(v) for v in per_game], dtype=np.int64)
    count = int(sizes.sum())
    if count == 0:
        return math.nan, np.zeros(len(per_game))
    flat = np.concatenate([np.asarray(v, dtype=float).reshape(-1) for v in per_game])
    mean = float(flat.mean())
    owner = np.repeat(np.arange(len(per_game)), sizes)
    return mean, np.bincount(owner, weights=flat - mean, minlength=len(per_game)) / count


def describe(per_game: list[np.ndarray]) -> dict:
    """Mean with its 95% interval, sd and quantiles of the values of every game."""
    values = np.concatenate([np.asarray(v, dtype=float) for v in per_game]) if per_game else np.zeros(0)
    if len(values) == 0:
        return {"n": 0, "mean": None, "mean_95": None, "sd": None, "quantiles": None}
    mean, infl = _mean_with_influence(per_game)
    sd_mean = math.sqrt(float(robust_covariance(infl[:, None])[0, 0])) if len(per_game) > 1 else math.inf
    return {"n": len(values), "mean": mean, "mean_95": _interval(mean, sd_mean, Z95),
            "sd": float(np.std(values, ddof=1)) if len(values) > 1 else None,
            "quantiles": {f"q{int(q * 100)}": float(np.quantile(values, q)) for q in QUANTILES}}


def paired_covariance(units_a, infl_a: np.ndarray, units_b,
                      infl_b: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Covariance of ``estimate_a - estimate_b`` from per-game influences, pairing the games
    of one unit (game seed); and what it would be for independent runs; and the pairs."""
    index = {u: i for i, u in enumerate(dict.fromkeys([*units_a, *units_b]))}
    width = infl_a.shape[1]
    diff = np.zeros((len(index), width))
    rows_a = np.array([index[u] for u in units_a], dtype=np.int64)
    rows_b = np.array([index[u] for u in units_b], dtype=np.int64)
    np.add.at(diff, rows_a, infl_a)
    np.add.at(diff, rows_b, -infl_b)
    independent = robust_covariance(infl_a) + robust_covariance(infl_b)
    pairs = len(set(units_a) & set(units_b))
    return robust_covariance(diff), independent, pairs
