"""A balance study's report: every variant, and every variant against the first.

The one entry point, :func:`analyse_study`, takes each variant's games
(:class:`~forumlab.arena.balance_stats.VariantGames`) and returns a JSON-ready dict; the
command's text output (:mod:`forumlab.arena.balance_text`) and the calibration benchmark
(benchmarks/balance_calibration.py) both read it, so what is calibrated is what is printed.
"""
from __future__ import annotations

import math

import numpy as np

from .balance_fit import against_average, elo, fit_seats, robust_covariance
from .balance_stats import (
    ALPHA,
    Z95,
    VariantGames,
    _interval,
    _mean_with_influence,
    adjusted_z,
    describe,
    family_size,
    paired_covariance,
    seat_summary,
    wilson_interval,
)

SCORE_MEASURES = ("winner", "loser", "margin")


def _score_values(v: VariantGames) -> dict[str, list[np.ndarray]]:
    """Per game: the winner's score (the top score), the other seats' scores, and the margin
    (top score minus the next one; 0 when the top is shared)."""
    ordered = np.sort(v.scores, axis=1)
    losing = v.ranks > 1
    loser = np.split(v.scores[losing], np.cumsum(losing.sum(axis=1))[:-1])
    margin = ordered[:, -1:] - ordered[:, -2:-1]
    return {"winner": list(ordered[:, -1:]), "loser": loser, "margin": list(margin)}


def _source_values(v: VariantGames) -> dict[str, dict[str, list[np.ndarray]]] | None:
    """Per source and game: every seat's points, and the sole winner's lead over the mean of
    the others (no value in a game with a shared win)."""
    if not v.sources:
        return None
    names = list(dict.fromkeys(k for game in v.sources for seat in game for k in seat))
    # Whole arrays rather than numpy calls per game: 20,000 games of five sources took a
    # second that way. The others' mean is their sum (the winner's entry zeroed, which
    # adds exactly nothing) over their number, as np.mean computes it.
    games, seats = v.ranks.shape
    sole = (v.ranks == 1).sum(axis=1) == 1
    winner = np.argmax(v.ranks == 1, axis=1)
    is_winner = np.arange(seats) == winner[:, None]
    out = {}
    for name in names:
        points = np.array([[float(seat.get(name, 0)) for seat in game] for game in v.sources],
                          dtype=float).reshape(games, seats)
        with np.errstate(invalid="ignore", divide="ignore"):  # one seat: no others (nan)
            lead = points[is_winner] - np.where(is_winner, 0.0, points).sum(axis=1) / (seats - 1)
        out[name] = {"per_seat": list(points),
                     "winner_lead": [lead[g:g + 1] if sole[g] else points[g, :0] for g in range(games)]}
    return out


def _win_rates(v: VariantGames) -> list[dict]:
    best = (v.ranks == 1).astype(float)
    wins = (best / best.sum(axis=1, keepdims=True)).sum(axis=0)
    return [{"seat": s, "win_rate": wins[s] / v.games, "win_rate_95": list(wilson_interval(wins[s], v.games)),
             "mean_score": float(v.scores[:, s].mean())} for s in range(v.ranks.shape[1])]


def _tells_seats_apart(v: VariantGames) -> bool:
    """Whether at least two games rank the seats apart: a game every seat ties says nothing
    about seats, and with fewer than two telling games the per-game influences are all (or
    all but one) zero, so their sandwich covariance would claim certainty it does not have."""
    return int(np.sum(v.ranks.max(axis=1) > v.ranks.min(axis=1))) >= 2


def _unknown(fit) -> np.ndarray:
    """A covariance that leaves every seat interval undefined (shown as '-', never flagged)."""
    return np.full((fit.seat_params, fit.seat_params), math.nan)


def variant_report(v: VariantGames, fit, z: float, comparisons: int, alpha: float = ALPHA) -> dict:
    """One variant: seats (win rate, mean score, effect against the average seat), the
    first-player advantage, the joint test, game length, scores and score sources."""
    cov = robust_covariance(fit.seat_influence()) if _tells_seats_apart(v) else _unknown(fit)
    seats = seat_summary(fit.params[:fit.seat_params], cov, v.ranks.shape[1], z, comparisons, alpha)
    for row, rates in zip(seats["seats"], _win_rates(v)):
        row.update(rates)
    sources = _source_values(v)
    return {"name": v.name, "options": v.options, "games": v.games, **seats,
            "length": describe([np.array([p]) for p in v.plies]),
            "scores": {k: describe(vals) for k, vals in _score_values(v).items()},
            "sources": None if sources is None else
            {name: {k: describe(vals) for k, vals in parts.items()} for name, parts in sources.items()}}


