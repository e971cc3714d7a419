"""benchmarks.balance_throughput: the engine loop plays the arena's games, and the
overheads are read from the rounds' CPU and game counts (no speed is asserted)."""
import os

from benchmarks import balance_throughput as bt
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import run_tournament


def test_the_engine_loop_plays_the_games_the_arena_plays(tmp_path):
    study = ("forum-romanum", 3, "greedy")
    engine = bt._engine_round(4, dict(os.environ), study)
    d = TournamentDefinition(game="forum-romanum", config={"players": 3}, agents=(PoolEntry("greedy", "greedy"),),
                             games_per_lineup=4, rotations="balanced", seed=1)
    run_tournament(d, tmp_path / "t.db", workers=0, progress=False)
    with ResultStore.open(tmp_path / "t.db", readonly=True) as store:
        plies = sum(len(o.moves) for o in store.outcomes())
    assert engine["games"] == 4 and engine["plies"] == plies


def test_overheads_come_from_the_rounds_cpu_and_games():
    arena = [{"games": 1000, "cpu": 12.0, "plies": 5}]
    small = [{"games": 20, "cpu": 2.2}]
    engine = [{"games": 1000, "cpu": 8.0, "plies": 5}]
    summary = bt._engine_summary(engine, arena, small)
    assert summary["same_plies_as_the_arena"]
    assert summary["arena_overhead"] == 0.5  # 12 ms a game against 8
    assert summary["arena_overhead_per_game_beyond_start"] == 0.25  # (12 - 2.2) / 980 = 10 ms against 8
