"""MCTS iterations per CPU second: the kernel of named phases against the one-piece
kernel it replaced, run alternately in one process.

Usage:
    python -m benchmarks.mcts_phases [--rounds 6] [--scale 1.0] [--ref REF]

The one-piece kernel is the module ``forumlab/search/mcts.py`` as git holds it at REF
(default: the last commit that had it), written to a file under the temp directory and
imported as ``forumlab.search._mcts_before`` (its relative imports then resolve as they
did); ``FORUMLAB_GIT_ROOT`` names another checkout to read it from (for a copy of the
tree that is not a git repository). Both kernels search the same positions with the
same seeds, at each game's tuned defaults (for the iteration budget of the case, times
``--scale``): Forum Romanum at 3 players, Forma at 2 and 4. Each round runs every
position with the old kernel, then the new one, then swaps the order for the next
round (ABBA), so a change in the machine's load hits both alike; the clock is the
searching thread's CPU time (``time.thread_time``). Before timing, each pair's trees
are checked to be the same bit for bit.

Prints one JSON object: per game, the CPU seconds and iterations per CPU second of each
kernel summed over rounds, the ratio new / old (above 1: the new kernel is faster), and
the ratio of each round.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click
import numpy as np

from forumlab.agents.mcts import _Search
from forumlab.agents.registry import create_agent
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.search import mcts as new_kernel
from forumlab.search.mcts.options import long_values
from forumlab.search.rewards import REWARD_NAMES

OLD_PATH = "forumlab/search/mcts.py"
# (game, players, plies of the positions searched, iterations per search at --scale 1):
# budgets of about a tenth of a CPU second each, the games' tuned budgets, far apart in
# what they cost per iteration.
CASES = (("forum-romanum", 3, (8, 24), 10_000), ("forma", 2, (12, 30), 400), ("forma", 4, (12, 30), 1_000))
# The checkout whose history holds the old kernel (a copy of the tree may name another).
ROOT = Path(os.environ.get("FORUMLAB_GIT_ROOT", Path(__file__).resolve().parent.parent))


def git(*args: str) -> str:
    """The output of a git command in this checkout."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def old_source_commit() -> str:
    """The last commit whose tree holds the one-piece kernel."""
    last = git("rev-list", "-1", "HEAD", "--", OLD_PATH)
    has = subprocess.run(["git", "cat-file", "-e", f"{last}:{OLD_PATH}"], cwd=ROOT, capture_output=True)
    return last if has.returncode == 0 else f"{last}^"


def load_old_kernel(ref: str):
    """The module ``forumlab/search/mcts.py`` of commit ``ref``, imported beside the new package."""
    text = git("show", f"{ref}:{OLD_PATH}") + "\n"
    path = Path(tempfile.gettempdir()) / "forumlab-mcts-before" / "mcts_before.py"
    path.parent.mkdir(exist_ok=True)
    if not path.is_file() or path.read_text() != text:  # rewritten only when it changes: numba's cache stays
        path.write_text(text)
    name = "forumlab.search._mcts_before"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def old_settings(old, o: dict, observer: int):
    """The one-piece kernel's settings for the option values ``o`` (its own field names)."""
    rollouts = {"random": old.ROLLOUT_RANDOM, "heuristic": old.ROLLOUT_HEURISTIC, "none": old.ROLLOUT_NONE,
                "sample": old.ROLLOUT_SAMPLED}
    return old.make_settings(
        c=o["c"], ismcts=False, observer=observer, rollout=rollouts[o["rollout"]], epsilon=o["epsilon"],
        cutoff=o["cutoff"], reward_kind=REWARD_NAMES[o["reward"]], hscale=o["hscale"],
        history_weight=o["history"], imm_alpha=o["imm"], order_depth=o["order_depth"], widen=o["widen"],
        hrelative=o["hrelative"], max_depth=o["tree_depth"], deepen=o["deepen"], samples=o["samples"],
        replies=o["replies"], proposals=o["proposals"])


