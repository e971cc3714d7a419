"""Executors: every game once, dead or hung games continued, errors reported, Dask.

The game function is a dummy (tests/executor_fns.py) so these tests exercise only
the executors: plumbing, the watchdog, error handling and clean shutdown.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from forumlab.arena.executors import (
    DaskExecutor,
    GameExecutionError,
    InlineExecutor,
    LocalExecutor,
    Snapshot,
    continuation,
    default_workers,
    make_executor,
    progress_hook,
    report_progress,
)
from forumlab.arena.jobs import (
    END_RULES,
    FAULT_CRASH,
    FAULT_EXCEPTION,
    FAULT_EXIT,
    FAULT_KILL,
    Fault,
    GameOutcome,
)
from forumlab.core.errors import ForumlabError
from tests import executor_fns as fns


def ok_jobs(n: int, prefix: str = "J") -> list:
    return [fns.make_job(f"{prefix}-{i:02d}") for i in range(n)]


def collect(executor, jobs, fn=fns.play) -> dict[str, GameOutcome]:
    """Run ``jobs`` and return the outcomes by key, checking each comes once."""
    outcomes: dict[str, GameOutcome] = {}
    for outcome in executor.run(jobs, fn):
        assert outcome.key not in outcomes, f"{outcome.key} yielded twice"
        outcomes[outcome.key] = outcome
    return outcomes


def alive(pid: int) -> bool:
    """Is ``pid`` a running (not zombie) process?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_dead(pids, timeout: float = 30.0) -> list[int]:
    """The processes of ``pids`` still alive after waiting up to ``timeout`` seconds for them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


# ---------------------------------------------------------------- outcomes and hooks


def test_continuation_blames_the_seat_to_move_and_plays_on_from_its_moves():
    job = fns.make_job("L0-G0-R0", players=3)
    old = Fault(2, 3, FAULT_EXCEPTION, "boom")
    last = Snapshot(seat=1, ply=5, moves=["a", "b", "c", "d"], faults=[old],
                    seconds=[1.0, 2.0, 0.5], counts=[2, 1, 1])
    follow = continuation(job, last, FAULT_CRASH, "worker died")
    assert follow.key == job.key and follow.restarts == 1
    assert follow.resume_moves == ("a", "b", "c", "d")
    assert follow.prior_faults == (old, Fault(1, 5, FAULT_CRASH, "worker died"))
    assert follow.faulty_seats == {1, 2}
    assert (follow.prior_seconds, follow.prior_counts) == ((1.0, 2.0, 0.5), (2, 1, 1))
    # Dying while creating seat 0's agent: nothing played, seat 0 blamed at ply 0.
    built = continuation(follow, Snapshot(seat=0, ply=0, moves=["a", "b", "c", "d"],
                                          faults=list(follow.prior_faults)), FAULT_EXIT, "x")
    assert built.prior_faults[-1] == Fault(0, 0, FAULT_EXIT, "x")
    assert built.resume_moves == follow.resume_moves and built.restarts == 2


def test_continuation_refuses_when_no_agent_can_be_blamed():
    job = fns.make_job("L0-G0-R0", players=3)
    assert continuation(job, Snapshot(), FAULT_KILL, "no report") is None
    # The seat to move already plays the random fallback: an engine or runner bug.
    faulty = Snapshot(seat=2, ply=4, moves=["a", "b", "c"], faults=[Fault(2, 3, FAULT_EXCEPTION, "")])
    assert continuation(job, faulty, FAULT_CRASH, "again") is None
    # Moves that did not fit in the shared buffer cannot be replayed.
    assert continuation(job, Snapshot(seat=0, ply=2, moves=["a"], complete=False),
                        FAULT_CRASH, "") is None


def test_progress_reports_outside_a_worker_do_nothing():
    report_progress(0, 1, ["x"])
    progress_hook()(0, 1, ["x"])


# ---------------------------------------------------------------- local pool


def test_local_pool_yields_every_job_exactly_once_and_reuses_its_workers():
    jobs = ok_jobs(12)
    with LocalExecutor(2, progress=False) as executor:
        first = collect(executor, jobs)
        pids = set(executor.worker_pids)
        second = collect(executor, jobs)
        assert set(executor.worker_pids) == pids  # no new processes for a second run
    assert sorted(first) == sorted(second) == [j.key for j in jobs]
    assert all(o.termination == END_RULES and o.moves[-1] == "m5" for o in first.values())
    assert {int(o.host) for o in first.values()} <= pids


def assert_continued(outcome, seat: int, ply: int, kind: str, plies: int = 4) -> None:
    """The dummy game went on after its worker ended at ``ply``, ``seat`` blamed."""
    assert outcome.termination == END_RULES
    assert outcome.moves == [f"m{i}" for i in range(1, plies + 2)]  # every move, none twice
    (fault,) = outcome.faults
    assert (fault.seat, fault.ply, fault.kind) == (seat, ply, kind), fault
    assert outcome.ranks[seat] == len(outcome.ranks)  # the blamed seat ranks last


def test_hung_game_is_killed_at_its_hard_limit_and_continued_and_the_rest_still_run():
    jobs = [fns.make_job("H-00", "hang", hard_limit=0.5)] + ok_jobs(3)
    with LocalExecutor(1, progress=False, grace=0.3) as executor:
        first_pid = executor.worker_pids  # no worker before the first run
        outcomes = collect(executor, jobs)
    assert first_pid == []
    assert sorted(outcomes) == sorted(j.key for j in jobs)
    # The dummy played m1..m4 and hung on ply 5, seat 0 to move (4 % 2); a fresh
    # worker played m5 for it.
    assert_continued(outcomes["H-00"], 0, 5, FAULT_KILL)
    assert outcomes["H-00"].ranks == [2, 1]
    # One worker: the games after the hang ran on its replacement.
    assert all(outcomes[j.key].termination == END_RULES for j in jobs[1:])


def test_gil_holding_hang_is_killed_and_continued_too():
    jobs = [fns.make_job("S-00", "spin", hard_limit=0.5, players=3)] + ok_jobs(2)
    with LocalExecutor(2, progress=False, grace=0.3) as executor:
        outcomes = collect(executor, jobs)
    assert_continued(outcomes["S-00"], 1, 5, FAULT_KILL)  # 4 % 3
    assert outcomes["J-00"].termination == END_RULES


@pytest.mark.parametrize("kind,fault,signal_name", [("crash", FAULT_EXIT, "exit code 7"),
                                                     ("segv", FAULT_CRASH, "SIGSEGV")])
def test_dead_worker_game_is_continued_with_the_kind_of_death(kind, fault, signal_name):
    jobs = ok_jobs(2) + [fns.make_job("C-00", kind, players=3, plies=7)]
    with LocalExecutor(2, progress=False) as executor:
        outcomes = collect(executor, jobs)
    assert sorted(outcomes) == ["C-00", "J-00", "J-01"]
    assert_continued(outcomes["C-00"], 1, 8, fault, plies=7)
    assert signal_name in outcomes["C-00"].faults[0].message


def test_game_that_never_reports_gets_the_startup_allowance_then_fails():
    jobs = [fns.make_job("E-00", "hang_early", hard_limit=0.3)]
    start = time.monotonic()
    with LocalExecutor(1, progress=False, grace=0.2, startup_timeout=0.5) as executor:
        with pytest.raises(GameExecutionError) as caught:
            collect(executor, jobs)
    assert time.monotonic() - start >= 1.0  # 0.3 + 0.2 + 0.5
    (failure,) = caught.value.failures
    assert failure.key == "E-00" and "no agent can be blamed" in failure.error
    assert "no progress report" in failure.details


def test_runner_errors_and_unblamable_deaths_lose_only_their_games_and_are_reported_at_the_end():
    # crash_always dies again in its continuation, where the seat to move already
    # plays the fallback: nobody to blame, so it is an error like a runner bug.
    jobs = ok_jobs(2, "A") + [fns.make_job("X-00", "error"), fns.make_job("C-00", "crash_always")] \
        + ok_jobs(3, "B")
    yielded = []
    with LocalExecutor(2, progress=False) as executor:
        with pytest.raises(GameExecutionError) as caught:
            for outcome in executor.run(jobs, fns.play):
                yielded.append(outcome.key)
    assert sorted(yielded) == ["A-00", "A-01", "B-00", "B-01", "B-02"]
    failures = {f.key: f for f in caught.value.failures}
    assert set(failures) == {"X-00", "C-00"}
    assert "ValueError: bug in the runner for X-00" in failures["X-00"].error
    assert "exit code 7" in failures["C-00"].error
    assert "no agent can be blamed" in failures["C-00"].error
    assert "2 of 7 games failed" in str(caught.value)
    assert isinstance(caught.value, ForumlabError)


def test_abandoning_a_run_stops_the_workers_of_the_games_in_flight():
    jobs = ok_jobs(1) + [fns.make_job(f"H-{i}", "hang") for i in range(2)]
    executor = LocalExecutor(2, progress=False)
    try:
        run = executor.run(jobs, fns.play)
        assert next(run).key == "J-00"
        # The freed worker got the second hung game before J-00 was handed over.
        assert sum(1 for w in executor._pool if w.task is not None) == 2
        busy = executor.worker_pids
        run.close()  # what happens on Ctrl-C or when the caller stops iterating
        assert executor.worker_pids == []
        assert wait_dead(busy) == []
    finally:
        executor.close()


def test_close_stops_idle_workers():
    executor = LocalExecutor(2, progress=False)
    collect(executor, ok_jobs(4))
    pids = executor.worker_pids
    assert len(pids) == 2
    executor.close()
    assert wait_dead(pids) == []
    with pytest.raises(ForumlabError):
        next(executor.run(ok_jobs(1), fns.play))


# Finds leftover worker processes through /proc, which only Linux has.
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_sigkilled_tournament_process(tmp_path):
    script = tmp_path / "tournament.py"
    script.write_text(textwrap.dedent(f"""
        import sys, threading, time
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from tests import executor_fns as fns
        from forumlab.arena.executors import LocalExecutor
        from forumlab.arena.executors.heartbeat import PLY

        if __name__ == "__main__":
            executor = LocalExecutor(2, progress=False)
            jobs = [fns.make_job("H-0", "hang"), fns.make_job("S-0", "spin")]
            def show():
                # Both games at their bad move (ply 5): the spin game holds its GIL.
                while not (len(executor._pool) == 2 and all(
                        w.task is not None and w.beat[PLY] == 5 for w in executor._pool)):
                    time.sleep(0.05)
                print(*executor.worker_pids, flush=True)
            threading.Thread(target=show, daemon=True).start()
            for outcome in executor.run(jobs, fns.play):
                pass
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        pids = [int(p) for p in line.split()]
        assert len(pids) == 2, line
        assert all(alive(p) for p in pids)
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
        assert wait_dead(pids, timeout=60) == [], "orphaned workers"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_fork_server_and_the_workers_ignore_ctrl_c_from_birth(tmp_path):
    # A Ctrl-C while a worker (or the fork server) was still starting up, before its
    # own code ignored SIGINT, printed a traceback from the child. Each process's
    # SIGINT disposition is read from /proc right after it is started: the fork
    # server has not yet run a line of Python then, so only an inherited SIG_IGN
    # shows.
    script = tmp_path / "tournament.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        import multiprocessing.process
        import multiprocessing.util
        from tests import executor_fns as fns
        from forumlab.arena.executors import LocalExecutor

        def sigint_ignored(pid):
            with open(f"/proc/{{pid}}/status") as status:
                for line in status:
                    if line.startswith("SigIgn:"):
                        return bool(int(line.split()[1], 16) & 2)  # bit of signal 2

        spawn = multiprocessing.util.spawnv_passfds
        def recording_spawn(path, args, passfds):
            pid = spawn(path, args, passfds)
            if "forkserver" in " ".join(map(str, args)):
                print("fork server", sigint_ignored(pid), flush=True)
            return pid
        multiprocessing.util.spawnv_passfds = recording_spawn

        start = multiprocessing.process.BaseProcess.start
        def recording_start(process):
            start(process)
            print("worker", sigint_ignored(process.pid), flush=True)
        multiprocessing.process.BaseProcess.start = recording_start

        if __name__ == "__main__":
            with LocalExecutor(2, progress=False) as executor:
                outcomes = list(executor.run([fns.make_job("J-0"), fns.make_job("J-1")],
                                             fns.play))
            print("games", len(outcomes), flush=True)
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:-1] == ["fork server True", "worker True",
                                             "worker True", "games 2"]


