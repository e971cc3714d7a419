"""The kit's check of a game's own malformed inputs, listed as data next to the game.

Besides the garbage every game must refuse (``conformance.GARBAGE_MOVES``), each game
lists in its conformance data (:func:`forumlab.testing.reference.conformance_data`)
the inputs its notation and records make easy to get wrong:

- ``bad_moves``: ``{"config": {...}, "seed": s, "after": [texts], "moves": [texts]}``:
  after playing ``after`` from the deal of ``seed``, every text of ``moves`` is refused
  with ``IllegalMoveError`` (whose message holds one of ``error_words``, if given)
  and leaves the position as it was.
- ``bad_records``: ``{"record": {...}, "error": "words"}``: ``forumlab replay`` of the
  record (the ``game`` field is filled in) exits with status 2 and prints one line,
  ``error: ...``, that contains ``words`` (e.g. the ply and the move).
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import IllegalMoveError
from ..core.registry import create_game
from .conformance import ConformanceError
from .reference import conformance_data


def _check_bad_moves(name: str, entry: dict[str, Any]) -> None:
    game = create_game(name, entry["config"])
    state = game.new_state(entry.get("seed", 0))
    for text in entry.get("after", []):
        state.play(text)
    where = f"after {len(state.history)} plies of seed {entry.get('seed', 0)} ({game!r})"
    words = entry.get("error_words")
    for text in entry["moves"]:
        before, history = state.array.copy(), list(state.history)
        try:
            state.play(text)
        except IllegalMoveError as exc:
            if words and not any(w in str(exc) for w in words):
                raise ConformanceError(f"malformed move: {text!r} was refused with {str(exc)!r}, which says "
                                       f"none of {words} {where}") from None
        except Exception as exc:  # noqa: BLE001 - the rule is about the type
            raise ConformanceError(f"malformed move: {text!r} raised {type(exc).__name__} ({exc}) instead "
                                   f"of IllegalMoveError {where}") from None
        else:
            raise ConformanceError(f"malformed move: {text!r} was played {where}")
        if not np.array_equal(state.array, before) or state.history != history:
            raise ConformanceError(f"malformed move: refusing {text!r} changed the state {where}")


def _check_bad_record(name: str, entry: dict[str, Any]) -> None:
    from click.testing import CliRunner

    from ..cli import main

    record = {"format": "forumlab-record/1", "game": name, **entry["record"]}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bad.json"
        path.write_text(json.dumps(record))
        run = CliRunner().invoke(main, ["replay", str(path)])
    lines = [line for line in run.output.splitlines() if line]
    shown = " / ".join(lines)[:300]
    if run.exit_code != 2 or len(lines) != 1 or not lines[0].startswith("error: "):
        raise ConformanceError(f"bad record: replay exited {run.exit_code} with {len(lines)} lines "
                               f"({shown!r}), not 2 with one 'error: ' line, for moves {record.get('moves')}")
    if entry["error"] not in lines[0]:
        raise ConformanceError(f"bad record: the error {lines[0]!r} does not say {entry['error']!r}")


def check_malformed(name: str) -> None:
    """Every ``bad_moves`` and ``bad_records`` entry of the game's conformance data is
    refused as the entry says (see the module docstring); nothing to do without them.

    Args:
        name: a registered game name.

    Raises:
        ConformanceError: an input was accepted, or refused the wrong way.
    """
    data = conformance_data(name)
    for entry in data.get("bad_moves", []):
        _check_bad_moves(name, entry)
    for entry in data.get("bad_records", []):
        _check_bad_record(name, entry)
