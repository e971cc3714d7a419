"""Calibrate a rating ladder: its members' round robin, fitted once, stored as package data.

Usage: python -m benchmarks.calibrate_ladder --game G --players N [--groups K] [--seed S]
       [--workers W] [--db FILE] [--out FILE] [--member NAME=SPEC ...] [--plan] [--fit-only]

Plays the seat- and neighbour-balanced round robin of the ladder's members (the plan below,
or ``--member`` given ones) through the arena, then writes ``forumlab/arena/ladders/
<game>-<N>p.json`` (or ``--out``): each member's Elo on the fixed scale (greedy = 1000),
its sd and 95% interval, their covariance, the fit's seat and tie parameters, and the
command, date, commit, games and seed that produced it. The results file (``--db``,
default ``ladder-calibration-<game>-<N>p.db``) is an ordinary tournament file: running the
command again continues it, and a larger ``--groups`` extends it with new rotation groups.
Budgets are iterations, never time, so the ratings do not depend on the machine; only the
duration does. Prints the ladder as JSON. ``--plan`` prints the members of every planned
ladder and exits. ``--fit-only`` writes the ladder from the games the results file holds
without playing the missing ones (a calibration stopped at its wall-time allowance); the
file then records the games it planned beside those it played.
"""
from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The members of each ladder: random, greedy and mcts at iteration budgets whose spread
# the game's cost per iteration allows in about a quarter of an hour of calibration on
# two shared cores (docs/ratings.md, "A fixed scale"). 10,000 iterations fit only in
# 2-player Forum Romanum; Forma's opening (22,878 legal moves at 2 players, about 20,000 at
# 4) makes 1,000 iterations cost about a second a move, so its ladders stop at 300. Six
# seats need six members (with fewer, the round robin fills seats with copies: five
# lineups instead of one), hence the extra 300-iteration member at 6 players. In 2-player
# Forum Trajanum greedy lost all 12 of its games against 100 iterations and more, so the
# games could not place the anchor; a 10-iteration member gives it a neighbour.
PLAN = {
    ("forum-romanum", 2): (100, 1000, 10000),
    ("forum-romanum", 3): (100, 1000, 3000),
    ("forum-romanum", 4): (100, 1000, 3000),
    ("forum-romanum", 5): (100, 1000, 3000),
    ("forum-romanum", 6): (100, 300, 1000, 3000),
    ("forma", 2): (30, 100, 300),
    ("forma", 3): (30, 100, 300),
    ("forma", 4): (30, 100, 300),
    ("foundations-of-rome", 2): (100, 1000, 3000),
    ("foundations-of-rome", 3): (100, 1000, 3000),
    ("foundations-of-rome", 4): (100, 1000, 3000),
    ("foundations-of-rome", 5): (100, 1000, 3000),
    ("forum-trajanum", 2): (10, 100, 1000, 3000),
    ("forum-trajanum", 3): (100, 1000, 3000),
    ("forum-trajanum", 4): (100, 1000, 3000),
}


def budget_name(iterations: int) -> str:
    """``mcts100``, ``mcts1k``, ``mcts10k``: a member's name from its iterations."""
    if iterations >= 1000 and iterations % 1000 == 0:
        return f"mcts{iterations // 1000}k"
    return f"mcts{iterations}"


def planned_members(game: str, players: int) -> list[tuple[str, str]]:
    """(name, spec) of the planned ladder of ``game`` at ``players`` players."""
    budgets = PLAN.get((game, players))
    if budgets is None:
        raise SystemExit(f"error: no planned ladder for {game} with {players} players; "
                         "give --member NAME=SPEC")
    return [("random", "random"), ("greedy", "greedy")] + [
        (budget_name(b), f"mcts(iterations={b})") for b in budgets]


def commit() -> str:
    """The checkout's commit (the short hash of HEAD; uncommitted changes are not marked)."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    head = git("rev-parse", "--short=10", "HEAD") or "unknown"
    return head


def main(argv: list[str] | None = None) -> dict:
    """Run (or continue) a calibration and write its ladder file."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game")
    p.add_argument("--players", type=int)
    p.add_argument("--groups", type=int, default=2, help="rotation groups per lineup")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--db", default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--member", action="append", default=[], metavar="NAME=SPEC")
    p.add_argument("--plan", action="store_true", help="print the planned ladders and exit")
    p.add_argument("--fit-only", action="store_true",
                   help="fit the games the results file holds; play none")
    args = p.parse_args(argv)
    if args.plan:
        plans = {f"{g} {n}": [spec for _, spec in planned_members(g, n)] for g, n in PLAN}
        print(json.dumps(plans, indent=1))
        return plans
    from forumlab.arena.definition import planned_games
    from forumlab.arena.ladder import ladder_path
    from forumlab.arena.ladder_calibration import calibration_definition, ladder_json
    from forumlab.arena.store import ResultStore
    from forumlab.arena.tournament import run_tournament

    members = ([tuple(m.split("=", 1)) for m in args.member] if args.member
               else planned_members(args.game, args.players))
    definition = calibration_definition(args.game, args.players, members, args.groups, args.seed)
    db = args.db or f"ladder-calibration-{args.game}-{args.players}p.db"
    if not args.fit_only:
        run_tournament(definition, db, args.workers, None, progress=sys.stderr.isatty())
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    given = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--fit-only"]
    command = "python -m benchmarks.calibrate_ladder " + shlex.join(given)
    data = ladder_json(outcomes, definition, {"command": command, "commit": commit(),
                                              "results_file": Path(db).name,
                                              "planned_games": planned_games(definition)})
    out = Path(args.out) if args.out else ladder_path(args.game, args.players)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: data[k] for k in ("game", "players", "members", "calibration")}, indent=1))
    return data


if __name__ == "__main__":
    main()
