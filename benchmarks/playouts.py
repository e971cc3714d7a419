"""Random-playout speed of a game's numba engine and its plain-Python reference engine.

Usage: python -m benchmarks.playouts --game forum-romanum [--seconds 3] [--players 3,4] [-o KEY=VALUE]
       python -m benchmarks.playouts --vs-c [--rounds 9] [--seconds 1] [--players 2,3,4]

Prints one JSON object. Both engines run in the same process, one after the other,
on one core, for each player count, so the speed ratio is measured side by side. The
reference engine is the one the game's conformance data names, driven through the
reference protocol (forumlab.testing.reference): moves are notation texts, so its
figure includes printing and reading them.
The numba figure goes through the generic ``random_move`` / ``apply_move`` protocol
functions bound by the game's tag (forumlab.core.dispatch), exactly the path agents'
rollouts use.

``--vs-c`` measures Forum Romanum against the same random playout written in C
(benchmarks/c/forum_romanum_playout.c, the same rules and the same random draws, so a
seed gives the same games), compiled with the system's compiler (benchmarks/c/build.py):
each round runs C, then numba, for ``--seconds`` of process CPU time each, at every
player count; the JSON gives each round's ratio (numba plies per CPU second over C's)
and their median [min-max]. Without a compiler it prints the reason it skipped.
"""
from __future__ import annotations

import json
import platform
import random
import statistics
import subprocess
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


def bench_numba_process_cpu(game, seconds: float, seed: int) -> dict:
    """Games, plies and process CPU seconds of random play through the numba kernels, in
    batches until ``seconds`` of process CPU time are spent (the C program's clock)."""
    start = game.new_state(seed).array
    rng = make_rng(seed)
    tag = game.kernels.tag
    random_playouts(tag, start, 1, rng)  # compile or load from cache outside the timing
    rng = make_rng(seed)
    games = plies = 0
    batch = 64
    c0 = time.process_time()
    while True:
        plies += random_playouts(tag, start, batch, rng)
        games += batch
        spent = time.process_time() - c0
        if spent >= seconds:
            break
        batch = min(batch * 2, 1 << 16)
    return {"games": games, "plies": plies, "cpu_seconds": spent}


def bench_c(program, game, seconds: float, seed: int) -> dict:
    """The C program's games, plies and process CPU seconds (measured by itself)."""
    args = [str(program), "bench", str(game.players), str(game.config["max_rounds"]), str(seed), str(seconds)]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def _spread(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 4), "min": round(min(values), 4),
            "max": round(max(values), 4)}


def vs_c(counts: list[int], extra: dict, seconds: float, seed: int, rounds: int) -> dict:
    """Forum Romanum random playouts, numba against C, interleaved in every round."""
    from benchmarks.c.build import NoCompiler, build

    report = {"benchmark": "playouts-vs-c", "game": "forum-romanum", "machine": platform.machine(),
              "python": platform.python_version(), "rounds": rounds, "seconds_per_run": seconds}
    try:
        built = build()
    except NoCompiler as exc:
        return {**report, "skipped": str(exc)}
    report.update(compiler=built.compiler, flags=list(built.flags),
                  select="pdep" if "-DUSE_PDEP=1" in built.flags else "broadword", results=[])
    for n in counts:
        g = create_game("forum-romanum", extra, players=n)
        bench_numba_process_cpu(g, 0.0, seed)  # compile or load outside the rounds
        c_rates, numba_rates = [], []
        for _ in range(rounds):
            c = bench_c(built.path, g, seconds, seed)
            nb = bench_numba_process_cpu(g, seconds, seed)
            c_rates.append(c["plies"] / c["cpu_seconds"])
            numba_rates.append(nb["plies"] / nb["cpu_seconds"])
        ratios = [b / a for a, b in zip(c_rates, numba_rates)]
        report["results"].append({
            "players": n, "config": g.config,
            "c_plies_per_cpu_s": _spread(c_rates), "numba_plies_per_cpu_s": _spread(numba_rates),
            "ratio_numba_over_c": _spread(ratios), "round_ratios": [round(r, 4) for r in ratios]})
    return report


@click.command()
@click.option("--game", default="forum-romanum", show_default=True)
@click.option("--players", default=None, help="Comma-separated player counts.")
@click.option("--seconds", type=float, default=3.0, show_default=True,
              help="Time per engine and player count.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help='Game option, e.g. -o \'modules=["trading","roles"]\' (Foundations of Rome).')
@click.option("--vs-c", "against_c", is_flag=True,
              help="Forum Romanum against its C playout, interleaved rounds (see the module doc).")
@click.option("--rounds", type=click.IntRange(min=1), default=9, show_default=True,
              help="Rounds of C and numba runs (--vs-c).")
def main(game, players, seconds, seed, options, against_c, rounds):
    """Measure random playouts per second, numba vs reference, side by side."""
    extra = parse_key_values(options)
    if against_c:
        if game != "forum-romanum":
            raise click.UsageError(f"--vs-c: only forum-romanum has a C playout, not {game}")
        counts = [int(p) for p in (players or "2,3,4").split(",")]
        print(json.dumps(vs_c(counts, extra, seconds, seed, rounds), indent=1))
        return
    counts = [int(p) for p in (players or DEFAULT_PLAYERS.get(game, "2")).split(",")]
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
