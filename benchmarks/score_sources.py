"""Which scoring sources decide games: a results file's games broken down by VP source.

For games whose results carry ``vp_by_source`` (Foundations of Rome, Forum Trajanum):
every stored game is replayed from its record, and per source the script reports the
mean VP per seat, the mean lead of the winner over the mean of the other seats in that
source, and how often the winner scored the most in it (ties count as a share). A source
whose lead is large relative to its spread is one that decides games; one where the
winner leads no more often than 1/players is noise.

Usage (a self-play balance run keeps its games with ``--db``)::

    forumlab balance forum-trajanum -p 3 --agent greedy --games 200 --db ft3.db
    python -m benchmarks.score_sources ft3.db

Prints one JSON object.
"""
from __future__ import annotations

import json
import math

import click

from forumlab.arena.export import iter_game_records
from forumlab.arena.store import ResultStore
from forumlab.core.record import Record, replay


def _winner_share(values: list[int], winner: int) -> float:
    """1 if the winner scored the most in this source alone, 1/k if k seats tie at the top."""
    top = max(values)
    if values[winner] != top:
        return 0.0
    return 1.0 / values.count(top)


def source_breakdown(records) -> dict:
    """Per-source statistics over games with a sole winner.

    Args:
        records: game records (JSON dicts as stored) of one game and player count.

    Returns:
        A dict with the games counted and, per source, the mean VP, the winner's mean
        lead over the other seats' mean (with its standard error) and the winner's share
        of the top score in that source.
    """
    sums: dict[str, dict[str, float]] = {}
    games = 0
    for data in records:
        state = replay(Record.from_json(data))
        result = state.result()
        winners = [p for p, r in enumerate(result["ranks"]) if r == 1]
        if len(winners) != 1:
            continue
        games += 1
        winner = winners[0]
        by_source = result["vp_by_source"]
        n = len(by_source)
        for source in by_source[0]:
            values = [int(seat[source]) for seat in by_source]
            lead = values[winner] - (sum(values) - values[winner]) / (n - 1)
            acc = sums.setdefault(source, {"vp": 0.0, "lead": 0.0, "lead2": 0.0, "top": 0.0})
            acc["vp"] += sum(values) / n
            acc["lead"] += lead
            acc["lead2"] += lead * lead
            acc["top"] += _winner_share(values, winner)
    sources = {}
    for source, acc in sums.items():
        mean = acc["lead"] / games
        var = max(0.0, acc["lead2"] / games - mean * mean)
        sources[source] = {
            "mean_vp": round(acc["vp"] / games, 2),
            "winner_lead": round(mean, 2),
            "winner_lead_se": round(math.sqrt(var / games), 2) if games > 1 else None,
            "winner_top_share": round(acc["top"] / games, 3),
        }
    return {"games_with_one_winner": games, "sources": sources}


@click.command()
@click.argument("db", type=click.Path(exists=True, dir_okay=False))
def main(db: str) -> None:
    """Per-source VP breakdown of the games in results file DB, as JSON."""
    with ResultStore.open(db, readonly=True) as store:
        records = list(iter_game_records(store))
    if not records:
        raise click.ClickException(f"{db} holds no games")
    report = {"benchmark": "score_sources", "db": db, "game": records[0]["game"],
              "config": records[0]["config"], "games": len(records)}
    report.update(source_breakdown(records))
    click.echo(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
