"""The bot protocol's own cost per move: the C random bot in Forum Romanum.

Usage: python -m benchmarks.bot_latency [--games 3] [--players 3] [--seed 1]

Builds examples/bots/random_bot.c with ``cc`` into a temporary directory, seats it in
every seat of ``--games`` whole Forum Romanum games (through ``play_match``, the driver
of :func:`forumlab.play`: each seat a bot process, each handed its seat's view) and prints one JSON object:

- ``overhead_ms``: median, 90th percentile and maximum over every move of the protocol
  overhead, the wall time from writing the move request to reading the answer, minus
  the thinking time the bot reports (the C bot reports none: it is all overhead), and
  the median of each game. The target is a median of at most 1 ms (``meets_target``).
- ``act_ms``: the median of the whole ``act`` call as a driver sees it: the seat's view
  built and encoded, the round trip, the answer parsed and checked.
- ``pipe_round_trip_ms``: the floor under the current load: the median time for a line of
  the same median size to go to ``cat`` and back through the same kind of pipes, read
  the same way (the referee's :class:`~forumlab.bots.connection.BotConnection`), each
  after ``cat`` sat idle as long as a bot sits between its moves (``idle_ms``, the
  median). A process woken after a while waits for the scheduler: on an idle machine some
  microseconds, on a busy one milliseconds, and both figures grow by it alike.
- ``moves``, ``games``, ``players``, ``compiler``; ``load``: the 1-minute load average at
  start and end and the core count, since every figure here is wall time.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 1.0


def build_c_bot(directory: str) -> tuple[str, str]:
    """Compile the C example bot; (path of the program, compiler used)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise SystemExit("error: no C compiler (cc, gcc or clang) on PATH")
    out = os.path.join(directory, "random_bot")
    subprocess.run([compiler, "-O2", "-std=c99", "-o", out, str(ROOT / "examples" / "bots" / "random_bot.c")],
                   check=True)
    return out, compiler


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(games: int, players: int, seed: int) -> dict:
    """Play the games and summarise the per-move figures (module docstring)."""
    from forumlab.api import load_game
    from forumlab.arena.match import play_match
    from forumlab.bots.referee import CommandAgent

    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="forumlab-bot-latency-") as tmp:
        program, compiler = build_c_bot(tmp)
        game = load_game("forum-romanum", players=players)
        overhead, act, sizes, gaps, per_game = [], [], [], [], []
        for g in range(games):
            agents = [CommandAgent(seed=seed + 10 * g + s, command=program, log_dir=tmp)
                      for s in range(players)]
            timed = [_Timed(a, act, gaps) for a in agents]
            play_match(game, timed, seed=seed + g)
            game_overhead = [entry["overhead_ms"] for a in agents for entry in a.move_log]
            per_game.append(round(statistics.median(game_overhead), 4))
            overhead += game_overhead
            sizes += [a.request_bytes for a in agents]
        idle = statistics.median(gaps) / 1000.0
        floor = pipe_round_trip(int(statistics.median(sizes)), min(len(overhead), 300), tmp, idle)
    median = statistics.median(overhead)
    return {
        "benchmark": "bot_latency", "game": "forum-romanum", "players": players, "games": games,
        "moves": len(overhead), "compiler": compiler,
        "overhead_ms": {"median": round(median, 4), "p90": round(_percentile(overhead, 0.9), 4),
                        "max": round(max(overhead), 4), "median_per_game": per_game},
        "act_ms": {"median": round(statistics.median(act), 4)},
        "pipe_round_trip_ms": {"median": round(floor, 4)}, "idle_ms": round(idle * 1000.0, 4),
        "target_median_ms": TARGET_MS, "meets_target": median <= TARGET_MS,
        "load": {"start": load_start, "end": os.getloadavg()[0], "cores": os.cpu_count()},
    }


def pipe_round_trip(size: int, count: int, tmp: str, idle: float) -> float:
    """Median milliseconds for a ``size``-byte line to go through ``cat`` and back, each
    after ``idle`` seconds without one."""
    from forumlab.bots.connection import BotConnection

    conn = BotConnection(["cat"], os.path.join(tmp, "cat.stderr.log"))
    line = b"x" * max(1, size - 1) + b"\n"
    times = []
    try:
        for _ in range(count):
            time.sleep(idle)
            started = time.perf_counter()
            conn.send(line)
            conn.read_line(10.0)
            times.append((time.perf_counter() - started) * 1000.0)
    finally:
        conn.kill()
    return statistics.median(times)


class _Timed:
    """An agent whose every act() is timed into ``times``, and the time since its previous
    one into ``gaps`` (milliseconds); the referee's news (observe_ply, game_over) is passed
    through."""

    def __init__(self, agent, times: list[float], gaps: list[float]):
        self.agent, self.times, self.gaps, self.last = agent, times, gaps, None

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def act(self, state):
        started = time.perf_counter()
        if self.last is not None:
            self.gaps.append((started - self.last) * 1000.0)
        move = self.agent.act(state)
        self.last = time.perf_counter()
        self.times.append((self.last - started) * 1000.0)
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measure(args.games, args.players, args.seed), indent=2))


if __name__ == "__main__":
    main()
