"""What a Python agent's reads of a State cost, and how long the example agent takes
for a whole 2-player Forma game.

Usage: python -m benchmarks.python_agent [--calls 3000] [--seed 1] [--no-game] [--no-cli]

Prints one JSON object:

- ``costs``: per game, microseconds per call of ``copy``, ``child`` (copy and play:
  what a lookahead pays per move), ``play`` (alone, on fresh copies made outside the
  timing), ``heuristic``, ``current_player``, ``is_terminal``, ``scores``,
  ``legal_moves``, ``is_legal`` and ``view_for`` (default rng); the best of three
  timed runs, averaged over six views of the seat to move from a seeded random
  2-player game (the opening, then evenly spaced to the end). ``play_by_move_list``
  is ``play`` as it was before ``is_legal`` (the same steps, legality checked on the
  legal moves made a set), measured side by side. ``opening_moves``: legal moves at
  the start.
- ``forma_game``: one whole 2-player Forma game, the example agent of
  docs/writing-an-agent.md (``examples/one_ply.py``, loaded from that file as
  written) in seat 0 against ``greedy``, through ``play_match`` (each agent handed
  its view, as in :func:`forumlab.play`): wall seconds, CPU seconds of this process,
  each agent's move seconds, plies and scores.
- ``forma_cli``: the same pairing as a user runs it, ``forumlab play forma -p 2 -a
  mybot:OnePly,greedy`` (this checkout's) in a temporary directory holding a copy of the
  example as ``mybot.py``: wall seconds of the whole command (start-up included); a
  command that fails stops the benchmark with its error instead of giving a time.
- ``load``: the 1-minute load average and the core count at start and end, since
  the wall times depend on what else the machine runs.
"""
from __future__ import annotations

import gc
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "one_ply.py"
GAMES = ["forum-romanum", "forma", "foundations-of-rome", "forum-trajanum"]


def _load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _positions(game, seed: int, count: int) -> list:
    """``count`` views (seat to move) from a seeded random game: the opening, then evenly spaced."""
    state = game.new_state(seed)
    chooser = random.Random(seed)
    states = []
    while not state.is_terminal:
        states.append(state.copy())
        legal = state.legal_moves()
        state.play(int(legal[chooser.randrange(len(legal))]))
    picks = np.linspace(0, len(states) - 1, count).astype(int)
    return [states[i].view_for(states[i].current_player) for i in picks]


def _per_call(fn, calls: int, repeats: int = 3) -> float:
    """Microseconds per call of ``fn``: the best of ``repeats`` timed runs of ``calls``
    calls (after one call outside the timing), with the garbage collector off as in
    ``timeit``, so other processes on a busy machine and collections that depend on what
    the benchmark keeps alive distort the figure less."""
    fn()
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            best = min(best, time.perf_counter() - t0)
    finally:
        gc.enable()
    return best / calls * 1e6


def _per_call_on_copies(state, calls: int, fn, repeats: int = 3, batch: int = 100) -> float:
    """Microseconds per call of ``fn(copy)`` on fresh copies of ``state``, timed
    without the copying: copies are made ``batch`` at a time outside the timing (few
    enough to stay in the CPU caches, as a lookahead's fresh copy is), the best of
    ``repeats`` runs, the garbage collector off."""
    fn(state.copy())
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeats):
            spent, done = 0.0, 0
            while done < calls:
                copies = [state.copy() for _ in range(min(batch, calls - done))]
                t0 = time.perf_counter()
                for copy in copies:
                    fn(copy)
                spent += time.perf_counter() - t0
                done += len(copies)
            best = min(best, spent)
    finally:
        gc.enable()
    return best / calls * 1e6


def _old_play(state, move):
    """``State.play`` as it was before ``is_legal``: the same steps, with the legality
    check made on the whole move list turned into a set."""
    if state.is_terminal:
        raise AssertionError("the game is over")
    code = int(move)
    if code not in set(state.legal_moves().tolist()):
        raise AssertionError(f"move code {code} is not legal here")
    if len(state._before) != len(state.history):
        state._before = []
    else:
        state._before.append(state.array.copy())
    state.game.kernels.apply_move(state.array, code)
    state.history.append(code)


