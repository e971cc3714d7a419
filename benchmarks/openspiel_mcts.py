"""Our ``mcts`` against OpenSpiel's ``MCTSBot`` (random rollouts) at the same time per move.

Usage: python -m benchmarks.openspiel_mcts [--games 20] [--seconds 0.1] [--players 2]
       [--ours SPEC] [--seed 1]

Plays Forum Romanum through the OpenSpiel adapter (forumlab.interop.openspiel): one
seat is OpenSpiel's MCTSBot (UCT, c = 2, one random rollout per leaf, its defaults
otherwise), the others our agent (default ``mcts(time=SECONDS)``, the game's tuned
defaults). Seats alternate from game to game (game i: our agent first when i is even,
at 2 players). MCTSBot's budget is simulations, not time, so it is recalibrated after
each of its moves: the next budget is SECONDS over the mean seconds per simulation of
its moves so far, so both sides think about SECONDS of wall time per move (the JSON
gives the measured means). Prints one JSON object: our wins (a shared first place
counts as a fraction), win rate with a 95% Wilson interval, per-side seconds per move,
MCTSBot's mean simulations per move, and the machine's load average.
"""
from __future__ import annotations

import json
import os
import platform
import time

import click
import numpy as np

from forumlab.agents.registry import create_agent
from forumlab.arena.balance import wilson_interval
from forumlab.core.rng import derive_seed, make_rng


class CalibratedMCTSBot:
    """OpenSpiel's MCTSBot with a simulation budget that tracks a time per move."""

    def __init__(self, game, seconds: float, seed: int):
        from open_spiel.python.algorithms import mcts

        self.seconds = seconds
        rng = np.random.RandomState(seed % 2**32)
        self.bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20,
                                evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                                random_state=rng)
        self.sims = 0
        self.spent = 0.0
        self.moves = 0

    def step(self, state) -> int:
        if self.sims:
            # at least 2: MCTSBot expands its root on the second simulation
            self.bot.max_simulations = max(2, round(self.seconds * self.sims / self.spent))
        t0 = time.perf_counter()
        action = self.bot.step(state)
        self.spent += time.perf_counter() - t0
        self.sims += self.bot.max_simulations
        self.moves += 1
        return action


def play_one(game, ours_spec: str, seconds: float, ours_first: bool, seed: int) -> dict:
    """One game: our agent in the other seats, MCTSBot in seat 1 (or seat 0)."""
    import pyspiel  # noqa: F401  (the adapter registered the game)

    players = game.num_players()
    bot_seat = players - 1 if ours_first else 0
    bot = CalibratedMCTSBot(game, seconds, derive_seed(seed, "openspiel"))
    ours = {s: create_agent(ours_spec, seed=derive_seed(seed, "agent", s))
            for s in range(players) if s != bot_seat}
    state = game.new_initial_state()
    view_rng = make_rng(derive_seed(seed, "views"))
    our_time, our_moves = 0.0, 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == bot_seat:
            action = bot.step(state)
        else:
            t0 = time.perf_counter()
            move = ours[seat].act(state.forumlab_state.view_for(seat, view_rng))
            our_time += time.perf_counter() - t0
            our_moves += 1
            action = state.forumlab_state.move_to_action(move)
        state.apply_action(action)
    result = state.forumlab_state.result()
    winners = result["winners"]
    ours_won = sum(1 for w in winners if w != bot_seat) / len(winners) if winners else 0.0
    return {"seed": seed, "bot_seat": bot_seat, "ours_won": ours_won, "scores": result["scores"],
            "plies": result["plies"], "ours_seconds_per_move": our_time / max(our_moves, 1),
            "bot_seconds_per_move": bot.spent / max(bot.moves, 1),
            "bot_simulations_per_move": bot.sims / max(bot.moves, 1)}


@click.command()
@click.option("--games", default=20, show_default=True, help="games (seats alternate)")
@click.option("--seconds", default=0.1, show_default=True, help="wall seconds per move for both sides")
@click.option("--players", default=2, show_default=True)
@click.option("--ours", "ours_spec", default=None, help="our agent's spec (default mcts(time=SECONDS))")
@click.option("--seed", default=1, show_default=True)
def main(games, seconds, players, ours_spec, seed):
    import pyspiel

    from forumlab.interop.openspiel import register_games

    register_games()
    ours_spec = ours_spec or f"mcts(time={seconds})"
    started = time.time()
    rows = []
    for i in range(games):
        game_seed = derive_seed(seed, "game", i) % 2**31  # an OpenSpiel int parameter
        game = pyspiel.load_game("python_forumlab_forum_romanum", {"players": players, "seed": game_seed})
        rows.append(play_one(game, ours_spec, seconds, ours_first=i % 2 == 0,
                             seed=derive_seed(seed, "run", i)))
    wins = sum(r["ours_won"] for r in rows)
    low, high = wilson_interval(wins, games)
    print(json.dumps({
        "benchmark": "openspiel_mcts", "game": "forum-romanum", "players": players,
        "ours": ours_spec, "theirs": "open_spiel MCTSBot(uct_c=2, random rollout evaluator, n_rollouts=1)",
        "seconds_per_move": seconds, "games": games, "ours_wins": wins,
        "ours_win_rate": wins / games, "ours_win_rate_95": [low, high],
        "ours_seconds_per_move": float(np.mean([r["ours_seconds_per_move"] for r in rows])),
        "bot_seconds_per_move": float(np.mean([r["bot_seconds_per_move"] for r in rows])),
        "bot_simulations_per_move": float(np.mean([r["bot_simulations_per_move"] for r in rows])),
        "mean_plies": float(np.mean([r["plies"] for r in rows])),
        "wall_seconds": round(time.time() - started, 1), "load_average": os.getloadavg(),
        "python": platform.python_version(), "per_game": rows,
    }, indent=1))


if __name__ == "__main__":
    main()
