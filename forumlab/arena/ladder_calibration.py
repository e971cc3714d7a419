"""Calibrating a ladder: a balanced round robin of its members, fitted once, written as JSON.

The round robin is an ordinary tournament (every combination of members, each rotation
group played in every seating of the balanced design, so every member sits in every seat
and after every other member equally often); its results file can be continued and
extended like any other. The fit is the arena's Plackett–Luce model with seat effects
(:func:`forumlab.arena.ratings.rate`) anchored at greedy, shifted to ``ANCHOR_ELO``.
"""
from __future__ import annotations

import datetime
from typing import Any

from ..core.errors import ConfigError
from .definition import PoolEntry, TournamentDefinition
from .ladder import ANCHOR, ANCHOR_ELO, FORMAT, frozen_spec, member_settings
from .plackett_luce import ELO_PER_NAT

CALIBRATION_HARD_LIMIT = 900.0  # seconds


def calibration_definition(game: str, players: int, members: list[tuple[str, str]], groups: int,
                           seed: int) -> TournamentDefinition:
    """The round robin that calibrates a ladder.

    Args:
        game: the game.
        players: seats per game.
        members: (name, spec) of every member; specs at iteration budgets (mcts specs get the
            game's tuned defaults written out, see :func:`forumlab.arena.ladder.frozen_spec`).
        groups: rotation groups (game seeds) per lineup.
        seed: the master seed.
    """
    pool = tuple(PoolEntry(name, frozen_spec(game, players, spec)) for name, spec in members)
    # A generous hard limit: on a loaded machine a worker's first move may wait for numba's
    # cache for minutes, and a hang fault would rank a member last in a game it did not lose.
    return TournamentDefinition(game=game, config={"players": players}, agents=pool, format="round-robin",
                                games_per_lineup=groups, rotations="balanced", seed=seed,
                                hard_limit=CALIBRATION_HARD_LIMIT)


def ladder_json(outcomes: list, definition: TournamentDefinition, calibration: dict[str, Any]) -> dict:
    """The ladder file's content from the round robin's games.

    Args:
        outcomes: every game of the round robin (``ResultStore.outcomes()``).
        definition: its definition (members and their specs).
        calibration: what produced it: command, commit, results file (date, games, groups
            and seed are added here).

    Returns:
        The JSON object :func:`forumlab.arena.ladder.read_ladder` reads.
    """
    import numpy as np

    from ..core.registry import create_game
    from .ratings import move_times, rate, rated_games

    r = rate(rated_games(outcomes), anchor=ANCHOR)
    if ANCHOR in r.separation.position:
        # Every member's Elo is a distance to the anchor: the games must place it.
        raise ConfigError(f"the games do not place {ANCHOR} among the other members (it is "
                          f"{r.separation.position[ANCHOR]} them); play more rotation groups (--groups)")
    fit = r.fit
    names = [entry.label for entry in definition.agents]
    ix = [fit.agents.index(name) for name in names]
    g = fit.agents.index(ANCHOR)
    c = fit.covariance
    cov = np.array([[c[i, j] - c[i, g] - c[j, g] + c[g, g] for j in ix] for i in ix]) * ELO_PER_NAT ** 2
    times = move_times(outcomes)
    players = definition.players
    members = []
    for k, entry in enumerate(definition.agents):
        t = times.get(entry.label)
        members.append({
            "name": entry.label, "spec": entry.spec,
            "elo": round(ANCHOR_ELO + fit.elo[entry.label], 2),
            "elo_sd": round(float(np.sqrt(max(cov[k, k], 0.0))), 2),
            "interval_95": [round(ANCHOR_ELO + lo, 1) for lo in r.elo_interval[entry.label]],
            "theta": float(fit.params[ix[k]]),
            "separated": r.separation.position.get(entry.label),
            "games": r.agent_stats[entry.label].games,
            "cpu_ms_per_move": None if t is None or t.cpu_mean is None else round(t.cpu_mean * 1e3, 4),
            "settings": member_settings(definition.game, players, entry.spec),
        })
    return {
        "format": FORMAT,
        "game": definition.game,
        "players": players,
        "config": create_game(definition.game, definition.config).config,
        "anchor": {"member": ANCHOR, "elo": ANCHOR_ELO},
        "members": members,
        "covariance": [[float(x) for x in row] for row in cov],
        "seat_theta": [float(x) for x in fit.seat_delta[players]],
        "tie": {str(k): v for k, v in fit.tie.items()},
        "prior_sd": fit.prior_sd,
        "calibration": {**calibration,
                        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
                        "games": len(outcomes), "groups_per_lineup": definition.games_per_lineup,
                        "seed": definition.seed, "rotations": definition.rotations,
                        "faults": sum(len(o.faults) for o in outcomes)},
    }