def _mean_difference(a: VariantGames, values_a, b: VariantGames, values_b) -> dict:
    """The difference of two means with its 95% interval, paired by game seed."""
    mean_a, infl_a = _mean_with_influence(values_a)
    mean_b, infl_b = _mean_with_influence(values_b)
    paired, independent, _ = paired_covariance(a.units, infl_a[:, None], b.units, infl_b[:, None])
    sd = float(np.sqrt(paired[0, 0]))
    ratio = float(paired[0, 0] / independent[0, 0]) if independent[0, 0] > 0 else None
    return {"difference": mean_a - mean_b, "interval": _interval(mean_a - mean_b, sd, Z95),
            "variance_vs_independent": ratio}


def _source_differences(a: VariantGames, b: VariantGames) -> dict | None:
    """Per source (of either variant; a source a variant lacks scores 0 there)."""
    sa, sb = _source_values(a), _source_values(b)
    if sa is None or sb is None:
        return None
    out = {}
    for name in dict.fromkeys([*sb, *sa]):
        empty_a = {"per_seat": [np.zeros(a.ranks.shape[1])] * a.games, "winner_lead": [np.zeros(0)] * a.games}
        empty_b = {"per_seat": [np.zeros(b.ranks.shape[1])] * b.games, "winner_lead": [np.zeros(0)] * b.games}
        pa, pb = sa.get(name, empty_a), sb.get(name, empty_b)
        out[name] = {k: _mean_difference(a, pa[k], b, pb[k]) for k in ("per_seat", "winner_lead")}
    return out


def difference_report(a: VariantGames, fit_a, b: VariantGames, fit_b, z: float, comparisons: int,
                      alpha: float = ALPHA) -> dict:
    """Variant ``a`` against ``b``: seat effects, first-player advantage and the joint test
    of "the seats matter alike" on the difference, then length, scores and sources."""
    k = fit_a.seat_params
    delta = fit_a.params[:k] - fit_b.params[:k]
    paired, independent, pairs = paired_covariance(a.units, fit_a.seat_influence(), b.units,
                                                   fit_b.seat_influence())
    if not (_tells_seats_apart(a) and _tells_seats_apart(b)):
        paired = _unknown(fit_a)
    out = {"variant": a.name, "against": b.name, "paired_games": pairs,
           **seat_summary(delta, paired, fit_a.players, z, comparisons, alpha)}
    m = against_average(fit_a.players)
    ratio = np.diag(m @ paired @ m.T) / np.maximum(np.diag(m @ independent @ m.T), 1e-300)
    out["pairing"] = {"seat_variance_vs_independent": float(np.mean(ratio)),
                      "note": "variance of the paired difference over that of independent runs of the "
                              "same size, measured on these games (1: pairing gained nothing)"}
    out["length"] = _mean_difference(a, [np.array([p]) for p in a.plies], b, [np.array([p]) for p in b.plies])
    va, vb = _score_values(a), _score_values(b)
    out["scores"] = {name: _mean_difference(a, va[name], b, vb[name]) for name in SCORE_MEASURES}
    out["sources"] = _source_differences(a, b)
    return out


def analyse_study(variants: list[VariantGames], alpha: float = ALPHA) -> dict:
    """Every statistic of a balance study.

    Args:
        variants: each variant's games, the first being the one the others are compared to;
            every variant has the same number of seats and at least one game.
        alpha: the family-wise false-alarm rate of the seat comparisons.

    Returns:
        ``players``, ``family`` (the correction: ``comparisons``, ``z``, ``alpha``,
        ``coverage`` of each interval), ``variants`` (:func:`variant_report` each) and
        ``differences`` (:func:`difference_report` of each later variant against the first).
    """
    players = variants[0].ranks.shape[1]
    comparisons = family_size(len(variants), players)
    z = adjusted_z(comparisons, alpha)
    fits = [fit_seats(v.ranks) for v in variants]
    return _finite({
        "players": players,
        "family": {"method": "Bonferroni", "alpha": alpha, "comparisons": comparisons, "z": z,
                   "coverage": 1 - alpha / comparisons,
                   "what": "every seat of every variant and of every difference to the first variant, "
                           "and each joint test of no seat effect"},
        "variants": [variant_report(v, f, z, comparisons, alpha) for v, f in zip(variants, fits)],
        "differences": [difference_report(v, f, variants[0], fits[0], z, comparisons, alpha)
                        for v, f in zip(variants[1:], fits[1:])],
        "elo_scale": float(elo(1.0)),
    })


def _finite(value):
    """The report with every undefined figure (NaN: e.g. a spread from one game) as None, so
    that its JSON is JSON."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value
