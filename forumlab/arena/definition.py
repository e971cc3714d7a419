"""Tournament definitions: from CLI options or a TOML file, validated, JSON-serialisable.

A TOML file looks like::

    game = "forum-romanum"
    format = "round-robin"          # or "gauntlet" (then: candidate = "label")
    games_per_lineup = 4            # rotation groups (game seeds) per lineup
    rotations = "balanced"          # seat- and neighbour-balanced; or "cyclic", "all"
    seed = 1
    move_time = 0.0                 # per-move limit for the fault policy (0 = none)
    hard_limit = 60.0               # a move taking longer is cut off as a hang
    sprt = { elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05 }   # gauntlet only: stop when decided
    [config]
    players = 3
    max_rounds = 100
    [[agents]]
    spec = "mcts(iterations=1000)"
    label = "mcts1k"                # optional; defaults to the spec
    [[agents]]
    spec = "greedy"
    [[agents]]                      # a bot program (docs/bot-protocol.md)
    name = "mybot"
    command = ["./mybot", "--flag"]
    options = { depth = 3 }         # optional: the bot's declared options

The definition (not the execution settings such as workers) identifies a tournament:
the results store refuses to mix games of two different definitions. The one change it
takes is a larger ``games_per_lineup``, which extends the study with new rotation groups
(the existing groups keep their keys and seeds; see :mod:`forumlab.arena.store`).

Every field is checked when a definition is made (:func:`validate`), before any results
file exists: types, ranges (``seed`` fits in 64 bits; ``move_time`` and ``hard_limit`` are
finite, at most ``MAX_SECONDS``), the game config, every agent spec (each agent is
constructed once), and the size of the schedule (at most ``MAX_GAMES`` games, counted
without building the plan).  A TOML file must list its ``[[agents]]`` unless the command
line gives them (``-a``): a file without a pool is refused rather than silently running
the built-in one.
"""
from __future__ import annotations

import json
import math
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..agents.registry import check_spec
from ..agents.spec import parse_spec
from ..core.errors import ConfigError
from ..core.registry import create_game
from .seating import BALANCED, CYCLIC, DESIGNS

FORMATS = ("round-robin", "gauntlet")
ROTATIONS = DESIGNS  # seating designs: "balanced" (default), "cyclic", "all"
# Results files written before "balanced" existed stored rotations="cyclic"; a stored
# definition without the key is read as cyclic too (from_stored), never as the new default.
STORED_ROTATIONS_DEFAULT = CYCLIC
FAULT_POLICIES = ("random",)
# The plan is held in memory (about 1 KB a game) and built in about 0.1 ms a game: beyond
# this, split the study into several tournaments (several results files).
MAX_GAMES = 200_000
# Longest time limit in seconds: the per-move alarm timer cannot count much further
# (setitimer overflows near 1e11 s); 1e6 s, 11.6 days, is "no practical limit".
MAX_SECONDS = 1e6
INT64 = (-(2**63), 2**63 - 1)

# The built-in agents at short budgets: the default `forumlab tournament`.
DEFAULT_POOL = (
    "random",
    "greedy",
    "paranoid(depth=2)",
    "maxn(depth=2, nodes=3000)",
    "brs(depth=2)",
    "mcts(iterations=500)",
)


@dataclass(frozen=True)
class PoolEntry:
    """An agent of the pool: its spec and the label it is rated under."""

    label: str
    spec: str


