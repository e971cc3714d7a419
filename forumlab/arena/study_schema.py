"""What the stored rows of a variant study's file must hold, checked on reading.

A variant study's file (:mod:`forumlab.arena.balance_store`) is read by ``balance report``
and continued by ``balance --variant ... --db``. As with a tournament's results file
(:mod:`forumlab.arena.schema`), nothing of it is used before it is checked, strictly and
completing nothing: every stored definition (the study as created, then each extension,
each one a growth of the one before), every versions row, and every game row (its
variant one of the study's, its outcome a game of that variant's seats, its points per
scoring source one table per seat). Any damage is one :class:`DamagedResultsError` line
naming the file and the damage; a file opened to be continued is checked whole before
anything is written to it.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, squeeze
from .schema import (
    DamagedResultsError,
    RowContext,
    _definition_game,
    _is_int,
    _is_number,
    check_game_row,
    damaged,
)

# Every field of a stored study (balance_study.study_definition), and of each variant.
STUDY_FIELDS = frozenset(("kind", "game", "players", "agent", "seed", "games", "variants"))
VARIANT_FIELDS = frozenset(("name", "options", "config"))
# Every field of a stored game outcome (GameOutcome.to_json).
OUTCOME_FIELDS = frozenset((
    "key", "group", "lineup", "rotation", "seed", "labels", "specs", "agent_seeds", "moves", "scores",
    "ranks", "plies", "termination", "faults", "move_seconds", "moves_made", "started", "finished",
    "host", "move_cpu_seconds", "move_max_seconds", "move_max_cpu_seconds"))


def decode(path: Path | str, text: Any, what: str) -> Any:
    """A stored JSON text, decoded (DamagedResultsError if it is not JSON)."""
    try:
        if type(text) is not str:
            raise TypeError(f"holds {type(text).__name__}, not text")
        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        raise damaged(path, f"{what} is not JSON ({squeeze(exc, 60)})") from None


def check_study(path: Path | str, data: Any, where: str) -> RowContext:
    """Check a stored study definition field by field.

    Args:
        path: the study file (for messages).
        data: the decoded JSON.
        where: which definition row it is, for messages.

    Returns:
        The :class:`RowContext` of its games (every seat plays the study's agent).

    Raises:
        DamagedResultsError: the first problem found.
    """
    from .balance_study import KIND
    from .definition import INT64, MAX_GAMES

    def bad(problem: str) -> DamagedResultsError:
        return damaged(path, f"{where}: {problem}")

    if not isinstance(data, dict):
        raise bad(f"not a JSON object ({squeeze(repr(data), 60)})")
    if set(data) != STUDY_FIELDS:
        missing, unknown = sorted(STUDY_FIELDS - set(data)), sorted(set(data) - STUDY_FIELDS)
        raise bad(f"no {', '.join(missing)}" if missing else f"unknown field {unknown[0]!r}")
    if data["kind"] != KIND:
        raise bad(f"kind is not {KIND!r}")
    if not isinstance(data["game"], str) or not isinstance(data["agent"], str):
        raise bad("game or agent is not text")
    players = data["players"]
    for name, low, high in (("players", 1, 64), ("seed", *INT64), ("games", 1, MAX_GAMES)):
        if not _is_int(data[name]) or not low <= data[name] <= high:
            raise bad(f"{name} is not an integer from {low} to {high}")
    variants = data["variants"]
    if not isinstance(variants, list) or not variants:
        raise bad("variants is not a non-empty list")
    names: set[str] = set()
    for v in variants:
        _check_variant(path, data["game"], players, v, names, bad)
    return RowContext(players=players, specs={data["agent"]: data["agent"]}, cooperative=False)


def _check_variant(path, game: str, players: int, v: Any, names: set[str],
                   bad: Callable[[str], DamagedResultsError]) -> None:
    """One stored variant: a new name, its options, and a config the game accepts."""
    from .balance_study import NAME

    if not isinstance(v, dict) or set(v) != VARIANT_FIELDS:
        raise bad(f"bad variant {squeeze(repr(v), 60)}")
    name, options, config = v["name"], v["options"], v["config"]
    if not isinstance(name, str) or not NAME.match(name) or name in names:
        raise bad(f"variant name {squeeze(repr(name), 40)} is not a new name")
    names.add(name)
    if (not isinstance(options, dict) or not isinstance(config, dict)
            or config != {**options, "players": players}):
        raise bad(f"variant {name}: its config is not its options at {players} players")
    made = _definition_game(path, game, config, bad)
    if made.players != players:
        raise bad(f"variant {name}: its game has {made.players} players, not {players}")


def check_growth_row(path: Path | str, before: dict[str, Any], after: dict[str, Any], where: str) -> None:
    """A later definition row must be the study before it, grown (more games or variants)."""
    from .balance_study import check_growth

    try:
        check_growth(path, before, after)
    except ConfigError as exc:
        raise damaged(path, f"{where} is not a growth of the study before it ({squeeze(exc, 80)})") from None


def check_outcome(data: Any, context: RowContext) -> str | None:
    """What is wrong with one stored game outcome (``GameOutcome.to_json``), or None."""
    if not isinstance(data, dict):
        return "its outcome is not a JSON object"
    if set(data) != OUTCOME_FIELDS:
        missing, unknown = sorted(OUTCOME_FIELDS - set(data)), sorted(set(data) - OUTCOME_FIELDS)
        return f"its outcome has no {', '.join(missing)}" if missing else f"unknown field {unknown[0]!r}"
    if type(data["faults"]) is not list:
        return "faults are not a list"
    # The row a results file would hold for it, so one check covers both kinds of file.
    row = {**data, "grp": data["group"], "recorded": data["finished"], "session": None,
           "fault_count": len(data["faults"])}
    for key, column in (("move_cpu_seconds", "cpu_seconds"), ("move_max_seconds", "max_seconds"),
                        ("move_max_cpu_seconds", "max_cpu_seconds")):
        if data[key] != []:
            row[column] = data[key]
    return check_game_row("", row, context)


def check_sources(sources: Any, players: int) -> str | None:
    """Points per scoring source: None, or one table per seat of source name -> number."""
    if sources is None:
        return None
    if (type(sources) is not list or len(sources) != players
            or not all(type(seat) is dict and all(type(k) is str and _is_number(v) for k, v in seat.items())
                       for seat in sources)):
        return f"its points per source are not {players} tables of numbers"
    return None
