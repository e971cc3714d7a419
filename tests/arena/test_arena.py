"""Arena: schedules, tournaments end to end, resume after SIGKILL, faults, CLI errors."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition, load_toml, planned_games
from forumlab.arena.jobs import (
    END_CAP,
    END_RULES,
    FAULT_CRASH,
    FAULT_EXCEPTION,
    FAULT_EXIT,
    FAULT_HANG,
    FAULT_ILLEGAL,
    FAULT_INIT,
    FAULT_KILL,
    FAULT_TIMEOUT,
)
from forumlab.arena.ratings import rate, rated_games
from forumlab.arena.runner import run_job
from forumlab.arena.schedule import lineups, plan, seat_orders
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import resume_tournament, run_tournament
from forumlab.cli import main
from forumlab.core.errors import ConfigError, ForumlabError
from forumlab.core.ranks import fault_ranks
from forumlab.core.registry import create_game

ROOT = Path(__file__).resolve().parents[2]


def quick(agents, **kw):
    """A small, fast Forum Romanum tournament definition."""
    kw.setdefault("config", {"players": 3, "max_rounds": 8})
    kw.setdefault("games_per_lineup", 2)
    return TournamentDefinition(agents=tuple(PoolEntry(*a) if isinstance(a, tuple) else PoolEntry(a, a)
                                             for a in agents), **kw)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_line_error(result):
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    message = result.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    assert "Traceback" not in result.output
    return message


# ---------------------------------------------------------------- schedule
def test_round_robin_lineups_and_rotations():
    d = quick(["a:random".split(":")[1], "greedy", ("r2", "random"), ("g2", "greedy")])
    assert len(lineups(d)) == 4  # C(4, 3)
    jobs = plan(d)
    assert len(jobs) == 4 * 2 * 6  # balanced seating: all 6 orders at 3 players
    # A rotation group shares its seed; every agent sits in every seat twice per group.
    groups = {}
    for job in jobs:
        groups.setdefault(job.group, []).append(job)
    for members in groups.values():
        assert len({j.seed for j in members}) == 1
        for seat in range(3):
            assert sorted(j.labels[seat] for j in members) == sorted(members[0].labels * 2)
    assert len({j.key for j in jobs}) == len(jobs)


def test_fewer_agents_than_seats_fill_several_seats():
    d = quick(["random", "greedy"])
    assert sorted(tuple(a.label for a in lu) for lu in lineups(d)) == [
        ("random", "greedy", "greedy"), ("random", "random", "greedy")]


def test_gauntlet_and_all_permutations():
    d = quick(["greedy", "random", ("r2", "random"), ("r3", "random")], format="gauntlet",
              candidate="greedy", rotations="all", games_per_lineup=1)
    assert all(lu[0].label == "greedy" for lu in lineups(d))
    assert len(lineups(d)) == 3
    assert len(seat_orders(lineups(d)[0], "all")) == 6
    assert len(plan(d)) == 3 * 6


def test_plan_is_stable():
    pool = ["random", "greedy", "mcts(iterations=5)"]
    assert plan(quick(pool)) == plan(quick(list(pool)))


def test_definition_validation_errors():
    with pytest.raises(ForumlabError, match="unknown game"):
        quick(["random"], game="chess")
    with pytest.raises(Exception, match="unknown agent"):
        quick(["alphazero"])
    with pytest.raises(ConfigError, match="used twice"):
        quick([("x", "random"), ("x", "greedy")])
    with pytest.raises(ConfigError, match="candidate"):
        quick(["random", "greedy"], format="gauntlet", candidate="nobody")


def test_toml_definition(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('game = "forum-romanum"\ngames_per_lineup = 3\nseed = 9\n[config]\nplayers = 4\n'
                    '[[agents]]\nspec = "random"\n[[agents]]\nspec = "greedy"\nlabel = "g"\n')
    d = load_toml(path)
    assert d.config == {"players": 4} and d.seed == 9 and [a.label for a in d.agents] == ["random", "g"]
    (tmp_path / "bad.toml").write_text("game = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_toml(tmp_path / "bad.toml")


# ---------------------------------------------------------------- runner and faults
def test_fault_ranks_put_faulty_seats_last():
    assert fault_ranks([10, 30, 20], {1}) == [2, 3, 1]
    assert fault_ranks([10, 30, 20, 5], {1, 3}) == [2, 3, 1, 4]


@pytest.mark.parametrize("spec,kind", [
    ("tests.fault_agents:RaisingAgent", FAULT_EXCEPTION),
    ("tests.fault_agents:IllegalAgent", FAULT_ILLEGAL),
])
def test_runner_records_faults_and_the_seat_plays_random(spec, kind):
    job = plan(quick([("bad", spec), "greedy", "random"], games_per_lineup=1))[0]
    outcome = run_job(job)
    seat = job.labels.index("bad")
    assert [f.kind for f in outcome.faults] == [kind]
    assert outcome.faults[0].seat == seat
    assert "\n" not in outcome.faults[0].message
    assert outcome.ranks[seat] == 3  # ranked last whatever its score
    assert outcome.plies == 8 * 3  # the game went on to the cap


@pytest.mark.parametrize("spec,kind", [
    ("tests.fault_agents:SysExitAgent", FAULT_EXIT),
    ("tests.fault_agents:InterruptingAgent", FAULT_EXIT),
    ("tests.fault_agents:BaseExceptionAgent", FAULT_EXCEPTION),
])
def test_runner_catches_base_exceptions_from_agents_as_faults(spec, kind):
    job = plan(quick([("bad", spec), "greedy", "random"], games_per_lineup=1))[0]
    outcome = run_job(job)
    seat = job.labels.index("bad")
    assert [(f.seat, f.ply, f.kind) for f in outcome.faults] == [(seat, 3 * 2 + seat + 1, kind)]
    assert outcome.ranks[seat] == 3 and outcome.plies == 8 * 3


def test_runner_records_a_raising_constructor_as_an_init_fault():
    d = quick([("flaky", "tests.fault_agents:FlakyInitAgent(every=1)"), "greedy", "random"],
              games_per_lineup=1)
    job = plan(d)[0]
    outcome = run_job(job)
    seat = job.labels.index("flaky")
    (fault,) = outcome.faults
    assert (fault.seat, fault.ply, fault.kind) == (seat, 0, FAULT_INIT)
    assert "cannot start with seed" in fault.message
    assert outcome.moves_made[seat] == 0 and outcome.ranks[seat] == 3


def test_a_real_ctrl_c_in_the_tournament_process_is_not_taken_for_an_agent_fault():
    # workers=0 plays in this process, where SIGINT means "stop the tournament".
    job = plan(quick([("bad", "tests.fault_agents:CtrlCAgent"), "greedy", "random"],
                     games_per_lineup=1))[0]
    with pytest.raises(KeyboardInterrupt):
        run_job(job)


def test_a_continued_game_replays_the_moves_and_keeps_the_faults_and_tallies():
    from forumlab.arena.executors import Snapshot, continuation

    job = plan(quick([("raises", "tests.fault_agents:RaisingAgent"), "greedy", "random"],
                     games_per_lineup=1))[0]
    whole = run_job(job)
    # As if the worker had died on ply 11 with what it reported before that move
    # (the raising agent's fault came at ply 7).
    cut = 10
    state = create_game(job.game, job.config).new_state(job.seed)
    for move in whole.moves[:cut]:
        state.play(move)
    seat = state.current_player
    before = [f for f in whole.faults if f.ply <= cut]
    assert before and seat not in {f.seat for f in before}
    last = Snapshot(seat=seat, ply=cut + 1, moves=whole.moves[:cut], faults=before,
                    seconds=[0.5, 0.25, 0.125], counts=[3, 3, 3])
    follow = continuation(job, last, FAULT_CRASH, "worker process died")
    outcome = run_job(follow)
    assert outcome.moves[:cut] == whole.moves[:cut] and len(outcome.moves) == outcome.plies
    assert [(f.seat, f.ply, f.kind) for f in outcome.faults] == \
        [(f.seat, f.ply, f.kind) for f in before] + [(seat, cut + 1, FAULT_CRASH)]
    # The record is a game: replaying its moves gives its scores.
    state = create_game(job.game, job.config).new_state(job.seed)
    for move in outcome.moves:
        state.play(move)
    assert state.is_terminal and outcome.scores == state.scores()
    faulty = {f.seat for f in outcome.faults}
    assert outcome.ranks == fault_ranks(outcome.scores, faulty)
    # Tallies go on from the reported ones; the crashed seat is not asked again.
    assert outcome.moves_made[seat] == 3
    assert all(outcome.move_seconds[s] >= t for s, t in enumerate(last.seconds))


def test_runner_interrupts_a_sleeping_agent_at_the_hard_limit():
    # The limit is real time (SIGALRM), so it is far above what a greedy or random move
    # takes even when it loads its kernels on a busy machine (0.05 s when quiet).
    job = plan(quick([("sleepy", "tests.fault_agents:SleepyAgent"), "greedy", "random"],
                     games_per_lineup=1, hard_limit=3.0))[0]
    t0 = time.perf_counter()
    outcome = run_job(job)
    assert time.perf_counter() - t0 < 25  # the agent would sleep 30 s
    assert [f.kind for f in outcome.faults] == [FAULT_HANG]


class _StandInClock:
    """The runner's ``time`` module with a wall clock that moves only when an agent
    sleeps: the fast seats' real time (a busy machine can stall any process for a
    second) never counts, so which seat is flagged depends on the agents alone."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds

    def __getattr__(self, name):
        return getattr(time, name)


