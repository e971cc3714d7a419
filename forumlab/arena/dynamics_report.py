"""The dynamics report: figures of :mod:`forumlab.arena.dynamics` gathered and written as text."""
from __future__ import annotations

from collections.abc import Iterable

from .definition import game_title
from .dynamics import DECILES, Trajectory, game_dynamics, summarise

# (name in the summary, label in the text table, decimals)
ROWS = (
    ("plies", "plies", 1),
    ("turns", "turns (runs of plies by one seat)", 1),
    ("branching", "legal moves per ply", 1),
    ("lead_changes", "lead changes", 2),
    ("decisiveness", "decisiveness (share of the game)", 3),
    ("drama", "drama (deficit / winner's final score)", 3),
    ("drama_points", "drama (deficit in points)", 1),
    ("behind", "winner behind (share of points)", 3),
)


def dynamics_report(definition: dict, trajectories: Iterable[Trajectory], lead: str, source: str,
                    per_game: bool = False) -> dict:
    """Per-game dynamics and their summary.

    Args:
        definition: the tournament definition the games come from (its game and config).
        trajectories: the games, replayed.
        lead: what the values are (``score`` or ``heuristic``).
        source: what played the games, in words (e.g. ``self-play of greedy``).
        per_game: keep every game's figures in the report (``games_detail``).

    Returns:
        ``game``, ``config``, ``lead``, ``source`` and the summary of
        :func:`forumlab.arena.dynamics.summarise` (plus ``games_detail`` if asked).

    Raises:
        ConfigError: there is no game to describe.
    """
    from ..core.errors import ConfigError

    games = [game_dynamics(t) for t in trajectories]
    if not games:
        raise ConfigError("no games to describe")
    report = {"game": definition["game"], "config": definition["config"], "lead": lead, "source": source,
              **summarise(games)}
    if per_game:
        report["games_detail"] = games
    return report


def _cell(m: dict, digits: int) -> str:
    if m["mean"] is None:
        return "-"
    if m["low"] is None:
        return f"{m['mean']:.{digits}f}"
    return f"{m['mean']:.{digits}f} [{m['low']:.{digits}f}, {m['high']:.{digits}f}]"


def _mean(m: dict, digits: int) -> str:
    return "-" if m["mean"] is None else f"{m['mean']:.{digits}f}"


def format_dynamics(report: dict) -> str:
    """The report as text: a title, the figures with 95% intervals, then branching and the
    winner's margin by tenths of the game."""
    lead = "current score" if report["lead"] == "score" else "heuristic estimate"
    lines = [f"{game_title(report)}: {report['games']} games, {report['source']}; leader by {lead}",
             f"{report['sole_winner_games']} with a sole winner, {report['truncated_games']} cut by the "
             "turn cap; "
             "means with 95% intervals over rotation groups"]
    width = max(len(label) for _, label, _ in ROWS)
    for name, label, digits in ROWS:
        lines.append(f"  {label:<{width}}  {_cell(report[name], digits)}")
    lines.append("by tenth of the game (means; intervals in --json):")
    lines.append("  legal moves per ply: " + ", ".join(_mean(m, 0) for m in report["branching_deciles"]))
    lines.append("the eventual winner's margin over the best other seat at 0%, 10%, ..., 100% of the game:")
    lines.append("  " + ", ".join(_mean(m, 1) for m in report["progress"]["winner_margin"]))
    lines.append("mean value by finishing place (1st, 2nd, ...) at 0%, 50%, 100% of the game:")
    for k in (0, DECILES // 2, DECILES):
        row = report["progress"]["by_finish"][k]
        lines.append(f"  {10 * k:>3}%: " + ", ".join(f"{m['mean']:.1f}" for m in row))
    return "\n".join(lines)
