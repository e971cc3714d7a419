"""Two commits' speed side by side: ``benchmarks.playouts`` and ``benchmarks.search`` run
in alternating processes against a copy of each commit's tree.

Usage:
    python -m benchmarks.side_by_side --old REF [--new REF] [--rounds 2] [--what playouts,search]
                                      [--games forum-romanum,forma,...] [--seconds 1]
                                      [--harness new|own]

Each commit is written with ``git archive`` to a directory under the temp directory
(once) and run there with its own numba cache, so neither process sees the other's code.
By default both commits are measured by the new commit's benchmark scripts (``--harness
new``): the old commit's own scripts may measure other settings under the same label (a
row once named "full random rollouts" inherited a game's tuned cutoff) or lack the CPU
rates. ``--harness own`` runs each commit's own scripts instead. In each round every
benchmark runs for the old commit, then the new one, and the order swaps the next round
(ABBA), so a change in the machine's load hits both alike. Rates, all per CPU second of
the measuring thread (a wall-clock rate only where a commit's script has no CPU one):
numba plies (playouts), MCTS iterations and minimax nodes (search). Prints one JSON
object: per rate, new / old summed over rounds (above 1: the new commit is faster) and
each round's ratio; the search positions' ply and move count at both commits (the same
positions, or the rates would not compare); rates measured at one commit only.
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
WORK = Path(tempfile.gettempdir()) / "forumlab-side-by-side"


def git(*args: str) -> str:
    """The output of a git command in this checkout."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def checkout(ref: str) -> Path:
    """A directory holding the tree of commit ``ref`` (written once)."""
    sha = git("rev-parse", "--short=12", ref)
    tree = WORK / sha
    if not (tree / "forumlab").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def harness(tree: Path) -> Path:
    """A directory holding only ``tree``'s ``benchmarks`` package: run from it, a process
    takes its scripts from there and ``forumlab`` from whichever tree is on PYTHONPATH."""
    scripts = Path(f"{tree}-harness")
    link = scripts / "benchmarks"
    if not link.exists():
        scripts.mkdir(parents=True, exist_ok=True)
        link.symlink_to(tree / "benchmarks", target_is_directory=True)
    return scripts


def run(tree: Path, args: list[str], scripts: Path | None = None) -> dict:
    """One benchmark's JSON: ``forumlab`` from ``tree`` with that tree's own numba cache,
    the benchmark scripts from ``scripts`` (default: ``tree``'s own)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": f"{tree}-numba"}
    # python -m puts the working directory first on sys.path, ahead of PYTHONPATH.
    done = subprocess.run([sys.executable, "-m", *args], cwd=scripts or tree, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise click.ClickException(f"{' '.join(args)} failed in {tree}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def _per_cpu(row: dict, cpu_key: str, wall_key: str) -> float:
    value = row.get(cpu_key)
    return value if value is not None else row[wall_key]


def playout_rates(report: dict) -> dict:
    """Numba plies per CPU second, per player count."""
    return {f'{report["game"]}/{r["players"]} playouts': r["numba"]["plies_per_cpu_s"]
            for r in report["results"]}


def search_rates(report: dict) -> dict:
    """MCTS iterations and minimax nodes per CPU second (per wall-clock second where the
    report has no CPU rate), per position and agent."""
    rates = {}
    for p in report["positions"]:
        for m in p["mcts"]:
            rates[f'{report["game"]}/{p["position"]} {m["spec"]}'] = _per_cpu(
                m, "iterations_per_cpu_s", "iterations_per_s")
        for m in p["minimax"]:
            rates[f'{report["game"]}/{p["position"]} {m["spec"]}'] = _per_cpu(
                m, "nodes_per_cpu_s", "nodes_per_s")
    return rates


def search_positions(report: dict) -> dict:
    """Each search position's ply and legal move count, which both commits must share."""
    return {f'{report["game"]}/{p["position"]}': [p["ply"], p["legal_moves"]]
            for p in report.get("positions", [])}


def summary(samples: dict[str, dict[str, list[float]]]) -> tuple[dict, list[str]]:
    """New / old per rate (summed over rounds) and each round's ratio; and the rates that
    only one commit reported."""
    ratios, one_sided = {}, []
    for key, v in samples.items():
        if not v["old"] or not v["new"]:
            one_sided.append(key)
            continue
        ratios[key] = {"new_over_old": round(sum(v["new"]) / sum(v["old"]), 3),
                       "rounds": [round(b / a, 3) for a, b in zip(v["old"], v["new"])]}
    return ratios, one_sided


def _jobs(game: str, what: str, seconds: float) -> list:
    jobs = []
    if "playouts" in what:
        jobs.append((["benchmarks.playouts", "--game", game, "--players", PLAYERS.get(game, "2"),
                      "--seconds", str(seconds)], playout_rates))
    if "search" in what:
        jobs.append((["benchmarks.search", "--game", game, "--seconds", str(seconds / 2)], search_rates))
    return jobs


@click.command()
@click.option("--old", "old_ref", required=True, help="the commit to compare against")
@click.option("--new", "new_ref", default="HEAD", show_default=True)
@click.option("--rounds", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--what", default="playouts,search", show_default=True)
@click.option("--games", default=",".join(PLAYERS), show_default=True)
@click.option("--seconds", type=float, default=1.0, show_default=True, help="per benchmark measurement")
@click.option("--harness", "harness_of", type=click.Choice(["new", "own"]), default="new", show_default=True,
              help="whose benchmark scripts measure both commits: the new commit's, or each its own")
def main(old_ref, new_ref, rounds, what, games, seconds, harness_of):
    """Compare two commits' playout and search speed in alternating processes."""
    trees = {"old": checkout(old_ref), "new": checkout(new_ref)}
    # The new commit's scripts live in its own tree, so only the old one needs the harness.
    scripts = {"old": harness(trees["new"]) if harness_of == "new" else None, "new": None}
    samples: dict[str, dict[str, list[float]]] = {}
    positions: dict[str, dict[str, list]] = {}
    for game in games.split(","):
        for args, rates in _jobs(game, what, seconds):
            for r in range(rounds):
                for which in ("old", "new") if r % 2 == 0 else ("new", "old"):
                    report = run(trees[which], args, scripts[which])
                    for key, value in rates(report).items():
                        samples.setdefault(key, {"old": [], "new": []})[which].append(value)
                    for key, shape in search_positions(report).items():
                        positions.setdefault(key, {})[which] = shape
            print(f"{game} {args[0]} done", file=sys.stderr, flush=True)
    ratios, one_sided = summary(samples)
    print(json.dumps({
        "old": git("rev-parse", "--short", old_ref), "new": git("rev-parse", "--short", new_ref),
        "rounds": rounds, "harness": harness_of, "ratios": ratios, "measured_at_one_commit_only": one_sided,
        "positions": {k: {**v, "same": v.get("old") == v.get("new")} for k, v in positions.items()}},
        indent=1))


if __name__ == "__main__":
    main()