def test_runner_flags_exactly_the_moves_over_the_time_limit(monkeypatch):
    # A limit of 1.5 * 0.5 + 0.25 = 1 s: the slow agent takes 1.2 s on the runner's
    # clock, the other seats no time at all.
    import tests.fault_agents
    from forumlab.arena import runner

    clock = _StandInClock()
    monkeypatch.setattr(runner, "time", clock)
    monkeypatch.setattr(tests.fault_agents, "time", clock)
    job = plan(quick([("slow", "tests.fault_agents:SlowAgent(seconds=1.2)"), "greedy", "random"],
                     games_per_lineup=1, move_time=0.5, config={"players": 3, "max_rounds": 2}))[0]
    outcome = run_job(job)
    assert [f.kind for f in outcome.faults] == [FAULT_TIMEOUT]
    fault = outcome.faults[0]
    assert "SlowAgent" in job.specs[fault.seat]
    assert "took 1.200 s, limit 0.5 s" in fault.message
    # Under the limit is not flagged: 0.9 s is inside the 1 s.
    clock.now = 0.0
    job = plan(quick([("slow", "tests.fault_agents:SlowAgent(seconds=0.9)"), "greedy", "random"],
                     games_per_lineup=1, move_time=0.5, config={"players": 3, "max_rounds": 2}))[0]
    assert list(run_job(job).faults) == []


