"""A sequential probability ratio test for gauntlets: is the candidate stronger?

The model (a generalized SPRT, GSPRT, as used for engine testing by Fishtest and
cutechess; written here from the published formulas):

* **Observation.** One per whole rotation group of the gauntlet (the group, not the game,
  is the unit: its games share a seed and the seatings of a balanced design, so they are
  neither independent nor seat-balanced one by one). Its value ``x`` is the candidate's
  mean score over the group's games, where a game scores the fraction of the opponents
  the candidate finished ahead of, a shared rank counting half (ranks after the fault
  policy). In a 2-player game that is the usual 1 / 1/2 / 0.
* **Elo and expected score.** A candidate ``elo`` points stronger than each opponent
  scores ``s(elo) = 1 / (1 + 10^(-elo / 400))`` against each of them: the logistic Elo
  curve, which is also the probability that it finishes ahead of one given opponent
  under the Plackett-Luce model the ratings use (whose pairwise marginals are
  Bradley-Terry). The hypotheses are ``H0: elo = elo0`` and ``H1: elo = elo1``
  (``elo0 < elo1``), i.e. mean score ``s0 = s(elo0)`` or ``s1 = s(elo1)``.
* **Log-likelihood ratio.** The GSPRT replaces the unknown distribution of the group
  scores by its maximum-likelihood estimate under each hypothesis (M. Van den Bergh's
  notes on the GSPRT behind Fishtest). With a normal model of unknown variance, the
  estimate under ``Hj`` (mean fixed at ``sj``) has variance
  ``var_j = var + (mean - sj)^2``, where ``mean`` and ``var`` are the sample's, and
  after ``n`` groups ``LLR = n / 2 * ln(var_0 / var_1)`` (to first order
  ``(s1 - s0) * (S - n * (s0 + s1) / 2) / var`` with ``S`` the sum of the scores, the
  form often quoted). At small ``n`` the variances also hold ``PRIOR_GROUPS``
  pseudo-groups of variance ``prior_var`` (a quarter, the largest variance of a score in
  [0, 1], over the games of a group), so that a few similar first groups cannot end the
  test by themselves.
* **Bounds** (Wald 1945): stop and accept H1 when ``LLR >= ln((1 - beta) / alpha)``,
  accept H0 when ``LLR <= ln(beta / (1 - alpha))``; ``alpha`` is the chance of accepting
  H1 when H0 holds (a false positive), ``beta`` of accepting H0 when H1 holds.

The test looks at the LLR after each whole rotation group, in the schedule's order (see
:mod:`forumlab.arena.sequential`), so the decision is the same however the workers finish.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.options import parse_key_values

KEYS = ("elo0", "elo1", "alpha", "beta")
DEFAULTS = {"alpha": 0.05, "beta": 0.05}
MAX_ELO = 2000.0  # |elo0|, |elo1| beyond this: s(elo) is 1 or 0 to 2 decimals, no test
PRIOR_GROUPS = 2  # pseudo-groups of the prior variance added to the sample's (see above)
H0, H1 = "H0", "H1"


@dataclass(frozen=True)
class SprtSettings:
    """The test's hypotheses and error rates (``elo0 < elo1``; 0 < alpha, beta < 0.5)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        for key in KEYS:
            value = getattr(self, key)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise ConfigError(f"sprt {key} must be a finite number, not {value!r}")
        for key in ("elo0", "elo1"):
            if abs(getattr(self, key)) > MAX_ELO:
                raise ConfigError(f"sprt {key} must be from {-MAX_ELO:g} to {MAX_ELO:g}, "
                                  f"not {getattr(self, key)}")
        if not self.elo0 < self.elo1:
            raise ConfigError(f"sprt elo0 must be below elo1, not {self.elo0:g} and {self.elo1:g}")
        for key in ("alpha", "beta"):
            if not 0 < getattr(self, key) < 0.5:
                raise ConfigError(f"sprt {key} must be between 0 and 0.5, not {getattr(self, key)}")

    @property
    def s0(self) -> float:
        """Expected score per opponent under H0."""
        return expected_score(self.elo0)

    @property
    def s1(self) -> float:
        """Expected score per opponent under H1."""
        return expected_score(self.elo1)

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) LLR bounds: accept H0 at or below, H1 at or above."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def to_json(self) -> dict[str, float]:
        """The settings as stored in a tournament definition."""
        return {k: float(v) for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: Any) -> SprtSettings:
        """Settings from a definition's ``sprt`` table; ConfigError on bad or unknown keys."""
        if not isinstance(data, dict):
            raise ConfigError(f"sprt must be a table of {', '.join(KEYS)}, not {data!r}")
        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise ConfigError(f"unknown sprt key {unknown[0]!r} (keys: {', '.join(KEYS)})")
        missing = [k for k in ("elo0", "elo1") if k not in data]
        if missing:
            raise ConfigError(f"sprt needs {' and '.join(missing)}")
        return cls(**{**DEFAULTS, **data})


