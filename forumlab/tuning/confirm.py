"""Confirming a tuner's recommendation on fresh seeds, in an ordinary results file.

An agent setting plays a gauntlet against the defaults (the untuned spec in every other
seat, balanced seating) and is rated with the arena's ratings (Elo with a 95% interval
against the defaults, likelihood of superiority). A game setting plays self-play and is
read by the balance lab (seat effects with intervals, the joint test, game length).
Both files continue when the command is run again, and ``forumlab ratings`` or
``forumlab balance --report`` read them.
"""
from __future__ import annotations

import math
from typing import Any

from ..core.rng import derive_seed


def confirm_seed(seed: int) -> int:
    """The confirmation's tournament seed: its own stream, apart from every evaluation's."""
    return derive_seed(seed, "confirm") & 0x7FFF_FFFF_FFFF_FFFF


def confirm_agent(game: str, config: dict, tuned: str, default: str, games: int, seed: int,
                  workers: int | None, db: str, progress: bool) -> dict[str, Any]:
    """Play ``tuned`` against ``default`` in every other seat and rate it.

    Args:
        games: at least this many games, in whole rotation groups (one per seat).

    Returns:
        The games, the tuned setting's Elo against the defaults with its 95% interval and
        its likelihood of superiority, and the results file.
    """
    from ..arena.definition import PoolEntry, TournamentDefinition, validate
    from ..arena.ratings import rate_outcomes
    from ..arena.store import ResultStore
    from ..arena.tournament import run_tournament

    groups = max(1, math.ceil(games / config["players"]))
    definition = TournamentDefinition(
        game=game, config=dict(config), agents=(PoolEntry("tuned", tuned), PoolEntry("default", default)),
        format="gauntlet", candidate="tuned", games_per_lineup=groups, seed=confirm_seed(seed))
    validate(definition)
    run_tournament(definition, db, workers, progress=progress)
    with ResultStore.open(db, readonly=True) as store:
        outcomes = list(store.outcomes())
    r = rate_outcomes(outcomes, anchor="default")
    low, high = r.elo_interval["tuned"]
    score, meetings = r.head_to_head["tuned"]["default"]
    return {"games": len(outcomes), "elo": r.fit.elo["tuned"], "interval": [low, high],
            "superiority": r.superiority["tuned"]["default"], "pairwise_score": score,
            "pairs": meetings, "db": db}


def confirm_design(game: str, config: dict, spec: str, games: int, seed: int, workers: int | None,
                   db: str, progress: bool) -> tuple[str, dict[str, Any]]:
    """Self-play ``games`` games of ``spec`` on ``config`` and read the seat balance.

    Returns:
        The balance lab's text and JSON report of the games.
    """
    from ..arena.balance_single import _report
    from ..arena.definition import PoolEntry, TournamentDefinition, validate
    from ..arena.tournament import run_tournament

    definition = TournamentDefinition(game=game, config=dict(config), agents=(PoolEntry(spec, spec),),
                                      games_per_lineup=games, seed=confirm_seed(seed))
    validate(definition)
    run_tournament(definition, db, workers, progress=progress)
    return _report(db)
