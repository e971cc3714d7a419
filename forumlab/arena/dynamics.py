"""Game dynamics of finished games: length, branching over the game, lead changes,
decisiveness, drama and score trajectories, for any number of players.

Everything here works on a :class:`Trajectory`: one row of per-seat values at every
point of a game (before the first ply and after each ply), the seat that moved at each
ply, the legal moves it had, and the eventual winners. The values are the seats' current
scores, or a heuristic estimate of where each seat stands relative to the leader
(:mod:`forumlab.arena.dynamics_replay` builds both); the definitions, and why they were
chosen, are in docs/dynamics.md. In short:

- the *sole leader* at a point is the one seat whose value is strictly the highest; a tie
  for the highest value means nobody leads there;
- a *lead change* is a point whose sole leader differs from the last sole leader before
  it (points with a tie for the lead neither count nor reset who led last);
- *decisiveness* is the first point from which the eventual (sole) winner is the sole
  leader at every later point, as a fraction of the game's plies (a winner who is not the
  sole leader at the end, winning on a tie-break, becomes clear at the end: 1.0);
- *drama* is the eventual winner's largest deficit to the leader (the highest value at
  that point), in points and as a share of the winner's final score.

Means come with 95% intervals computed over rotation groups (a group's games share one
game seed, so they are not independent): the mean of the group means, plus or minus 1.96
standard errors of those group means.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

DECILES = 10
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Trajectory:
    """One finished game, point by point.

    ``values[t]`` holds one value per seat at point ``t``: ``t = 0`` before any move,
    ``t = k`` after ply ``k``; so there are ``plies + 1`` rows. ``movers[k]`` and
    ``branching[k]`` are the seat to move and its number of legal moves before ply
    ``k + 1``. ``winners`` are the seats ranked first at the end (after the game's own
    tie-breaks); ``final_scores`` are the scores the game ended with.
    """

    values: tuple[tuple[float, ...], ...]
    movers: tuple[int, ...]
    branching: tuple[int, ...]
    winners: tuple[int, ...]
    final_scores: tuple[float, ...]
    key: str = ""
    group: str = ""
    truncated: bool = False

    @property
    def plies(self) -> int:
        """Plies played."""
        return len(self.movers)


def sole_leader(row: Sequence[float]) -> int | None:
    """The seat with the strictly highest value, or None when the highest is shared."""
    best = max(row)
    top = [s for s, v in enumerate(row) if v == best]
    return top[0] if len(top) == 1 else None


def lead_changes(values: Sequence[Sequence[float]]) -> int:
    """How often the sole leader differs from the last sole leader before it.

    A tie for the lead is no change and does not forget who led: A, tie, A is no change;
    A, tie, B is one.
    """
    changes, last = 0, None
    for row in values:
        leader = sole_leader(row)
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def decisive_point(values: Sequence[Sequence[float]], winner: int) -> int:
    """The first point from which ``winner`` is the sole leader at every later point.

    Returns the last point (the number of plies) when the winner does not lead alone at the
    end (a win on a tie-break): the game is decided only when it ends.
    """
    last = len(values) - 1
    point = last
    for t in range(last, -1, -1):
        if sole_leader(values[t]) != winner:
            break
        point = t
    return point


def deficits(values: Sequence[Sequence[float]], seat: int) -> list[float]:
    """Per point, how far ``seat`` is behind the highest value (0 when it has it)."""
    return [max(row) - row[seat] for row in values]


def turns(movers: Sequence[int]) -> int:
    """Turns: maximal runs of consecutive plies by the same seat."""
    if not movers:
        return 0
    return 1 + sum(1 for a, b in zip(movers, movers[1:]) if a != b)


def decile_of(ply: int, plies: int) -> int:
    """The tenth of the game (0-9) that ply index ``ply`` (0-based) falls in."""
    return min(DECILES - 1, (DECILES * ply) // plies)


def branching_by_decile(branching: Sequence[int]) -> list[float | None]:
    """Mean legal moves per tenth of the game (None for a tenth without a ply)."""
    sums, counts = [0.0] * DECILES, [0] * DECILES
    for k, n in enumerate(branching):
        d = decile_of(k, len(branching))
        sums[d] += n
        counts[d] += 1
    return [s / c if c else None for s, c in zip(sums, counts)]


def progress_points(plies: int) -> list[int]:
    """The points at 0%, 10%, ..., 100% of a game of ``plies`` plies (rounded down)."""
    return [(k * plies) // DECILES for k in range(DECILES + 1)]


def finishing_order(final_scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Seats from first to last: the winners first, then by final score (seat breaks ties)."""
    rest = sorted((s for s in range(len(final_scores)) if s not in winners),
                  key=lambda s: (-final_scores[s], s))
    return sorted(winners) + rest


