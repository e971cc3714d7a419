"""MCTS iterations per CPU second across the search's history: one fixed search at each of
a handful of commits, in interleaved processes.

Usage:
    python -m benchmarks.mcts_bisect [--commits REF,REF,...] [--rounds 5] [--searches 3]
                                     [--iterations 50000]

The search: the 3-player Forum Romanum opening (seed 0), ``rollout=none`` and every
other setting spelled out (:data:`SPEC`), so each commit builds the same tree: the
tuned values of today's 3-player defaults that change the tree (``reward=rank``,
``hrelative``) are set back to what the first version of the search did. Each commit's
tree is written with ``git archive`` (``benchmarks.side_by_side.checkout``) and run
there with its own numba cache. A process searches once untimed (compilation or cache
load), then ``--searches`` times with the same seed; the clock is the thread's CPU time
around ``agent.act``. Each round runs every commit once, in the listed order, then in
reverse the next round, so a change in the machine's load hits all alike.

Prints one JSON object: per commit, the median [min, max] over rounds of the per-process
median iterations per CPU second, the ratio to the first commit, and the node count and
chosen move of its searches (equal across commits when the tree is the same).
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

import click

from .side_by_side import checkout, git

# The first version with rollout=none, the tagged dispatch, the cold-compile cuts, the
# depth limit and relative leaves, the Settings record, the kernel of phases, the
# inlined phases, the weighted heuristic; HEAD.
COMMITS = "7cda76a,9b7acf5,8f90eb8,373c390,033dd96,cdf1010,9ddb0fb,4f68953,19b32ad,HEAD"
SPEC = ("iterations={n}, rollout=none, c=0.05, hscale=2.0, order_depth=3, imm=0.5, reward=win, "
        "cutoff=0, history=0.0")
# Options added after the first version whose tuned 3-player value differs from what
# that version did: spelled out only where the commit's agent declares them.
LATER = {"hrelative": "false", "threads": "1"}

CHILD = r"""
import json, statistics, sys, time
from forumlab.agents.registry import create_agent
from forumlab.agents.mcts import MCTSAgent
from forumlab.core.registry import create_game
spec, n, searches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
extra = json.loads(sys.argv[4])
spec += "".join(f", {k}={v}" for k, v in extra.items() if k in MCTSAgent.params)
state = create_game("forum-romanum", players=3).new_state(0)
create_agent("mcts(" + spec.format(n=2000) + ")", seed=0).act(state)
rates, nodes, moves = [], set(), set()
for _ in range(searches):
    agent = create_agent("mcts(" + spec.format(n=n) + ")", seed=0)
    c0 = time.thread_time()
    move = agent.act(state)
    cpu = time.thread_time() - c0
    rates.append(agent.last_search["iterations"] / cpu)
    nodes.add(agent.last_search["nodes"])
    moves.add(int(move))
print(json.dumps({"rate": statistics.median(rates), "nodes": sorted(nodes), "moves": sorted(moves),
                  "spec": "mcts(" + spec.format(n=n) + ")"}))
"""


def measure(ref: str, iterations: int, searches: int) -> dict:
    """One process's median iterations per CPU second at commit ``ref``."""
    tree = checkout(ref)
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": f"{tree}-numba"}
    args = [SPEC, str(iterations), str(searches), json.dumps(LATER)]
    done = subprocess.run([sys.executable, "-c", CHILD, *args], cwd=tree, env=env, capture_output=True,
                          text=True)
    if done.returncode:
        raise click.ClickException(f"search failed at {ref}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


@click.command()
@click.option("--commits", default=COMMITS, show_default=True, help="comma-separated refs, oldest first")
@click.option("--rounds", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--searches", type=click.IntRange(min=1), default=3, show_default=True,
              help="timed per process")
@click.option("--iterations", type=click.IntRange(min=100), default=50_000, show_default=True)
def main(commits, rounds, searches, iterations):
    """Iterations per CPU second of one fixed MCTS search at several commits."""
    refs = commits.split(",")
    runs: dict[str, list[dict]] = {ref: [] for ref in refs}
    for r in range(rounds):
        for ref in refs if r % 2 == 0 else refs[::-1]:
            runs[ref].append(measure(ref, iterations, searches))
            click.echo(f"round {r + 1} {ref}: {runs[ref][-1]['rate']:.0f} it/CPU-s", err=True)
    first = statistics.median(x["rate"] for x in runs[refs[0]])
    report = []
    for ref in refs:
        rates = [x["rate"] for x in runs[ref]]
        med = statistics.median(rates)
        report.append({
            "commit": git("rev-parse", "--short", ref), "ref": ref,
            "iterations_per_cpu_s": round(med), "min": round(min(rates)), "max": round(max(rates)),
            "vs_first": round(med / first, 3),
            "nodes": sorted({n for x in runs[ref] for n in x["nodes"]}),
            "moves": sorted({m for x in runs[ref] for m in x["moves"]}),
            "spec": runs[ref][0]["spec"]})
    print(json.dumps({"benchmark": "mcts_bisect", "rounds": rounds, "searches": searches,
                      "commits": report}, indent=1))


if __name__ == "__main__":
    main()
