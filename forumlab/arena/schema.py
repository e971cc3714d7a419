"""What every stored JSON field and row of a results file must hold, checked on reading.

A results file is read by ``ratings``, ``report``, ``export``, ``balance`` and the Python
API, and continued by ``tournament resume`` and ``run``. Each of them trusts what the
file says: the stored definition decides which games are played next, a fault's seat
indexes the seat labels, a game's ranks are fitted. So nothing of a file is used before
it is checked here, against one schema, strictly: a field that is missing, of the wrong
type or out of range makes the file *damaged*, and a damaged file is refused with one
:class:`DamagedResultsError` line that names the file and the damage. Nothing is ever
completed from defaults: a stored definition missing its ``agents`` is damaged, never
the built-in pool.

Two places call this module, both in :mod:`forumlab.arena.store`:

* opening a file (:meth:`~forumlab.arena.store.ResultStore.open` and ``create`` of an
  existing file) checks the small rows at once: every stored definition
  (:func:`check_definition`; the one the file was created with must also still hash to
  the tournament id), the versions of the file and of every session, every sequential
  test record (:func:`check_sprt_record`) and the ``move_times`` table's keys;
* every game row is checked as it is read (:func:`check_game_row`), against the
  definition (player count, labels and their specs), so that a reader streaming 30,000
  games parses each row once. A store opened for writing reads every row before it
  writes anything, so a damaged file never receives a game.

The only field a stored definition may lack is ``rotations``, which files written before
the balanced design existed did not store; their games were played cyclic, and
:data:`forumlab.arena.definition.STORED_ROTATIONS_DEFAULT` says so (the design they were
played with, not today's default). ``sprt`` is stored only when the gauntlet has one.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, ForumlabError, UnknownGameError, squeeze
from .jobs import FAULT_KINDS
from .sqlite import StoreError

# Every field of a stored tournament definition (TournamentDefinition.to_json).
DEFINITION_FIELDS = ("game", "config", "agents", "format", "candidate", "games_per_lineup",
                     "rotations", "seed", "move_time", "hard_limit", "fault_policy", "sprt")
# Fields a stored definition may lack: rotations (older files, see the module doc) and
# sprt (stored only when set).
OPTIONAL_DEFINITION_FIELDS = ("rotations", "sprt")
SPRT_KEYS = ("elo0", "elo1", "alpha", "beta")
# Fields of a stored sequential test record (sequential.SequentialTest.record), with the
# JSON types each may hold; the decided_* fields are present together or not at all.
_NUMBER = "number"
_RECORD_FIELDS = {
    "candidate": (str,), "elo0": _NUMBER, "elo1": _NUMBER, "alpha": _NUMBER, "beta": _NUMBER,
    "decision": (str, type(None)), "reason": (str,), "llr": _NUMBER, "lower": _NUMBER,
    "upper": _NUMBER, "groups": (int,), "games": (int,), "planned_groups": (int,),
    "mean_score": (_NUMBER, None), "score_elo": (_NUMBER, None), "model": (str,), "trace": (list,),
}
_DECIDED_FIELDS = {"decided_after_groups": (int,), "decided_after_games": (int,), "decision_llr": _NUMBER}
_FAULT_FIELDS = frozenset(("seat", "ply", "kind", "message"))
_KINDS = frozenset(FAULT_KINDS)


class DamagedResultsError(StoreError, ConfigError):
    """A results file whose stored data does not fit the schema (one-line message that
    names the file and the damage). Both a :class:`StoreError` and a :class:`ConfigError`."""


def damaged(path: Path | str, what: str) -> DamagedResultsError:
    """The error for a file whose ``what`` is damaged.

    Args:
        path: the results file.
        what: what is damaged, e.g. ``"the stored definition: no agents"``.

    Returns:
        The exception (to raise).
    """
    error = DamagedResultsError(f"{path} is a damaged forumlab results file: {squeeze(what, 240)}")
    error.what = squeeze(what, 240)  # the damage alone, for callers that word it otherwise
    return error


@dataclass(frozen=True)
class RowContext:
    """What a game row of one file is checked against: its seats and its pool."""

    players: int
    specs: Mapping[str, str]  # label -> spec of the stored definition's pool
    cooperative: bool


# --------------------------------------------------------------------- small checks


def _is_int(value: Any) -> bool:
    return type(value) is int  # never a bool, which JSON's true would give


def _is_number(value: Any) -> bool:
    t = type(value)
    return (t is int or t is float) and math.isfinite(value)


def _fits(value: Any, kinds) -> bool:
    if kinds == _NUMBER:
        return _is_number(value)
    if isinstance(kinds, tuple) and _NUMBER in kinds:
        return any(_fits(value, k) if k == _NUMBER else value is None for k in kinds)
    if kinds == (int,):
        return _is_int(value)
    return isinstance(value, kinds)


def check_versions(path: Path | str, what: str, value: Any, nullable: bool = False) -> Any:
    """A stored set of versions: a JSON object of text keys and scalar values.

    Args:
        path: the results file (for the message).
        what: which row holds it, for the message.
        value: the decoded JSON.
        nullable: None is allowed (a session that gave no versions).

    Returns:
        ``value``.

    Raises:
        DamagedResultsError: anything else.
    """
    if value is None and nullable:
        return value
    if not isinstance(value, dict) or not all(
            isinstance(k, str) and (v is None or isinstance(v, (str, bool)) or _is_number(v))
            for k, v in value.items()):
        raise damaged(path, f"{what} is not a table of versions ({squeeze(repr(value), 60)})")
    return value


# --------------------------------------------------------------------- definitions


def check_definition(path: Path | str, data: Any, where: str = "the stored definition") -> RowContext:
    """Check a stored tournament definition field by field, completing nothing.

    Every field of :data:`DEFINITION_FIELDS` must be there (but see
    :data:`OPTIONAL_DEFINITION_FIELDS`), with its type and range, and nothing else; the
    game and config must make a game this version knows. The agent specs are not
    constructed (reading a file must not need its agents); ``resume`` does that when it
    builds the definition (:meth:`~forumlab.arena.definition.TournamentDefinition.from_stored`).

    Args:
        path: the results file (for messages).
        data: the decoded JSON.
        where: which definition it is, for messages.

    Returns:
        The :class:`RowContext` of its games.

    Raises:
        DamagedResultsError: the first problem found.
    """
    def bad(problem: str) -> DamagedResultsError:
        return damaged(path, f"{where}: {problem}")

    if not isinstance(data, dict):
        raise bad(f"not a JSON object ({squeeze(repr(data), 60)})")
    missing = [k for k in DEFINITION_FIELDS if k not in data and k not in OPTIONAL_DEFINITION_FIELDS]
    if missing:
        raise bad(f"no {', '.join(missing)}")
    unknown = sorted(set(data) - set(DEFINITION_FIELDS))
    if unknown:
        raise bad(f"unknown field {unknown[0]!r}")
    game, config, agents = data["game"], data["config"], data["agents"]
    if not isinstance(game, str):
        raise bad(f"game is not a name ({game!r})")
    if not isinstance(config, dict):
        raise bad(f"config is not a table ({squeeze(repr(config), 60)})")
    specs = _agent_specs(agents, bad)
    _check_definition_settings(data, specs, bad)
    made = _definition_game(path, game, config, bad)
    return RowContext(players=int(made.players), specs=specs, cooperative=bool(made.cooperative))


def _agent_specs(agents: Any, bad: Callable[[str], DamagedResultsError]) -> dict[str, str]:
    """label -> spec of a stored definition's ``agents``: a non-empty list of distinct labels."""
    if not isinstance(agents, list) or not agents:
        raise bad("agents is not a non-empty list")
    specs: dict[str, str] = {}
    for entry in agents:
        if (not isinstance(entry, dict) or set(entry) != {"label", "spec"}
                or not isinstance(entry["label"], str) or not entry["label"].strip()
                or not isinstance(entry["spec"], str)):
            raise bad(f"bad agent entry {squeeze(repr(entry), 60)}")
        if entry["label"] in specs:
            raise bad(f"agent label {entry['label']!r} is used twice")
        specs[entry["label"]] = entry["spec"]
    return specs


