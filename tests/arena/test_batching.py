"""Cheap games in batches: the same games and results as one game per hand-out and commit.

A game depends only on its seed and lineup, never on which games share its batch, its
worker or its commit: compiled random games equal the per-ply runner's, batched runs
equal unbatched ones row for row, a fault in one game of a batch is that game's alone
(the batch goes on), and a kill -9 mid-run resumes to the uninterrupted run's file.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forumlab.agents.base import Agent, Param
from forumlab.arena import runner
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.executors import local_pool
from forumlab.arena.jobs import CHEAP_BATCH, FAULT_EXCEPTION, FAULT_EXIT, RANDOM_BATCH, games_per_batch
from forumlab.arena.schedule import plan
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import resume_tournament, run_tournament

ROOT = Path(__file__).resolve().parents[2]
# Everything a game's result is: what must not depend on batching.
RESULT_FIELDS = ("seed", "labels", "specs", "agent_seeds", "moves", "scores", "ranks", "plies",
                 "termination", "faults", "moves_made")


class FaultOnSeed(Agent):
    """A random mover with a small declared budget (so its games are batched) that
    raises, or ends its process, in the game whose seed is ``target``."""

    name = "fault_on_seed"
    params = {"iterations": Param(1, "declared budget (unused)", low=1, high=1000),
              "target": Param(0, "seed of the game to fault in"),
              "how": Param("raise", "raise or exit")}

    def choose(self, state):
        if state.seed == self.options["target"]:
            if self.options["how"] == "exit":
                os._exit(3)
            raise RuntimeError("planned fault")
        moves = state.legal_moves()
        return int(moves[self.random.randrange(len(moves))])


def self_play(spec: str = "random", games: int = 40, seed: int = 3, **kw) -> TournamentDefinition:
    return TournamentDefinition(game="forum-romanum", config={"players": 3, **kw.pop("config", {})},
                                agents=(PoolEntry(spec, spec),), games_per_lineup=games,
                                rotations="balanced", seed=seed, **kw)


def rows(db) -> dict[str, tuple]:
    with ResultStore.open(db, readonly=True) as store:
        return {o.key: tuple(getattr(o, f) for f in RESULT_FIELDS) for o in store.outcomes()}


# ---------------------------------------------------------------- sizes


def test_batch_sizes_follow_the_agents_declared_cost():
    job = plan(self_play())[0]
    assert games_per_batch(job) == RANDOM_BATCH

    def size(*specs):
        return games_per_batch(job.__class__(**{**job.__dict__, "specs": specs}))

    assert size("random", "greedy", "random") == CHEAP_BATCH
    assert size("random", "mcts(iterations=100)", "paranoid(nodes=50)") == CHEAP_BATCH
    assert size("random", "mcts", "random") == 1  # 1,000 iterations by default
    assert size("random", "mcts(iterations=100, time=1.0)", "random") == 1
    assert size("random", "tests.fault_agents:RaisingAgent", "random") == 1
    assert size("random", "random(seed=4)", "random") == RANDOM_BATCH
    continued = job.__class__(**{**job.__dict__, "resume_moves": ("a1",)})
    assert games_per_batch(continued) == 1


# ---------------------------------------------------------------- same games


@pytest.mark.parametrize("agent", ["random", "greedy", "greedy(seed=8)"])
@pytest.mark.parametrize("game,players", [("forum-romanum", 3), ("forum-romanum", 2), ("forma", 2),
                                          ("foundations-of-rome", 3), ("forum-trajanum", 2)])
def test_compiled_games_are_the_per_ply_runners_games(monkeypatch, game, players, agent):
    d = TournamentDefinition(game=game, config={"players": players}, agents=(PoolEntry(agent, agent),),
                             games_per_lineup=2, rotations="balanced", seed=11)
    jobs = plan(d)
    assert runner._compiled_seats(jobs[0])[0] == agent.split("(")[0]
    fast = [runner.run_job(job) for job in jobs]
    monkeypatch.setattr(runner, "COMPILED_GAMES", False)
    slow = [runner.run_job(job) for job in jobs]
    for a, b in zip(fast, slow):
        assert [getattr(a, f) for f in RESULT_FIELDS] == [getattr(b, f) for f in RESULT_FIELDS]
    # The compiled games share their measured time among the seats by moves.
    # (the shape of the timing fields, not their values: no speed is asserted)
    assert all(len(o.move_seconds) == players and not o.move_cpu_seconds for o in fast)


def test_only_one_plain_cheap_agent_in_every_seat_is_played_compiled():
    job = plan(self_play())[0]

    def compiled(*specs, **fields):
        return runner._compiled_seats(job.__class__(**{**job.__dict__, "specs": specs, **fields}))

    assert compiled("random", "random(seed=4)", "random") == ("random", [*job.agent_seeds[:1], 4,
                                                                         *job.agent_seeds[2:]])
    assert compiled("greedy", "greedy", "greedy")[0] == "greedy"
    # Mixed seats stay on the per-ply loop: it times each seat's moves apart.
    assert compiled("random", "greedy", "greedy") is None
    # Weights of its own: not the kernel's default heuristic.
    assert compiled("greedy", "greedy(archetype=builder)", "greedy") is None
    assert compiled("greedy", "greedy", "mcts(iterations=10)") is None
    assert compiled("greedy", "greedy", "greedy", move_time=1.0) is None
    assert compiled("greedy", "greedy", "greedy", resume_moves=("a1",)) is None


def test_batched_run_records_the_rows_of_an_unbatched_run_and_of_the_per_ply_runner(
        tmp_path, monkeypatch):
    d = self_play(games=60)
    run_tournament(d, tmp_path / "batched.db", workers=2, progress=False)
    with monkeypatch.context() as m:
        m.setattr(local_pool._RunState, "next_batch", lambda state: [state.pending.popleft()])
        run_tournament(d, tmp_path / "unbatched.db", workers=2, progress=False)
    with monkeypatch.context() as m:
        m.setattr(runner, "COMPILED_GAMES", False)
        run_tournament(d, tmp_path / "inline.db", workers=0, progress=False)
    batched = rows(tmp_path / "batched.db")
    assert len(batched) == 60
    assert batched == rows(tmp_path / "unbatched.db") == rows(tmp_path / "inline.db")


def test_mixed_cheap_lineups_do_not_depend_on_batch_boundaries(tmp_path, monkeypatch):
    # Greedy and random seats: agents are made afresh for every game, so a game's moves
    # cannot depend on the games its worker played before it.
    d = TournamentDefinition(game="forum-romanum", config={"players": 3, "max_rounds": 12},
                             agents=(PoolEntry("random", "random"), PoolEntry("greedy", "greedy")),
                             games_per_lineup=6, rotations="balanced", seed=5)
    with monkeypatch.context() as m:
        m.setattr(local_pool._RunState, "next_batch", lambda state: [state.pending.popleft()])
        run_tournament(d, tmp_path / "one.db", workers=2, progress=False)
    run_tournament(d, tmp_path / "batched.db", workers=1, progress=False)
    assert rows(tmp_path / "one.db") == rows(tmp_path / "batched.db")


# ---------------------------------------------------------------- faults


@pytest.mark.parametrize("how,kind", [("raise", FAULT_EXCEPTION), ("exit", FAULT_EXIT)])
def test_a_fault_in_the_third_game_of_a_batch_is_that_games_and_the_batch_goes_on(
        tmp_path, monkeypatch, how, kind):
    base = self_play(games=40, config={"max_rounds": 10})
    target = plan(base)[2].seed
    spec = f"tests.arena.test_batching:FaultOnSeed(iterations=1, target={target}, how={how})"
    d = self_play(spec, games=40, config={"max_rounds": 10})
    handed = []
    original = local_pool._RunState.next_batch

    def spy(state):
        batch = original(state)
        handed.append([job.key for job in batch])
        return batch

    monkeypatch.setattr(local_pool._RunState, "next_batch", spy)
    run_tournament(d, tmp_path / "t.db", workers=1, progress=False)
    assert len(handed[0]) == 10  # a quarter of the 40 games for the one worker
    with ResultStore.open(tmp_path / "t.db", readonly=True) as store:
        outcomes = {o.key: o for o in store.outcomes()}
    assert len(outcomes) == 40
    faulted = {key for key, o in outcomes.items() if o.faults}
    assert faulted == {handed[0][2]}
    # Every seat holds the agent, so each faults on its first move, and the game is
    # played to its end by the fallback.
    faults = outcomes[handed[0][2]].faults
    assert [(f.seat, f.ply, f.kind) for f in faults] == [(0, 1, kind), (1, 2, kind), (2, 3, kind)]
    # The games after it in its batch were played too, and equal their unbatched selves.
    clean = self_play(games=40, config={"max_rounds": 10})
    by_key = {job.key: job for job in plan(d)}
    for key in handed[0][3:]:
        assert outcomes[key].moves == runner.run_job(by_key[key]).moves
    assert plan(clean)[2].key == handed[0][2]


def test_an_inline_run_commits_cheap_games_together_and_the_last_ones_too(tmp_path, monkeypatch):
    batches = []
    original = ResultStore.record_many

    def spy(store, outcomes):
        batches.append(len(outcomes))
        original(store, outcomes)

    monkeypatch.setattr(ResultStore, "record_many", spy)
    monkeypatch.setattr("forumlab.arena.executors.inline.HOLD_SECONDS", 60.0)
    run_tournament(self_play(games=25), tmp_path / "t.db", workers=0, progress=False)
    assert batches == [25]


# ---------------------------------------------------------------- kill -9


@pytest.mark.slow
def test_kill_9_mid_run_loses_only_games_in_flight_and_resume_is_exact(tmp_path):
    d = self_play(games=20_000, seed=9)
    killed = tmp_path / "killed.db"
    script = tmp_path / "run.py"
    script.write_text(
        "import sys, json\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from forumlab.arena.definition import TournamentDefinition\n"
        "from forumlab.arena.tournament import run_tournament\n"
        "if __name__ == '__main__':  # worker processes import this script\n"
        f"    d = TournamentDefinition.from_json(json.loads({json.dumps(json.dumps(d.to_json()))}))\n"
        f"    run_tournament(d, {str(killed)!r}, workers=2, scheduler=None, progress=False)\n")
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT)
    deadline = time.time() + 300
    stored = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
        try:
            with ResultStore.open(killed, readonly=True) as store:
                stored = len(store)
        except Exception:
            continue
        if stored >= 500:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with ResultStore.open(killed, readonly=True) as store:
        done = len(store)
    assert 0 < done < 20_000, "the kill must land mid-run"
    assert resume_tournament(killed, workers=2, progress=False) == 20_000 - done
    full = tmp_path / "full.db"
    run_tournament(d, full, workers=2, progress=False)
    assert rows(killed) == rows(full)


def _code_only_games() -> list[str]:
    from forumlab.core.registry import game_names, get_game_class
    return [n for n in game_names() if not get_game_class(n).format_move_reads_position]


def _code_only_configurations() -> list[tuple[str, int]]:
    from forumlab.core.registry import get_game_class
    return [(n, p) for n in _code_only_games()
            for p in range(get_game_class(n).min_players, get_game_class(n).max_players + 1)]


@pytest.mark.parametrize("game,players", _code_only_configurations())
def test_a_game_that_declares_code_only_notation_writes_each_code_one_way(game, players):
    # Compiled games format each distinct move code once per configuration (game classes
    # declaring format_move_reads_position = False): check the claim over random positions.
    import numpy as np

    from forumlab.api import load_game

    g = load_game(game, players=players)
    rng = np.random.default_rng(5)
    seen: dict[int, str] = {}
    for seed in range(3):
        state = g.new_state(seed)
        for _ in range(60):
            if state.is_terminal:
                break
            moves = state.legal_moves()
            for code in moves[:: max(1, len(moves) // 40)].tolist():
                text = g.format_move(state.array, code)
                assert seen.setdefault(code, text) == text, (code, text, seen[code])
            state.play(int(moves[rng.integers(len(moves))]))
    assert seen
