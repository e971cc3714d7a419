"""Continuing a game whose worker died: its last progress snapshot and the follow-up job."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..jobs import Fault, GameJob

__all__ = ["Snapshot", "continuation"]


@dataclass
class Snapshot:
    """A game's last progress report, as the executor knows it after the worker ended.

    ``seat`` is -1 when no report was made. ``complete`` is false when some moves or
    faults could not be recorded (the game then cannot be continued).
    """

    seat: int = -1
    ply: int = 0
    moves: list[str] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    complete: bool = True


def continuation(job: GameJob, last: Snapshot, kind: str, message: str) -> GameJob | None:
    """The job that plays on the game of ``job`` after its worker ended, or None.

    ``last`` is the game's last progress report and ``kind``/``message`` the fault
    to record against the seat that was to move (or whose agent was being
    created). None when no agent can be blamed: no report, an incomplete one, or a
    seat that already plays the fallback (then the runner or engine is at fault).
    Each continuation blames a new seat, so there are at most as many as seats.
    """
    players = len(job.labels)
    faults = last.faults or list(job.prior_faults)  # a runner's reports hold the prior ones
    if (not last.complete or not 0 <= last.seat < players
            or last.seat in {f.seat for f in faults} or job.restarts >= players):
        return None
    fault = Fault(last.seat, last.ply and len(last.moves) + 1, kind, message)
    if last.ply == 0:  # died creating an agent: nothing was played since the hand-out
        return replace(job, prior_faults=tuple(faults) + (fault,), restarts=job.restarts + 1)
    return replace(job, resume_moves=tuple(last.moves), prior_faults=tuple(faults) + (fault,),
                   prior_seconds=tuple(last.seconds), prior_counts=tuple(last.counts),
                   restarts=job.restarts + 1)
