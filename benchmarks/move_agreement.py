"""How often a longer search changes the move: a diagnostic for search that does not scale.

Usage:
    python -m benchmarks.move_agreement --game forum-trajanum --players 2 \
        --fast 'mcts(iterations=5000)' --slow 'mcts(iterations=50000)' [--games 3] [--every 10]

Takes positions from greedy self-play games (game seeds 1..--games, every --every-th ply
with more than one legal move), searches each with the fast and the slow spec under two
agent seeds, and prints one JSON object with the fraction of positions where

- ``fast_vs_fast``: the fast spec picks the same move under both seeds (how much of its
  choice is noise a longer search could remove);
- ``slow_vs_slow``: likewise for the slow spec;
- ``fast_vs_slow``: the two specs agree (seed 1 each; if near 1, ten times the time cannot
  change much of the game);
- ``fast_vs_greedy`` / ``slow_vs_greedy``: a spec picks greedy's move;

and, for MCTS specs, ``fast_undecided`` / ``slow_undecided``: the fraction of positions
where the search (seed 1) could not separate its two best moves, the most visited one
having at most ``CLOSE`` times the visits of the runner-up. There its pick is close to a
tie-break, and if the long search is as undecided as the short one, more time is not
resolving the choice.

Use iteration budgets so the figures do not depend on the machine's load.
"""
from __future__ import annotations

import json

import click
import numpy as np

from forumlab.agents.registry import check_spec, create_agent
from forumlab.cli import fail
from forumlab.core.errors import ForumlabError
from forumlab.core.game import State
from forumlab.core.registry import create_game
from forumlab.core.rng import derive_seed, make_rng
from forumlab.search import mcts as mcts_kernel

PAIRS = {"fast_vs_fast": ("fast1", "fast2"), "slow_vs_slow": ("slow1", "slow2"),
         "fast_vs_slow": ("fast1", "slow1"), "fast_vs_greedy": ("fast1", "greedy"),
         "slow_vs_greedy": ("slow1", "greedy")}
CLOSE = 1.1  # most visits / runner-up's visits at or below which a root is undecided


def self_play_positions(game_name: str, players: int, games: int, every: int) -> list[State]:
    """Every ``every``-th position with a choice from greedy self-play on seeds 1..games."""
    game = create_game(game_name, players=players)
    positions = []
    for seed in range(1, games + 1):
        agents = [create_agent("greedy", seed=100 + s) for s in range(players)]
        state = game.new_state(seed)
        view_rng = make_rng(derive_seed(seed, "views"))
        ply = 0
        while not state.is_terminal:
            if ply % every == 0 and len(state.legal_moves()) > 1:
                positions.append(state.copy())
            seat = state.current_player
            state.play(agents[seat].act(state.view_for(seat, view_rng)))
            ply += 1
    return positions


def choices(state: State, fast: str, slow: str, view_seed: int) -> dict[str, int]:
    """The move of each searcher (two seeds per spec) and of greedy at ``state``.

    All five see the same view of the seat to move (drawn from ``view_seed``), as in the
    arena: nothing hidden from that seat reaches them, and they differ only in agent seed.
    """
    view = state.view_for(state.current_player, make_rng(derive_seed(view_seed, "views")))
    specs = {"fast1": (fast, 1), "fast2": (fast, 2), "slow1": (slow, 1), "slow2": (slow, 2),
             "greedy": ("greedy", 1)}
    picks = {}
    for label, (spec, seed) in specs.items():
        agent = create_agent(spec, seed=seed)
        picks[label] = int(agent.act(view.copy()))
        if label in ("fast1", "slow1"):
            picks[label[:4] + "_undecided"] = root_is_undecided(agent)
    return picks


def root_is_undecided(agent) -> bool | None:
    """Whether an MCTS agent's last search left its two most visited root moves within
    ``CLOSE`` of each other in visits (None: not MCTS, or a single move)."""
    tree = getattr(agent, "_tree", None)
    if tree is None:
        return None
    nodes, rewards = tree[0], tree[1]
    size = max(1, int(nodes[0, mcts_kernel.F_NCHILD]))
    moves = np.empty(size, dtype=np.int64)
    visits = np.empty(size, dtype=np.int64)
    totals = np.empty(size, dtype=np.float64)
    k = mcts_kernel.root_totals(nodes, rewards, moves, visits, totals)
    if k < 2:
        return None
    second, most = np.sort(visits[:k])[-2:]
    return bool(most <= CLOSE * second)


def agreement(picks: list[dict[str, int]]) -> dict[str, float]:
    """The fraction of positions on which each pair of ``PAIRS`` chose the same move."""
    n = max(len(picks), 1)
    report = {name: round(sum(p[a] == p[b] for p in picks) / n, 3) for name, (a, b) in PAIRS.items()}
    for name in ("fast_undecided", "slow_undecided"):
        known = [p[name] for p in picks if p.get(name) is not None]
        report[name] = round(sum(known) / len(known), 3) if known else None
    return report


@click.command()
@click.option("--game", "game_name", default="forum-trajanum", show_default=True)
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--fast", required=True, help="Spec of the short search, e.g. 'mcts(iterations=5000)'.")
@click.option("--slow", required=True, help="Spec of the long search.")
@click.option("--games", type=click.IntRange(1), default=3, show_default=True,
              help="Greedy self-play games the positions come from.")
@click.option("--every", type=click.IntRange(1), default=10, show_default=True,
              help="Take every N-th ply.")
def main(game_name, players, fast, slow, games, every):
    """Move agreement of a short and a long search, as JSON."""
    try:
        check_spec(fast)
        check_spec(slow)
        positions = self_play_positions(game_name, players, games, every)
    except ForumlabError as error:
        fail(error)
    picks = [choices(state, fast, slow, i) for i, state in enumerate(positions)]
    print(json.dumps({"game": game_name, "players": players, "fast": fast, "slow": slow,
                      "positions": len(picks), **agreement(picks)}))


if __name__ == "__main__":
    main()
