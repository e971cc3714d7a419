"""Sequential test for gauntlets (forumlab.arena.sprt, forumlab.arena.sequential).

The model is checked by simulation on synthetic data (thousands of tests in numpy): the
rate of accepting H1 when the candidate is elo0 stronger (false positives) stays within
alpha, the rate of accepting H0 when it is elo1 stronger (false negatives) within beta.
Then a real short gauntlet runs through the command line, stops at a whole rotation group,
records why, and resume plays nothing more.
"""
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import GameOutcome
from forumlab.arena.runner import run_job
from forumlab.arena.schedule import plan
from forumlab.arena.sequential import SequentialTest, candidate_score, sequential_order
from forumlab.arena.sprt import SprtSettings, expected_score, llr, parse_sprt, prior_variance, score_elo
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import resume_tournament, run_tournament, versions
from forumlab.cli import main
from forumlab.core.errors import ConfigError

TESTS = 2000  # simulated SPRTs per hypothesis


def simulate(settings, elo_true, players, games, draw=0.0, tests=TESTS, seed=1):
    """Run ``tests`` SPRTs on synthetic gauntlet groups, vectorised over the tests.

    Each group has ``games`` games; in each the candidate meets ``players - 1``
    opponents, finishing ahead of each with probability ``expected_score(elo_true)``
    (level with probability ``draw``, counted half), independently. Uses the module's
    own ``llr`` and bounds, group by group as the tournament does.

    Returns:
        (decisions: +1 H1, -1 H0, 0 undecided; groups used per test).
    """
    rng = np.random.default_rng(seed)
    p = expected_score(elo_true)
    win, level = p - draw / 2, draw  # draws count half, so the expected score stays p
    lower, upper = settings.bounds
    pv = prior_variance(games)
    comparisons = (players - 1) * games
    decision = np.zeros(tests, dtype=int)
    used = np.zeros(tests, dtype=int)
    n0, total, total_sq = np.zeros(tests), np.zeros(tests), np.zeros(tests)
    active = np.arange(tests)
    chunk = 256
    while active.size and n0[active].min() < 200_000:
        counts = rng.multinomial(comparisons, [win, level, 1 - win - level], size=(active.size, chunk))
        x = (counts[..., 0] + 0.5 * counts[..., 1]) / comparisons
        n = n0[active, None] + np.arange(1, chunk + 1)
        t = total[active, None] + np.cumsum(x, axis=1)
        q = total_sq[active, None] + np.cumsum(x * x, axis=1)
        value = llr(n, t, q, settings.s0, settings.s1, pv)
        hit = (value >= upper) | (value <= lower)
        first = np.where(hit.any(axis=1), hit.argmax(axis=1), -1)
        done = first >= 0
        rows = np.flatnonzero(done)
        decision[active[done]] = np.where(value[rows, first[done]] >= upper, 1, -1)
        used[active[done]] = n[rows, first[done]]
        keep = ~done
        n0[active[keep]], total[active[keep]], total_sq[active[keep]] = n[keep, -1], t[keep, -1], q[keep, -1]
        active = active[keep]
        chunk = min(2 * chunk, 4096)
    return decision, used


def within(rate, nominal, tests=TESTS):
    """``rate`` is not above ``nominal`` beyond two binomial standard errors of the simulation."""
    return rate <= nominal + 2 * math.sqrt(nominal * (1 - nominal) / tests)


@pytest.mark.parametrize("players, games, sprt, draw", [
    (3, 6, "elo0=0,elo1=10,alpha=0.05,beta=0.05", 0.0),      # the documented example, balanced 3-player groups
    (2, 2, "elo0=-10,elo1=30,alpha=0.1,beta=0.05", 0.3),    # 2 players with draws, unequal error rates
    (4, 12, "elo0=0,elo1=20,alpha=0.02,beta=0.1", 0.1),     # 4 players: 12 games per balanced group
])
def test_simulated_error_rates_are_within_alpha_and_beta(players, games, sprt, draw):
    s = parse_sprt(sprt)
    d0, g0 = simulate(s, s.elo0, players, games, draw, seed=1)
    d1, g1 = simulate(s, s.elo1, players, games, draw, seed=2)
    false_positive = (d0 == 1).mean()
    false_negative = (d1 == -1).mean()
    print(f"{players}p {sprt} draw {draw}: false positives {false_positive:.4f} (alpha {s.alpha}), "
          f"false negatives {false_negative:.4f} (beta {s.beta}), median groups {np.median(g0):.0f} / "
          f"{np.median(g1):.0f}")
    assert (d0 != 0).all() and (d1 != 0).all()  # every test ended
    assert within(false_positive, s.alpha), false_positive
    assert within(false_negative, s.beta), false_negative
    # And the test has power: a candidate far above elo1 is nearly always accepted.
    far, _ = simulate(s, s.elo1 + 3 * (s.elo1 - s.elo0), players, games, draw, tests=300, seed=3)
    assert (far == 1).mean() > 0.99


