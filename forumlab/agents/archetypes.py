"""Strategy archetypes: named weight vectors over each game's heuristic terms.

An archetype is a way of playing that a person at the table would recognise (Foundations
of Rome's civic builder, Forum Trajanum's Trajan-task chaser), written as weights that
override the game's default weights (1 for every term; the terms are listed in
docs/games/<game>.md). ``balanced``, the game's own heuristic, is ``{}``. An agent plays
an archetype through ``archetype=NAME`` (``greedy(archetype=civic)``,
``mcts(archetype=area, cpu_time=0.2)``) or the spec :func:`archetype_spec` writes with the
weights spelled out. How differently each one plays (move agreement with the default
heuristic) is measured by ``python -m benchmarks.archetype_agreement`` and reported in
docs/strategies.md.

Plain Python: reading the table compiles nothing.
"""
from __future__ import annotations

from .spec import AgentSpecError

BALANCED = "balanced"

# name -> weights overriding the defaults; each emphasises one route to points and lets
# the others go (weights below 1), since a one-ply move choice changes only where the
# emphasised term and another term disagree.
_ARCHETYPES: dict[str, dict[str, dict[str, float]]] = {
    "forum-trajanum": {
        # Most one-ply choices (which tile pair to draft or keep, which conversion) are decided
        # by the held tiles' worth and the resources' worth; an archetype changes them only by
        # pricing those its own way: a low held weight, and resources at 0 for the players
        # who spend every resource on their route (area, colonia) or high for those who
        # stock them for tasks and tracks (trajan, tracks).
        "trajan": {"trajan": 6.0, "tracks": 4.0, "resources": 4.0, "held": 0.3, "citizens": 0.3,
                   "prestige": 0.3, "area": 0.3, "eagles": 0.3, "colonia": 0.3},
        "area": {"area": 6.0, "eagles": 6.0, "envoys": 8.0, "prestige": 8.0, "held": 0.3, "resources": 0.0,
                 "colonia": 0.2, "citizens": 0.2, "tracks": 0.2, "trajan": 0.3},
        "tracks": {"tracks": 8.0, "resources": 5.0, "held": 0.3, "area": 0.2, "eagles": 0.2, "colonia": 0.2,
                   "citizens": 0.2, "prestige": 0.2, "envoys": 0.3},
        "colonia": {"colonia": 6.0, "citizens": 8.0, "cranes": 5.0, "held": 0.3, "resources": 0.0,
                    "area": 0.1, "eagles": 0.1, "envoys": 0.2, "prestige": 0.1, "tracks": 0.2, "trajan": 0.3},
    },
    "foundations-of-rome": {
        "residential": {"residential": 3.0, "commercial": 0.5, "civic": 0.5},
        "commercial": {"commercial": 3.0, "silver": 2.0, "residential": 0.5, "civic": 0.5},
        "civic": {"civic": 3.0, "residential": 0.5, "commercial": 0.5},
        "monuments": {"monuments": 4.0, "silver": 1.5, "lots": 0.5},
    },
    "forma": {
        "enclosures": {"enclosures": 4.0, "stones": 2.0, "tower": 0.2},
        "tower": {"tower": 4.0, "enclosures": 0.3, "stones": 0.5},
        "stones": {"stones": 4.0, "enclosures": 0.5},
        "expansion": {"supply": 3.0, "bridges": 2.0, "enclosures": 0.5},
    },
    "forum-romanum": {
        "lines": {"rows": 2.5, "columns": 2.5, "diagonals": 2.5, "sections": 0.3},
        "sections": {"sections": 3.0, "rows": 0.3, "columns": 0.3, "diagonals": 0.3},
        "cautious": {"last_places": 4.0},
        "bold": {"last_places": 0.0, "rows": 2.0, "columns": 2.0, "diagonals": 2.0, "sections": 2.0},
    },
}


def archetypes(game_name: str) -> dict[str, dict[str, float]]:
    """The archetypes of a game.

    Args:
        game_name: a game's registered name, e.g. ``"forum-trajanum"``.

    Returns:
        Archetype name -> the weights it sets (term name -> weight; terms it does not
        name keep their default weight 1), ``balanced`` (``{}``, the game's own
        heuristic) first; a copy. A game without archetypes gets ``balanced`` only.
    """
    table = _ARCHETYPES.get(game_name, {})
    return {BALANCED: {}, **{name: dict(weights) for name, weights in table.items()}}


def _format_weight(value: float) -> str:
    return repr(int(value)) if float(value).is_integer() else repr(float(value))


def archetype_spec(game_name: str, name: str, base: str = "greedy", **extra) -> str:
    """An agent spec that plays an archetype, its weights spelled out.

    Args:
        game_name: the game's registered name.
        name: one of :func:`archetypes`' names.
        base: the agent, e.g. ``"greedy"``, ``"brs"``, ``"mcts"``.
        **extra: other parameters of the agent, e.g. ``cpu_time=0.2``, written first.

    Returns:
        e.g. ``greedy(w.trajan=4,w.tracks=1.5,w.area=0.5)``; ``base`` alone (or with
        ``extra``) for ``balanced``.

    Raises:
        AgentSpecError: the game has no archetype of that name.
    """
    table = archetypes(game_name)
    if name not in table:
        raise AgentSpecError(f"{game_name} has no archetype {name!r} (archetypes: {', '.join(table)})")
    parts = [f"{k}={v}" for k, v in extra.items()]
    parts += [f"w.{term}={_format_weight(w)}" for term, w in table[name].items()]
    return f"{base}({','.join(parts)})" if parts else base
