"""Which games a tournament plays: lineups, seat-rotation groups (seating designs), seeds."""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from ..core.rng import derive_seed
from .definition import PoolEntry, TournamentDefinition
from .jobs import GameJob
from .seating import BALANCED, seat_lineup


def lineups(d: TournamentDefinition) -> list[tuple[PoolEntry, ...]]:
    """The multisets of agents that meet, each as a tuple in pool order.

    Round robin: every combination of N agents of the pool (N = seats). With fewer
    agents than seats, agents fill several seats: every multiset of size N that uses
    each agent of the pool at least once. Gauntlet: the candidate plus every such
    combination of N-1 opponents.
    """
    n = d.players
    pool = list(d.agents)
    if d.format == "gauntlet":
        candidate = next(a for a in pool if a.label == d.candidate)
        others = [a for a in pool if a.label != d.candidate]
        return [(candidate, *rest) for rest in _fill(others, n - 1)]
    return _fill(pool, n)


def _fill(pool: list[PoolEntry], n: int) -> list[tuple[PoolEntry, ...]]:
    if len(pool) >= n:
        return list(combinations(pool, n))
    return [c for c in combinations_with_replacement(pool, n) if set(c) == set(pool)]


def seat_orders(lineup: tuple[PoolEntry, ...], rotations: str) -> list[tuple[PoolEntry, ...]]:
    """Seat assignments of one rotation group under the seating design ``rotations``
    ("balanced", "cyclic" or "all"; see forumlab.arena.seating)."""
    return seat_lineup(lineup, rotations, label=lambda entry: entry.label)


def plan(d: TournamentDefinition) -> list[GameJob]:
    """Every game of the tournament, in a stable order with stable keys and seeds."""
    jobs = []
    for li, lineup in enumerate(lineups(d)):
        orders = seat_orders(lineup, d.rotations)  # the same for every group of the lineup
        for g in range(d.games_per_lineup):
            group = f"L{li:04d}-G{g:03d}"
            game_seed = derive_seed(d.seed, "game", li, g)
            for r, seats in enumerate(orders):
                key = f"{group}-R{r:02d}"
                # In a balanced group an agent's seed belongs to its seat, shared by every
                # seating of the group (common random numbers): when a relabelling in the
                # design swaps two copies of one agent, they play mirrored, identical games
                # and rate alike instead of differing by chance.  A group's games were never
                # independent (one game seed); rating intervals must treat the group as the
                # unit, as the bootstrap over groups does.  cyclic and all keep the per-game
                # seeds that their existing results files were played with.
                seed_scope = group if d.rotations == BALANCED else key
                jobs.append(GameJob(
                    key=key,
                    group=group,
                    lineup=li,
                    rotation=r,
                    game=d.game,
                    config=dict(d.config),
                    seed=game_seed,
                    labels=tuple(a.label for a in seats),
                    specs=tuple(a.spec for a in seats),
                    agent_seeds=tuple(derive_seed(d.seed, "agent", seed_scope, s) for s in range(len(seats))),
                    move_time=float(d.move_time),
                    hard_limit=float(d.hard_limit),
                    fault_policy=d.fault_policy,
                ))
    return jobs
