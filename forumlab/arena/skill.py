"""The restricted-play battery: how much skill moves outcomes, and whether more thinking
keeps paying (a skill trace).

After Jaffe et al. 2012 ("Evaluating competitive game balance with restricted play"):
balance questions are asked as the results of agents restricted in a known way. Here the
restriction is skill: a ladder of levels, ``random``, ``greedy`` (one ply by the game's
heuristic), then a search at doubling budgets (iterations or nodes: the same on every
machine). The levels play in *windows*: every run of as many consecutive levels as the
game has seats is one round robin through the arena, with its balanced seating, so each
level sits in every seat and directly after every neighbour equally often and meets the
levels next to it on the ladder; every window plays the same game seeds. All windows are
rated together (Plackett-Luce with seat effects, :mod:`forumlab.arena.ratings`).

The report gives, for each step up the ladder, the Elo gain over the level below with its
95% interval (the Laplace posterior of the difference), the likelihood of superiority and
the head-to-head score; the *skill trace* is the gain per doubling of the search budget,
and more thinking "keeps paying" up to the last doubling whose interval lies above 0
with every doubling before it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import ConfigError

SEARCHES = {"mcts": "iterations", "paranoid": "nodes", "maxn": "nodes", "brs": "nodes"}
DEFAULT_BUDGETS = (50, 100, 200, 400)
MAX_LEVELS = 16
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Level:
    """One rung of the ladder: its label, agent spec and search budget (None below search)."""

    label: str
    spec: str
    budget: int | None = None


def parse_budgets(text: str) -> tuple[int, ...]:
    """``100,200,400`` -> (100, 200, 400): positive integers, strictly increasing."""
    try:
        budgets = tuple(int(b) for b in text.split(","))
    except ValueError:
        raise ConfigError(f"--budgets must be comma-separated integers, e.g. 100,200,400, "
                          f"not {text!r}") from None
    if not budgets or any(b < 1 for b in budgets) or any(b >= c for b, c in zip(budgets, budgets[1:])):
        raise ConfigError(f"--budgets must be positive and increasing, not {text!r}")
    if len(budgets) + 2 > MAX_LEVELS:
        raise ConfigError(f"--budgets gives {len(budgets)} budgets; at most {MAX_LEVELS - 2} fit "
                          "in one ladder")
    return budgets


def ladder_levels(budgets: tuple[int, ...], search: str = "mcts") -> list[Level]:
    """random, greedy, then ``search`` at every budget (``mcts(iterations=B)``,
    or ``nodes=B`` for the minimax family)."""
    if search not in SEARCHES:
        raise ConfigError(f"--search must be one of {', '.join(SEARCHES)}, not {search!r}")
    key = SEARCHES[search]
    return [Level("random", "random"), Level("greedy", "greedy"),
            *(Level(f"{search}-{b}", f"{search}({key}={b})", b) for b in budgets)]


def windows(levels: list[Level], players: int) -> list[tuple[Level, ...]]:
    """Every run of ``players`` consecutive levels (the lineups of the battery)."""
    if len(levels) < players:
        raise ConfigError(f"a {players}-player ladder needs at least {players} levels (random, greedy "
                          f"and {players - 2} search budgets), not {len(levels)}")
    return [tuple(levels[i:i + players]) for i in range(len(levels) - players + 1)]


def window_definitions(game: str, config: dict, levels: list[Level], groups: int, seed: int) -> list:
    """One round-robin tournament per window: balanced seating, ``groups`` game seeds
    (the same seeds in every window)."""
    from ..core.registry import create_game
    from .definition import PoolEntry, TournamentDefinition

    if groups < 1:
        raise ConfigError(f"--games must be >= 1, not {groups}")
    players = create_game(game, config).players
    return [TournamentDefinition(game=game, config=dict(config),
                                 agents=tuple(PoolEntry(lv.label, lv.spec) for lv in window),
                                 games_per_lineup=groups, rotations="balanced", seed=seed)
            for window in windows(levels, players)]


def _step(r, lower: Level, upper: Level) -> dict:
    """The gain of ``upper`` over ``lower``: Elo difference, its 95% interval, LOS, head to head."""
    from .ratings import ELO_PER_NAT

    fit = r.fit
    gain = fit.elo[upper.label] - fit.elo[lower.label]
    sd = fit.difference_sd(upper.label, lower.label) * ELO_PER_NAT
    score, meetings = r.head_to_head.get(upper.label, {}).get(lower.label, (None, 0))
    return {"from": lower.label, "to": upper.label, "elo": gain, "low": gain - Z_95 * sd,
            "high": gain + Z_95 * sd, "los": r.superiority[upper.label][lower.label],
            "score": score, "meetings": meetings,
            "separated": any(x in r.separation.position for x in (lower.label, upper.label))}


def _slope(r, search: list[Level]) -> dict | None:
    """Least-squares Elo gain per doubling over the search levels, with a 95% interval
    from the posterior covariance of their strengths."""
    import numpy as np

    from .ratings import ELO_PER_NAT

    if len(search) < 2:
        return None
    x = np.array([math.log2(lv.budget) for lv in search])
    w = (x - x.mean()) / ((x - x.mean()) ** 2).sum()  # slope = sum(w * elo)
    fit = r.fit
    ix = [fit.agents.index(lv.label) for lv in search]
    cov = fit.covariance[np.ix_(ix, ix)]
    slope = float(sum(wi * fit.elo[lv.label] for wi, lv in zip(w, search)))
    sd = math.sqrt(max(float(w @ cov @ w), 0.0)) * ELO_PER_NAT
    return {"elo": slope, "low": slope - Z_95 * sd, "high": slope + Z_95 * sd}


def skill_report(outcomes: list, levels: list[Level]) -> dict:
    """Ratings of the ladder's levels, the step from each level to the next, the skill trace.

    Args:
        outcomes: every game of the battery's windows.
        levels: the ladder, weakest first.

    Returns:
        ``games``; ``levels`` (label, spec, budget, Elo against greedy with its 95%
        interval, win rate, games); ``steps`` (each level over the one below, see
        :func:`_step`); ``trace`` (the steps between search budgets, each with
        ``per_doubling``); ``pays_up_to`` (the largest budget every doubling up to which has
        a gain whose interval is above 0; None if the first does not); ``slope`` (the
        least-squares gain per doubling over all search levels); ``skill_span`` (the top
        level over random).
    """
    from .ratings import rate_outcomes

    r = rate_outcomes(outcomes, anchor="greedy")
    steps = [_step(r, lo, hi) for lo, hi in zip(levels, levels[1:])]
    trace = []
    for step, lo, hi in zip(steps[2:], levels[2:], levels[3:]):
        doublings = math.log2(hi.budget / lo.budget)
        trace.append({**step, "per_doubling": step["elo"] / doublings,
                      "per_doubling_low": step["low"] / doublings,
                      "per_doubling_high": step["high"] / doublings})
    pays_up_to = None
    for t, hi in zip(trace, levels[3:]):
        if t["low"] <= 0:
            break
        pays_up_to = hi.budget
    return {
        "games": len(outcomes),
        "levels": [{"label": lv.label, "spec": lv.spec, "budget": lv.budget, "elo": r.fit.elo[lv.label],
                    "elo_95": list(r.elo_interval[lv.label]), "win_rate": r.agent_stats[lv.label].win_rate,
                    "games": r.agent_stats[lv.label].games,
                    "separated": r.separation.position.get(lv.label)} for lv in levels],
        "steps": steps,
        "trace": trace,
        "pays_up_to": pays_up_to,
        "slope": _slope(r, levels[2:]),
        "skill_span": _step(r, levels[0], levels[-1]),
    }
