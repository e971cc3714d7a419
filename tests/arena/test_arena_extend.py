"""Extending a study with more rotation groups, whole groups after an SPRT stop, the
quick start on an existing results file, and what an install contains."""
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import numba
import pytest

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import GameOutcome
from forumlab.arena.schedule import plan
from forumlab.arena.sequential import SequentialTest, play_sequential, sequential_order
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import resume_tournament, run_tournament, versions
from tests.cli_helpers import one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
TINY = ["-o", "max_rounds=3", "-q", "--workers", "1"]






def pair(games, **kw):
    """A 2-player round robin of greedy and random: 2 games per rotation group."""
    return TournamentDefinition(config={"players": 2, "max_rounds": 3}, games_per_lineup=games,
                                agents=(PoolEntry("greedy", "greedy"), PoolEntry("random", "random")), **kw)


def stored(db):
    with ResultStore.open(db, readonly=True) as store:
        return {o.key: o for o in store.outcomes()}, store.definition, store.tournament_id


def whole_groups(outcomes, size):
    groups = {}
    for o in outcomes:
        groups.setdefault(o.group, set()).add(o.rotation)
    return all(len(r) == size for r in groups.values())


# ---------------------------------------------------------------- extending a study


def test_a_larger_games_extends_the_study_with_whole_new_groups(tmp_path):
    db, fresh = tmp_path / "t.db", tmp_path / "fresh.db"
    run_tournament(pair(2), db, workers=0, progress=False)
    before, _, tid = stored(db)
    played = run_tournament(pair(5), db, workers=0, progress=False)
    after, definition, tid_after = stored(db)
    assert played == 3 * 2 and len(after) == 10
    assert definition["games_per_lineup"] == 5 and tid_after == tid  # the file keeps its id
    # The old games are untouched; the new ones are exactly groups 2-4, each whole.
    assert all(after[k] == o for k, o in before.items())
    assert {o.group for k, o in after.items() if k not in before} == {"L0000-G002", "L0000-G003", "L0000-G004"}
    assert whole_groups(after.values(), 2)
    # The same games as a study planned with 5 groups from the start.
    run_tournament(pair(5), fresh, workers=0, progress=False)
    same, _, _ = stored(fresh)
    assert {k: o.moves for k, o in same.items()} == {k: o.moves for k, o in after.items()}
    # resume after the extension plays nothing; the stored definition is the extended one.
    assert resume_tournament(db, workers=0, progress=False) == 0


def test_cli_extension_says_so_and_fewer_groups_or_other_changes_are_refused(tmp_path):
    db = tmp_path / "t.db"
    base = ["tournament", "run", "-a", "random", "-a", "greedy", "-p", "2", "--db", db, *TINY]
    assert run(*base, "--games", "1").exit_code == 0
    grown = run(*base, "--games", "2")
    assert grown.exit_code == 0, grown.output
    assert "extending it from 1 to 2 rotation groups per lineup" in grown.stderr
    keys = set(stored(db)[0])
    assert len(keys) == 4 and stored(db)[1]["games_per_lineup"] == 2
    snapshot = db.read_bytes()
    message = one_line_error(run(*base, "--games", "1"))
    assert "holds 2 rotation groups per lineup" in message and "append-only" in message
    # Any other difference, with more groups or not, is another tournament.
    message = one_line_error(run(*base, "--games", "3", "--seed", "9"))
    assert "not this one" in message and "seed" in message
    assert repr(stored(db)[2]) in message  # the file's id, which extending does not change
    assert db.read_bytes() == snapshot


