"""Team results of cooperative games (a solo automaton such as Foundations of Rome's
Will of the Consul): the seats win or lose together, so Plackett-Luce ratings, which
assume the seats compete, do not apply. Reported instead, per agent and per lineup:
games, the team's win rate against the automaton with a 95% Wilson interval, and the
mean shared value (the ``scores`` of a cooperative game are every seat's shared value,
> 0 for a team win).
"""
from __future__ import annotations

from collections.abc import Iterable

from ..core.registry import create_game
from .balance import wilson_interval
from .definition import game_title


def is_cooperative(definition: dict) -> bool:
    """Whether a tournament's game is cooperative (``Game.cooperative``).

    Args:
        definition: a results file's tournament definition (``game``, ``config``).

    Returns:
        True for a cooperative game.
    """
    config = dict(definition["config"])
    config.setdefault("players", definition.get("players"))
    return bool(create_game(definition["game"], config).cooperative)


def _row(games: int, wins: int, value: float) -> dict:
    low, high = wilson_interval(wins, games)
    return {"games": games, "team_wins": wins, "win_rate": wins / games if games else 0.0,
            "win_rate_95": [low, high], "mean_value": value / games if games else 0.0}


def team_report(outcomes: Iterable) -> dict:
    """The team's results per agent and per lineup.

    Args:
        outcomes: the games (``GameOutcome``: ``labels`` per seat and ``scores``, the
            shared value repeated per seat).

    Returns:
        ``games``, ``team`` (all games), ``agents`` {label: row} counted once per game the
        agent sat in (however many seats it held) and ``lineups`` {"a+b+...": row} keyed
        by the sorted labels; a row holds ``games``, ``team_wins``, ``win_rate``,
        ``win_rate_95`` (Wilson) and ``mean_value``.
    """
    per_agent: dict[str, list] = {}
    per_lineup: dict[str, list] = {}
    total = [0, 0, 0.0]
    for o in outcomes:
        value = float(o.scores[0])
        won = int(value > 0)
        for tally in [total, per_lineup.setdefault("+".join(sorted(o.labels)), [0, 0, 0.0])] + [
                per_agent.setdefault(label, [0, 0, 0.0]) for label in sorted(set(o.labels))]:
            tally[0] += 1
            tally[1] += won
            tally[2] += value
    return {
        "games": total[0],
        "team": _row(*total),
        "agents": {a: _row(*t) for a, t in sorted(per_agent.items())},
        "lineups": {k: _row(*t) for k, t in sorted(per_lineup.items())},
    }


def team_results(definition: dict, outcomes: Iterable) -> dict | None:
    """The results of a tournament's games as every reader shows them, when its game is
    cooperative: the one place that decides between team results and competitive ratings,
    so ``ratings`` (table and ``--json``), ``report`` and :func:`forumlab.ratings` give the
    same figures for the same file.

    Args:
        definition: the (first) stored tournament definition.
        outcomes: its games (after any label merge).

    Returns:
        :func:`team_report` of the games for a cooperative game; None for a competitive
        one (rate it with :func:`forumlab.arena.ratings.rate_outcomes`).
    """
    if not is_cooperative(definition):
        return None
    return team_report(outcomes)


def format_team_report(report: dict) -> str:
    """Human-readable tables of :func:`team_report` (no trailing newline)."""
    lines = ["cooperative game: team win rate against the automaton (95% Wilson interval)",
             "agent / lineup                   games  team win rate  95% interval    mean value"]

    def line(name: str, r: dict) -> str:
        lo, hi = r["win_rate_95"]
        return (f"{name:<32} {r['games']:>5}  {r['win_rate']:13.3f}  [{lo:.3f}, {hi:.3f}]"
                f"  {r['mean_value']:10.2f}")

    lines.append(line("all games", report["team"]))
    lines += [line(a, r) for a, r in report["agents"].items()]
    if len(report["lineups"]) > 1:
        lines += [line(k, r) for k, r in report["lineups"].items()]
    return "\n".join(lines)


def cooperative_balance_report(db: str) -> dict:
    """``forumlab balance`` for a cooperative game: how often a team of one agent beats
    the automaton.

    Args:
        db: a results file of self-play games (as ``forumlab balance`` writes).

    Returns:
        ``game``, ``config``, ``agent``, ``games`` and ``team`` (``games``, ``team_wins``,
        ``win_rate``, ``win_rate_95`` (Wilson), ``mean_value``: the mean shared value,
        e.g. the players' lowest VP minus the Consul's).

    Raises:
        StoreError: the file is missing, not a results file, corrupt or locked.
    """
    from .store import ResultStore

    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
        definition = store.definition
    report = team_report(outcomes)
    return {"game": definition["game"], "config": definition["config"],
            "agent": definition["agents"][0]["spec"],
            "games": report["games"], "team": report["team"]}


def format_cooperative_balance(report: dict) -> str:
    """Human-readable line of :func:`cooperative_balance_report` (no trailing newline)."""
    t = report["team"]
    lo, hi = t["win_rate_95"]
    return (f"{game_title(report)}, a team of {report['agent']}, {report['games']} games "
            f"(cooperative: the seats win or lose together)\n"
            f"team win rate {t['win_rate']:.3f}  95% interval [{lo:.3f}, {hi:.3f}]  mean shared value "
            f"{t['mean_value']:.2f}")