def parse_sprt(text: str) -> SprtSettings:
    """``--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05`` (alpha and beta default to 0.05).

    Args:
        text: comma-separated ``KEY=VALUE`` pairs.

    Returns:
        The settings.

    Raises:
        ConfigError: a malformed pair, an unknown or missing key, or a value out of range;
            the message quotes ``text``.
    """
    try:
        pairs = [p.strip() for p in text.split(",")]
        if not all(pairs):
            raise ConfigError("empty KEY=VALUE pair")
        data = {}
        for pair in pairs:
            key, sep, _ = pair.partition("=")
            if not sep or not key.strip():
                raise ConfigError(f"expected KEY=VALUE, got {pair!r}")
            (name, value), = parse_key_values([pair]).items()
            if name in data:
                raise ConfigError(f"{name} given twice")
            data[name.strip()] = value
        return SprtSettings.from_json(data)
    except ConfigError as exc:
        raise ConfigError(f"--sprt {text!r}: {exc} "
                          "(expected e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05)") from None


def expected_score(elo: float) -> float:
    """Expected score per opponent of a player ``elo`` points stronger (logistic Elo curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_elo(score: float) -> float:
    """Inverse of :func:`expected_score` (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def llr(n, total, total_sq, s0: float, s1: float, prior_var):
    """The GSPRT log-likelihood ratio of H1 (mean s1) against H0 (mean s0).

    Works elementwise on numpy arrays (the simulation runs thousands of tests at once).

    Args:
        n: rotation groups observed (>= 1).
        total: sum of the group scores.
        total_sq: sum of their squares.
        s0, s1: mean group score under H0 and H1.
        prior_var: variance of the ``PRIOR_GROUPS`` pseudo-groups (see the module doc).

    Returns:
        ``n / 2 * ln(var_0 / var_1)``, ``var_j`` the variance of the scores about ``sj``
        with the pseudo-groups: ``(sum (x - sj)^2 + PRIOR_GROUPS * prior_var) / (n + PRIOR_GROUPS)``.
    """
    n = np.asarray(n, dtype=float)
    mean = total / n
    spread = np.maximum(total_sq - n * mean * mean, 0.0)  # sum of squared deviations
    var0 = (spread + n * (mean - s0) ** 2 + PRIOR_GROUPS * prior_var) / (n + PRIOR_GROUPS)
    var1 = (spread + n * (mean - s1) ** 2 + PRIOR_GROUPS * prior_var) / (n + PRIOR_GROUPS)
    return 0.5 * n * np.log(var0 / var1)


def prior_variance(games_per_group: int) -> float:
    """The pseudo-groups' variance: 1/4 (a score's largest variance) over a group's games."""
    return 0.25 / max(1, games_per_group)


def decide(value: float, settings: SprtSettings) -> str | None:
    """``"H1"``, ``"H0"`` or None (keep playing) for an LLR ``value``."""
    lower, upper = settings.bounds
    if value >= upper:
        return H1
    if value <= lower:
        return H0
    return None
