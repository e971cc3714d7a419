"""Seat-balance study: per-seat win rates and seat Elo from self-play games."""
from __future__ import annotations

from .balance_stats import wilson_interval
from .definition import game_title
from .ratings import rate, rated_games
from .store import ResultStore


def balance_report(db: str) -> dict:
    """Per-seat win rates with Wilson intervals and seat Elo with posterior intervals.

    Args:
        db: a results file of self-play games (as ``forumlab balance`` writes): one agent
            in every seat, one player count, at least one game.

    Returns:
        ``game``, ``config``, ``agent`` (the first pool entry's spec), ``games``, ``seats``
        (per seat: ``win_rate`` and ``win_rate_95``, ``mean_score``, ``elo_vs_seat0`` and
        ``elo_vs_seat0_95``) and ``first_player_advantage_elo`` (seat 0 against the
        average other seat).

    Raises:
        StoreError: the file is missing, not a results file, corrupt or locked.
        RatingsError: the games cannot be rated.
    """
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
        definition = store.definition
    players = len(outcomes[0].labels)
    wins = [0.0] * players
    scores = [0.0] * players
    for o in outcomes:
        best = [s for s, r in enumerate(o.ranks) if r == 1]
        for s in best:
            wins[s] += 1 / len(best)
        for s, v in enumerate(o.scores):
            scores[s] += v
    n = len(outcomes)
    r = rate(rated_games(outcomes))
    seat_elo = r.fit.seat_elo[players]
    intervals = r.seat_elo_interval[players]
    return {
        "game": definition["game"],
        "config": definition["config"],
        "agent": definition["agents"][0]["spec"],
        "games": n,
        "seats": [
            {
                "seat": s,
                "win_rate": wins[s] / n,
                "win_rate_95": list(wilson_interval(wins[s], n)),
                "mean_score": scores[s] / n,
                "elo_vs_seat0": seat_elo[s],
                "elo_vs_seat0_95": list(intervals[s]),
            }
            for s in range(players)
        ],
        # Seat 0 against the average other seat.
        "first_player_advantage_elo": -sum(seat_elo[1:]) / (players - 1) if players > 1 else 0.0,
    }


def format_balance(report: dict) -> str:
    """Human-readable seat table.

    Args:
        report: a dict from :func:`balance_report`.

    Returns:
        A title line and one line per seat (no trailing newline).
    """
    lines = [f"{game_title(report)}, self-play of {report['agent']}, {report['games']} games",
             "seat  win rate  95% interval      mean score  Elo vs seat 0  95% interval"]
    for s in report["seats"]:
        lo, hi = s["win_rate_95"]
        iv = s["elo_vs_seat0_95"]
        eiv = f"[{iv[0]:+.0f}, {iv[1]:+.0f}]" if iv else "-"
        lines.append(f"{s['seat']:>4}  {s['win_rate']:8.3f}  [{lo:.3f}, {hi:.3f}]  {s['mean_score']:10.2f}"
                     f"  {s['elo_vs_seat0']:+13.0f}  {eiv}")
    return "\n".join(lines)
