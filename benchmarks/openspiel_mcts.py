"""Our ``mcts`` against OpenSpiel's ``MCTSBot`` (random rollouts) through the adapter.

Usage: python -m benchmarks.openspiel_mcts [--mode time|simulations] [--games 20]
       [--seconds 0.1] [--simulations 100] [--players 2] [--ours SPEC ...] [--seed 1]
       python -m benchmarks.openspiel_mcts --speed-only

Plays Forum Romanum through the OpenSpiel adapter (forumlab.interop.openspiel): one
seat is OpenSpiel's MCTSBot (UCT, c = 2 on returns in [-1, 1], one random rollout per
leaf, its defaults otherwise, so its solver is on), the others our agent. Seats
alternate from game to game (game i: our agent first when i is even, at 2 players).

- ``--mode time`` (default): both sides think about SECONDS of wall time per move;
  ours is ``mcts(time=SECONDS)`` (the game's tuned defaults). MCTSBot's budget is
  simulations, so it is recalibrated after each of its moves: the next budget is
  SECONDS over the mean seconds per simulation of its moves so far. This measures the
  whole stack, adapter speed included (MCTSBot walks Python states).
- ``--mode simulations``: both sides get N simulations per move, whatever the time:
  MCTSBot ``max_simulations=N`` against, by default, ``mcts(iterations=N)`` (tuned:
  heuristic leaf values, no rollout) and ``mcts(iterations=N, rollout=random, c=1,
  imm=0, order_depth=0, reuse=false)``: plain UCT with one random rollout per
  iteration, no tree reuse, and c = 1 on rewards in [0, 1], the same exploration as
  MCTSBot's c = 2 on [-1, 1]. This measures the algorithms, not the speed.

Every run first measures the adapter's speed (random playouts through pyspiel, with
and without a ``clone`` per ply as MCTSBot's tree walk does; ``--speed-only`` stops
there). Prints one JSON object: per spec of ours, our wins (a shared first place counts
as a fraction), the win rate with a 95% Wilson interval, per-side seconds and MCTSBot's
simulations per move; the adapter's plies per second, the command and the load average.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time

import click
import numpy as np

from forumlab.agents.registry import create_agent
from forumlab.arena.balance import wilson_interval
from forumlab.core.rng import derive_seed, make_rng

GAME = "python_forumlab_forum_romanum"
PLAIN_UCT = "rollout=random,c=1,imm=0,order_depth=0,reuse=false"


class BudgetedMCTSBot:
    """OpenSpiel's MCTSBot with a fixed simulation budget or one that tracks a time per move."""

    def __init__(self, game, seed: int, simulations: int = 0, seconds: float = 0.0):
        from open_spiel.python.algorithms import mcts

        self.seconds = seconds
        rng = np.random.RandomState(seed % 2**32)
        self.bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations or 20,
                                evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                                random_state=rng)
        self.sims = 0
        self.spent = 0.0
        self.moves = 0

    def step(self, state) -> int:
        if self.seconds and self.sims:
            # at least 2: MCTSBot expands its root on the second simulation
            self.bot.max_simulations = max(2, round(self.seconds * self.sims / self.spent))
        t0 = time.perf_counter()
        action = self.bot.step(state)
        self.spent += time.perf_counter() - t0
        self.sims += self.bot.max_simulations
        self.moves += 1
        return action


def play_one(game, ours_spec: str, bot: BudgetedMCTSBot, ours_first: bool, seed: int) -> dict:
    """One game: our agent in the other seats, MCTSBot in the last seat (or seat 0)."""
    players = game.num_players()
    bot_seat = players - 1 if ours_first else 0
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