# Finds leftover worker processes through /proc, which only Linux has.
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_the_workers_and_interrupts_the_tournament(tmp_path):
    script = tmp_path / "tournament.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from tests import executor_fns as fns
        from forumlab.arena.executors import LocalExecutor

        if __name__ == "__main__":
            jobs = [fns.make_job("J-0")] + [fns.make_job(f"H-{{i}}", "hang") for i in range(2)]
            with LocalExecutor(2, progress=False) as executor:
                for outcome in executor.run(jobs, fns.play):
                    print(*executor.worker_pids, flush=True)
    """))
    # A new session, so that the SIGINT goes to the whole process group, as a
    # terminal's Ctrl-C does.
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2
        os.killpg(proc.pid, signal.SIGINT)
        # Generous: on a machine with both cores busy, interpreter shutdown and the
        # workers' termination take seconds, not the usual milliseconds.
        _, err = proc.communicate(timeout=120)
        assert proc.returncode != 0
        assert "KeyboardInterrupt" in err
        assert err.count("Traceback") == 1  # the tournament's own, none from the workers
        assert wait_dead(pids, timeout=60) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_progress_bar_shows_games_rate_and_eta_on_stderr(capsys):
    with LocalExecutor(1) as executor:
        collect(executor, ok_jobs(3))
    err = capsys.readouterr().err
    assert "3/3" in err and "game/s" in err


# ---------------------------------------------------------------- factory and inline


def test_make_executor_picks_the_executor_from_the_cli_options(monkeypatch):
    with make_executor(None, None) as executor:
        assert isinstance(executor, LocalExecutor) and executor.workers == default_workers()
    with make_executor(3, None) as executor:
        assert isinstance(executor, LocalExecutor) and executor.workers == 3
    assert isinstance(make_executor(0, None), InlineExecutor)
    with pytest.raises(ForumlabError):
        make_executor(-1, None)
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(ForumlabError, match=r"forumlab\[cluster\]"):
        make_executor(4, "tcp://localhost:8786")


def test_inline_executor_plays_in_process_and_reports_errors_at_the_end():
    jobs = ok_jobs(2) + [fns.make_job("X-00", "error")] + ok_jobs(1, "B")
    yielded = []
    with pytest.raises(GameExecutionError) as caught:
        for outcome in InlineExecutor(progress=False).run(jobs, fns.play):
            yielded.append(outcome)
    assert [o.key for o in yielded] == ["J-00", "J-01", "B-00"]
    assert {int(o.host) for o in yielded} == {os.getpid()}
    assert [f.key for f in caught.value.failures] == ["X-00"]


# ---------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip(
        "distributed", reason="distributed is not installed (pip install 'forumlab[cluster]')")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close()


def test_dask_executor_reports_an_unreachable_scheduler_in_one_line():
    pytest.importorskip("distributed", reason="distributed is not installed")
    with pytest.raises(ForumlabError, match="cannot connect to the Dask scheduler"):
        DaskExecutor("tcp://127.0.0.1:1", connect_timeout=0.5)


def test_dask_executor_runs_every_job_once(dask_cluster):
    jobs = ok_jobs(10)
    with make_executor(None, dask_cluster.scheduler_address, progress=False) as executor:
        assert isinstance(executor, DaskExecutor)
        outcomes = collect(executor, jobs)
    assert sorted(outcomes) == [j.key for j in jobs]
    assert len({o.host for o in outcomes.values()}) >= 1


def test_dask_executor_continues_dead_and_hung_games_and_reports_errors(dask_cluster):
    import distributed

    jobs = ([fns.make_job("H-00", "hang", hard_limit=0.5),
             fns.make_job("S-00", "spin", hard_limit=0.5, players=3),
             fns.make_job("C-00", "segv", players=3, plies=7),
             fns.make_job("X-00", "error")]
            + [fns.make_job(f"K-{i}", "sleep", seconds=0.2) for i in range(4)])
    outcomes: dict[str, GameOutcome] = {}
    with distributed.Client(dask_cluster.scheduler_address, set_as_default=False) as client:
        executor = DaskExecutor(client, progress=False, grace=0.3)
        with executor, pytest.raises(GameExecutionError) as caught:
            for outcome in executor.run(jobs, fns.play):
                assert outcome.key not in outcomes
                outcomes[outcome.key] = outcome
        assert not client.status == "closed"  # a client passed in is not closed
    assert sorted(outcomes) == ["C-00", "H-00", "K-0", "K-1", "K-2", "K-3", "S-00"]
    (failure,) = caught.value.failures
    assert failure.key == "X-00" and "bug in the runner for X-00" in failure.error
    # Every misbehaving game was continued from its exact moves, the seat blamed.
    assert_continued(outcomes["H-00"], 0, 5, FAULT_KILL)
    assert_continued(outcomes["S-00"], 1, 5, FAULT_KILL)
    assert_continued(outcomes["C-00"], 1, 8, FAULT_CRASH, plies=7)
    assert all(outcomes[f"K-{i}"].termination == END_RULES for i in range(4))


def test_dask_tournament_survives_an_agent_that_crashes_its_worker(dask_cluster, tmp_path):
    from forumlab.arena.definition import PoolEntry, TournamentDefinition
    from forumlab.arena.ratings import rate, rated_games
    from forumlab.arena.schedule import plan
    from forumlab.arena.store import ResultStore
    from forumlab.arena.tournament import resume_tournament, run_tournament

    d = TournamentDefinition(
        agents=(PoolEntry("random", "random"), PoolEntry("greedy", "greedy"),
                PoolEntry("segv", "tests.fault_agents:SegfaultAgent")),
        config={"players": 3, "max_rounds": 8}, games_per_lineup=2, seed=7)
    db = tmp_path / "dask.db"
    run_tournament(d, db, scheduler=dask_cluster.scheduler_address, progress=False)
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    assert sorted(o.key for o in outcomes) == sorted(j.key for j in plan(d))
    assert all([(o.labels[f.seat], f.kind) for f in o.faults] == [("segv", FAULT_CRASH)]
               for o in outcomes)
    assert rate(rated_games(outcomes)).ranking() == ["greedy", "random", "segv"]
    assert resume_tournament(db, scheduler=dask_cluster.scheduler_address, progress=False) == 0
