"""A tuning run's evaluations on disk, one JSON line each after a header line naming the
run, so that a killed run continues where it stopped: the search is replayed from its
seed, and every evaluation already in the file is read back instead of played."""
from __future__ import annotations

import json
import math
import os
from typing import Any

from ..core.errors import ConfigError
from ..core.files import check_output_file, read_text_file


def _is_evaluation(row: Any) -> bool:
    """Whether a decoded log line is an evaluation as :meth:`TuneLog.add` writes it: what a
    rerun reads back (index, point, value, games) with the types the search uses."""
    def is_int(v: Any) -> bool:
        return type(v) is int

    return (isinstance(row, dict) and is_int(row.get("index")) and row["index"] >= 0
            and isinstance(row.get("point"), list) and all(is_int(p) for p in row["point"])
            and type(row.get("value")) in (int, float) and math.isfinite(row["value"])
            and isinstance(row.get("games", []), list))


class TuneLog:
    """The evaluations of one tuning run (``path`` None: kept in memory only)."""

    def __init__(self, path: str | None, header: dict[str, Any]):
        self.path = path
        self.header = header
        self.done: dict[int, dict[str, Any]] = {}
        self._cut = False  # the file ends inside a line (a killed write)
        if path is None:
            return
        # An existing log must be a regular file (a pipe would block, /dev/zero fill memory);
        # a new one is made only where a regular file may be written.
        if os.path.lexists(path) and not (os.path.isfile(path) and os.path.getsize(path) == 0):
            self._read(path)
        else:
            check_output_file(path, "tuning log")
            with open(path, "w") as f:
                f.write(json.dumps({"tune": header}) + "\n")

    def _read(self, path: str) -> None:
        text = read_text_file(path, "tuning log")
        self._cut = not text.endswith("\n")
        lines = text.split("\n")
        try:
            stored = json.loads(lines[0])["tune"]
        except (ValueError, KeyError, TypeError, RecursionError):
            raise ConfigError(f"{path} is not a tuning log") from None
        if not isinstance(stored, dict):
            raise ConfigError(f"{path} is not a tuning log")
        if stored != self.header:
            changed = sorted(k for k in set(stored) | set(self.header) if stored.get(k) != self.header.get(k))
            raise ConfigError(f"{path} holds another tuning run ({', '.join(changed)} differ); "
                              "give another --db to start a new one")
        for number, line in enumerate(lines[1:], 2):
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):
                continue  # a line cut short when the run was killed: played again
            if not _is_evaluation(row):
                raise ConfigError(f"{path} is a damaged tuning log: line {number} is not an evaluation")
            self.done[row["index"]] = row

    def get(self, index: int, point: list[int]) -> dict[str, Any] | None:
        """The stored evaluation ``index`` if it was of ``point``."""
        row = self.done.get(index)
        return row if row is not None and row["point"] == point else None

    def add(self, row: dict[str, Any]) -> None:
        """Store one evaluation (``index``, ``point``, ``value`` and what else it holds)."""
        self.done[row["index"]] = row
        if self.path is not None:
            with open(self.path, "a") as f:
                f.write(("\n" if self._cut else "") + json.dumps(row) + "\n")
            self._cut = False
