"""Game records: JSON files that replay a game exactly from (game, config, seed, moves).

```json
{"format": "forumlab-record/1", "game": "forma",
 "config": {"players": 3, "obstacles": "random", "tower": null}, "seed": 7,
 "setup": {"obstacles": ["c1", "..."], "tower": "k9"},
 "moves": ["P5/3@h7", "..."],
 "agents": [{"label": "random", "spec": "random", "seed": 123}, "..."],
 "result": {"scores": [...], "ranks": [...], ...}}
```
Only ``format``, ``game``, ``config``, ``seed`` and ``moves`` are needed to replay. The
other fields are optional:

- ``setup``: the part of the setup the seed drew at random, as config options that fix it
  (:meth:`forumlab.core.game.Game.setup_record`; Forma's stone and tower squares), so that
  another implementation can replay the game without this project's RNG. ``replay`` checks
  it against the setup the seed gives; when they differ (e.g. a record from a version whose
  random layouts were drawn differently) it warns and replays with the record's setup.
- ``agents``: one object per seat (``label``, ``spec``, ``seed``), informative.
- ``result``: the stored result. ``replay`` recomputes the result and warns when a stored
  field it also computes (``scores``, ``ranks``, ``winners``, ``plies``, ``terminal``,
  ``truncated``, game-specific fields) disagrees. A ``faults`` list (objects with a ``seat``)
  means the arena's fault policy ranked those seats below every seat without a fault; the
  ``ranks`` are checked against that. ``termination`` ``"end"`` (the rules ended the game) and
  ``"cap"`` (the turn cap did) are checked against ``terminal``/``truncated``.
- Any other field (e.g. a tournament export's ``tournament`` object, or ``interrupted``) is
  kept as it is when a record is loaded and saved again.

A record may stop before the end of the game; replay then reports the position reached.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ForumlabError, IllegalMoveError, RecordError, squeeze
from .files import MAX_RECORD_BYTES, read_text_file, write_file_atomically
from .game import State
from .ranks import fault_ranks
from .registry import create_game
from .termination import Termination

RECORD_FORMAT = "forumlab-record/1"
# The fields this module reads; every other field of a record is kept in Record.extra.
_FIELDS = ("format", "game", "config", "seed", "setup", "moves", "agents", "result")
# What a stored "termination" says about the replayed result (other values are not checked).
_TERMINATIONS = {Termination.RULES: {"terminal": True, "truncated": False},
                 Termination.CAP: {"terminal": True, "truncated": True}}


@dataclass
class Record:
    """One game: what is needed to replay it, plus optional setup, agents, stored result
    and any further fields (``extra``, kept as they are)."""

    game: str
    config: dict[str, Any]
    seed: int
    moves: list[str]
    result: dict[str, Any] | None = field(default=None)
    setup: dict[str, Any] = field(default_factory=dict)
    agents: list[dict[str, Any]] | None = field(default=None)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict.

        Returns:
            ``format``, ``game``, ``config``, ``seed``, ``setup`` (if any), ``moves``,
            ``agents`` and ``result`` (if given), then the ``extra`` fields.
        """
        data = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "config": self.config,
            "seed": self.seed,
        }
        if self.setup:
            data["setup"] = self.setup
        data["moves"] = self.moves
        if self.agents is not None:
            data["agents"] = self.agents
        if self.result is not None:
            data["result"] = self.result
        data.update(self.extra)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Validate a decoded JSON object.

        Args:
            data: the decoded JSON of one record.

        Returns:
            The record; a ``result`` that is not an object is dropped, unknown fields go to
            ``extra``.

        Raises:
            RecordError: names the first problem (wrong format, or a field of the wrong type).
        """
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"unsupported record format {_shown(data.get('format'))} "
                              f"(expected {RECORD_FORMAT!r})")
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError("record field 'game' must be a string")
        config = data.get("config", {})
        if not isinstance(config, dict):
            raise RecordError("record field 'config' must be an object")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("record field 'seed' must be an integer")
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("record field 'moves' must be a list of strings")
        setup = data.get("setup", {})
        if not isinstance(setup, dict):
            raise RecordError("record field 'setup' must be an object")
        agents = data.get("agents")
        if agents is not None and not (isinstance(agents, list) and all(isinstance(a, dict) for a in agents)):
            raise RecordError("record field 'agents' must be a list of objects")
        result = data.get("result")
        extra = {k: v for k, v in data.items() if k not in _FIELDS}
        return cls(game, config, seed, moves, result if isinstance(result, dict) else None,
                   setup, agents, extra)

    @classmethod
    def from_state(cls, state: State, with_result: bool = True,
                   agents: list[dict[str, Any]] | None = None) -> Record:
        """The record of a game played so far, with its random setup (if any).

        Args:
            state: the game (its start seed and move history are recorded).
            with_result: include ``state.result()`` as the stored result.
            agents: one ``{"label", "spec", "seed"}`` object per seat, or None.

        Returns:
            The record.
        """
        game = state.game
        return cls(
            game.name,
            game.config,
            state.seed,
            state.move_texts(),
            state.result() if with_result else None,
            game.setup_record(game.new_state(state.seed)),
            agents,
        )

    def save(self, path: str | Path) -> None:
        """Write the record as pretty JSON, completely or not at all.

        Args:
            path: the file to write; an existing regular file is replaced (only once the
                new one is complete).

        Raises:
            RecordError: the path is not a regular file (a directory, a device, a pipe),
                its directory does not exist, or the file cannot be written.
        """
        text = json.dumps(self.to_json(), indent=1) + "\n"
        try:
            write_file_atomically(path, "record", lambda fh: fh.write(text))
        except ForumlabError as exc:
            raise RecordError(str(exc)) from None


def load_record(path: str | Path) -> Record:
    """Read and validate a record file.

    Args:
        path: a UTF-8 JSON file holding one record.

    Returns:
        The record (not yet replayed).

    Raises:
        RecordError: the file is missing, not a regular file (a pipe, a device), larger
            than ``MAX_RECORD_BYTES``, cannot be read, is not UTF-8 JSON, holds more than
            one value, or is not a valid record.
    """
    text = read_text_file(path, "game record", MAX_RECORD_BYTES, error=RecordError,
                          hint="; records are UTF-8 JSON")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":  # e.g. a whole JSONL export rather than one of its lines
            raise RecordError(f"{path} holds more than one JSON value (line {exc.lineno}); a record "
                              "file holds one game: save one line of a JSONL export, or use "
                              "'forumlab export DB --game KEY'") from None
        raise RecordError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise RecordError(f"{path} nests JSON arrays or objects too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise RecordError(f"{path} is not a valid record: {exc}") from None
    return Record.from_json(data)


def replay(record: Record) -> State:
    """Replay a record through the engine, ignoring the checks' warnings.

    Args:
        record: the record to replay.

    Returns:
        The position reached (as :func:`replay_checked`).

    Raises:
        RecordError: a config the game refuses, a bad ``setup``, or the first illegal move.
    """
    return replay_checked(record)[0]


def replay_checked(record: Record) -> tuple[State, list[str]]:
    """Replay a record and check it: the position reached, and one warning line (without
    a ``warning:`` prefix) per check that failed: a ``setup`` that differs from the one the
    seed gives (the replay then uses the record's setup), and a stored ``result`` that
    disagrees with the replayed one.

    Args:
        record: the record to replay.

    Returns:
        (the replayed state, the warnings).

    Raises:
        RecordError: a config the game refuses, a bad ``setup``, or the first illegal move.
    """
    _check_fields(record)
    state, warnings = _start_position(record)
    for ply, text in enumerate(record.moves, start=1):
        if state.is_terminal:
            raise RecordError(f"ply {ply}: move {_shown(text)} after the end of the game")
        try:
            state.play(text)
        except IllegalMoveError as exc:
            # The engine's message quotes the move too: cut, so that a megabyte of
            # garbage in a record is not a megabyte of error line.
            raise RecordError(f"ply {ply}: illegal move {_shown(text)}: {squeeze(exc, 200)}") from None
    if isinstance(record.result, dict):
        disagreements = result_disagreements(record.result, state)
        if disagreements:
            warnings.append("the record's stored result disagrees with the replay: "
                            + "; ".join(disagreements))
    return state, warnings


def _shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters for a one-line message."""
    return squeeze(repr(value), limit)


def _check_fields(record: Record) -> None:
    """Refuse a Record built in Python with fields of the wrong type, as
    :meth:`Record.from_json` refuses them in a file (the engine would fail on them
    with a TypeError or worse)."""
    Record.from_json({"format": RECORD_FORMAT, "game": record.game, "config": record.config,
                      "seed": record.seed, "setup": record.setup, "moves": record.moves,
                      "agents": record.agents})


def _start_position(record: Record) -> tuple[State, list[str]]:
    """The start position from (game, config, seed), cross-checked against ``setup``."""
    try:
        state = create_game(record.game, record.config).new_state(record.seed)
    except ForumlabError as exc:
        raise RecordError(str(exc)) from None
    if not record.setup:
        return state, []
    try:
        fixed = create_game(record.game, {**record.config, **record.setup}).new_state(record.seed)
    except ForumlabError as exc:
        raise RecordError(f"record field 'setup': {exc}") from None
    if np.array_equal(fixed.array, state.array):
        return state, []
    return fixed, [f"the record's setup differs from the one seed {record.seed} gives in this version "
                   "of the engine; replaying with the record's setup"]


def result_disagreements(stored: dict[str, Any], state: State) -> list[str]:
    """How a stored result disagrees with the result of ``state``.

    Ranks and winners are compared after the fault policy (seats named in the stored
    ``faults`` rank below every clean seat); fields the replay does not compute are not checked.

    Args:
        stored: a record's stored ``result``.
        state: the replayed position.

    Returns:
        One short phrase per disagreeing field; empty if the result agrees.
    """
    replayed = state.result()
    faults = stored.get("faults")
    faulty = {f.get("seat") for f in faults if isinstance(f, dict) and isinstance(f.get("seat"), int)} \
        if isinstance(faults, list) else set()
    if faulty:  # the fault policy: faulty seats rank below every clean seat
        replayed["ranks"] = fault_ranks(replayed["scores"], faulty)
        if "winners" in replayed:
            replayed["winners"] = [seat for seat, rank in enumerate(replayed["ranks"]) if rank == 1]
    out = [f"{key} {stored[key]!r} stored, {value!r} replayed"
           for key, value in replayed.items() if key in stored and stored[key] != value]
    termination = stored.get("termination")
    implied = _TERMINATIONS.get(termination, {}) if isinstance(termination, str) else {}
    out += [f"termination {stored['termination']!r} stored, but the replay has {key}={replayed[key]}"
            for key, value in implied.items() if replayed[key] != value]
    return out