def game_dynamics(traj: Trajectory) -> dict:
    """The dynamics of one game (see the module docstring for the definitions).

    Args:
        traj: the game's trajectory.

    Returns:
        ``key``, ``group``, ``plies``, ``turns``, ``truncated``, ``branching`` (mean legal
        moves over the plies), ``branching_deciles``, ``lead_changes``, ``sole_winner``,
        and for a sole winner ``decisive_ply``, ``decisiveness`` (its fraction of the
        plies), ``drama_points`` (the winner's largest deficit), ``drama`` (that as a share
        of the winner's final score; None unless that score is positive) and ``behind``
        (the share of points at which the winner was behind); ``progress`` has, at 0%,
        10%, ..., 100% of the game, the values in finishing order and the winner's margin
        over the best other seat.
    """
    plies = traj.plies
    out = {
        "key": traj.key, "group": traj.group, "plies": plies, "turns": turns(traj.movers),
        "truncated": traj.truncated,
        "branching": sum(traj.branching) / plies if plies else None,
        "branching_deciles": branching_by_decile(traj.branching),
        "lead_changes": lead_changes(traj.values),
        "sole_winner": len(traj.winners) == 1,
    }
    order = finishing_order(traj.final_scores, traj.winners)
    points = progress_points(plies)
    out["progress"] = {
        "by_finish": [[traj.values[t][s] for s in order] for t in points],
        "winner_margin": [traj.values[t][order[0]] - max(v for s, v in enumerate(traj.values[t])
                                                            if s != order[0]) for t in points],
    }
    if out["sole_winner"]:
        w = traj.winners[0]
        point = decisive_point(traj.values, w)
        behind = deficits(traj.values, w)
        final = traj.final_scores[w]
        out.update(decisive_ply=point, decisiveness=point / plies if plies else None,
                   drama_points=max(behind),
                   drama=max(behind) / final if final > 0 else None,
                   behind=sum(1 for d in behind if d > 0) / len(behind))
    return out


def mean_interval(values: Sequence[float | None], groups: Sequence[str]) -> dict:
    """Mean of ``values`` over rotation groups with a 95% interval (None values skipped).

    Each group's values are averaged first and every group weighs the same, because the
    games of a group share one game seed; the interval is the mean of the group means
    +- 1.96 of their standard error (None with a single group).

    Returns:
        ``mean``, ``low``, ``high`` and ``n`` (the values used); ``mean`` None without any.
    """
    by_group: dict[str, list[float]] = {}
    for v, g in zip(values, groups):
        if v is not None:
            by_group.setdefault(g, []).append(float(v))
    n = sum(len(v) for v in by_group.values())
    if not by_group:
        return {"mean": None, "low": None, "high": None, "n": 0}
    means = [sum(v) / len(v) for v in by_group.values()]
    mean = sum(means) / len(means)
    if len(means) < 2:
        return {"mean": mean, "low": None, "high": None, "n": n}
    sd = math.sqrt(sum((m - mean) ** 2 for m in means) / (len(means) - 1))
    half = Z_95 * sd / math.sqrt(len(means))
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": n}


SCALARS = ("plies", "turns", "branching", "lead_changes", "decisiveness", "drama", "drama_points", "behind")


def summarise(games: Sequence[dict]) -> dict:
    """Means with 95% intervals of every per-game figure of :func:`game_dynamics`.

    Args:
        games: per-game dicts from :func:`game_dynamics` (at least one).

    Returns:
        ``games``, ``sole_winner_games``, ``truncated_games``, one mean-interval dict per
        name of ``SCALARS``, ``branching_deciles`` and ``progress`` (``winner_margin`` and
        ``by_finish`` per progress point) as lists of mean-interval dicts.
    """
    groups = [g["group"] or g["key"] for g in games]
    out = {"games": len(games), "sole_winner_games": sum(1 for g in games if g["sole_winner"]),
           "truncated_games": sum(1 for g in games if g["truncated"])}
    for name in SCALARS:
        out[name] = mean_interval([g.get(name) for g in games], groups)
    out["branching_deciles"] = [mean_interval([g["branching_deciles"][d] for g in games], groups)
                                for d in range(DECILES)]
    seats = len(games[0]["progress"]["by_finish"][0])
    out["progress"] = {
        "winner_margin": [mean_interval([g["progress"]["winner_margin"][k] for g in games], groups)
                          for k in range(DECILES + 1)],
        "by_finish": [[mean_interval([g["progress"]["by_finish"][k][r] for g in games], groups)
                       for r in range(seats)] for k in range(DECILES + 1)],
    }
    return out
