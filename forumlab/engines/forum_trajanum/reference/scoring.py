"""End-of-cycle scoring: cranes, Colonia, Forum (eagles, area points), Trajan tasks."""

from __future__ import annotations

from .catalogue import AREA, CORNERS, CRANE_VALUE, TRACKS, TRAJAN, WORKERS
from .colonia import (
    active_citizens,
    grey_types,
    grey_types_in_row,
    multiplier,
    resources_left,
    row_active,
    structure_count,
    track_level,
)


def merchant_bonus(player: dict) -> int:
    return 2 if player["merchant"] else 0


def area_points(group: int, player: dict) -> int:
    """``AREA[min(s,10)] + p + m`` for s >= 1, else 0."""
    if group < 1:
        return 0
    return AREA[min(group, 10)] + player["prestige"] + merchant_bonus(player)


def trajan_value(player: dict) -> int:
    return 3 + player["prestige"] + merchant_bonus(player)


def crane_points(player: dict, cycle: int) -> int:
    """Scores every uncovered crane that still has its colour and turns it colourless."""
    total = 0
    for corner in CORNERS:
        colour = player["crane"].get(corner)
        if corner in player["uncovered"] and colour is not None:
            total += CRANE_VALUE[cycle] * structure_count(player, colour)
            player["crane"][corner] = None
    return total


def colonia_points(player: dict) -> int:
    return sum(grey_types_in_row(player, r) * multiplier(player, r) for r in range(1, 7))


def own_envoys(envoys: dict, seat: int) -> list:
    return [cell for cell, owner in envoys.items() if owner == seat]


def task_measures(player: dict, cells: list, forum) -> dict:
    """Every symbol of the Trajan table for one player, measured now."""
    eagles = set(forum.eagles)
    colours = [c for c in WORKERS if structure_count(player, c) > 0]
    return {
        "cols": player["cols"],
        "types": grey_types(player),
        "rowtypes": max(grey_types_in_row(player, r) for r in range(1, 7)),
        "colours": len(colours),
        "maxcol": max(structure_count(player, c) for c in WORKERS),
        "act": active_citizens(player),
        "full": sum(1 for r in range(1, 7) if player["rows"][r] == [True, True]),
        "env": len(cells),
        "grp": forum.largest_group(cells),
        "eagle": int(any(c in eagles or any(n in eagles for n in forum.orth(c)) for c in cells)),
        "res": resources_left(player),
        "lvl2": sum(1 for t in TRACKS if track_level(player, t) >= 2),
        "lvl4": sum(1 for t in TRACKS if track_level(player, t) >= 4),
    }


def tasks_met(card: tuple, measures: dict) -> int:
    met = 0
    for symbol, op, number in TRAJAN[card]:
        value = measures[symbol]
        met += (value == number) if op == "=" else (value >= number)
    return met


def score_cycle(player: dict, seat: int, envoys: dict, forum, cycle: int, card) -> dict:
    """VP per source for one player at the end of ``cycle`` (``card`` None: no Trajan)."""
    cells = own_envoys(envoys, seat)
    out = {
        "crane": crane_points(player, cycle),
        "colonia": colonia_points(player),
        "eagles": forum.eagle_points(cells, row_active(player, 1)),
        "area": area_points(forum.largest_group(cells), player),
        "trajan": 0,
    }
    if card is not None:
        out["trajan"] = trajan_value(player) * tasks_met(card, task_measures(player, cells, forum))
    return out
