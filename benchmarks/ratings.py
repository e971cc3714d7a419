"""Ratings speed: time to rate N synthetic games, in process and as the `ratings` command.

Usage: python -m benchmarks.ratings [--games 30000] [--agents 5] [--players 3] [--no-command]

The games are a round robin drawn from the Plackett–Luce model with a seat effect (5% of
them with the last two seats sharing a rank, so that the tie parameters are fitted too).
``rate_seconds`` times :func:`forumlab.arena.ratings.rate` plus the text table;
``command_seconds`` times ``forumlab ratings DB`` in a fresh process on a results file that
holds the same games (reading the file and importing included; writing it is not timed).
Each also has its CPU time (``*_cpu_seconds``), which a busy machine inflates less than the
wall time.  Prints one JSON object.
"""
from __future__ import annotations

import itertools
import json
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

import click
import numpy as np

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.arena.plackett_luce import ELO_PER_NAT, RatedGame
from forumlab.arena.ratings import format_ratings_table, rate
from forumlab.arena.store import ResultStore


def synthetic_games(games: int, agents: int, players: int, seed: int) -> list[RatedGame]:
    """About ``games`` games of a round robin, whole rotation groups of cyclic rotations."""
    rng = np.random.default_rng(seed)
    names = [f"agent{k}" for k in range(agents)]
    true = np.linspace(0.0, 300.0, agents) / ELO_PER_NAT
    seat = -0.1 * np.arange(players)
    lineups = list(itertools.combinations(range(agents), players))
    groups = math.ceil(games / (len(lineups) * players))
    out = []
    for li, lineup in enumerate(lineups):
        for g in range(groups):
            for r in range(players):
                seated = lineup[r:] + lineup[:r]
                order = np.argsort(-(true[list(seated)] + seat + rng.gumbel(size=players)))
                ranks = np.empty(players, dtype=int)
                ranks[order] = np.arange(1, players + 1)
                if rng.random() < 0.05:
                    ranks[ranks == players] = players - 1
                out.append(RatedGame(f"L{li:04d}-G{g:04d}", tuple(names[k] for k in seated),
                                     tuple(int(x) for x in ranks), tuple(float(players - x) for x in ranks)))
    return out


def _write_store(path: str, games: list[RatedGame], agents: int, players: int) -> None:
    definition = TournamentDefinition(config={"players": players},
                                      agents=tuple(PoolEntry(f"agent{k}", "random") for k in range(agents)))
    # synchronous=NORMAL: this file is scratch, and 30,000 fsyncs would dominate the setup.
    with ResultStore.create(path, definition, {"benchmark": "ratings"}, synchronous="NORMAL") as store:
        for k, g in enumerate(games):
            store.record(GameOutcome(
                key=f"{g.group}-R{k % players:02d}", group=g.group, lineup=0, rotation=k % players, seed=k,
                labels=g.agents, specs=("random",) * players, agent_seeds=(0,) * players, moves=[],
                scores=list(g.scores), ranks=list(g.ranks), plies=0, termination=END_RULES))


@click.command()
@click.option("--games", type=click.IntRange(min=1), default=30000, show_default=True)
@click.option("--agents", type=click.IntRange(min=2), default=5, show_default=True)
@click.option("--players", type=click.IntRange(min=2, max=6), default=3, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--no-command", is_flag=True, help="Skip the end-to-end `ratings` command.")
def main(games, agents, players, seed, no_command):
    """Wall time of rating N synthetic games."""
    if players > agents:
        raise click.BadParameter("--players must not exceed --agents")
    rated = synthetic_games(games, agents, players, seed)
    t0, c0 = time.perf_counter(), time.process_time()
    r = rate(rated)
    format_ratings_table(r)
    rate_seconds, rate_cpu = time.perf_counter() - t0, time.process_time() - c0
    report = {"benchmark": "ratings", "games": len(rated), "agents": agents, "players": players,
              "rate_seconds": round(rate_seconds, 2), "rate_cpu_seconds": round(rate_cpu, 2),
              "newton_iterations": r.fit.iterations,
              "machine": platform.machine(), "python": platform.python_version()}
    if not no_command:
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "ratings.db")
            _write_store(db, rated, agents, players)
            env = dict(os.environ)
            root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "forumlab.cli", "ratings", db], check=True,
                           capture_output=True, env=env)
            report["command_seconds"] = round(time.perf_counter() - t0, 2)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            report["command_cpu_seconds"] = round(cpu, 2)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
