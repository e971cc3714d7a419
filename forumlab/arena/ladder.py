"""Rating ladders: built-in agents at fixed iteration budgets whose Elo was fixed once.

A ladder belongs to one game and player count. Its members are agents whose play does not
depend on the machine (``random``, ``greedy``, ``mcts`` at an iteration budget, never a
time budget), with every tuned MCTS setting of the day written into the member's spec, so
that later tuning of a game's defaults leaves the member as it was calibrated. The
members' ratings come from one calibration: a seat- and neighbour-balanced round robin of
the ladder against itself (``benchmarks/calibrate_ladder.py``), fitted with the arena's
Plackett–Luce model and anchored at ``greedy = 1000`` (:data:`ANCHOR_ELO`).

Why greedy at 1000: greedy is cheap, plays every game, and the games place it (it wins
against some members and loses to others), while ``random`` usually finishes behind
everybody, so that only the fit's prior sets its distance to the rest. An anchor the
games cannot place would make every interval the prior's. The figure 1000 keeps the
fixed scale's numbers apart from a tournament table's, which centres on 0.

The ladder files are package data (``forumlab/arena/ladders/<game>-<N>p.json``); each
holds the command that produced it, the date, commit, games played, each member's Elo
with its standard deviation and 95% interval, their covariance, and the seat and tie
parameters of the fit, which :mod:`forumlab.arena.ladder_fit` holds fixed when it rates a
candidate.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError

FORMAT = "forumlab-ladder/1"
ANCHOR = "greedy"
ANCHOR_ELO = 1000.0
LADDER_DIR = Path(__file__).resolve().parent / "ladders"
# A directory of ladder files to use instead of the shipped ones (a calibration of your own).
LADDER_DIR_ENV = "FORUMLAB_LADDER_DIR"


class LadderError(ConfigError):
    """No ladder for a game and player count, or a ladder file that cannot be read."""


@dataclass(frozen=True)
class Member:
    """One rung of a ladder: its name (the label it plays under), its frozen spec, and the
    calibrated rating (Elo on the fixed scale, its sd, the raw natural-log strength)."""

    name: str
    spec: str
    elo: float
    elo_sd: float
    theta: float
    separated: str | None  # "below"/"above"/"apart" when only the prior placed it
    settings: dict[str, Any] | None  # every MCTS setting the calibration used (None: not mcts)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the member's Elo on the fixed scale."""
        return self.elo - 1.959963984540054 * self.elo_sd, self.elo + 1.959963984540054 * self.elo_sd


@dataclass(frozen=True)
class Ladder:
    """A calibrated ladder as stored in its JSON file (see the module doc)."""

    game: str
    players: int
    config: dict[str, Any]
    members: tuple[Member, ...]
    covariance: list[list[float]]  # of the members' Elo (anchor row and column 0)
    seat_theta: list[float]  # seat advantage over seat 0, natural-log units
    tie: dict[int, float]  # Davidson-Luce tie prevalence per tie size
    prior_sd: float
    calibration: dict[str, Any]
    path: Path | None = None

    def member(self, name: str) -> Member:
        """The member called ``name``; LadderError naming the members otherwise."""
        for m in self.members:
            if m.name == name:
                return m
        raise LadderError(f"the {self.title} ladder has no member {name!r} "
                          f"(members: {', '.join(m.name for m in self.members)})")

    @property
    def title(self) -> str:
        """``forum-romanum, 3 players``."""
        return f"{self.game}, {self.players} players"

    @property
    def anchor_theta(self) -> float:
        """The anchor's raw log-strength (Elo = (theta - anchor_theta) * ELO_PER_NAT + ANCHOR_ELO)."""
        return self.member(ANCHOR).theta


def ladder_dir() -> Path:
    """The directory ladders are read from: ``$FORUMLAB_LADDER_DIR`` if set, else the shipped one."""
    return Path(os.environ.get(LADDER_DIR_ENV) or LADDER_DIR)


def ladder_path(game: str, players: int, directory: Path | None = None) -> Path:
    """Where the ladder of ``game`` at ``players`` players is stored."""
    return Path(directory or ladder_dir()) / f"{game}-{players}p.json"