@dataclass(frozen=True)
class TournamentDefinition:
    """Everything that determines which games a tournament plays, and how."""

    game: str = "forum-romanum"
    config: dict[str, Any] = field(default_factory=lambda: {"players": 3})
    agents: tuple[PoolEntry, ...] = tuple(PoolEntry(s, s) for s in DEFAULT_POOL)
    format: str = "round-robin"
    candidate: str | None = None
    games_per_lineup: int = 1
    rotations: str = BALANCED
    seed: int = 1
    move_time: float = 0.0
    hard_limit: float = 60.0
    fault_policy: str = "random"
    # Gauntlets only: stop once the candidate is decided (forumlab.arena.sprt). Stored
    # only when set, so that every definition without it keeps its identity (and its id).
    sprt: dict[str, float] | None = None

    def __post_init__(self):
        validate(self)

    @property
    def players(self) -> int:
        """Seats per game."""
        return create_game(self.game, self.config).players

    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form (stored with the results)."""
        data = asdict(self)
        data["agents"] = [asdict(a) for a in self.agents]
        if data["sprt"] is None:
            del data["sprt"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentDefinition:
        """Inverse of to_json; ConfigError on unknown or bad fields."""
        if not isinstance(data, dict):
            raise ConfigError("a tournament definition must be a table/object")
        data = dict(data)
        agents = data.pop("agents", None)
        if agents is not None:
            if not isinstance(agents, (list, tuple)):
                raise ConfigError(f"agents must be a list of agent entries, not {agents!r}")
            data["agents"] = tuple(_pool_entry(a) for a in agents)
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ConfigError(
                f"unknown tournament field {sorted(unknown)[0]!r} (fields: {', '.join(sorted(known))})"
            )
        return cls(**data)

    @classmethod
    def from_stored(cls, data: dict[str, Any], path: str | Path = "the results file") -> TournamentDefinition:
        """The definition stored in a results file, read strictly: every field must be
        there (:func:`forumlab.arena.schema.check_definition`), none is completed from the
        defaults of a new tournament. The one exception is an absent ``rotations``, which
        means the design such older files were played with: cyclic.

        Args:
            data: the stored JSON definition.
            path: the results file, for messages.

        Returns:
            The definition, validated completely (agents included).

        Raises:
            DamagedResultsError: a missing, unknown or malformed field.
            ConfigError: a definition this version refuses (e.g. an agent it does not know).
        """
        from .schema import check_definition

        check_definition(path, data)
        if "rotations" not in data:
            data = {**data, "rotations": STORED_ROTATIONS_DEFAULT}
        return cls.from_json(data)

    def canonical(self) -> str:
        """A stable text form used to compare definitions."""
        return json.dumps(self.to_json(), sort_keys=True)


def _pool_entry(item: Any) -> PoolEntry:
    if isinstance(item, str):
        return PoolEntry(item, item)
    if isinstance(item, dict) and "command" in item:  # a bot program (docs/bot-protocol.md)
        from ..bots.referee import command_pool_entry

        label, spec = command_pool_entry(item)
        return PoolEntry(label, spec)
    if isinstance(item, dict) and isinstance(item.get("spec"), str):
        extra = set(item) - {"spec", "label"}
        if extra:
            raise ConfigError(f"unknown agent field {sorted(extra)[0]!r} (fields: spec, label)")
        label = item.get("label")
        if label is None or label == "":
            label = item["spec"]
        if not isinstance(label, str) or not label.strip():
            raise ConfigError(f"agent label must be text, not {label!r}")
        return PoolEntry(label, item["spec"])
    raise ConfigError(f"bad agent entry {item!r}: expected a spec string or {{spec, label}}")


def parse_agent_option(text: str) -> PoolEntry:
    """``label=spec`` or just ``spec`` (from the command line)."""
    head, sep, tail = text.partition("=")
    if (sep and head.isidentifier() and "(" not in head
            and ("(" in tail or tail.isidentifier() or ":" in tail)):
        return PoolEntry(head, tail)
    return PoolEntry(text, text)


def load_toml(path: str | Path, *, agents_required: bool = True) -> TournamentDefinition:
    """Read a tournament definition from a TOML file (UTF-8).

    ``agents_required``: refuse a file without ``[[agents]]`` (pass False when the
    command line names the pool instead). ConfigError names the first problem, also a
    path that is not a regular file (a pipe, a device) or a file larger than
    ``MAX_TOML_BYTES``.
    """
    from ..core.files import MAX_TOML_BYTES, read_text_file

    text = read_text_file(path, "tournament file", MAX_TOML_BYTES, hint="; TOML files must be UTF-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path} nests arrays or tables too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    if agents_required and "agents" not in data:
        raise ConfigError(f"{path} has no [[agents]]: list the pool there (or give it with -a)")
    return TournamentDefinition.from_json(data)


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConfigError(f"{name} must be an integer from {low} to {high}, not {value!r}")


def _check_seconds(name: str, value: Any, positive: bool) -> None:
    ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
          and (value > 0 if positive else value >= 0) and value <= MAX_SECONDS)
    if not ok:
        bound = "> 0" if positive else ">= 0"
        raise ConfigError(f"{name} must be a finite number of seconds {bound} and at most "
                          f"{MAX_SECONDS:g}, not {value!r}")


def planned_games(d: TournamentDefinition) -> int:
    """How many games the schedule of ``d`` holds, counted without building it."""
    from .schedule import lineups, seat_orders

    n = create_game(d.game, d.config).players
    pool = list(d.agents)
    if d.format == "gauntlet":
        candidate = [a for a in pool if a.label == d.candidate]
        others = [a for a in pool if a.label != d.candidate]
        seats, fixed = n - 1, candidate
    else:
        others, seats, fixed = pool, n, []
    if len(others) >= seats:
        # Every lineup has distinct agents, so every lineup has as many seat orders.
        count = math.comb(len(others), seats)
        per_group = len(seat_orders(tuple(fixed + others[:seats]), d.rotations))
        return count * d.games_per_lineup * per_group
    # Fewer agents than seats: a handful of lineups (multisets), each counted.
    return sum(len(seat_orders(lineup, d.rotations)) for lineup in lineups(d)) * d.games_per_lineup


def _check_weights(spec: str, cls, game_name: str) -> None:
    """A built-in agent's heuristic weights (``w.NAME``, ``archetype``) must name the
    game's terms: refused now, with one line, not as a fault of every game."""
    from ..agents.registry import create_agent, is_builtin
    from ..agents.weights import WeightedAgent, check_weights_for_game
    from ..core.registry import get_game_class

    if is_builtin(cls) and issubclass(cls, WeightedAgent):
        check_weights_for_game(create_agent(spec, seed=0), get_game_class(game_name))


