"""Random-playout speed of a game's numba engine and its plain-Python reference engine.

Usage: python -m benchmarks.playouts --game forum-romanum [--seconds 3] [--players 3,4] [-o KEY=VALUE]

Prints one JSON object. Both engines run in the same process, one after the other,
on one core, for each player count, so the speed ratio is measured side by side. The
reference engine is the one the game's conformance data names, driven through the
reference protocol (forumlab.testing.reference): moves are notation texts, so its
figure includes printing and reading them.
The numba figure goes through the generic ``random_move`` / ``apply_move`` protocol
functions bound by the game's tag (forumlab.core.dispatch), exactly the path agents'
rollouts use.
"""
from __future__ import annotations

import json
import platform
import random
import time

import click

from forumlab.core.options import parse_key_values
from forumlab.core.playout import random_playouts
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng

DEFAULT_PLAYERS = {"forum-romanum": "3,4", "forma": "2,4", "foundations-of-rome": "2,4",
                   "forum-trajanum": "2,4"}


def _reference_engine(game, seed: int):
    """A maker of the game's reference engine (the reference protocol of
    forumlab.testing.reference) at the start of the deal ``seed``, the numba run's deal."""
    from forumlab.testing.reference import NoReferenceEngine, reference_config, reference_engine

    try:
        engine = reference_engine(game)
    except NoReferenceEngine as exc:
        raise click.UsageError(str(exc)) from None
    config = reference_config(game, seed)
    return lambda: engine.from_config(config, seed)


def bench_numba(game, seconds: float, seed: int) -> dict:
    """Games and plies per second of random play through the numba kernels."""
    start = game.new_state(seed).array
    rng = make_rng(seed)
    tag = game.kernels.tag
    random_playouts(tag, start, 1, rng)  # compile or load from cache outside the timing
    games = plies = 0
    batch = 64
    t0 = time.perf_counter()
    c0 = time.thread_time()
    while True:
        plies += random_playouts(tag, start, batch, rng)
        games += batch
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
        batch = min(batch * 2, 1 << 16)
    return _rates(games, plies, elapsed, time.thread_time() - c0)


def _rates(games: int, plies: int, wall: float, cpu: float) -> dict:
    """Counts and rates per wall second and per CPU second of the measuring thread (the
    latter barely changes when other processes share the cores; the former does)."""
    return {"games": games, "plies": plies, "seconds": round(wall, 3), "cpu_seconds": round(cpu, 3),
            "games_per_s": games / wall, "plies_per_s": plies / wall,
            "games_per_cpu_s": games / cpu, "plies_per_cpu_s": plies / cpu}


def bench_reference(make, seconds: float, seed: int) -> dict:
    """Games and plies per second of random play through the reference engine: a uniform
    choice among its legal move texts, played by text (the reference protocol)."""
    rng = random.Random(seed)
    games = plies = 0
    t0 = time.perf_counter()
    c0 = time.thread_time()
    while True:
        state = make()
        while not state.is_terminal():
            state.play(rng.choice(state.legal_moves()))
            plies += 1
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    return _rates(games, plies, elapsed, time.thread_time() - c0)


@click.command()
@click.option("--game", default="forum-romanum", show_default=True)
@click.option("--players", default=None, help="Comma-separated player counts.")
@click.option("--seconds", type=float, default=3.0, show_default=True,
              help="Time per engine and player count.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help='Game option, e.g. -o \'modules=["trading","roles"]\' (Foundations of Rome).')
def main(game, players, seconds, seed, options):
    """Measure random playouts per second, numba vs reference, side by side."""
    counts = [int(p) for p in (players or DEFAULT_PLAYERS.get(game, "2")).split(",")]
    extra = parse_key_values(options)
    results = []
    for n in counts:
        g = create_game(game, extra, players=n)
        numba_res = bench_numba(g, seconds, seed)
        ref_res = bench_reference(_reference_engine(g, seed), seconds, seed)
        results.append({
            "players": n,
            "config": g.config,
            "numba": numba_res,
            "reference": ref_res,
            "speedup_plies": numba_res["plies_per_s"] / ref_res["plies_per_s"],
            "speedup_plies_cpu": numba_res["plies_per_cpu_s"] / ref_res["plies_per_cpu_s"],
        })
    print(json.dumps({"benchmark": "playouts", "game": game, "machine": platform.machine(),
                      "python": platform.python_version(), "results": results}, indent=1))


if __name__ == "__main__":
    main()
