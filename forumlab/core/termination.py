"""Why a game ended, as game records and tournament results files store it."""
from __future__ import annotations

from enum import StrEnum

__all__ = ["Termination", "as_termination"]


class Termination(StrEnum):
    """How a game ended. The values are the strings results files and records hold.

    A ``StrEnum`` member *is* its string: it compares, hashes, formats and JSON-encodes
    as the plain value (``Termination.RULES == "end"``), so files written before the
    enum existed read back unchanged and files written now are the same bytes.
    """

    RULES = "end"  # the rules ended it
    CAP = "cap"  # the turn cap ended it (truncated)
    # Older results files only: a game cut off by the watchdog, all scores 0. Such games
    # are now continued in a fresh worker instead (see GameJob.resume_moves).
    KILLED = "killed"


def as_termination(value: str) -> Termination | str:
    """The member for a stored termination string; an unknown string is returned as it is
    (a file must stay readable even if it holds a kind this version does not know)."""
    try:
        return Termination(value)
    except ValueError:
        return value