def available_ladders(directory: Path | None = None) -> list[tuple[str, int]]:
    """Every (game, players) with a ladder file, sorted."""
    found = []
    for path in sorted(Path(directory or ladder_dir()).glob("*p.json")):
        game, _, count = path.stem.rpartition("-")
        if count[:-1].isdigit():
            found.append((game, int(count[:-1])))
    return sorted(found)


def describe_available(directory: Path | None = None) -> str:
    """``forma 2, forum-romanum 3, ...`` (or ``none``) for error messages."""
    names = [f"{g} {n}" for g, n in available_ladders(directory)]
    return ", ".join(names) if names else "none"


def load_ladder(game: str, players: int, directory: Path | None = None) -> Ladder:
    """The ladder of ``game`` at ``players`` players.

    Raises:
        LadderError: there is none (the message lists those that exist) or it is damaged.
    """
    path = ladder_path(game, players, directory)
    if not path.is_file():
        raise LadderError(f"no rating ladder for {game} with {players} players; ladders exist for "
                          f"(game players): {describe_available(directory)}")
    return read_ladder(path)


def read_ladder(path: Path) -> Ladder:
    """Read one ladder file (LadderError if it is not one)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format is {data.get('format')!r}, not {FORMAT!r}")
        members = tuple(Member(m["name"], m["spec"], float(m["elo"]), float(m["elo_sd"]), float(m["theta"]),
                               m.get("separated"), m.get("settings")) for m in data["members"])
        ladder = Ladder(data["game"], int(data["players"]), dict(data["config"]), members,
                        [[float(x) for x in row] for row in data["covariance"]],
                        [float(x) for x in data["seat_theta"]],
                        {int(k): float(v) for k, v in data["tie"].items()}, float(data["prior_sd"]),
                        dict(data["calibration"]), Path(path))
        ladder.member(ANCHOR)
        if len(ladder.seat_theta) != ladder.players or len(ladder.covariance) != len(members):
            raise ValueError("seat or covariance sizes do not fit the members")
        if not all(math.isfinite(m.elo) and m.elo_sd >= 0 for m in members):
            raise ValueError("a member's rating is not a finite number")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LadderError(f"{path} is not a readable ladder file: {exc}") from None
    return ladder


def frozen_spec(game: str, players: int, spec: str) -> str:
    """``spec`` with the game's tuned MCTS defaults at ``players`` players written out.

    A plain ``mcts(iterations=1000)`` takes whatever defaults the game is tuned with on the
    day it runs; a ladder member must keep the settings it was calibrated with, so the
    tuned values (those the spec does not set) become part of its spec. Other agents are
    returned as they are.
    """
    from ..agents.spec import parse_spec
    from ..core.registry import create_game

    name, params = parse_spec(spec)
    if name != "mcts":
        return spec
    tuned = create_game(game, {"players": players}).tuned_mcts()
    values = {**tuned, **params}
    return "mcts(" + ", ".join(f"{k}={_spec_value(v)}" for k, v in values.items()) + ")"


def _spec_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def member_settings(game: str, players: int, spec: str) -> dict[str, Any] | None:
    """Every setting an ``mcts`` member searches with in this game (None for other agents):
    what a ladder file records so that a later change of a declared default is noticed."""
    from ..agents.registry import create_agent
    from ..core.registry import create_game

    agent = create_agent(spec)
    if not hasattr(agent, "settings_for"):
        return None
    return json.loads(json.dumps(agent.settings_for(create_game(game, {"players": players}))))


def drifted_members(ladder: Ladder) -> list[str]:
    """Members whose spec now searches with other settings than at the calibration."""
    drifted = []
    for m in ladder.members:
        if m.settings is None:
            continue
        now = member_settings(ladder.game, ladder.players, m.spec)
        # A setting added since keeps its old behaviour at its default, so only the settings
        # both know are compared.
        if any(now[k] != v for k, v in m.settings.items() if k in now):
            drifted.append(m.name)
    return drifted
