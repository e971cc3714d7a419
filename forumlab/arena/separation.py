"""Which agents the games cannot place: separation in the comparison graph.

Draw an arrow ``a -> b`` whenever ``a`` finished ahead of ``b``, or level with ``b``, in some
game (a shared rank bounds the gap both ways in the Davidson–Luce model, so it is an arrow in
each direction).  The maximum-likelihood Plackett–Luce strengths are finite only if every
agent can reach every other along arrows, i.e. the graph is strongly connected (Ford 1957 for
Bradley–Terry; Hunter 2004, "MM algorithms for generalized Bradley-Terry models", Annals of
Statistics 32:384-406, Assumption 1, for Plackett–Luce).  Otherwise the likelihood keeps
rising as a group that never finished behind (or never ahead of) the rest moves away from it,
and only the prior stops it: that group's distance to the rest is the prior's, not the games'.

The agents are split into strongly connected groups; the largest group is "the connected
rest" and every agent outside it is *separated*: ``above`` it (nobody in the rest ever
finished ahead of or level with it, even through a chain of other agents), ``below`` it
(the mirror image) or ``apart`` (no chain either way: the two never met in a comparable way).
When several groups tie for largest there is no connected rest and every agent is separated.
With seat effects in the model, strong connectivity is necessary for finite agent strengths
but is not checked against the seat parameters (a design in which every win comes from one
seat can still leave a seat advantage to the prior).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ABOVE, BELOW, APART = "above", "below", "apart"


@dataclass(frozen=True)
class Separation:
    """The strongly connected groups of agents and which agents lie outside the main one.

    ``groups``: every strongly connected group, best first (a group that reaches another
    along arrows comes before it; unrelated groups in name order).  ``main``: the connected
    rest (``None`` when no group is uniquely largest).  ``position``: every separated agent ->
    ``"above"``, ``"below"`` or ``"apart"`` relative to ``main`` (``"apart"`` when ``main`` is
    ``None``); agents of ``main`` are absent.
    """

    groups: tuple[tuple[str, ...], ...]
    main: tuple[str, ...] | None
    position: dict[str, str]

    @property
    def connected(self) -> bool:
        """True when every agent's rating rests on the games (no separated agent)."""
        return not self.position


def _reachability(arrows: np.ndarray) -> np.ndarray:
    """Boolean transitive-reflexive closure of an adjacency matrix, by repeated squaring."""
    reach = arrows | np.eye(len(arrows), dtype=bool)
    while True:
        nxt = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
        if np.array_equal(nxt, reach):
            return reach
        reach = nxt


def find_separation(agents: tuple[str, ...], ahead_or_level: np.ndarray) -> Separation:
    """Split ``agents`` into strongly connected groups of the comparison graph.

    Args:
        agents: agent names, in the order of the matrix rows and columns.
        ahead_or_level: (A, A) array; entry ``[i, j] > 0`` when agent ``i`` finished ahead of
            or level with agent ``j`` in at least one game (the diagonal is ignored).

    Returns:
        A :class:`Separation`.
    """
    arrows = np.asarray(ahead_or_level) > 0
    np.fill_diagonal(arrows, False)
    reach = _reachability(arrows)
    mutual = reach & reach.T
    groups, seen = [], set()
    for i in range(len(agents)):
        if i not in seen:
            members = [j for j in range(len(agents)) if mutual[i, j]]
            seen.update(members)
            groups.append(members)
    # A group that reaches another reaches strictly more agents, so this sort is a
    # topological order of the groups, best first.
    groups.sort(key=lambda g: (-int(reach[g[0]].sum()), agents[g[0]]))
    sizes = sorted((len(g) for g in groups), reverse=True)
    main = None
    if len(groups) == 1 or sizes[0] > sizes[1]:
        main = next(g for g in groups if len(g) == sizes[0])
    position = {}
    for g in groups:
        if g is main:
            continue
        where = APART
        if main is not None:
            if reach[g[0], main[0]]:
                where = ABOVE
            elif reach[main[0], g[0]]:
                where = BELOW
        for i in g:
            position[agents[i]] = where
    return Separation(
        groups=tuple(tuple(agents[i] for i in g) for g in groups),
        main=None if main is None else tuple(agents[i] for i in main),
        position=position,
    )