def test_a_first_move_that_loads_kernels_is_not_charged_to_the_agent(monkeypatch):
    # A worker's first greedy move loads greedy's kernels from numba's cache, which a
    # busy machine can stretch past the move time; here that load takes 5 s on the
    # runner's clock. The runner loads the kernels before the first timed move.
    from forumlab.agents.greedy import GreedyAgent
    from forumlab.arena import runner, warmup

    clock = _StandInClock()
    monkeypatch.setattr(runner, "time", clock)
    monkeypatch.setattr(warmup, "_LOADED", set())
    original, calls = GreedyAgent.act, []

    def act(self, state):
        if not calls:
            clock.sleep(5.0)  # the process's first greedy move: the kernels load
        calls.append(self)
        return original(self, state)

    monkeypatch.setattr(GreedyAgent, "act", act)
    d = quick(["greedy", "random", ("first", "tests.plugin_agent:FirstMoveAgent")],
              games_per_lineup=1, move_time=0.5, config={"players": 3, "max_rounds": 2})
    first, second = plan(d)[:2]
    outcome = run_job(first)
    # On the stand-in clock no seated move took any time: the 5 s load was not charged.
    assert list(outcome.faults) == [] and max(outcome.move_max_seconds) == 0.0
    seated = calls[1:]
    assert calls[0] not in seated  # the load was a throwaway agent's move
    # Built-in agents are loaded once per process; a third-party agent is never asked.
    assert {spec for _, _, spec in warmup._LOADED} == {"greedy", "random"}
    calls.clear()
    run_job(second)
    assert len(set(map(id, calls))) == 1  # only the seated greedy moved
    # Without a move time nothing is loaded ahead.
    monkeypatch.setattr(warmup, "_LOADED", set())
    run_job(plan(quick(["greedy", "random", ("first", "tests.plugin_agent:FirstMoveAgent")],
                       games_per_lineup=1, config={"players": 3, "max_rounds": 2}))[0])
    assert warmup._LOADED == set()


