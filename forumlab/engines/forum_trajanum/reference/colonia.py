"""A player's Colonia and its derived numbers (citizens, buildings, tracks, envoys)."""

from __future__ import annotations

from .catalogue import GREYS, RESOURCES, TRACKS, WORKERS


def new_player(worker: str) -> dict:
    """A seat's starting position (the spec's "Starting state for every player")."""
    res = dict.fromkeys(RESOURCES, 0)
    for code in ("T", "B", "A", "C", worker):
        res[code] += 1
    return {
        "res": res, "vp": {}, "prestige": 0, "merchant": False,
        "rows": {r: [] for r in range(1, 7)},  # each citizen: True = active
        "board": [None] * 37,  # tiles on cells 0..35 and the river 36
        "built": [None] * 36,  # piece code per cell: col lib bas mkt / r b g y
        "cols": 0, "tracks": dict.fromkeys(TRACKS, 0), "ship": 0,
        "crane": {}, "uncovered": [], "held": {}, "female": None, "pool": None,
        "setup_done": False,
    }


def row_active(player: dict, row: int) -> bool:
    """The row's ability works: at least one active citizen in it."""
    return any(player["rows"][row])


def active_citizens(player: dict) -> int:
    return sum(sum(1 for a in cits if a) for cits in player["rows"].values())


def multiplier(player: dict, row: int) -> int:
    return 1 + sum(1 for a in player["rows"][row] if a)


def grey_types_in_row(player: dict, row: int) -> int:
    cells = player["built"][(row - 1) * 6:row * 6]
    return len({p for p in cells if p in GREYS})


def grey_types(player: dict) -> int:
    return len({p for p in player["built"] if p in GREYS})


def structure_count(player: dict, colour: str) -> int:
    """Cells holding a structure of ``colour`` (a double of 2 counts 2, grey+colour 1)."""
    return sum(1 for p in player["built"] if p == colour)


def track_level(player: dict, track: str) -> int:
    return min(4, player["tracks"][track])


def resources_left(player: dict) -> int:
    """``res``: builders + workers + assistants + coins + tribunes."""
    r = player["res"]
    return r["B"] + sum(r[w] for w in WORKERS) + r["A"] + r["C"] + r["T"]
