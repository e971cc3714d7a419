"""The unit of tournament work: one planned game (GameJob) and its result (GameOutcome).

Both are plain, picklable data so that any executor (local processes, a Dask
cluster) can ship them, and the store can write them as JSON.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.termination import Termination, as_termination

# Why a game ended: short names for the Termination members (each equals the string
# results files store, e.g. END_RULES == "end").
END_RULES = Termination.RULES  # the rules ended it
END_CAP = Termination.CAP  # the turn cap (truncated)
END_KILLED = Termination.KILLED  # older results files only (see Termination)

# Fault kinds recorded against a seat. After its fault a seat's moves are made by
# the seeded random fallback agent and the seat ranks below every clean seat.
FAULT_EXCEPTION = "exception"  # act() raised an Exception (or a BaseException other than the exits)
FAULT_ILLEGAL = "illegal"  # act() returned a move that is not legal
FAULT_TIMEOUT = "timeout"  # act() returned, but later than its time limit allows
FAULT_HANG = "hang"  # act() was interrupted at the hard limit (SIGALRM in the worker)
FAULT_INIT = "init"  # the agent's constructor raised (ply 0: the seat never played)
FAULT_EXIT = "exit"  # SystemExit/KeyboardInterrupt in act() or the constructor, or os._exit
FAULT_CRASH = "crash"  # the worker process died by a signal (e.g. a segfault) on the seat's move
FAULT_KILL = "kill"  # the watchdog killed a worker that the hard limit could not interrupt
FAULT_KINDS = (FAULT_EXCEPTION, FAULT_ILLEGAL, FAULT_TIMEOUT, FAULT_HANG, FAULT_INIT, FAULT_EXIT,
               FAULT_CRASH, FAULT_KILL)


@dataclass(frozen=True)
class Fault:
    """Something an agent did wrong."""

    seat: int
    ply: int  # 1-based ply at which it happened; 0 = while the agent was being created
    kind: str  # FAULT_* above
    message: str


@dataclass(frozen=True)
class GameJob:
    """One planned game of a tournament."""

    key: str  # unique within the tournament, e.g. "L0003-G01-R2"
    group: str  # seat-rotation group: same lineup and game seed, e.g. "L0003-G01"
    lineup: int  # index of the lineup (multiset of agents) in the schedule
    rotation: int  # which seat rotation of the lineup this is
    game: str  # registry name
    config: dict[str, Any]  # game config (players, ...)
    seed: int  # game seed, shared by the whole rotation group
    labels: tuple[str, ...]  # agent label per seat
    specs: tuple[str, ...]  # agent spec per seat
    agent_seeds: tuple[int, ...]  # per seat
    move_time: float = 0.0  # per-move time limit for the fault policy (0 = none)
    hard_limit: float = 60.0  # seconds a single move may take before it is cut off
    fault_policy: str = "random"  # what a faulty seat does afterwards (see runner)
    # A continuation: the game's worker died or was killed, and a fresh worker plays
    # on from these moves (notation, from the start). ``prior_faults`` are every fault
    # recorded before, the one that ended the worker included; their seats play the
    # fallback from their fault on. ``prior_seconds`` and ``prior_counts`` are the
    # per-seat move times and agent moves measured before. ``restarts`` counts the
    # continuations so far.
    resume_moves: tuple[str, ...] = ()
    prior_faults: tuple[Fault, ...] = ()
    prior_seconds: tuple[float, ...] = ()
    prior_counts: tuple[int, ...] = ()
    restarts: int = 0

    @property
    def faulty_seats(self) -> frozenset[int]:
        """Seats that already have a fault (their agent is not asked again)."""
        return frozenset(f.seat for f in self.prior_faults)


@dataclass
class GameOutcome:
    """A finished game as the store records it."""

    key: str
    group: str
    lineup: int
    rotation: int
    seed: int
    labels: tuple[str, ...]
    specs: tuple[str, ...]
    agent_seeds: tuple[int, ...]
    moves: list[str]  # notation, replayable with the game record format
    scores: list[float]
    ranks: list[int]  # shared competition ranks after the fault policy
    plies: int
    termination: Termination | str  # a Termination; an unknown stored string stays a str
    faults: list[Fault] = field(default_factory=list)
    move_seconds: list[float] = field(default_factory=list)  # per seat, summed
    moves_made: list[int] = field(default_factory=list)  # per seat
    started: float = 0.0  # unix time
    finished: float = 0.0
    host: str = ""
    # Per seat, when the whole game was measured in one worker (empty otherwise, and in
    # files written before these were kept): CPU seconds of the thread that called act(),
    # summed, and the longest single move in wall-clock and in CPU seconds.
    move_cpu_seconds: list[float] = field(default_factory=list)
    move_max_seconds: list[float] = field(default_factory=list)
    move_max_cpu_seconds: list[float] = field(default_factory=list)

    @classmethod
    def for_job(cls, job: GameJob, **fields: Any) -> GameOutcome:
        """An outcome of ``job``: the job's identity fields plus the given results."""
        return cls(key=job.key, group=job.group, lineup=job.lineup, rotation=job.rotation,
                   seed=job.seed, labels=tuple(job.labels), specs=tuple(job.specs),
                   agent_seeds=tuple(job.agent_seeds), **fields)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-ready dict."""
        data = asdict(self)
        data["labels"] = list(self.labels)
        data["specs"] = list(self.specs)
        data["agent_seeds"] = list(self.agent_seeds)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOutcome:
        """Inverse of to_json."""
        data = dict(data)
        data["labels"] = tuple(data["labels"])
        data["specs"] = tuple(data["specs"])
        data["agent_seeds"] = tuple(data["agent_seeds"])
        data["faults"] = [Fault(**f) for f in data.get("faults", [])]
        if "termination" in data:  # (a missing one fails below, as before)
            data["termination"] = as_termination(data["termination"])
        return cls(**data)


# Games one worker is handed at a time (see games_per_batch): enough to make the cost of
# handing a game over (a pipe round trip, a wake-up of the tournament process) small
# beside the game, few enough that faults, progress and the games lost to a kill stay
# fine-grained. A game of random agents takes microseconds (one compiled call), a game
# with a greedy seat or a search of at most CHEAP_BUDGET iterations or nodes milliseconds.
RANDOM_BATCH = 1024
CHEAP_BATCH = 32
CHEAP_BUDGET = 200
_CHEAP_AGENTS = frozenset({"random", "greedy"})
_BUDGET_PARAMS = ("iterations", "nodes")
_batch_sizes: dict[tuple[str, ...], int] = {}


def games_per_batch(job: GameJob) -> int:
    """How many games like ``job`` a worker may be handed at once, by its agents' cost.

    Random agents in every seat: :data:`RANDOM_BATCH`; random and greedy agents, or
    agents whose spec sets a budget (iterations, nodes) of at most :data:`CHEAP_BUDGET`:
    :data:`CHEAP_BATCH`; anything else (searches, bots, third-party agents) and a
    continuation: 1, so that each such game is handed out, watched and recorded alone.

    Args:
        job: a planned game.

    Returns:
        The largest batch a game of this lineup may be part of (1 = alone).
    """
    if job.resume_moves or job.prior_faults:
        return 1
    size = _batch_sizes.get(job.specs)
    if size is None:
        size = _batch_sizes[job.specs] = min(_spec_batch(spec) for spec in job.specs)
    return size


def _spec_batch(spec: str) -> int:
    from ..agents.spec import AgentSpecError, parse_spec

    try:
        name, params = parse_spec(spec)
    except AgentSpecError:
        return 1  # the runner records the fault; such a game goes alone
    params.pop("seed", None)
    if name == "random" and not params:
        return RANDOM_BATCH
    if name in _CHEAP_AGENTS:
        return CHEAP_BATCH
    budgets = [params.get(p) for p in _BUDGET_PARAMS if p in params]
    if budgets and all(isinstance(b, int) and 0 < b <= CHEAP_BUDGET for b in budgets) \
            and not any(k in params for k in ("cpu_time", "time", "move_time", "seconds")):
        return CHEAP_BATCH
    return 1
