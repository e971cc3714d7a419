"""Search speed: MCTS iterations/s and minimax nodes/s (per wall-clock and per CPU
second) on fixed positions of a game.

Usage: python -m benchmarks.search [--game forum-romanum] [--players N] [--seconds 2]
(any registered game, e.g. ``--game foundations-of-rome --players 4``)

Prints one JSON object. Each agent searches each position once untimed (numba
compilation / cache load) and is then timed on fresh searches. Each MCTS row carries
its spec and ``settings``: every option the search ran with (the spec's, else the
game's tuned default, else the declared one), so a row's label cannot hide a tuned
value such as a cutoff; its rates are per wall-clock second and per CPU second of the
searching thread (the figure to compare on a busy machine).
"""
from __future__ import annotations

import json
import platform
import time

import click

from forumlab.agents.registry import agent_names, create_agent
from forumlab.core.errors import ForumlabError
from forumlab.core.registry import create_game, get_game_class

from .positions import game_positions

MCTS_SPECS = (
    "mcts(iterations={n})",  # the game's tuned defaults (Game.tuned_mcts, e.g. heuristic leaves)
    # Full random rollouts to the end: cutoff=0 spelled out, since a game's tuned cutoff
    # (3 in 3-player Forum Romanum) would otherwise stop them after a few plies.
    "mcts(iterations={n}, rollout=random, cutoff=0)",
    "mcts(iterations={n}, rollout=random, cutoff=20)",
)
# Options that set the budget, not the tree: left out of a row's printed settings.
BUDGET_OPTIONS = ("iterations", "time", "cpu_time")
MINIMAX_SPECS = {
    "forum-romanum": ("paranoid(depth=3)", "maxn(depth=2)", "brs(depth=3)"),
    # Forma's openings have ~25,000 moves: a node cap keeps each search to a second
    # or so (depth 1 always completes, the capped depth-2 iteration is abandoned).
    "forma": ("paranoid(depth=2, nodes=30000)", "maxn(depth=2, nodes=30000)",
              "brs(depth=2, nodes=30000)"),
}


def mcts_settings(spec_template: str, state) -> dict:
    """Every option a search of ``spec_template`` in ``state``'s game runs with: the
    spec's, else the game's tuned default, else the declared default."""
    agent = create_agent(spec_template.format(n=1), seed=0)
    settings = agent.settings_for(state.game)
    return {k: v for k, v in settings.items() if k not in BUDGET_OPTIONS}


def bench_mcts(spec_template: str, state, seconds: float) -> dict:
    """Iterations per second of fresh searches from ``state``, per wall-clock second
    and per CPU second of this thread (with threads=1 the search runs in it)."""
    # compile / load
    create_agent(spec_template.format(n=200), seed=0).act(state.view_for(state.current_player))
    n = 2000
    iterations = 0
    elapsed = 0.0
    cpu = 0.0
    searches = 0
    while elapsed < seconds:
        agent = create_agent(spec_template.format(n=n), seed=searches)
        t0 = time.perf_counter()
        c0 = time.thread_time()
        agent.act(state.view_for(state.current_player))
        cpu += time.thread_time() - c0
        elapsed += time.perf_counter() - t0
        iterations += agent.last_search["iterations"]
        searches += 1
        n = min(n * 2, 200_000)
    return {"spec": spec_template.format(n="N"), "settings": mcts_settings(spec_template, state),
            "iterations": iterations, "seconds": round(elapsed, 3), "iterations_per_s": iterations / elapsed,
            "cpu_seconds": round(cpu, 3), "iterations_per_cpu_s": iterations / cpu if cpu > 0 else None}


def bench_minimax(spec: str, state, seconds: float) -> dict:
    """Nodes per second of fixed-depth searches from ``state``: per wall-clock second
    and per CPU second of this thread (the search runs in it); the latter hardly
    changes when other processes share the cores, so it is the figure to compare
    side by side on a busy machine."""
    create_agent(spec, seed=0).act(state.view_for(state.current_player))  # compile / load
    nodes = 0
    elapsed = 0.0
    cpu = 0.0
    searches = 0
    depth_done = None
    while elapsed < seconds or searches == 0:
        agent = create_agent(spec, seed=searches)
        t0 = time.perf_counter()
        c0 = time.thread_time()
        agent.act(state.view_for(state.current_player))
        cpu += time.thread_time() - c0
        elapsed += time.perf_counter() - t0
        nodes += agent.last_search["nodes"]
        depth_done = agent.last_search.get("depth")
        searches += 1
    return {"spec": spec, "searches": searches, "nodes": nodes, "seconds": round(elapsed, 3),
            "nodes_per_s": nodes / elapsed, "cpu_seconds": round(cpu, 3),
            "nodes_per_cpu_s": nodes / cpu if cpu > 0 else None, "completed_depth": depth_done}


@click.command()
@click.option("--game", default="forum-romanum", show_default=True)
@click.option("--players", type=int, default=None, help="Players (default: the game's default).")
@click.option("--seconds", type=float, default=2.0, show_default=True, help="Time per agent and position.")
def main(game, players, seconds):
    """Measure MCTS and minimax search speed on fixed positions."""
    try:
        get_game_class(game)  # an unknown game fails here, before any work
    except ForumlabError as exc:
        raise click.BadParameter(str(exc), param_hint="--game") from None
    if players is None:
        players = create_game(game).players
    positions = game_positions(game, players)
    results = []
    names = set(agent_names())
    minimax_specs = MINIMAX_SPECS.get(game, MINIMAX_SPECS["forma"])
    for label, state in positions.items():
        entry = {"position": label, "ply": len(state.history), "legal_moves": len(state.legal_moves()),
                 "mcts": [bench_mcts(s, state, seconds) for s in MCTS_SPECS]}
        entry["minimax"] = [bench_minimax(s, state, seconds) for s in minimax_specs
                            if s.split("(")[0] in names]
        results.append(entry)
    print(json.dumps({"benchmark": "search", "game": game, "players": players,
                      "machine": platform.machine(), "python": platform.python_version(),
                      "positions": results}, indent=1))


if __name__ == "__main__":
    main()