def test_llr_bounds_and_elo_conversion_by_hand():
    s = SprtSettings(0, 10, 0.05, 0.05)
    assert s.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert expected_score(0) == 0.5 and expected_score(400) == pytest.approx(10 / 11)
    assert score_elo(expected_score(123.0)) == pytest.approx(123.0)
    # 4 groups scoring 0.6, 0.5, 0.7, 0.6 (sum 2.4, squares 1.46); 2 pseudo-groups of
    # variance 0.25 / 6 join the squared deviations from each hypothesis' mean.
    s0, s1 = s.s0, s.s1
    scores = [0.6, 0.5, 0.7, 0.6]
    var0 = (sum((x - s0) ** 2 for x in scores) + 2 * 0.25 / 6) / 6
    var1 = (sum((x - s1) ** 2 for x in scores) + 2 * 0.25 / 6) / 6
    assert llr(4, 2.4, 1.46, s0, s1, prior_variance(6)) == pytest.approx(2 * math.log(var0 / var1))
    # Scores at s1 favour H1, at s0 favour H0, halfway between is neutral.
    assert llr(10, 10 * s1, 10 * s1 ** 2 + 0.1, s0, s1, 0.01) > 0
    assert llr(10, 10 * s0, 10 * s0 ** 2 + 0.1, s0, s1, 0.01) < 0
    mid = (s0 + s1) / 2
    assert llr(10, 10 * mid, 10 * mid ** 2 + 0.1, s0, s1, 0.01) == pytest.approx(0, abs=1e-12)


def test_candidate_score_is_the_fraction_of_opponents_beaten_ties_half():
    def game(labels, ranks):
        return GameOutcome(key="k", group="g", lineup=0, rotation=0, seed=0, labels=labels, specs=labels,
                           agent_seeds=(0,) * len(labels), moves=[], scores=[0] * len(labels),
                           ranks=list(ranks), plies=0, termination="end")

    assert candidate_score(game(("a", "c", "b"), (2, 1, 3)), "c") == 1.0
    assert candidate_score(game(("a", "c", "b", "d"), (1, 2, 2, 4)), "c") == pytest.approx(0.5)
    assert candidate_score(game(("c", "a"), (2, 1)), "c") == 0.0


def test_sequential_order_interleaves_the_lineups_group_by_group():
    d = TournamentDefinition(config={"players": 3, "max_rounds": 3}, format="gauntlet", candidate="c",
                             agents=(PoolEntry("c", "greedy"), PoolEntry("a", "random"),
                                     PoolEntry("b", "random"), PoolEntry("e", "random")),
                             games_per_lineup=2, sprt={"elo0": 0, "elo1": 10})
    groups = sequential_order(plan(d))
    assert [g[0].group for g in groups] == ["L0000-G000", "L0001-G000", "L0002-G000",
                                            "L0000-G001", "L0001-G001", "L0002-G001"]
    assert all(len(g) == 6 and [j.rotation for j in g] == list(range(6)) for g in groups)


@pytest.mark.parametrize("text, fragment", [
    ("elo0=0", "needs elo1"),
    ("elo0=10,elo1=0", "below elo1"),
    ("elo0=0,elo1=10,alpha=0.7", "alpha must be between 0 and 0.5"),
    ("elo0=0,elo1=10,beta=0", "beta must be between"),
    ("elo0=0,elo1=10,gamma=1", "unknown sprt key 'gamma'"),
    ("elo0=0,elo1=x", "finite number"),
    ("elo0=0,,elo1=10", "empty"),
    ("elo0", "expected KEY=VALUE"),
    ("elo0=0,elo1=nan", "finite number"),
    ("elo0=0,elo1=5000", "from -2000 to 2000"),
    ("elo0=0,elo0=1,elo1=3", "twice"),
])
def test_bad_sprt_strings_are_refused(text, fragment):
    with pytest.raises(ConfigError, match="^--sprt ") as info:
        parse_sprt(text)
    assert fragment in str(info.value)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_bad_sprt_on_the_command_line_is_one_line_and_creates_nothing(tmp_path):
    db = tmp_path / "g.db"
    base = ["tournament", "run", "-a", "greedy", "-a", "random", "-p", "2", "--db", db, "-q"]
    for extra in (["--format", "gauntlet", "--candidate", "greedy", "--sprt", "elo0=5,elo1=1"],
                  ["--format", "gauntlet", "--candidate", "greedy", "--sprt", "nonsense"],
                  ["--sprt", "elo0=0,elo1=10"]):  # a round robin has no candidate to test
        result = run(*base, *extra)
        assert result.exit_code == 2, result.output
        message = result.stderr.strip()
        assert message.startswith("error: ") and "\n" not in message, message
    assert not db.exists()


