"""Forma: which move do `mcts(cpu_time=0.1)` and `mcts(cpu_time=1)` pick on the same
positions, and how far is it from greedy's (the one-ply heuristic's best)? Prints JSON.

Positions: every ``--every``-th ply of greedy self-play games (game seeds 500, 501, ...);
a fresh agent searches each (no tree reuse). A move "is greedy's" when its one-ply
heuristic value equals the best; its loss is the best value minus the move's. One core::

    python -m benchmarks.forma_move_choice --players 2 --games 8 --every 4
"""
import json

import click
import numpy as np

from forumlab.agents.registry import create_agent
from forumlab.core.registry import create_game

from .mcts_experiment import one_ply_value

BUDGETS = (0.1, 1.0)


def _choices(state, seed: int) -> dict:
    """Each budget's move on state: (move, is greedy's, heuristic loss)."""
    best = max(one_ply_value(state, m) for m in state.legal_moves().tolist())
    out = {}
    for budget in BUDGETS:
        move = create_agent(f"mcts(cpu_time={budget})", seed=seed).act(state)
        value = one_ply_value(state, move)
        out[budget] = (move, value == best, best - value)
    return out


@click.command()
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--games", type=click.IntRange(1), default=8, show_default=True)
@click.option("--every", type=click.IntRange(1), default=4, show_default=True,
              help="Probe every this many plies.")
def main(players: int, games: int, every: int) -> None:
    """Move choices of mcts at 0.1 and 1 CPU s per move on greedy games' positions."""
    game = create_game("forma", {"players": players})
    # The first search of a process also compiles or loads the kernels, which the time
    # budget counts (see mcts_experiment.probe): a throwaway search first.
    create_agent(f"mcts(cpu_time={BUDGETS[0]})", seed=0).act(game.new_state(499))
    rows = []
    for g in range(games):
        state = game.new_state(500 + g)
        greedy = create_agent("greedy", seed=g)
        ply = 0
        while not state.is_terminal:
            if ply % every == every - 1:
                rows.append(_choices(state, ply))
            state.play(greedy.act(state))
            ply += 1
    fast, slow = BUDGETS
    print(json.dumps({
        "benchmark": "forma_move_choice", "players": players, "positions": len(rows),
        "same_move": float(np.mean([r[fast][0] == r[slow][0] for r in rows])),
        **{f"greedy_move_{b}s": float(np.mean([r[b][1] for r in rows])) for b in BUDGETS},
        **{f"mean_heuristic_loss_{b}s": float(np.mean([r[b][2] for r in rows])) for b in BUDGETS},
    }))


if __name__ == "__main__":
    main()
