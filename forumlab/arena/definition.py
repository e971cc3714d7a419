"""Tournament definitions: from CLI options or a TOML file, validated, JSON-serialisable.

A TOML file looks like::

    game = "forum-romanum"
    format = "round-robin"          # or "gauntlet" (then: candidate = "label")
    games_per_lineup = 4            # rotation groups (game seeds) per lineup
    rotations = "balanced"          # seat- and neighbour-balanced; or "cyclic", "all"
    seed = 1
    move_time = 0.0                 # per-move limit for the fault policy (0 = none)
    hard_limit = 60.0               # a move taking longer is cut off as a hang
    [config]
    players = 3
    max_rounds = 100
    [[agents]]
    spec = "mcts(iterations=1000)"
    label = "mcts1k"                # optional; defaults to the spec
    [[agents]]
    spec = "greedy"

The definition (not the execution settings such as workers) identifies a tournament:
the results store refuses to mix games of two different definitions.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..agents.registry import agent_class
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
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TournamentDefinition":
        """Inverse of to_json; ConfigError on unknown or bad fields."""
        if not isinstance(data, dict):
            raise ConfigError("a tournament definition must be a table/object")
        data = dict(data)
        agents = data.pop("agents", None)
        if agents is not None:
            data["agents"] = tuple(_pool_entry(a) for a in agents)
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ConfigError(
                f"unknown tournament field {sorted(unknown)[0]!r} (fields: {', '.join(sorted(known))})"
            )
        return cls(**data)

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> "TournamentDefinition":
        """The definition stored in a results file (from_json, but an absent
        ``rotations`` means the design such files were played with: cyclic)."""
        if isinstance(data, dict) and "rotations" not in data:
            data = {**data, "rotations": STORED_ROTATIONS_DEFAULT}
        return cls.from_json(data)

    def canonical(self) -> str:
        """A stable text form used to compare definitions."""
        return json.dumps(self.to_json(), sort_keys=True)


def _pool_entry(item: Any) -> PoolEntry:
    if isinstance(item, str):
        return PoolEntry(item, item)
    if isinstance(item, dict) and isinstance(item.get("spec"), str):
        extra = set(item) - {"spec", "label"}
        if extra:
            raise ConfigError(f"unknown agent field {sorted(extra)[0]!r} (fields: spec, label)")
        label = item.get("label") or item["spec"]
        if not isinstance(label, str):
            raise ConfigError(f"agent label must be text, not {label!r}")
        return PoolEntry(label, item["spec"])
    raise ConfigError(f"bad agent entry {item!r}: expected a spec string or {{spec, label}}")


def parse_agent_option(text: str) -> PoolEntry:
    """``label=spec`` or just ``spec`` (from the command line)."""
    head, sep, tail = text.partition("=")
    if sep and head.isidentifier() and "(" not in head and ("(" in tail or tail.isidentifier() or ":" in tail):
        return PoolEntry(head, tail)
    return PoolEntry(text, text)


def load_toml(path: str | Path) -> TournamentDefinition:
    """Read a tournament definition from a TOML file."""
    try:
        data = tomllib.loads(Path(path).read_text())
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    return TournamentDefinition.from_json(data)


def validate(d: TournamentDefinition) -> None:
    """Check a definition completely before anything runs (one-line ConfigErrors)."""
    create_game(d.game, d.config)  # unknown game / bad config
    if d.format not in FORMATS:
        raise ConfigError(f"format must be one of {', '.join(FORMATS)}, not {d.format!r}")
    if d.rotations not in ROTATIONS:
        raise ConfigError(f"rotations must be one of {', '.join(ROTATIONS)}, not {d.rotations!r}")
    if d.fault_policy not in FAULT_POLICIES:
        raise ConfigError(f"fault_policy must be one of {', '.join(FAULT_POLICIES)}, not {d.fault_policy!r}")
    for name, value, low in (("games_per_lineup", d.games_per_lineup, 1),):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ConfigError(f"{name} must be an integer >= {low}, not {value!r}")
    if not isinstance(d.seed, int) or isinstance(d.seed, bool):
        raise ConfigError(f"seed must be an integer, not {d.seed!r}")
    for name, value in (("move_time", d.move_time), ("hard_limit", d.hard_limit)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"{name} must be a number >= 0, not {value!r}")
    if d.hard_limit <= 0:
        raise ConfigError("hard_limit must be > 0")
    if not d.agents:
        raise ConfigError("the agent pool is empty")
    labels = [a.label for a in d.agents]
    if len(set(labels)) != len(labels):
        dup = next(x for x in labels if labels.count(x) > 1)
        raise ConfigError(f"agent label {dup!r} is used twice; give the agents distinct labels")
    for entry in d.agents:
        name, params = parse_spec(entry.spec)
        params.pop("seed", None)
        agent_class(name)(seed=0, **params)  # unknown agent or parameter -> error now
    if d.format == "gauntlet":
        if d.candidate not in labels:
            raise ConfigError(f"gauntlet candidate {d.candidate!r} is not a label of the pool ({', '.join(labels)})")
        if len(labels) < 2:
            raise ConfigError("a gauntlet needs the candidate and at least one opponent")
    elif d.candidate is not None:
        raise ConfigError("candidate is only used by the gauntlet format")
