"""How much of a per-move time budget the minimax agents spend, and how deep they get.

Usage: python -m benchmarks.minimax_budget [--budget time=0.2] [--repeat 2]

Prints one JSON object: for paranoid, maxn and brs with the budget and no depth, from
the Forum Romanum 3-player opening and the Forma 2-player opening (seed 0), the
wall-clock and thread CPU seconds of each move, the completed depth, whether the
move came from an interrupted deeper iteration (``partial``) and the nodes searched.
Each agent first plays one untimed depth-1 move (numba compilation / cache load).
"""
from __future__ import annotations

import json
import platform
import time

import click

from forumlab.agents.registry import create_agent
from forumlab.core.registry import create_game

POSITIONS = (("forum-romanum", {"players": 3}), ("forma", {"players": 2}))
AGENTS = ("paranoid", "maxn", "brs")


def measure(name: str, budget: str, state, seed: int) -> dict:
    """One move of ``name(budget)`` from ``state``: times, depth, nodes."""
    agent = create_agent(f"{name}({budget})", seed=seed)
    t0 = time.perf_counter()
    c0 = time.thread_time()
    agent.act(state.view_for(state.current_player))
    wall = time.perf_counter() - t0
    cpu = time.thread_time() - c0
    s = agent.last_search
    return {"wall_s": round(wall, 4), "cpu_s": round(cpu, 4), "depth": s["depth"],
            "partial": s["partial"], "nodes": s["nodes"]}


@click.command()
@click.option("--budget", default="time=0.2", show_default=True,
              help="the agents' budget parameter, e.g. time=0.2, cpu_time=0.2, nodes=100000")
@click.option("--repeat", default=2, show_default=True, help="moves per agent and position")
def main(budget: str, repeat: int) -> None:
    results = []
    for game, config in POSITIONS:
        state = create_game(game, config).new_state(0)
        for name in AGENTS:
            # compile / load
            create_agent(f"{name}(depth=1)", seed=0).act(state.view_for(state.current_player))
            for seed in range(repeat):
                results.append({"game": game, "config": config, "agent": f"{name}({budget})",
                                **measure(name, budget, state, seed)})
    print(json.dumps({"machine": platform.machine(), "python": platform.python_version(),
                      "results": results}, indent=1))


if __name__ == "__main__":
    main()
