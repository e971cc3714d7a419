"""Export a results store as JSONL (one game record per line) or CSV (one row per game and seat).

Each JSONL line is a game record (``forumlab-record/1``, see :mod:`forumlab.core.record`) that
``forumlab replay`` accepts once saved to a file, with every stored fact of the game:

- ``game``, ``config``, ``seed``, ``moves``: what replays the game; ``setup`` when the
  config's setup is random (Forma's stone and tower squares), so that other
  implementations need not reproduce this project's RNG;
- ``agents``: per seat, ``label``, ``spec`` and agent ``seed``;
- ``result``: the stored ``scores``, ``ranks`` (after the fault policy), ``plies``,
  ``termination`` and ``faults`` (``seat``, ``ply``, ``kind``, ``message``);
- ``tournament``: the tournament-specific facts: ``id`` (of the tournament), the game's
  ``key``, rotation ``group``, ``lineup`` and ``rotation``; per seat ``move_seconds`` (summed
  thinking time) and ``moves_made``; ``started``/``finished`` (unix times), the ``host`` that
  played it, the ``recorded`` commit time and the ``versions`` of the session that recorded it.

:func:`outcome_from_record` turns such a record back into the stored ``GameOutcome``.
CSV is the flat table for spreadsheets and data frames: one row per seat of each game, with
the per-seat facts of ``CSV_COLUMNS``; list-valued facts that are not per seat (moves, the
fault messages) are left to JSONL.

Both exporters write to a text file object and return the number of games written.  Open
files for CSV with ``newline=""`` (rows end with ``\\n``).
"""
from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, TextIO

from ..core.errors import ForumlabError
from ..core.record import Record
from ..core.registry import create_game
from .jobs import GameOutcome
from .store import ResultStore

CSV_COLUMNS = (
    "key", "group", "lineup", "rotation", "seed", "seat", "label", "spec", "agent_seed",
    "score", "rank", "plies", "termination", "faults_of_seat", "move_seconds", "moves_made",
)
# GameOutcome fields that go into a record's "result"; the agents' fields go into "agents",
# seed and moves are the record's own, and every other field goes into "tournament".
RESULT_FIELDS = ("scores", "ranks", "plies", "termination", "faults")
_AGENT_FIELDS = {"labels": "label", "specs": "spec", "agent_seeds": "seed"}
_PROVENANCE = ("id", "recorded", "versions")


def iter_game_records(store: ResultStore, key: str | None = None) -> Iterator[dict[str, Any]]:
    """The store's games as record dicts (see the module docstring), in recording order.

    Args:
        store: an open results file.
        key: only the game with this key (e.g. ``L0001-G000-R00``); None for every game.

    Returns:
        An iterator of JSON-ready record dicts (empty if no game matches ``key``).

    Raises:
        StoreError: the store holds a damaged row or cannot be read.
        ForumlabError: the stored definition names a game or config this version refuses.
    """
    definition = store.definition
    game = create_game(definition.get("game"), definition.get("config"))

    @lru_cache(maxsize=4096)  # the games of a rotation group share their seed
    def setup(seed: int) -> dict[str, Any]:
        return game.setup_record(game.new_state(seed))

    for outcome, provenance in store.iter_records():
        if key is not None and outcome.key != key:
            continue
        yield outcome_record(outcome, definition, store.tournament_id, provenance, setup(outcome.seed))


def outcome_record(outcome: GameOutcome, definition: dict[str, Any], tournament_id: str,
                   provenance: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
    """One stored game as a record dict.

    Args:
        outcome: the game as the store holds it.
        definition: the tournament definition (its ``game`` and ``config`` are the record's).
        tournament_id: the store's tournament id.
        provenance: ``recorded`` and ``versions`` from :meth:`ResultStore.iter_records`.
        setup: the game's random setup (``Game.setup_record``), ``{}`` if none.

    Returns:
        The JSON-ready record.
    """
    data = outcome.to_json()
    seed, moves = data.pop("seed"), data.pop("moves")
    seats = zip(*(data.pop(name) for name in _AGENT_FIELDS))
    agents = [dict(zip(_AGENT_FIELDS.values(), seat)) for seat in seats]
    result = {name: data.pop(name) for name in RESULT_FIELDS}
    tournament = {"id": tournament_id, **data, "recorded": provenance["recorded"],
                  "versions": provenance["versions"]}
    return Record(definition.get("game"), definition.get("config"), seed, moves, result, setup,
                  agents, {"tournament": tournament}).to_json()


def outcome_from_record(data: dict[str, Any]) -> GameOutcome:
    """The stored GameOutcome of an exported record (inverse of :func:`outcome_record`)."""
    fields = {k: v for k, v in data["tournament"].items() if k not in _PROVENANCE}
    fields.update(seed=data["seed"], moves=data["moves"], **data["result"])
    for name, key in _AGENT_FIELDS.items():
        fields[name] = [agent[key] for agent in data["agents"]]
    return GameOutcome.from_json(fields)


def find_game_record(store: ResultStore, key: str) -> dict[str, Any]:
    """The record of one stored game.

    Args:
        store: an open results file.
        key: the game's key, e.g. ``L0001-G000-R00``.

    Returns:
        The game's JSON-ready record dict (see the module docstring).

    Raises:
        ForumlabError: the store holds no game with this key.
    """
    for record in iter_game_records(store, key):
        return record
    raise ForumlabError(f"{store.path} holds no game {key!r} (game keys look like L0000-G000-R00; "
                        "'forumlab export DB --format csv' lists them)")


def export_jsonl(store: ResultStore, out: TextIO) -> int:
    """Write the store's games as JSONL: one compact record per line, in recording order.

    Args:
        store: an open results file.
        out: a text file object to write to.

    Returns:
        The number of games written.
    """
    n = 0
    for record in iter_game_records(store):
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
        n += 1
    return n


def export_csv(store: ResultStore, out: TextIO) -> int:
    """Write a header (``CSV_COLUMNS``) and one row per (game, seat), in recording order.

    ``faults_of_seat`` counts the seat's faults; ``move_seconds`` and ``moves_made`` are the
    seat's totals (empty if the game did not record them).

    Args:
        store: an open results file.
        out: a text file object, opened with ``newline=""``.

    Returns:
        The number of games written (not rows).
    """
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