def _check_definition_settings(data: dict, specs: dict[str, str],
                               bad: Callable[[str], DamagedResultsError]) -> None:
    """The tournament settings of a stored definition: format and candidate, counts, seed,
    times, fault policy and sequential test."""
    from .definition import FAULT_POLICIES, FORMATS, INT64, MAX_GAMES, MAX_SECONDS, ROTATIONS
    from .sprt import SprtSettings

    for name, choices in (("format", FORMATS), ("rotations", ROTATIONS), ("fault_policy", FAULT_POLICIES)):
        if name in data and data[name] not in choices:
            raise bad(f"{name} is not one of {', '.join(choices)} ({squeeze(repr(data[name]), 40)})")
    candidate = data["candidate"]
    if data["format"] == "gauntlet":
        if not isinstance(candidate, str) or candidate not in specs or len(specs) < 2:
            raise bad(f"the gauntlet candidate {squeeze(repr(candidate), 40)} is not one of several agents")
    elif candidate is not None:
        raise bad("a round robin with a candidate")
    for name, low, high in (("games_per_lineup", 1, MAX_GAMES), ("seed", *INT64)):
        if not _is_int(data[name]) or not low <= data[name] <= high:
            raise bad(f"{name} is not an integer from {low} to {high}")
    if not (_is_number(data["move_time"]) and 0 <= data["move_time"] <= MAX_SECONDS):
        raise bad("move_time is not a number of seconds")
    if not (_is_number(data["hard_limit"]) and 0 < data["hard_limit"] <= MAX_SECONDS):
        raise bad("hard_limit is not a number of seconds")
    if "sprt" in data:
        sprt = data["sprt"]
        if data["format"] != "gauntlet" or not isinstance(sprt, dict) or set(sprt) != set(SPRT_KEYS):
            raise bad(f"bad sprt settings {squeeze(repr(sprt), 60)}")
        try:
            SprtSettings(**sprt)
        except ConfigError as exc:
            raise bad(str(exc)) from None


