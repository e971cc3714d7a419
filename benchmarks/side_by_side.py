"""Two commits' speed side by side: ``benchmarks.playouts`` and ``benchmarks.search`` run
in alternating processes from a copy of each commit's tree.

Usage:
    python -m benchmarks.side_by_side --old REF [--new REF] [--rounds 2] [--what playouts,search]
                                      [--games forum-romanum,forma,...] [--seconds 1]

Each commit is written with ``git archive`` to a directory under the temp directory
(once) and run there with its own numba cache, so neither process sees the other's code.
In each round every benchmark runs for the old commit, then the new one, and the order
swaps the next round (ABBA), so a change in the machine's load hits both alike. Rates:
numba plies per CPU second of the measuring thread (playouts), MCTS iterations per second
and minimax nodes per CPU second (search). Prints one JSON object: per rate, new / old
summed over rounds (above 1: the new commit is faster) and each round's ratio.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import click

ROOT = Path(os.environ.get("FORUMLAB_GIT_ROOT", Path(__file__).resolve().parent.parent))
PLAYERS = {"forum-romanum": "3,4", "forma": "2,4", "foundations-of-rome": "2,4", "forum-trajanum": "2,4"}


def git(*args: str) -> str:
    """The output of a git command in this checkout."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def checkout(ref: str) -> Path:
    """A directory holding the tree of commit ``ref`` (written once)."""
    sha = git("rev-parse", "--short=12", ref)
    tree = Path(tempfile.gettempdir()) / "forumlab-side-by-side" / sha
    if not (tree / "forumlab").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def run(tree: Path, args: list[str]) -> dict:
    """One benchmark's JSON, run from ``tree`` with that tree's own numba cache."""
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": f"{tree}-numba"}
    done = subprocess.run([sys.executable, "-m", *args], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        raise click.ClickException(f"{' '.join(args)} failed in {tree}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def playout_rates(report: dict) -> dict:
    """Numba plies per CPU second, per player count."""
    return {f'{report["game"]}/{r["players"]} playouts': r["numba"]["plies_per_cpu_s"]
            for r in report["results"]}


def search_rates(report: dict) -> dict:
    """MCTS iterations per second and minimax nodes per CPU second, per position and agent."""
    rates = {}
    for p in report["positions"]:
        for m in p["mcts"]:
            rates[f'{report["game"]}/{p["position"]} {m["spec"]}'] = m["iterations_per_s"]
        for m in p["minimax"]:
            rates[f'{report["game"]}/{p["position"]} {m["spec"]}'] = m["nodes_per_cpu_s"]
    return rates


@click.command()
@click.option("--old", "old_ref", required=True, help="the commit to compare against")
@click.option("--new", "new_ref", default="HEAD", show_default=True)
@click.option("--rounds", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--what", default="playouts,search", show_default=True)
@click.option("--games", default=",".join(PLAYERS), show_default=True)
@click.option("--seconds", type=float, default=1.0, show_default=True, help="per benchmark measurement")
def main(old_ref, new_ref, rounds, what, games, seconds):
    """Compare two commits' playout and search speed in alternating processes."""
    trees = {"old": checkout(old_ref), "new": checkout(new_ref)}
    samples: dict[str, dict[str, list[float]]] = {}
    for game in games.split(","):
        jobs = []
        if "playouts" in what:
            jobs.append((["benchmarks.playouts", "--game", game, "--players", PLAYERS.get(game, "2"),
                          "--seconds", str(seconds)], playout_rates))
        if "search" in what:
            jobs.append((["benchmarks.search", "--game", game, "--seconds", str(seconds / 2)], search_rates))
        for args, rates in jobs:
            for r in range(rounds):
                for which in ("old", "new") if r % 2 == 0 else ("new", "old"):
                    for key, value in rates(run(trees[which], args)).items():
                        samples.setdefault(key, {"old": [], "new": []})[which].append(value)
    print(json.dumps({
        "old": git("rev-parse", "--short", old_ref), "new": git("rev-parse", "--short", new_ref),
        "rounds": rounds,
        "ratios": {k: {"new_over_old": round(sum(v["new"]) / sum(v["old"]), 3),
                       "rounds": [round(b / a, 3) for a, b in zip(v["old"], v["new"])]}
                   for k, v in samples.items()}}, indent=1))


if __name__ == "__main__":
    main()