def test_an_extension_killed_mid_run_resumes_to_the_whole_plan(tmp_path):
    """kill -9 while the extension plays: the file holds the extended definition and
    ``resume`` plays the rest of it."""
    db = tmp_path / "t.db"
    # A search above the cheap budget, so that every game is handed out and committed
    # alone (greedy against random is batched 32 at a time, and a fast machine finished the
    # whole extension between two looks at the file).
    base = ["tournament", "run", "-a", "mcts(iterations=1000)", "-a", "random", "-p", "2",
            "-o", "max_rounds=3", "--db", str(db), "-q", "--workers", "1"]
    assert run(*base, "--games", "1").exit_code == 0
    # the child uses this process's numba cache (keyed by the sources), so it compiles nothing
    env = {**os.environ, "NUMBA_CACHE_DIR": numba.config.CACHE_DIR}
    proc = subprocess.Popen([sys.executable, "-m", "forumlab", *base, "--games", "40"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read()
            with ResultStore.open(db, readonly=True) as store:
                if len(store) >= 3:
                    break
            time.sleep(0.02)
        else:
            pytest.fail("the extension played no game in 120 s")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
    outcomes, definition, _ = stored(db)
    assert definition["games_per_lineup"] == 40 and 3 <= len(outcomes) < 80
    # The in-process executor plays what is missing; the result is the whole extended plan.
    resume_tournament(db, workers=0, progress=False)
    outcomes, _, _ = stored(db)
    d = TournamentDefinition.from_stored(definition)
    assert set(outcomes) == {job.key for job in plan(d)}


def test_extending_alone_is_stored_atomically_and_resume_plays_it(tmp_path):
    """The extension is one insert: a run stopped right after it resumes to the new plan."""
    db = tmp_path / "t.db"
    run_tournament(pair(1), db, workers=0, progress=False)
    with ResultStore.create(db, pair(3).to_json(), versions("forum-romanum"), extend=True) as store:
        assert store.extended_from == 1 and store.definition["games_per_lineup"] == 3
    assert resume_tournament(db, workers=0, progress=False) == 4
    assert len(stored(db)[0]) == 6
    # Without extend=True (the low-level API) a larger definition is still another tournament.
    with pytest.raises(Exception, match="not this one"):
        ResultStore.create(db, pair(4).to_json(), versions("forum-romanum"))


def test_balance_extends_its_results_file(tmp_path):
    db = tmp_path / "b.db"
    base = ["balance", "forum-romanum", "-p", "2", "--agent", "random", "-o", "max_rounds=3", "--db", db,
            "--json", "-q", "--workers", "1"]
    first = run(*base, "--games", "3")
    assert first.exit_code == 0, first.output
    grown = run(*base, "--games", "5")
    assert grown.exit_code == 0, grown.output
    assert json.loads(grown.stdout)["games"] == 5  # self-play: one game per seed
    assert stored(db)[1]["games_per_lineup"] == 5
    snapshot = db.read_bytes()
    assert "holds 5 rotation groups" in one_line_error(run(*base, "--games", "4"))
    assert db.read_bytes() == snapshot


def gauntlet(games, sprt, players=2):
    field = (PoolEntry("random", "random"), PoolEntry("r2", "random"))[:players - 1]
    return TournamentDefinition(config={"players": players, "max_rounds": 3}, format="gauntlet",
                                candidate="greedy", agents=(PoolEntry("greedy", "greedy"), *field),
                                games_per_lineup=games, sprt=sprt)


def test_an_undecided_sprt_gauntlet_extended_goes_on_testing(tmp_path):
    db = tmp_path / "g.db"
    sprt = {"elo0": 0, "elo1": 5, "alpha": 0.01, "beta": 0.01}  # too fine to decide in a few groups
    run_tournament(gauntlet(1, sprt), db, workers=0, progress=False)
    with ResultStore.open(db, readonly=True) as store:
        assert store.sprt_record()["planned_groups"] == 1
    assert run_tournament(gauntlet(3, sprt), db, workers=0, progress=False) == 4
    with ResultStore.open(db, readonly=True) as store:
        record = store.sprt_record()
        assert len(store) == 6
    assert record["decision"] is None and record["groups"] == 3 == record["planned_groups"]
    assert record["games"] == 6 and len(record["trace"]) == 3 and "decided_after_groups" not in record


def test_a_decided_sprt_gauntlet_cannot_be_extended(tmp_path):
    db = tmp_path / "g.db"
    run_tournament(gauntlet(30, {"elo0": 0, "elo1": 100}), db, workers=0, progress=False)
    snapshot = db.read_bytes()
    with ResultStore.open(db, readonly=True) as store:
        decision = store.sprt_record()["decision"]
    assert decision in ("H0", "H1")
    message = one_line_error(run("tournament", "run", "--format", "gauntlet", "--candidate", "greedy",
                                 "-a", "greedy", "-a", "random", "-p", "2", "-o", "max_rounds=3",
                                 "--games", "40", "--sprt", "elo0=0,elo1=100", "--db", db, "-q"))
    assert f"accepted {decision}" in message and "cannot be extended" in message
    assert db.read_bytes() == snapshot


# ---------------------------------------------------------------- whole groups after an SPRT stop


class LaggingExecutor:
    """Finishes games out of order as parallel workers do: the last game of each rotation
    group comes after the first game of the next one. Outcomes are synthetic: the
    candidate (seat label "greedy") always finishes first."""

    def __init__(self):
        self.runs = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, jobs, fn, progress=None):
        self.runs.append([j.key for j in jobs])
        held = None
        for i, job in enumerate(jobs):
            outcome = GameOutcome.for_job(job, moves=[], scores=[0] * len(job.labels),
                                          ranks=[1 if label == "greedy" else 2 for label in job.labels],
                                          plies=0, termination="end")
            last_of_group = i + 1 == len(jobs) or jobs[i + 1].group != job.group
            if last_of_group and held is None and i + 1 < len(jobs):
                held = outcome
                continue
            yield outcome
            if held is not None:
                yield held
                held = None
        if held is not None:
            yield held


@pytest.mark.parametrize("players", [2, 3])
def test_an_sprt_stop_rates_whole_groups_only_and_the_record_counts_them(tmp_path, players):
    db = tmp_path / "g.db"
    d = gauntlet(40, {"elo0": 0, "elo1": 100}, players)
    size = players * (players - 1)
    executor = LaggingExecutor()
    with ResultStore.create(db, d.to_json(), versions(d.game)) as store:
        played = play_sequential(store, d, plan(d), lambda: executor, progress=False)
    outcomes, _, _ = stored(db)
    with ResultStore.open(db, readonly=True) as store:
        record = store.sprt_record()
    assert record["decision"] == "H1"
    assert whole_groups(outcomes.values(), size)
    assert len(outcomes) == played == record["games"] == size * record["groups"]
    # The group under way at the decision (one of its games was stored) was completed:
    assert record["decided_after_groups"] == record["groups"] - 1
    assert len(record["trace"]) == record["groups"] and record["decision_llr"] >= record["upper"]
    assert "the group under way then was completed" in record["reason"]
    # Two passes: on past the decision while that group's games finish (3 players: its
    # games 2-5 of 6), stopped by the first game of the group after it; then its last game.
    assert len(executor.runs) == 2 and len(executor.runs[1]) == 1
    # ratings reports the test on the games it rates.
    text = run("ratings", db).stdout
    assert f"{len(outcomes)} games" in text and f"{record['groups']} groups ({record['games']} games) are rated" in text


def test_a_stop_before_the_groups_under_way_are_complete_is_completed_by_resume(tmp_path):
    """The decision is reached but the run stops before the group under way is complete
    (no record stored): resume decides again from the stored games and completes it."""
    db = tmp_path / "g.db"
    d = gauntlet(40, {"elo0": 0, "elo1": 100})
    groups = sequential_order(plan(d))
    order = [job for g in groups for job in g]
    test = SequentialTest(d, groups)
    with ResultStore.create(db, d.to_json(), versions(d.game)) as store:
        for outcome in LaggingExecutor().run(order, None):
            store.record(outcome)
            if test.add(outcome) is not None:
                break  # stopped at the decision: the next group has one game stored
        assert len(store) % 2 == 1 and store.sprt_record() is None
    resume_tournament(db, workers=0, progress=False)
    outcomes, _, _ = stored(db)
    with ResultStore.open(db, readonly=True) as store:
        record = store.sprt_record()
    assert record["decision"] == "H1" and whole_groups(outcomes.values(), 2)
    assert len(outcomes) == record["games"] == 2 * test.decided_at[0] + 2


# ---------------------------------------------------------------- the quick start on an existing file


def finished_default_file(path):
    """The quick start's results file with every game played (synthetic, instant)."""
    d = TournamentDefinition()
    with ResultStore.create(path, d.to_json(), versions(d.game)) as store:
        for job in plan(d):
            store.record(GameOutcome.for_job(job, moves=[], scores=[3, 2, 1], ranks=[1, 2, 3], plies=0,
                                             termination="end"))
    return len(plan(d))


def test_rerunning_the_quick_start_says_it_reused_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    games = finished_default_file(tmp_path / "forumlab-results.db")
    snapshot = (tmp_path / "forumlab-results.db").read_bytes()
    result = run("tournament")
    assert result.exit_code == 0, result.output
    note = [line for line in result.stderr.splitlines() if line.startswith("reusing")]
    assert len(note) == 1, result.stderr
    assert f"already holds {games} games" in note[0] and "nothing is played" in note[0]
    assert "delete forumlab-results.db" in note[0] and "--db" in note[0]
    assert result.stdout == run("ratings", "forumlab-results.db").stdout  # the stored table
    assert (tmp_path / "forumlab-results.db").read_bytes() == snapshot


def test_the_quick_start_on_another_tournaments_file_is_refused_as_before(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "forumlab-results.db"
    run_tournament(pair(1), db, workers=0, progress=False)
    snapshot = db.read_bytes()
    message = one_line_error(run("tournament"))
    assert "not this one" in message and "use another results file" in message
    assert db.read_bytes() == snapshot


def test_a_new_file_gets_no_reuse_note(tmp_path):
    result = run("tournament", "run", "-a", "random", "-a", "greedy", "-p", "2", "--games", "1",
                 "--db", tmp_path / "n.db", *TINY)
    assert result.exit_code == 0 and "reusing" not in result.stderr


# ---------------------------------------------------------------- packaging


def test_an_install_holds_only_the_forumlab_package():
    from setuptools import find_packages

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    find = config["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(str(ROOT), include=find["include"], exclude=find.get("exclude", ()))
    assert packages and all(p == "forumlab" or p.startswith("forumlab.") for p in packages), packages
    # ... while the benchmarks still run from a checkout (tests import them from the root).
    import benchmarks.positions  # noqa: F401


def test_without_games_a_run_continues_an_extended_study_at_its_size(tmp_path, monkeypatch):
    """After an extension, the command that made the file (no --games) still reuses it."""
    monkeypatch.chdir(tmp_path)
    base = ["tournament", "run", "-a", "random", "-a", "greedy", "-p", "2", *TINY]
    assert run(*base).exit_code == 0
    assert run(*base, "--games", "3").exit_code == 0
    again = run(*base)
    assert again.exit_code == 0, again.output
    assert "already holds 6 games" in again.stderr and "nothing is played" in again.stderr
    # An explicit smaller --games is still refused.
    assert "holds 3 rotation groups" in one_line_error(run(*base, "--games", "1"))