def _row(view, move, calls: int) -> dict:
    """Microseconds per call of each read in one position (``move`` is legal there)."""
    seat = view.current_player
    few = max(10, calls // 20)  # the calls that generate every move are slow in Forma
    return {
        "copy": _per_call(view.copy, calls),
        "child": _per_call(lambda: view.child(move), calls),
        "play": _per_call_on_copies(view, calls, lambda s: s.play(move)),
        "heuristic": _per_call(lambda: view.heuristic(seat), calls),
        "current_player": _per_call(lambda: view.current_player, calls),
        "is_terminal": _per_call(lambda: view.is_terminal, calls),
        "scores": _per_call(view.scores, calls),
        "legal_moves": _per_call(view.legal_moves, few),
        "is_legal": _per_call(lambda: view.is_legal(move), calls),
        "view_for": _per_call(lambda: view.view_for(seat), calls),
        "play_by_move_list": _per_call_on_copies(view, few, lambda s: _old_play(s, move)),
    }


def costs(name: str, seed: int, calls: int, positions: int = 6) -> dict:
    """Microseconds per call of each read, averaged over ``positions`` positions."""
    from forumlab.core.registry import create_game

    game = create_game(name, {"players": 2})
    views = _positions(game, seed, positions)
    chooser = random.Random(seed)
    rows = []
    for view in views:
        legal = view.legal_moves()
        rows.append(_row(view, legal[chooser.randrange(len(legal))], calls))
    out = {key: round(sum(r[key] for r in rows) / len(rows), 2) for key in rows[0]}
    out["opening_moves"] = int(len(game.new_state(seed).legal_moves()))
    out["positions"] = len(views)
    return out


def _example_class():
    namespace: dict = {"__name__": "one_ply"}
    exec(compile(EXAMPLE.read_text(), str(EXAMPLE), "exec"), namespace)
    return namespace["OnePly"]


def forma_game(seed: int) -> dict:
    """One 2-player Forma game, the example agent against greedy, timed."""
    import forumlab
    from forumlab.arena.match import play_match

    game = forumlab.load_game("forma", players=2)
    play_match(game, [forumlab.make_agent("greedy"), forumlab.make_agent("greedy")], seed=seed + 1000)  # warm
    agents = [_example_class()(seed=seed), forumlab.make_agent("greedy", seed=seed)]
    wall, cpu = time.perf_counter(), time.process_time()
    match = play_match(game, agents, seed=seed)
    return {
        "wall_seconds": round(time.perf_counter() - wall, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "example_move_seconds": round(match.move_seconds[0], 2),
        "greedy_move_seconds": round(match.move_seconds[1], 2),
        "plies": match.result["plies"],
        "scores": match.result["scores"],
    }


def forma_cli(seed: int) -> dict:
    """``forumlab play forma -p 2 -a mybot:OnePly,greedy`` beside a copy of the example.

    Runs this checkout's ``forumlab`` (its command-line entry point, with the checkout first
    on the import path), not whatever ``forumlab`` script the PATH holds, which may belong to
    another checkout or to an install that is gone.

    Raises:
        click.ClickException: the command failed (its last line of standard error is named).
    """
    args = ["play", "forma", "-p", "2", "--seed", str(seed), "-a", "mybot:OnePly,greedy"]
    command = [sys.executable, "-c", "from forumlab.cli import main; main()", *args]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH"))
                                                        if p)}
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(EXAMPLE, Path(tmp) / "mybot.py")
        t0 = time.perf_counter()
        done = subprocess.run(command, cwd=tmp, capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - t0
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(nothing on standard error)"])[-1]
        raise click.ClickException(f"forumlab {' '.join(args)} failed (exit code {done.returncode}): {last}")
    return {"command": "forumlab " + " ".join(args), "wall_seconds": round(seconds, 2), "exit_code": 0,
            "last_line": (done.stdout.strip().splitlines() or [""])[-1]}


@click.command()
@click.option("--calls", default=3000, show_default=True, help="Calls per timed read and position.")
@click.option("--seed", default=1, show_default=True)
@click.option("--game/--no-game", "with_game", default=True, help="Time a whole Forma game in process.")
@click.option("--cli/--no-cli", "with_cli", default=True, help="Time it through `forumlab play` too.")
def main(calls: int, seed: int, with_game: bool, with_cli: bool) -> None:
    """Print the JSON described in the module docstring."""
    load_start = _load_average()
    result: dict = {"python": platform.python_version(), "machine": platform.machine(),
                    "cores": os.cpu_count(), "calls": calls, "seed": seed, "unit": "microseconds per call",
                    "costs": {name: costs(name, seed, calls) for name in GAMES}}
    if with_game:
        result["forma_game"] = forma_game(seed)
    if with_cli:
        result["forma_cli"] = forma_cli(seed)
    result["load"] = {"start": load_start, "end": _load_average()}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