def adapter_speed(players: int, games: int = 5, seed: int = 0) -> dict:
    """Plies per second of uniform random playouts through pyspiel, plain and with a
    ``clone()`` before every ply (as MCTSBot's tree walk and rollouts do)."""
    import pyspiel

    game = pyspiel.load_game(GAME, {"players": players})
    rng = np.random.RandomState(seed)
    out = {}
    for label, clone in (("warm_up", True), ("plies_per_second", False),
                         ("plies_per_second_clone_each_ply", True)):
        plies, started = 0, time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if clone:
                    state = state.clone()
                state.apply_action(int(rng.choice(state.legal_actions())))
                plies += 1
        out[label] = round(plies / (time.perf_counter() - started), 1)
    del out["warm_up"]  # it loads the compiled kernels
    out["playouts"] = games
    return out


def match(ours_spec: str, games: int, players: int, seed: int, simulations: int, seconds: float) -> dict:
    """``games`` games of one spec of ours against MCTSBot, seats alternating."""
    import pyspiel

    rows = []
    for i in range(games):
        game_seed = derive_seed(seed, "game", i) % 2**31  # an OpenSpiel int parameter
        game = pyspiel.load_game(GAME, {"players": players, "seed": game_seed})
        run_seed = derive_seed(seed, "run", i)
        bot = BudgetedMCTSBot(game, derive_seed(run_seed, "openspiel"), simulations=simulations,
                              seconds=seconds)
        rows.append(play_one(game, ours_spec, bot, ours_first=i % 2 == 0, seed=run_seed))
    wins = sum(r["ours_won"] for r in rows)
    low, high = wilson_interval(wins, games)
    return {
        "ours": ours_spec, "games": games, "ours_wins": wins, "ours_win_rate": wins / games,
        "ours_win_rate_95": [low, high],
        "ours_seconds_per_move": float(np.mean([r["ours_seconds_per_move"] for r in rows])),
        "bot_seconds_per_move": float(np.mean([r["bot_seconds_per_move"] for r in rows])),
        "bot_simulations_per_move": float(np.mean([r["bot_simulations_per_move"] for r in rows])),
        "mean_plies": float(np.mean([r["plies"] for r in rows])), "per_game": rows,
    }


@click.command()
@click.option("--mode", type=click.Choice(["time", "simulations"]), default="time", show_default=True,
              help="equal wall time per move, or equal simulations per move")
@click.option("--games", default=20, show_default=True, help="games per spec of ours (seats alternate)")
@click.option("--seconds", default=0.1, show_default=True,
              help="time mode: wall seconds per move for both sides")
@click.option("--simulations", default=100, show_default=True,
              help="simulations mode: MCTSBot's max_simulations and our iterations")
@click.option("--players", default=2, show_default=True)
@click.option("--ours", "ours_specs", multiple=True,
              help="our agent's spec, repeatable (default: see the module docstring)")
@click.option("--seed", default=1, show_default=True)
@click.option("--speed-only", is_flag=True, help="only measure the adapter's plies per second")
def main(mode, games, seconds, simulations, players, ours_specs, seed, speed_only):
    from forumlab.interop.openspiel import register_games

    register_games()
    started = time.time()
    report = {"benchmark": "openspiel_mcts", "command": "python -m benchmarks.openspiel_mcts "
              + " ".join(sys.argv[1:]), "game": "forum-romanum", "players": players,
              "adapter": adapter_speed(players)}
    if not speed_only:
        if not ours_specs:
            ours_specs = ([f"mcts(time={seconds})"] if mode == "time" else
                          [f"mcts(iterations={simulations})", f"mcts(iterations={simulations},{PLAIN_UCT})"])
        budget = {"seconds_per_move": seconds} if mode == "time" else {"simulations_per_move": simulations}
        report.update({
            "mode": mode, **budget,
            "theirs": "open_spiel MCTSBot(uct_c=2, random rollout evaluator, n_rollouts=1, solve=True)",
            "results": [match(spec, games, players, seed, simulations if mode == "simulations" else 0,
                              seconds if mode == "time" else 0.0) for spec in ours_specs],
        })
    report.update({"wall_seconds": round(time.time() - started, 1), "load_average": os.getloadavg(),
                   "python": platform.python_version()})
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