def _definition_game(path: Path | str, game: str, config: dict,
                     bad: Callable[[str], DamagedResultsError]) -> Any:
    """The game a stored definition names, made from its config."""
    from ..core.registry import create_game

    try:
        return create_game(game, config)
    except UnknownGameError as exc:
        # Not damage: a game from a package this process has not registered.
        raise UnknownGameError(f"{path}: {exc}; a game from another package must be registered "
                               "(FORUMLAB_GAMES or its entry point) to read its results") from None
    except ForumlabError as exc:
        raise bad(f"its game: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a config a game's constructor chokes on
        raise bad(f"its game config ({type(exc).__name__}: {exc})") from None


def check_extension(path: Path | str, before: dict[str, Any], after: dict[str, Any], where: str) -> None:
    """An extension's definition may differ from the one before only by more groups per lineup.

    Raises:
        DamagedResultsError: it differs otherwise.
    """
    if ({**after, "games_per_lineup": None} != {**before, "games_per_lineup": None}
            or not after["games_per_lineup"] > before["games_per_lineup"]):
        raise damaged(path, f"{where} is not an extension of the definition before it")


# --------------------------------------------------------------------- sequential test


def check_sprt_record(path: Path | str, record: Any, definition: dict[str, Any] | None,
                      where: str = "the sequential test record") -> dict[str, Any]:
    """A stored sequential test record (:meth:`SequentialTest.record`).

    Args:
        path: the results file.
        record: the decoded JSON.
        definition: the file's (checked) definition; the record belongs to its gauntlet.
        where: which meta row it is, for messages.

    Returns:
        ``record``.

    Raises:
        DamagedResultsError: a missing or mistyped field, or a record in a file whose
            tournament runs no sequential test or whose candidate is another.
    """
    def bad(problem: str) -> DamagedResultsError:
        return damaged(path, f"{where}: {problem}")

    if not isinstance(record, dict):
        raise bad("not a JSON object")
    if definition is not None and "sprt" not in definition:
        raise bad("the tournament runs no sequential test")
    for key, kinds in _RECORD_FIELDS.items():
        if key not in record:
            raise bad(f"no {key}")
        if not _fits(record[key], kinds):
            raise bad(f"{key} is {squeeze(repr(record[key]), 40)}")
    decided = [key for key in _DECIDED_FIELDS if key in record]
    if decided and len(decided) != len(_DECIDED_FIELDS):
        raise bad("part of where the test decided")
    for key in decided:
        if not _fits(record[key], _DECIDED_FIELDS[key]):
            raise bad(f"{key} is {squeeze(repr(record[key]), 40)}")
    if record["decision"] not in (None, "H0", "H1"):
        raise bad(f"decision is {squeeze(repr(record['decision']), 40)}")
    if not all(_is_number(v) for v in record["trace"]):
        raise bad("trace holds a value that is not a finite number")
    if definition is not None and record["candidate"] != definition.get("candidate"):
        raise bad("its candidate is not the tournament's")
    return record


# --------------------------------------------------------------------- games


_NUMBER_TYPES = (int, float)


def _numbers(value: Any, n: int | None) -> bool:
    # A NaN or an infinity makes the sum NaN or infinite, so one isfinite checks them all
    # (values so large that their sum overflows are no results either).
    return (type(value) is list and (n is None or len(value) == n)
            and all(type(v) in _NUMBER_TYPES for v in value) and math.isfinite(sum(value)))


def _ints(value: Any, n: int | None) -> bool:
    return type(value) is list and (n is None or len(value) == n) and all(type(v) is int for v in value)


def check_game_row(path: Path | str, row: dict[str, Any], context: RowContext | None) -> str | None:
    """What is wrong with one decoded game row, or None.

    ``row`` holds the games table's columns with its JSON columns decoded, and, for a game
    with a ``move_times`` row, ``cpu_seconds``, ``max_seconds`` and ``max_cpu_seconds``.

    Args:
        path: the results file (unused in the answer; kept for symmetry with the others).
        row: the decoded row.
        context: the file's seats and pool (None: check types only).

    Returns:
        A short description of the first damage, or None for a sound row.
    """
    for key in ("key", "grp", "host", "termination"):
        if type(row[key]) is not str:
            return f"{key} is not text"
    for key in ("lineup", "rotation", "plies", "fault_count"):
        if not _is_int(row[key]) or row[key] < 0:
            return f"{key} is not a count"
    if not _is_int(row["seed"]):
        return "seed is not an integer"
    for key in ("started", "finished", "recorded"):
        if not _is_number(row[key]):
            return f"{key} is not a time"
    if row["session"] is not None and not _is_int(row["session"]):
        return "session is not a number"
    labels, specs = row["labels"], row["specs"]
    n = context.players if context is not None else (len(labels) if type(labels) is list else -1)
    if type(labels) is not list or len(labels) != n or not all(type(v) is str for v in labels):
        return f"labels are not {n} names"
    if type(specs) is not list or len(specs) != n or not all(type(v) is str for v in specs):
        return f"specs are not {n} agent specs"
    if not _ints(row["agent_seeds"], n):
        return f"agent_seeds are not {n} integers"
    moves = row["moves"]
    if type(moves) is not list or not all(type(m) is str for m in moves):
        return "moves are not a list of moves"
    if not _numbers(row["scores"], n):
        return f"scores are not {n} finite numbers"
    if context is not None and context.cooperative and len(set(row["scores"])) > 1:
        # Team results read the first seat's: every seat holds the team's one value.
        return "the seats of a cooperative game hold different scores"
    ranks = row["ranks"]
    if not _ints(ranks, n) or not all(1 <= r <= n for r in ranks):
        return f"ranks are not {n} ranks from 1 to {n}"
    if row["move_seconds"] and not _numbers(row["move_seconds"], n):
        return f"move_seconds are not {n} numbers"
    if row["moves_made"] and not _ints(row["moves_made"], n):
        return f"moves_made are not {n} counts"
    faults = row["faults"]
    if type(faults) is not list:
        return "faults are not a list"
    for f in faults:
        if (type(f) is not dict or f.keys() != _FAULT_FIELDS or not _is_int(f["seat"])
                or not 0 <= f["seat"] < n or not _is_int(f["ply"]) or f["ply"] < 0
                or type(f["kind"]) is not str or f["kind"] not in _KINDS or type(f["message"]) is not str):
            return f"a fault is not a seat, ply, known kind and message ({squeeze(repr(f), 80)})"
    if row["fault_count"] != len(faults):
        return "fault_count is not the number of faults"
    for key in ("cpu_seconds", "max_seconds", "max_cpu_seconds"):
        if key in row and not _numbers(row[key], n):
            return f"its move_times {key} are not {n} numbers"
    if context is not None:
        for label, spec in zip(labels, specs):
            if context.specs.get(label) != spec:
                if label not in context.specs:
                    return f"label {squeeze(repr(label), 40)} is not an agent of the definition"
                return f"label {label!r} plays {squeeze(repr(spec), 40)}, not its spec in the definition"
    return None


# --------------------------------------------------------------------- games and the plan


def check_planned(store, jobs) -> None:
    """Before a tournament plays on: every stored game must be a game of its plan.

    A game's key names its place in the schedule; its group, lineup, rotation, seed,
    labels, specs and agent seeds must be that job's. Otherwise the file holds games of
    another definition, and playing on would mix the two.

    Args:
        store: the open results file (its rows are checked as they are read).
        jobs: the plan of its definition (:func:`forumlab.arena.schedule.plan`).

    Raises:
        DamagedResultsError: a stored game that the plan does not hold, or holds otherwise.
    """
    planned = {job.key: job for job in jobs}
    for o in store.iter_outcomes():
        job = planned.get(o.key)
        if job is None:
            raise damaged(store.path,
                          f"game {squeeze(repr(o.key), 40)} is not a game of its tournament's plan")
        if ((o.group, o.lineup, o.rotation, o.seed, tuple(o.labels), tuple(o.specs), tuple(o.agent_seeds))
                != (job.group, job.lineup, job.rotation, job.seed, tuple(job.labels), tuple(job.specs),
                    tuple(job.agent_seeds))):
            raise damaged(store.path,
                          f"game {o.key} is not the game its tournament's plan holds under that key")
