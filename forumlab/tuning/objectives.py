"""What one tuning evaluation plays and how it scores, through the arena's game runner.

Agent strength: the candidate setting takes one seat against the field (by default the
untuned spec) in one rotation group of the balanced seating design, every seating on one
game seed; the value is the candidate's pairwise score (the share of opponents it
finishes ahead of, ties counting half), in [0, 1].

Design: self-play of one agent on the candidate game options, a few games on their own
seeds; the value for ``seat-fair`` is minus the spread of the seats' pairwise scores (0 is
perfectly fair, -1 one seat always first and another always last), for ``length=N`` minus
the relative distance of the mean game length in plies from N (at most 1). A setting the
game refuses (e.g. deed prices that decrease) scores -1.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import ConfigError
from ..core.rng import derive_seed
from .grid import Dimension, apply_options, point_values, spec_with
from .log import TuneLog


def pairwise_share(ranks: Sequence[int], seat: int) -> float:
    """The share of the other seats that ``seat`` finished ahead of (ties count half)."""
    mine = ranks[seat]
    others = [r for s, r in enumerate(ranks) if s != seat]
    return sum(1.0 if mine < r else 0.5 if mine == r else 0.0 for r in others) / len(others)


def parse_target(text: str) -> tuple[str, float]:
    """``seat-fair`` or ``length=N`` (plies) as (kind, N).

    Raises:
        ConfigError: anything else.
    """
    if text == "seat-fair":
        return "seat-fair", 0.0
    kind, sep, value = text.partition("=")
    if kind == "length" and sep:
        try:
            plies = float(value)
        except ValueError:
            plies = 0.0
        if plies > 0:
            return "length", plies
    raise ConfigError(f"--target must be seat-fair or length=N (N plies > 0), not {text!r}")


@dataclass
class Arena:
    """Where evaluations are played: the game, its options, the run's seed and an executor."""

    game: str
    config: dict[str, Any]
    seed: int
    executor: Any

    def play(self, jobs: list) -> list:
        """Play ``jobs`` with the arena's runner; the outcomes in job order."""
        from ..arena.runner import run_job

        outcomes = {o.key: o for o in self.executor.run(jobs, run_job, progress=False)}
        return [outcomes[job.key] for job in jobs]

    def job(self, key: str, group: str, rotation: int, config: dict, seed: int,
            seats: Sequence[tuple[str, str]], agent_seeds: Sequence[int]):
        """One game: ``seats`` as (label, spec) per seat."""
        from ..arena.jobs import GameJob

        return GameJob(key=key, group=group, lineup=0, rotation=rotation, game=self.game,
                       config=dict(config), seed=seed, labels=tuple(s[0] for s in seats),
                       specs=tuple(s[1] for s in seats), agent_seeds=tuple(agent_seeds))


def _summary(outcomes: list) -> list[dict[str, Any]]:
    return [{"specs": list(o.specs), "ranks": list(o.ranks), "plies": o.plies,
             "faults": len(o.faults)} for o in outcomes]


@dataclass
class AgentObjective:
    """The candidate setting of ``spec`` against ``field`` (labels ``tuned`` and the specs)."""

    arena: Arena
    spec: str
    dims: list[Dimension]
    field: list[str]
    log: TuneLog

    def candidate(self, point: tuple[int, ...]) -> str:
        """The spec string of a grid point."""
        return spec_with(self.spec, point_values(self.dims, point))

    def __call__(self, index: int, point: tuple[int, ...]) -> float:
        """Play (or read back) evaluation ``index`` of ``point``; the candidate's pairwise score."""
        from ..arena.seating import seat_lineup

        stored = self.log.get(index, list(point))
        if stored is not None:
            return stored["value"]
        players = self.arena.config["players"]
        opponents = [(f, f) for f in (self.field * players)[:players - 1]]
        lineup = [("tuned", self.candidate(point)), *opponents]
        group = f"E{index:05d}"
        game_seed = derive_seed(self.arena.seed, "tune", index)
        # Seeds belong to seats, shared by the group's seatings (as in the arena's plan).
        seeds = [derive_seed(self.arena.seed, "tune-agent", index, s) for s in range(players)]
        jobs = [self.arena.job(f"{group}-R{r:02d}", group, r, self.arena.config, game_seed, seats, seeds)
                for r, seats in enumerate(seat_lineup(lineup, "balanced", label=lambda e: e[0]))]
        outcomes = self.arena.play(jobs)
        value = sum(pairwise_share(o.ranks, o.labels.index("tuned")) for o in outcomes) / len(outcomes)
        self.log.add({"index": index, "point": list(point), "value": value,
                      "spec": lineup[0][1], "games": _summary(outcomes)})
        return value


@dataclass
class DesignObjective:
    """Self-play of ``spec`` on the game options of a grid point, scored toward ``target``."""

    arena: Arena
    spec: str
    dims: list[Dimension]
    base: dict[str, Any]
    target: tuple[str, float]
    games: int
    log: TuneLog

    def options(self, point: tuple[int, ...]) -> dict[str, Any]:
        """The game options (players included) of a grid point."""
        return {**apply_options(self.base, self.dims, point), "players": self.arena.config["players"]}

    def score(self, outcomes: list) -> float:
        """The value of a set of self-play games toward the target."""
        players = self.arena.config["players"]
        if self.target[0] == "length":
            mean = sum(o.plies for o in outcomes) / len(outcomes)
            return -min(1.0, abs(mean - self.target[1]) / self.target[1])
        shares = [sum(pairwise_share(o.ranks, s) for o in outcomes) / len(outcomes) for s in range(players)]
        return -(max(shares) - min(shares))

    def __call__(self, index: int, point: tuple[int, ...]) -> float:
        """Play (or read back) evaluation ``index`` of ``point``; its value toward the target."""
        from ..core.registry import create_game

        stored = self.log.get(index, list(point))
        if stored is not None:
            return stored["value"]
        config = self.options(point)
        row: dict[str, Any] = {"index": index, "point": list(point), "options": config}
        try:
            create_game(self.arena.game, config)
        except ConfigError as exc:  # a combination the rules refuse: the worst value
            self.log.add({**row, "value": -1.0, "refused": str(exc)})
            return -1.0
        players = config["players"]
        seats = [(self.spec, self.spec)] * players
        seed = self.arena.seed
        jobs = [self.arena.job(f"E{index:05d}-G{g:02d}", f"E{index:05d}-G{g:02d}", 0, config,
                               derive_seed(seed, "design", index, g), seats,
                               [derive_seed(seed, "design-agent", index, g, s) for s in range(players)])
                for g in range(self.games)]
        outcomes = self.arena.play(jobs)
        value = self.score(outcomes)
        self.log.add({**row, "value": value, "games": _summary(outcomes)})
        return value
