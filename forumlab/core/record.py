"""Game records: JSON files that replay a game exactly from (game, config, seed, moves).

```json
{"format": "forumlab-record/1", "game": "forum-romanum",
 "config": {"players": 3, "max_rounds": 100}, "seed": 7,
 "moves": ["d4", "a1", "..."], "result": {"scores": [...], ...}}
```
``result`` is optional and informative only: replay recomputes it. A record may
stop before the end of the game; replay then reports the position reached.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ForumlabError, IllegalMoveError, RecordError
from .game import State
from .registry import create_game

RECORD_FORMAT = "forumlab-record/1"


@dataclass
class Record:
    """One game: what is needed to replay it, plus an optional stored result."""

    game: str
    config: dict[str, Any]
    seed: int
    moves: list[str]
    result: dict[str, Any] | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        data = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "config": self.config,
            "seed": self.seed,
            "moves": self.moves,
        }
        if self.result is not None:
            data["result"] = self.result
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Record":
        """Validate a decoded JSON object; RecordError names the first problem."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"unsupported record format {data.get('format')!r} (expected {RECORD_FORMAT!r})")
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
        result = data.get("result")
        return cls(game, config, seed, moves, result if isinstance(result, dict) else None)

    @classmethod
    def from_state(cls, state: State, with_result: bool = True) -> "Record":
        """The record of a game played so far."""
        return cls(
            state.game.name,
            state.game.config,
            state.seed,
            state.move_texts(),
            state.result() if with_result else None,
        )

    def save(self, path: str | Path) -> None:
        """Write the record as pretty JSON (written whole, then renamed into place)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n")
            tmp.replace(path)
        except OSError as exc:
            raise RecordError(f"cannot write record {path}: {exc.strerror}") from None


def load_record(path: str | Path) -> Record:
    """Read and validate a record file."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path} is not UTF-8 text (byte {exc.start}); records are UTF-8 JSON") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise RecordError(f"{path} nests JSON arrays or objects too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise RecordError(f"{path} is not a valid record: {exc}") from None
    return Record.from_json(data)


def replay(record: Record) -> State:
    """Replay a record through the engine; RecordError names the first bad ply."""
    try:
        game = create_game(record.game, record.config)
        state = game.new_state(record.seed)
    except ForumlabError as exc:
        raise RecordError(str(exc)) from None
    for ply, text in enumerate(record.moves, start=1):
        if state.is_terminal:
            raise RecordError(f"ply {ply}: move {text!r} after the end of the game")
        try:
            state.play(text)
        except IllegalMoveError as exc:
            raise RecordError(f"ply {ply}: illegal move {text!r}: {exc}") from None
    return state
