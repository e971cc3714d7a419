"""One MCTS configuration against greedy: a small, reproducible strength experiment.

Usage:
    python -m benchmarks.mcts_experiment --agent 'mcts(iterations=3000)' \
        [--game forma] [--players 2] [--opponent greedy] [--groups 10] [--workers 2] [--seed 1]

Plays a round robin through the arena (forumlab.arena.tournament.run_tournament, local
pool) of the agent against the opponent (with 3+ players, the other seats are copies of
the opponent labelled ``opponent2``, ``opponent3``, ...), in neighbour-balanced seating
groups: every seat and every predecessor equally often, one game seed per group, so
``--groups 10`` is 20 games at 2 players and 60 at 3. The same ``--seed`` gives the
same game seeds to every configuration (paired comparisons). Use iteration budgets
(``iterations=``) so the result does not depend on the machine's load.

With ``--probe PLIES`` it plays no games: it plays PLIES random moves (random agent
seeded with ``--seed``) from game seed ``--seed``, runs the agent once there and prints
how its root's children fared (visits and mean rewards of the most visited, the spread
of the mean rewards, the heuristic rank of the chosen move) - the diagnostic for a
search that explores uniformly.

Otherwise it prints one JSON object: games, the agent's win rate (shared wins count fractionally)
with a 95% Wilson interval, its Elo against the opponent (Plackett-Luce with seat
effects, the opponent anchored at 0) with the 95% interval, its mean score margin over
the best other seat, and the mean seconds per move of each agent.
"""
from __future__ import annotations

import json
import os
import tempfile
import time

import click
import numpy as np

from forumlab.agents.registry import create_agent
from forumlab.arena.balance import wilson_interval
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.ratings import rate, rated_games, ratings_report
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import run_tournament
from forumlab.core.registry import create_game
from forumlab.search import mcts as kernel

AGENT, OPPONENT = "agent", "opponent"


def pool(agent: str, opponent: str, players: int) -> tuple[PoolEntry, ...]:
    """The agent and ``players - 1`` differently labelled copies of the opponent."""
    copies = [PoolEntry(OPPONENT if i == 0 else f"{OPPONENT}{i + 1}", opponent) for i in range(players - 1)]
    return (PoolEntry(AGENT, agent), *copies)


def summarise(outcomes) -> dict:
    """Win rate, Elo against the opponent and per-agent move times of the played games."""
    wins = 0.0
    margin = 0.0
    seconds = {}
    moves = {}
    for o in outcomes:
        seat = o.labels.index(AGENT)
        best = [s for s, r in enumerate(o.ranks) if r == 1]
        wins += 1 / len(best) if seat in best else 0.0
        others = [sc for s, sc in enumerate(o.scores) if s != seat]
        margin += o.scores[seat] - max(others)
        for s, label in enumerate(o.labels):
            kind = AGENT if label == AGENT else OPPONENT
            seconds[kind] = seconds.get(kind, 0.0) + o.move_seconds[s]
            moves[kind] = moves.get(kind, 0) + o.moves_made[s]
    n = len(outcomes)
    report = ratings_report(rate(rated_games(outcomes), anchor=OPPONENT))
    row = next(a for a in report["agents"] if a["agent"] == AGENT)
    low, high = wilson_interval(wins, n)
    return {
        "games": n,
        "win_rate": round(wins / n, 4),
        "win_rate_95": [round(low, 4), round(high, 4)],
        "elo": _round(row["elo"]),
        "elo_95": [_round(row["elo_low"]), _round(row["elo_high"])],
        "mean_margin": round(margin / n, 1),
        "seconds_per_move": {k: round(seconds[k] / max(moves[k], 1), 4) for k in sorted(seconds)},
    }


def play_throwaway(definition: TournamentDefinition, workers: int):
    """Play ``definition`` into a temporary results file; return (outcomes, wall seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "experiment.db")
        started = time.perf_counter()
        run_tournament(definition, db, workers, None, progress=False)
        elapsed = time.perf_counter() - started
        with ResultStore.open(db, readonly=True) as store:
            return store.outcomes(), elapsed


def one_ply_value(state, move: int) -> float:
    """The mover's heuristic after ``move``: what greedy maximises."""
    child = state.array.copy()
    state.game.kernels.apply_move(child, move)
    return state.game.kernels.heuristic(child, state.current_player)


def probe(game: str, players: int, agent: str, plies: int, seed: int) -> dict:
    """Root statistics of one search of ``agent`` after ``plies`` random moves."""
    state = create_game(game, {"players": players}).new_state(seed)
    mover = create_agent("random", seed=seed)
    for _ in range(plies):
        state.play(mover.act(state.view_for(state.current_player)))
    # The first search of a process also compiles (cold cache) or loads the kernels,
    # which a time budget counts: a cold probe of 3-player Forum Romanum at cpu_time=0.1
    # ran one chunk of 64 iterations (about 8,000 when warm). A throwaway search first.
    create_agent(agent, seed=seed).act(state.view_for(state.current_player))
    searcher = create_agent(agent, seed=seed)
    move = searcher.act(state.view_for(state.current_player))
    nodes, rewards, _, _ = searcher._tree
    cap = int(nodes[0, kernel.F_NCHILD])
    moves, visits, means = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap)
    k = kernel.root_children(nodes, rewards, moves, visits, means)
    values = sorted((one_ply_value(state, m) for m in state.legal_moves().tolist()), reverse=True)
    top = np.argsort(-visits[:k], kind="stable")[:5]
    return {"probe": plies, "legal_moves": len(values), "iterations": searcher.last_search["iterations"],
            "root_children": int(k),
            "move": state.game.format_move(state.array, move),
            "move_heuristic_rank": values.index(one_ply_value(state, move)), "best_heuristic": values[:3],
            "top_visits": visits[top].tolist(), "top_means": [round(float(x), 4) for x in means[top]],
            "median_visits": float(np.median(visits[:k])),
            "mean_spread": round(float(means[:k].max() - np.median(means[:k])), 4)}


def _round(x):
    return None if x is None else round(x)


@click.command()
@click.option("--agent", "agent", required=True, help="Spec of the agent under test.")
@click.option("--opponent", default="greedy", show_default=True, help="Spec of the reference agent.")
@click.option("--game", default="forma", show_default=True)
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--groups", type=int, default=10, show_default=True,
              help="Seating groups (game seeds); each is players*(players-1) games.")
@click.option("--workers", type=int, default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--probe", "probe_plies", type=int, default=None,
              help="Instead of games: root statistics of one search after this many random plies.")
def main(agent, opponent, game, players, groups, workers, seed, probe_plies):
    """Strength of one agent spec against a reference agent, as JSON."""
    if probe_plies is not None:
        print(json.dumps({"benchmark": "mcts_experiment", "game": game, "players": players, "agent": agent,
                          "seed": seed, **probe(game, players, agent, probe_plies, seed)}))
        return
    config = {**create_game(game, {"players": players}).config}
    definition = TournamentDefinition(game=game, config=config, agents=pool(agent, opponent, players),
                                      games_per_lineup=groups, seed=seed)
    outcomes, elapsed = play_throwaway(definition, workers)
    result = {"benchmark": "mcts_experiment", "game": game, "players": players, "agent": agent,
              "opponent": opponent, "groups": groups, "seed": seed, **summarise(outcomes),
              "seconds": round(elapsed, 1)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