def test_loading_ahead_never_starts_a_bot_program(tmp_path, monkeypatch):
    # A cmd bot is outside code: loading ahead must not start it (nor any third-party agent).
    from forumlab.arena import warmup

    monkeypatch.setattr(warmup, "_LOADED", set())
    started = tmp_path / "started"
    bot = f"cmd(command='touch {started}', log_dir='{tmp_path}')"
    warmup.load_here(create_game("forum-romanum", {"players": 3}), {"players": 3},
                     [bot, "tests.plugin_agent:FirstMoveAgent", "random"])
    assert not started.exists() and {spec for _, _, spec in warmup._LOADED} == {"random"}


def test_runner_flags_a_move_over_the_time_limit_on_the_real_clock():
    # The slow agent really sleeps 2.5 s against a 1 s limit. Only what load cannot
    # change is checked: it is flagged, and every flagged move did take too long.
    d = quick([("slow", "tests.fault_agents:SlowAgent(seconds=2.5)"), "greedy", "random"],
              games_per_lineup=1, move_time=0.5, config={"players": 3, "max_rounds": 2})
    job = plan(d)[0]
    outcome = run_job(job)
    slow = next(seat for seat, spec in enumerate(job.specs) if "SlowAgent" in spec)
    assert (slow, FAULT_TIMEOUT) in [(f.seat, f.kind) for f in outcome.faults]
    assert all(f.kind == FAULT_TIMEOUT and float(f.message.split()[1]) > 1.0 for f in outcome.faults)


def test_tournament_with_every_fault_finishes_and_records_them(tmp_path):
    d = quick([("raises", "tests.fault_agents:RaisingAgent"), ("illegal", "tests.fault_agents:IllegalAgent"),
               ("sleepy", "tests.fault_agents:SleepyAgent"), "random"],
              games_per_lineup=1, hard_limit=1.0)
    db = tmp_path / "faults.db"
    run_tournament(d, db, workers=2, scheduler=None, progress=False)
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    assert len(outcomes) == len(plan(d))
    kinds = {(f.kind, o.labels[f.seat]) for o in outcomes for f in o.faults}
    assert (FAULT_EXCEPTION, "raises") in kinds
    assert (FAULT_ILLEGAL, "illegal") in kinds
    assert (FAULT_HANG, "sleepy") in kinds
    r = rate(rated_games(outcomes))
    assert r.ranking()[0] == "random"  # the only agent without faults


# Agents that end or wedge their worker process, or fail to start, with the fault kind
# each must be recorded with. Every game with a misbehaving act() has the fault;
# the constructors fail for some agent seeds only.
SURVIVED_FAULTS = [
    ("tests.fault_agents:ExitingAgent", FAULT_EXIT, True),
    ("tests.fault_agents:SegfaultAgent", FAULT_CRASH, True),
    ("tests.fault_agents:SysExitAgent", FAULT_EXIT, True),
    ("tests.fault_agents:InterruptingAgent", FAULT_EXIT, True),
    ("tests.fault_agents:AlarmBlockingAgent", FAULT_KILL, True),
    ("tests.fault_agents:FlakyInitAgent", FAULT_INIT, False),
    ("tests.fault_agents:ExitingInitAgent", FAULT_EXIT, False),
]


