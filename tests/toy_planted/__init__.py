"""A synthetic game with planted balance properties, for calibrating the balance lab.

Each seat's final value is its planted strength plus Gumbel noise; the seats finish in
the order of their values, so finishing orders are exact Plackett-Luce draws with the
planted seat strengths (Gumbel-max), and a planted first-player advantage of ``x`` Elo is
exactly what the lab's first-player advantage measures (seat 0 against the average other
seat). Scores are the values on a coarse integer scale; with ``ties=True`` the seats are
ranked by those scores, so shared ranks occur (about one game in seven at 4 players) and
the tie parameters of the fit have work to do.

A variant is a list of planted seat strengths. Game ``i`` of every variant is played on
the same seed: with probability ``pairing`` it reuses the first variant's noise (the
same deal of luck), otherwise it draws its own, so the games of two variants are
correlated the way games on the same seed of two rule setups may be. Game length is a
Poisson number of plies around a planted mean per variant, sharing its seed likewise.

Nothing here runs an engine: a study of thousands of games is drawn in milliseconds,
and the analysis is the lab's own (:func:`forumlab.arena.balance_analysis.analyse_study`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from forumlab.arena.balance_fit import elo
from forumlab.arena.balance_stats import VariantGames

SCORE_SCALE = 2.0  # score points per natural-log unit of value: coarse enough for ties


@dataclass(frozen=True)
class PlantedVariant:
    """A rule setup of the synthetic game: seat strengths in Elo (seat 0 first) and a mean length."""

    name: str
    seat_elo: tuple[float, ...]
    mean_plies: float = 100.0


def planted_fpa(advantage: float, players: int) -> tuple[float, ...]:
    """Seat strengths (Elo) with seat 0 ``advantage`` Elo above every other seat."""
    return (float(advantage),) + (0.0,) * (players - 1)


def competition_ranks(values: np.ndarray) -> np.ndarray:
    """Per row, 1 + the number of seats with a strictly larger value (ties share a rank)."""
    return 1 + (values[:, None, :] > values[:, :, None]).sum(axis=2)


def draw_study(rng: np.random.Generator, variants: list[PlantedVariant], games: int,
               pairing: float = 0.0, ties: bool = True) -> list[VariantGames]:
    """One simulated study: ``games`` games of every variant on the same seeds.

    Args:
        rng: the random source.
        variants: the planted setups (the same number of seats each).
        games: games per variant.
        pairing: the chance that a variant's game reuses the first variant's luck.
        ties: rank by the integer scores (shared ranks) rather than by the exact values.

    Returns:
        The games of every variant, as the lab analyses them.
    """
    players = len(variants[0].seat_elo)
    luck = rng.gumbel(size=(games, players))
    length_luck = rng.random(games)
    out = []
    for v in variants:
        strength = np.asarray(v.seat_elo) / elo(1.0)
        same = rng.random(games) < pairing if out else np.ones(games, dtype=bool)
        noise = np.where(same[:, None], luck, rng.gumbel(size=(games, players)))
        values = strength + noise
        scores = np.floor(SCORE_SCALE * values + 10.0)
        ranks = competition_ranks(scores if ties else values)
        u = np.where(same, length_luck, rng.random(games))
        plies = _poisson_quantile(u, v.mean_plies)
        out.append(VariantGames(name=v.name, options={}, units=[str(i) for i in range(games)],
                                ranks=ranks, scores=scores, plies=plies))
    return out


def _poisson_quantile(u: np.ndarray, mean: float) -> np.ndarray:
    """Poisson draws by inversion of shared uniforms (so equal luck gives equal lengths),
    through the normal approximation, which is close at a mean of 100."""
    from statistics import NormalDist

    z = np.array([NormalDist().inv_cdf(min(max(x, 1e-12), 1 - 1e-12)) for x in u])
    return np.maximum(0, np.round(mean + np.sqrt(mean) * z)).astype(np.int64)