def validate(d: TournamentDefinition) -> None:
    """Check a definition completely before anything runs (one-line ConfigErrors)."""
    if not isinstance(d.game, str):
        raise ConfigError(f"game must be a game name, not {d.game!r}")
    if not isinstance(d.config, dict) or not all(isinstance(k, str) for k in d.config):
        raise ConfigError(f"config must be a table of game options, not {d.config!r}")
    create_game(d.game, d.config)  # unknown game / bad config
    for name, value, choices in (("format", d.format, FORMATS), ("rotations", d.rotations, ROTATIONS),
                                 ("fault_policy", d.fault_policy, FAULT_POLICIES)):
        if not isinstance(value, str) or value not in choices:
            raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    _check_int("games_per_lineup", d.games_per_lineup, 1, MAX_GAMES)
    _check_int("seed", d.seed, *INT64)
    _check_seconds("move_time", d.move_time, positive=False)
    _check_seconds("hard_limit", d.hard_limit, positive=True)
    if not isinstance(d.agents, tuple) or not all(isinstance(a, PoolEntry) for a in d.agents):
        raise ConfigError("agents must be a list of agent entries")
    if not d.agents:
        raise ConfigError("the agent pool is empty")
    labels = [a.label for a in d.agents]
    if not all(isinstance(x, str) and x.strip() for x in labels):
        raise ConfigError("every agent needs a non-empty text label")
    if len(set(labels)) != len(labels):
        dup = next(x for x in labels if labels.count(x) > 1)
        raise ConfigError(f"agent label {dup!r} is used twice; give the agents distinct labels")
    for entry in d.agents:
        if not isinstance(entry.spec, str):
            raise ConfigError(f"agent spec must be text, not {entry.spec!r}")
        cls = check_spec(entry.spec)  # unknown agent, bad parameter or seed -> error now
        _check_weights(entry.spec, cls, d.game)
        if cls.interactive and "input" not in parse_spec(entry.spec)[1]:
            # Games run in worker processes, which have no terminal, under the hard limit.
            raise ConfigError(f"agent {entry.spec!r} asks a person at the terminal, which tournament "
                              "games (played in worker processes) do not have; give its commands "
                              "from a file with human(input=PATH)")
    if d.format == "gauntlet":
        if d.candidate not in labels:
            raise ConfigError(f"gauntlet candidate {d.candidate!r} is not a label of the pool "
                              f"({', '.join(labels)})")
        if len(labels) < 2:
            raise ConfigError("a gauntlet needs the candidate and at least one opponent")
    elif d.candidate is not None:
        raise ConfigError("candidate is only used by the gauntlet format")
    if d.sprt is not None:
        from .sprt import SprtSettings

        if d.format != "gauntlet":
            raise ConfigError("sprt is only used by the gauntlet format (with a candidate)")
        # One-line ConfigError on a bad table; stored complete (alpha, beta filled in) as floats.
        object.__setattr__(d, "sprt", SprtSettings.from_json(d.sprt).to_json())
    total = planned_games(d)
    if total > MAX_GAMES:
        raise ConfigError(f"this tournament would play {total:,} games; at most {MAX_GAMES:,} fit in "
                          "one results file (fewer games per lineup, a smaller pool, or several tournaments)")
    try:
        json.dumps(d.to_json(), allow_nan=False)
    except (TypeError, ValueError) as exc:  # e.g. a TOML date in the game config
        raise ConfigError(f"the tournament definition cannot be stored as JSON: {exc}") from None


# Words a game's title keeps in lower case ("Foundations of Rome").
_SMALL_WORDS = {"of", "the", "and", "a", "an", "in", "on"}


def game_title(definition: dict[str, Any]) -> str:
    """A game and its config as a person writes it: ``Forum Romanum, 3 players``.

    Args:
        definition: a tournament definition (its ``game`` and ``config``).

    Returns:
        The game's name in title case, the player count, then any other option as
        ``key value``.
    """
    words = str(definition.get("game", "?")).replace("_", "-").split("-")
    name = " ".join(w if (k and w in _SMALL_WORDS) else w[:1].upper() + w[1:] for k, w in enumerate(words))
    config = dict(definition.get("config") or {})
    parts = [name]
    players = config.pop("players", None)
    if players is not None:
        parts.append(f"{players} players")
    parts += [f"{key.replace('_', ' ')} {value}" for key, value in sorted(config.items())]
    return ", ".join(parts)