def positions(game_name: str, players: int, plies: tuple[int, ...]):
    """Positions reached by greedy play from game seed 3, after each count of ``plies``."""
    game = create_game(game_name, {"players": players})
    state = game.new_state(3)
    mover = create_agent("greedy", seed=3)
    found = []
    for ply in range(max(plies) + 1):
        if ply in plies:
            found.append(state.copy())
        state.play(mover.act(state))
    return found


def search(module, settings, state, iterations: int, seed: int):
    """One search of ``iterations`` from ``state``; (CPU seconds, tree)."""
    game = state.game
    tree = _Search._allocate(iterations + 1, game.players, game.kernels.max_moves)
    module.reset_tree(tree[0], tree[2])
    history = np.zeros((game.players, 1 << 16, 2))
    rng = make_rng(seed)
    root = state.array.copy()
    started = time.thread_time()
    module.run_iterations(game.kernels.tag, root, iterations, tree, history, rng, settings)
    return time.thread_time() - started, tree


def same_tree(a, b) -> bool:
    """Whether two trees hold the same nodes and reward sums."""
    used = int(a[2][0])
    return int(b[2][0]) == used and np.array_equal(a[0][:used], b[0][:used]) and np.array_equal(
        a[1][1:used], b[1][1:used])


def prepare(old, scale: float):
    """Per case: its name, iterations, and positions with both kernels' settings at the
    game's tuned defaults."""
    cases = []
    for game_name, players, plies, budget in CASES:
        iterations = max(1, round(budget * scale))
        agent = create_agent(f"mcts(iterations={iterations})")
        states = positions(game_name, players, plies)
        o = agent.settings_for(states[0].game)
        o = {**o, **long_values(o), "ismcts": False}
        runs = [(s, old_settings(old, o, s.current_player), new_kernel.settings_from(o, s.current_player))
                for s in states]
        cases.append((f"{game_name}/{players}", iterations, runs))
    return cases


@click.command()
@click.option("--rounds", default=6, show_default=True, help="ABBA rounds (each runs both kernels)")
@click.option("--scale", default=1.0, show_default=True, help="times each case's iterations per search")
@click.option("--ref", default=None, help="commit holding the old kernel (default: its last)")
def main(rounds: int, scale: float, ref: str | None) -> None:
    ref = ref or old_source_commit()
    old = load_old_kernel(ref)
    cases = prepare(old, scale)
    for _, iterations, runs in cases:  # compile (or load) both, and check they build the same trees
        for state, s_old, s_new in runs:
            _, a = search(old, s_old, state, iterations, seed=1)
            _, b = search(new_kernel, s_new, state, iterations, seed=1)
            if not same_tree(a, b):
                raise SystemExit(f"the kernels built different trees in {state.game.name}")
    report = {"ref": git("rev-parse", "--short", ref), "rounds": rounds, "games": {}}
    for name, iterations, runs in cases:
        cpu = {"old": [], "new": []}
        for r in range(rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            spent = {"old": 0.0, "new": 0.0}
            for which in order:
                module = old if which == "old" else new_kernel
                for i, (state, s_old, s_new) in enumerate(runs):
                    seconds, _ = search(module, s_old if which == "old" else s_new, state, iterations,
                                        seed=100 + r * 10 + i)
                    spent[which] += seconds
            for which in spent:
                cpu[which].append(spent[which])
        n = iterations * len(runs) * rounds
        total = {k: sum(v) for k, v in cpu.items()}
        report["games"][name] = {
            "iterations_per_search": iterations,
            "cpu_seconds": {k: round(v, 4) for k, v in total.items()},
            "iterations_per_cpu_second": {k: round(n / v, 1) for k, v in total.items()},
            "ratio_new_over_old": round(total["old"] / total["new"], 4),
            "round_ratios": [round(o / w, 4) for o, w in zip(cpu["old"], cpu["new"])],
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