@pytest.mark.parametrize("spec,kind,every_game", SURVIVED_FAULTS,
                         ids=[s.split(":")[1] for s, _, _ in SURVIVED_FAULTS])
def test_tournament_survives_an_agent_that_kills_or_wedges_its_worker(tmp_path, spec, kind, every_game):
    # Margins for a busy machine: greedy and random answer in well under 0.1 s, but a
    # worker's first move also loads the numba cache, which took over 2 s of wall time
    # with a dozen processes on our 2 cores (honest seats were cut off as hangs); the
    # 4 s hard limit only matters to the agent that switches SIGALRM off (killed after
    # 4 + 1.5 s without progress).
    d = quick(["random", "greedy", ("bad", spec)], games_per_lineup=2, hard_limit=4.0, seed=7)
    db = tmp_path / "t.db"
    run_tournament(d, db, workers=2, progress=False, executor_options={"grace": 1.5})
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    assert sorted(o.key for o in outcomes) == sorted(j.key for j in plan(d))  # all recorded
    game = create_game(d.game, d.config)
    faulted = 0
    for o in outcomes:
        bad = o.labels.index("bad")
        assert all(f.seat == bad and f.kind == kind for f in o.faults), o.faults
        faulted += bool(o.faults)
        assert not every_game or len(o.faults) == 1
        # A whole game: its moves replay to its scores, the faulty seat ranks last
        # and the other seats keep their order.
        assert o.termination in (END_RULES, END_CAP)
        state = game.new_state(o.seed)
        for move in o.moves:
            state.play(move)
        assert state.is_terminal and o.scores == state.scores()
        assert o.ranks == fault_ranks(o.scores, {f.seat for f in o.faults})
    assert faulted >= 1
    r = rate(rated_games(outcomes))
    assert r.ranking() == ["greedy", "random", "bad"], r.fit.elo
    assert resume_tournament(db, workers=2, progress=False) == 0  # nothing left to do


# ---------------------------------------------------------------- end to end, resume
def _ratings(db):
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    r = rate(rated_games(outcomes), anchor="random")
    return sorted(o.key for o in outcomes), {a: round(v, 6) for a, v in r.fit.elo.items()}, \
        {o.key: (o.moves, o.ranks) for o in outcomes}


@pytest.mark.slow
def test_resume_after_sigkill_matches_an_uninterrupted_run(tmp_path):
    # Deterministic budgets only (the two runs must agree), and enough work that the
    # kill lands mid-run: 48 games of up to 40 rounds with an MCTS seat in most.
    d = quick(["random", "greedy", "mcts(iterations=200, rollout=random, cutoff=10)", ("r2", "random")],
              games_per_lineup=2, config={"players": 3, "max_rounds": 40})
    total = len(plan(d))
    full_db = tmp_path / "full.db"
    run_tournament(d, full_db, workers=2, scheduler=None, progress=False)

    killed_db = tmp_path / "killed.db"
    script = tmp_path / "run.py"
    script.write_text(
        "import sys, json\n"
        "from forumlab.arena.definition import TournamentDefinition\n"
        "from forumlab.arena.tournament import run_tournament\n"
        "if __name__ == '__main__':  # worker processes import this script\n"
        f"    d = TournamentDefinition.from_json(json.loads({json.dumps(json.dumps(d.to_json()))}))\n"
        f"    run_tournament(d, {str(killed_db)!r}, workers=2, scheduler=None, progress=False)\n")
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT)
    deadline = time.time() + 120
    while time.time() < deadline:
        time.sleep(0.05)
        if killed_db.exists():
            try:
                with ResultStore.open(killed_db, readonly=True) as store:
                    if len(store) >= 2:
                        break
            except Exception:
                pass
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with ResultStore.open(killed_db, readonly=True) as store:
        done = len(store)
    assert 0 < done < total
    result = run("tournament", "resume", killed_db, "--workers", "2", "-q")
    assert result.exit_code == 0, result.output
    assert _ratings(killed_db) == _ratings(full_db)


