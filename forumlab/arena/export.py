"""Export a results store as JSONL (one game per line) or CSV (one row per game and seat).

JSONL keeps everything: each line is the game's ``GameOutcome.to_json()`` plus the
tournament's ``game`` and ``config``, the ``tournament`` id, the ``recorded`` commit time and
the ``versions`` of the session that played it.  CSV is the flat table for spreadsheets and
data frames: one row per seat of each game, with the per-seat facts of ``CSV_COLUMNS``;
list-valued facts that are not per seat (moves, the fault messages) are left to JSONL.

Both write to a text file object and return the number of games written.  Open files for
CSV with ``newline=""`` (rows end with ``\\n``).
"""
from __future__ import annotations

import csv
import json
from typing import Callable, TextIO

from .store import ResultStore

CSV_COLUMNS = (
    "key", "group", "lineup", "rotation", "seed", "seat", "label", "spec", "agent_seed",
    "score", "rank", "plies", "termination", "faults_of_seat", "move_seconds", "moves_made",
)


def export_jsonl(store: ResultStore, out: TextIO) -> int:
    """Write one JSON object per game, in recording order; return the number of games."""
    definition = store.definition
    n = 0
    for outcome, provenance in store.iter_records():
        data = outcome.to_json()
        data["game"] = definition.get("game")
        data["config"] = definition.get("config")
        data["tournament"] = store.tournament_id
        data["recorded"] = provenance["recorded"]
        data["versions"] = provenance["versions"]
        out.write(json.dumps(data, separators=(",", ":")) + "\n")
        n += 1
    return n


def export_csv(store: ResultStore, out: TextIO) -> int:
    """Write a header and one row per (game, seat), in recording order; return the number
    of games.  ``faults_of_seat`` counts the seat's faults; ``move_seconds`` and
    ``moves_made`` are the seat's totals (empty if the game did not record them)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    n = 0
    for outcome in store.iter_outcomes():
        faults = [0] * len(outcome.labels)
        for fault in outcome.faults:
            if 0 <= fault.seat < len(faults):
                faults[fault.seat] += 1
        for seat, label in enumerate(outcome.labels):
            writer.writerow((
                outcome.key, outcome.group, outcome.lineup, outcome.rotation, outcome.seed,
                seat, label, outcome.specs[seat], outcome.agent_seeds[seat],
                _at(outcome.scores, seat), _at(outcome.ranks, seat), outcome.plies,
                outcome.termination, faults[seat], _at(outcome.move_seconds, seat),
                _at(outcome.moves_made, seat),
            ))
        n += 1
    return n


EXPORTERS: dict[str, Callable[[ResultStore, TextIO], int]] = {
    "jsonl": export_jsonl,
    "csv": export_csv,
}


def _at(values: list, i: int):
    return values[i] if i < len(values) else ""