def test_a_real_gauntlet_stops_when_decided_and_resume_respects_it(tmp_path):
    db = tmp_path / "g.db"
    args = ["tournament", "run", "--format", "gauntlet", "--candidate", "greedy", "-a", "greedy",
            "-a", "random", "-a", "r2=random", "-p", "3", "-o", "max_rounds=10", "--games", "40",
            "--sprt", "elo0=0,elo1=100,alpha=0.05,beta=0.05", "--db", db, "-q", "--workers", "2"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "SPRT for greedy" in result.stdout
    with ResultStore.open(db, readonly=True) as store:
        record = store.sprt_record()
        outcomes = store.outcomes()
        definition = TournamentDefinition.from_stored(store.definition)
    assert definition.sprt == {"elo0": 0.0, "elo1": 100.0, "alpha": 0.05, "beta": 0.05}
    # Greedy beats two random agents nearly always: accepted long before the 40 groups.
    assert record["decision"] == "H1" and record["decision_llr"] >= record["upper"]
    assert record["groups"] < 40 and record["games"] == 6 * record["groups"]
    # The games rated are the games the test counted: whole groups, none beyond.
    assert len(outcomes) == record["games"] >= record["decided_after_games"]
    assert record["upper"] == pytest.approx(math.log(19)) and len(record["trace"]) == record["groups"]
    # Decided on whole groups, in the sequential order: every counted group is complete.
    groups = sequential_order(plan(definition))[:record["groups"]]
    counted = {o.key for o in outcomes}
    assert all(job.key in counted for g in groups for job in g)
    assert len(outcomes) < len(plan(definition))
    # ratings shows it; resume plays nothing more.
    assert "accepted H1" in run("ratings", db).stdout
    assert json.loads(run("ratings", db, "--json").stdout)["sprt"]["decision"] == "H1"
    resumed = run("tournament", "resume", db, "-q", "--workers", "2")
    assert resumed.exit_code == 0 and "resumed: 0 games played" in resumed.stderr
    with ResultStore.open(db, readonly=True) as store:
        assert len(store) == len(outcomes)


def test_report_shows_the_decision(tmp_path):
    from tests.arena.test_report import figure_ids, parse_report

    db = tmp_path / "g.db"
    d = TournamentDefinition(config={"players": 2, "max_rounds": 6}, format="gauntlet", candidate="greedy",
                             agents=(PoolEntry("greedy", "greedy"), PoolEntry("random", "random")),
                             games_per_lineup=30, sprt={"elo0": 0, "elo1": 100})
    run_tournament(d, db, workers=0, progress=False)
    out = tmp_path / "r.html"
    assert run("report", db, "-o", out).exit_code == 0
    tags, ids = parse_report(out)
    assert "sprt-1" in ids and "fig-sprt-1" in figure_ids(tags)
    assert "accepted H1" in out.read_text(encoding="utf-8")


def test_resume_continues_the_test_from_the_stored_games(tmp_path):
    """A file holding the first groups but no decision (the run was stopped): resume
    counts the stored groups first, in the sequential order, then plays on."""
    db = tmp_path / "g.db"
    d = TournamentDefinition(config={"players": 2, "max_rounds": 6}, format="gauntlet", candidate="greedy",
                             agents=(PoolEntry("greedy", "greedy"), PoolEntry("random", "random")),
                             games_per_lineup=30, sprt={"elo0": 0, "elo1": 100})
    groups = sequential_order(plan(d))
    with ResultStore.create(db, d.to_json(), versions(d.game)) as store:
        for job in groups[0] + groups[1]:
            store.record(run_job(job))
    with ResultStore.open(db, readonly=True) as store:
        first = SequentialTest(d, groups)
        for outcome in store.outcomes():
            first.add(outcome)
    assert first.decision is None and len(first.trace) == 2
    played = resume_tournament(db, workers=0, progress=False)
    with ResultStore.open(db, readonly=True) as store:
        record = store.sprt_record()
        assert len(store) == 4 + played
    assert record["decision"] == "H1" and record["trace"][:2] == first.trace
    assert record["games"] == 2 * record["groups"] == len(store_keys(db))


def store_keys(db):
    with ResultStore.open(db, readonly=True) as store:
        return store.done_keys()


def test_a_schedule_that_ends_undecided_says_so(tmp_path):
    db = tmp_path / "g.db"
    d = TournamentDefinition(config={"players": 2, "max_rounds": 4}, format="gauntlet", candidate="greedy",
                             agents=(PoolEntry("greedy", "greedy"), PoolEntry("random", "random")),
                             games_per_lineup=1, sprt={"elo0": 0, "elo1": 10})
    run_tournament(d, db, workers=0, progress=False)
    with ResultStore.open(db, readonly=True) as store:
        record = store.sprt_record()
    assert record["decision"] is None and record["groups"] == 1 == record["planned_groups"]
    assert "every planned game was played" in record["reason"]
    assert "undecided after 1 rotation groups" in run("ratings", db).stdout