def test_cli_run_ratings_export_and_rerun(tmp_path):
    db = tmp_path / "t.db"
    args = ["tournament", "run", "-a", "random", "-a", "g=greedy", "-a", "mcts(iterations=10)",
            "-o", "max_rounds=5", "--games", "1", "--db", db, "-q", "--workers", "1"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "Elo" in result.stdout and "g " in result.stdout
    # Running the same definition again resumes: nothing new is played.
    assert run(*args).exit_code == 0
    with ResultStore.open(db, readonly=True) as store:
        assert len(store) == 6  # one rotation group: the 6 seat orders of 3 agents
    js = json.loads(run("ratings", db, "--json").stdout)
    assert set(js) >= {"tournament"}
    csv_text = run("ratings", db, "--csv").stdout
    assert csv_text.splitlines()[0].startswith("agent,elo")
    lines = run("export", db, "--format", "jsonl").stdout.strip().splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["moves"]
    rows = run("export", db, "--format", "csv").stdout.strip().splitlines()
    assert len(rows) == 1 + 6 * 3


def test_cli_bad_input_is_one_line_and_leaves_results_alone(tmp_path):
    db = tmp_path / "t.db"
    ok = run("tournament", "run", "-a", "random", "-o", "max_rounds=3", "--games", "1", "--db", db,
             "-q", "--workers", "1")
    assert ok.exit_code == 0, ok.output
    before = db.read_bytes()
    # Another tournament's results file.
    msg = assert_one_line_error(run("tournament", "run", "-a", "greedy", "-o", "max_rounds=3", "--games", "1",
                                    "--db", db, "-q", "--workers", "1"))
    assert "not this one" in msg
    assert_one_line_error(run("tournament", "run", "-a", "alphazero", "--db", tmp_path / "x.db"))
    assert_one_line_error(run("tournament", "run", "-a", "mcts(iterations=-1)", "--db", tmp_path / "x.db"))
    assert_one_line_error(run("tournament", "run", "--players", "9", "--db", tmp_path / "x.db"))
    assert_one_line_error(run("tournament", "run", "--workers", "0", "--db", tmp_path / "x.db"))
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(os.urandom(3000))
    assert_one_line_error(run("ratings", garbage))
    assert_one_line_error(run("tournament", "resume", garbage))
    assert_one_line_error(run("export", tmp_path / "missing.db", "--format", "csv"))
    assert db.read_bytes() == before
    assert not (tmp_path / "x.db").exists()


def test_balance_command_reports_seat_statistics():
    result = run("balance", "forum-romanum", "--players", "3", "--agent", "random", "--games", "30",
                 "-o", "max_rounds=10", "--json", "-q", "--workers", "1")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 30 and len(report["seats"]) == 3
    assert abs(sum(s["win_rate"] for s in report["seats"]) - 1) < 1e-9
    assert report["seats"][0]["elo_vs_seat0"] == 0


def test_balance_counts_only_its_own_self_play_games_against_the_size_limit(monkeypatch):
    """balance validated its definition with the built-in agent pool, so at 4 players
    --games 1200 counted 216,000 games of 15 lineups and was refused; it plays one
    self-play game per game seed, 1,200 here."""
    import forumlab.arena.tournament as tournament

    started = []

    def record_definition(definition, *args, **kwargs):
        started.append(definition)
        raise KeyboardInterrupt  # stop before any game is played

    monkeypatch.setattr(tournament, "run_tournament", record_definition)
    result = run("balance", "forma", "-p", "4", "--agent", "random", "--games", "1200")
    assert started, result.output
    assert planned_games(started[0]) == 1200
