"""What the ratings table shows: the reference agent, comparison intervals, LOS of adjacent
rows, time per move, and several results files rated as one.

The stored quick-start tournament (tests/data/quickstart-ratings.json: the 120 games of
``forumlab tournament`` without their moves) is the case the display must get right: with
``random`` at Elo 0 every interval was the prior's (+-340) and mcts looked no better than
greedy, although the games put mcts ahead with a likelihood of superiority of 1.00.
"""
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import forumlab
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.arena.plackett_luce import RatedGame
from forumlab.arena.quasi_variance import comparison_z, quasi_variances
from forumlab.arena.ratings import (
    COMPARISON_LOS,
    format_ratings_table,
    move_times,
    rate,
    rate_outcomes,
    ratings_report,
)
from forumlab.arena.store import ResultStore
from forumlab.cli import main
from forumlab.core.errors import ConfigError

DATA = Path(__file__).resolve().parents[1] / "data" / "quickstart-ratings.json"
MCTS, GREEDY = "mcts(iterations=500)", "greedy"


def quickstart_outcomes():
    data = json.loads(DATA.read_text())
    return data["definition"], [
        GameOutcome(key=g["key"], group=g["group"], lineup=0, rotation=0, seed=g["seed"],
                    labels=tuple(g["labels"]), specs=tuple(g["labels"]), agent_seeds=(0, 0, 0), moves=[],
                    scores=g["scores"], ranks=g["ranks"], plies=0, termination=END_RULES,
                    move_seconds=g["move_seconds"], moves_made=g["moves_made"])
        for g in data["games"]]


def write_store(path, outcomes, definition):
    with ResultStore.create(path, definition, {}, synchronous="NORMAL") as store:
        for o in outcomes:
            store.record(o)
    return path


@pytest.fixture(scope="module")
def quickstart_db(tmp_path_factory):
    definition, outcomes = quickstart_outcomes()
    return write_store(tmp_path_factory.mktemp("qs") / "qs.db", outcomes, definition)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def table_rows(text):
    """Agent -> (Elo, low, high, LOS next) from the printed table (Elo with its * mark stripped)."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^(.+?)\s+([+-]\d+)\*?\s+\[([+-]\d+), ([+-]\d+)\]\s+(\S+)\s+\d+\s", line)
        if m:
            los = None if m.group(5) == "-" else float(m.group(5))
            rows[m.group(1).strip()] = (int(m.group(2)), int(m.group(3)), int(m.group(4)), los)
    return rows


def apart(a, b):
    return a[1] > b[2] or b[1] > a[2]


# ---------------------------------------------------------------- mcts and greedy apart


def test_quickstart_table_shows_mcts_and_greedy_apart(quickstart_db):
    result = run("ratings", quickstart_db)
    assert result.exit_code == 0, result.output
    rows = table_rows(result.stdout)
    assert set(rows) == {MCTS, GREEDY, "brs(depth=2)", "maxn(depth=2, nodes=3000)", "paranoid(depth=2)", "random"}
    report = json.loads(run("ratings", quickstart_db, "--json").stdout)
    los = report["superiority"][MCTS][GREEDY]
    assert los >= 0.99
    assert apart(rows[MCTS], rows[GREEDY]), (rows[MCTS], rows[GREEDY])
    # The scale is not read against random, which the games cannot place.
    assert report["model"]["anchor"] != "random" and report["model"]["anchor"] == report["model"]["reference"]
    assert rows[report["model"]["anchor"]][0] == 0
    assert "random" in result.stdout.split("* ", 1)[1]  # still marked and explained
    assert "The anchor random is itself separated" not in result.stdout


def test_every_pair_at_los_099_is_apart_in_table_and_figure(quickstart_db):
    """Not only mcts and greedy: no pair the posterior separates at 0.99 has overlapping bars."""
    from forumlab.report import figures, section_from_store

    rows = table_rows(run("ratings", quickstart_db).stdout)
    section = section_from_store(str(quickstart_db))
    bars = figures.rating_bars(section)
    r = section.ratings
    checked = 0
    for a in r.fit.agents:
        for b in r.fit.agents:
            if a != b and r.superiority[a][b] >= 0.99:
                assert apart(rows[a], rows[b]), (a, b)
                assert bars[a][0] > bars[b][1], (a, b, bars[a], bars[b])
                checked += 1
    assert checked == 9  # mcts over the four others it meets in the middle, everyone over random


def test_the_pair_property_holds_on_synthetic_tournaments():
    """Random Plackett-Luce tournaments: LOS >= 0.99 always means comparison bars apart."""
    rng = np.random.default_rng(7)
    for trial in range(12):
        strengths = rng.normal(0.0, 0.6, size=6)
        agents = [f"a{i}" for i in range(6)]
        games = []
        for g in range(int(rng.integers(30, 120))):
            seats = rng.choice(6, size=3, replace=False)
            w = np.exp(strengths[seats])
            order, left = [], list(range(3))
            while left:
                p = w[left] / w[left].sum()
                k = left[int(rng.choice(len(left), p=p))]
                order.append(k)
                left.remove(k)
            ranks = [0, 0, 0]
            for place, k in enumerate(order):
                ranks[k] = place + 1
            games.append(RatedGame(f"g{g}", tuple(agents[s] for s in seats), tuple(ranks), (0.0,) * 3))
        r = rate(games)
        for a in r.fit.agents:
            for b in r.fit.agents:
                if a != b and r.superiority[a][b] >= 0.99 and not {a, b} & set(r.separation.position):
                    assert r.comparison_interval[a][0] > r.comparison_interval[b][1], (trial, a, b)


# ---------------------------------------------------------------- the reference


def games_with_a_loser():
    """A, B, C connected (each finished ahead of each other somewhere); D always last."""
    cycle = [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B"), ("A", "C", "B")]
    out = []
    for k, order in enumerate(cycle * 3):
        out.append(RatedGame(f"g{k}", (*order, "D"), (1, 2, 3, 4), (3.0, 2.0, 1.0, 0.0)))
    return out


def test_default_anchor_is_never_separated():
    r = rate(games_with_a_loser())
    assert r.separation.position == {"D": "below"}
    assert r.fit.anchor == r.reference and r.reference in r.separation.main
    # In sorted order D would not be first, so also try a field whose first name is the loser.
    renamed = [RatedGame(g.group, tuple("0" if a == "D" else a for a in g.agents), g.ranks, g.scores)
               for g in games_with_a_loser()]
    r2 = rate(renamed)
    assert r2.separation.position == {"0": "below"} and r2.fit.anchor != "0"


def test_reference_is_the_best_placed_connected_agent():
    r = rate(games_with_a_loser())
    var = r.fit.difference_covariance()
    main = [r.fit.agents.index(a) for a in r.separation.main]
    totals = {r.fit.agents[i]: var[i, main].sum() for i in main}
    assert r.reference == min(sorted(totals), key=totals.get)


def test_named_anchor_still_works_and_shifts_only():
    default = rate(games_with_a_loser())
    named = rate(games_with_a_loser(), anchor="D")
    assert named.fit.anchor == "D" and named.fit.elo["D"] == 0.0 and named.reference == default.reference
    shift = named.fit.elo["A"] - default.fit.elo["A"]
    for a in default.fit.agents:
        assert named.fit.elo[a] - default.fit.elo[a] == pytest.approx(shift)
        lo, hi = default.comparison_interval[a]
        assert named.comparison_interval[a] == pytest.approx((lo + shift, hi + shift))
        assert named.los_next[a] == pytest.approx(default.los_next[a]) if default.los_next[a] else True
    assert "anchor asked for" in format_ratings_table(named)
    assert "The anchor D is itself separated" in format_ratings_table(named)


def test_cli_anchor_option_still_works(quickstart_db):
    result = run("ratings", quickstart_db, "--anchor", "greedy")
    assert result.exit_code == 0, result.output
    rows = table_rows(result.stdout)
    assert rows[GREEDY][0] == 0 and rows[MCTS][0] == 167  # the figure quoted with --anchor greedy
    assert "Elo 0 = greedy (the anchor asked for)" in " ".join(result.stdout.split())


# ---------------------------------------------------------------- LOS, by hand


def test_los_of_adjacent_rows_is_phi_of_gap_over_sd():
    # Two players: A ahead of B in 3 games, B ahead of A in 1; C behind A and B once each and
    # ahead of each once, so all three are connected.
    games = ([RatedGame(f"ab{k}", ("A", "B"), (1, 2), (1.0, 0.0)) for k in range(3)]
             + [RatedGame("ba", ("B", "A"), (1, 2), (1.0, 0.0))]
             + [RatedGame("ca", ("C", "A"), (1, 2), (1.0, 0.0)), RatedGame("ac", ("A", "C"), (1, 2), (1.0, 0.0)),
                RatedGame("cb", ("C", "B"), (1, 2), (1.0, 0.0)), RatedGame("bc", ("B", "C"), (1, 2), (1.0, 0.0))])
    r = rate(games)
    order = r.ranking()
    cov = r.fit.covariance
    for upper, lower in zip(order, order[1:]):
        i, j = r.fit.agents.index(upper), r.fit.agents.index(lower)
        sd = math.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])
        gap = r.fit.theta[upper] - r.fit.theta[lower]
        assert r.los_next[upper] == pytest.approx(0.5 * math.erfc(-gap / sd / math.sqrt(2)), abs=1e-12)
    assert r.los_next[order[-1]] is None
    assert order[0] == "A" and 0.5 < r.los_next["A"] < 0.99
    pairs = ratings_report(r)["los_pairs"]
    assert [(p["higher"], p["lower"]) for p in pairs] == list(zip(order, order[1:]))


def test_identical_records_give_los_one_half():
    games = [RatedGame("1", ("A", "B", "C"), (1, 2, 3), (0.0,) * 3),
             RatedGame("2", ("B", "A", "C"), (1, 2, 3), (0.0,) * 3),
             RatedGame("3", ("C", "A", "B"), (1, 2, 3), (0.0,) * 3),
             RatedGame("4", ("C", "B", "A"), (1, 2, 3), (0.0,) * 3)]
    r = rate(games)
    assert r.superiority["A"]["B"] == pytest.approx(0.5, abs=1e-9)


def test_quasi_variances_are_exact_when_the_structure_allows():
    q_true = np.array([0.5, 1.0, 2.0, 0.25])
    v = q_true[:, None] + q_true[None, :]
    q, worst = quasi_variances(v)
    assert q == pytest.approx(q_true, rel=1e-6) and worst < 1e-6
    q2, worst2 = quasi_variances(np.array([[0, 3.0], [3.0, 0]]))
    assert list(q2) == [1.5, 1.5] and worst2 == 0.0
    # Equal bars touch exactly at the comparison LOS.
    z = comparison_z(COMPARISON_LOS)
    assert 0.5 * math.erfc(-(2 * z / math.sqrt(2)) / math.sqrt(2)) == pytest.approx(COMPARISON_LOS)


# ---------------------------------------------------------------- time per move


def timed(key, labels, ranks, seconds, made, cpu=(), longest=(), longest_cpu=()):
    return GameOutcome(key=key, group=key, lineup=0, rotation=0, seed=0, labels=labels, specs=labels,
                       agent_seeds=(0,) * len(labels), moves=[], scores=[0.0] * len(labels), ranks=ranks,
                       plies=0, termination=END_RULES, move_seconds=seconds, moves_made=made,
                       move_cpu_seconds=list(cpu), move_max_seconds=list(longest),
                       move_max_cpu_seconds=list(longest_cpu))


def test_time_per_move_from_totals_of_older_files():
    """Only totals (files written before single moves were timed): the mean is exact, the
    max falls back to the slowest game's mean, marked ~, and CPU is unknown."""
    outcomes = [timed("g1", ("A", "B"), [1, 2], [2.0, 0.5], [10, 10]),
                timed("g2", ("B", "A"), [1, 2], [3.0, 1.0], [10, 10]),
                timed("g3", ("A", "B"), [2, 1], [0.0, 0.0], [0, 0])]  # nothing timed: skipped
    t = move_times(outcomes)
    assert t["A"].moves == 20 and t["A"].mean == pytest.approx(3.0 / 20) and t["A"].slowest_game_mean == 0.2
    assert t["B"].moves == 20 and t["B"].mean == pytest.approx(3.5 / 20) and t["B"].slowest_game_mean == 0.3
    assert t["A"].cpu_mean is None and t["A"].max_move is None and not t["A"].complete
    r = rate_outcomes(outcomes)
    table = format_ratings_table(r)
    assert "Wall mean ms" in table and "CPU time was not recorded" in table
    row = next(line for line in table.splitlines() if line.startswith("A ") and "~200" in line)
    assert row.split() == ["A", "20", "150", "~200", "-", "-"]
    agents = {a["agent"]: a for a in ratings_report(r)["agents"]}
    # Hand-made timings above (no clock is read): this checks the arithmetic and the JSON.
    assert agents["B"]["move_time"] == {"moves": 20, "entries": 2, "seconds": 3.5, "mean": pytest.approx(0.175),
                                        "max_game_mean": 0.3, "entries_with_move_detail": 0, "max": None,
                                        "cpu_moves": 0, "cpu_seconds": 0.0, "cpu_mean": None, "cpu_max": None}


def test_time_per_move_with_cpu_and_longest_moves():
    outcomes = [timed("g1", ("A", "B"), [1, 2], [2.0, 0.5], [10, 10], cpu=[1.0, 0.4], longest=[0.9, 0.1],
                      longest_cpu=[0.5, 0.08]),
                timed("g2", ("B", "A"), [1, 2], [3.0, 1.0], [10, 10], cpu=[2.0, 0.6], longest=[0.7, 0.3],
                      longest_cpu=[0.6, 0.2])]
    t = move_times(outcomes)
    assert t["A"].complete and t["A"].max_move == 0.9 and t["A"].cpu_max_move == 0.5
    assert t["A"].cpu_mean == pytest.approx(1.6 / 20) and t["B"].cpu_mean == pytest.approx(2.4 / 20)
    table = format_ratings_table(rate_outcomes(outcomes))
    row = next(line for line in table.splitlines() if line.startswith("A ") and "900" in line)
    assert row.split() == ["A", "20", "150", "900", "80", "500"]
    assert "~" not in table.split("Time per move")[1]
    # A game without the detail (a continuation, an older file) leaves its totals in the mean only.
    mixed = move_times(outcomes + [timed("g3", ("A", "B"), [1, 2], [5.0, 0.1], [10, 10])])
    assert not mixed["A"].complete and mixed["A"].detailed_games == 2 and mixed["A"].cpu_moves == 20
    assert mixed["A"].mean == pytest.approx(8.0 / 30)
    mixed_table = format_ratings_table(rate_outcomes(outcomes + [timed("g3", ("A", "B"), [1, 2], [5.0, 0.1],
                                                                      [10, 10])]))
    assert "~900" in mixed_table and "CPU time is over the games that kept it" in mixed_table


def test_a_tournament_records_cpu_and_longest_moves(tmp_path):
    """Games played from now on keep CPU time and the longest move per seat, and read back."""
    from forumlab.arena.tournament import run_tournament

    d = TournamentDefinition(config={"players": 3, "max_rounds": 2}, games_per_lineup=1,
                             agents=(PoolEntry("random", "random"), PoolEntry("greedy", "greedy")))
    db = tmp_path / "t.db"
    run_tournament(d, db, workers=0, progress=False)
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    # What is recorded, not how fast: one value per seat, and the longest move never more
    # than the seat's total, which holds however busy the machine is.
    for o in outcomes:
        assert len(o.move_cpu_seconds) == len(o.move_max_seconds) == len(o.move_max_cpu_seconds) == 3
        for s in range(3):
            assert 0 <= o.move_max_seconds[s] <= o.move_seconds[s] + 1e-12
            assert 0 <= o.move_max_cpu_seconds[s] <= o.move_cpu_seconds[s] + 1e-12
    t = move_times(outcomes)
    assert all(v.complete and v.cpu_mean is not None for v in t.values())
    report = json.loads(run("ratings", db, "--json").stdout)
    assert all(a["move_time"]["cpu_mean"] is not None for a in report["agents"])


def test_time_per_move_in_json_and_csv(quickstart_db):
    report = json.loads(run("ratings", quickstart_db, "--json").stdout)
    mcts = next(a for a in report["agents"] if a["agent"] == MCTS)
    assert mcts["move_time"]["moves"] > 0 and mcts["move_time"]["mean"] > 0
    assert mcts["move_time"]["max_game_mean"] >= mcts["move_time"]["mean"]
    assert "comparison_low" in mcts and "los_next" in mcts and report["los_pairs"]
    csv_header = run("ratings", quickstart_db, "--csv").stdout.splitlines()[0]
    assert "ms_per_move" in csv_header and "los_next" in csv_header


# ---------------------------------------------------------------- pooling


def small_store(path, seed, specs=None, config=None, lineup_games=4):
    """Hand-made games of three agents (no engine runs): A ahead most often."""
    labels = ("A", "B", "C")
    specs = specs or {a: "random" for a in labels}
    definition = TournamentDefinition(config=config or {"players": 3}, seed=seed,
                                      agents=tuple(PoolEntry(a, specs[a]) for a in labels))
    rng = np.random.default_rng(seed)
    outcomes = []
    for k in range(lineup_games * 3):
        order = [int(i) for i in rng.permutation(3)]  # agent index in each seat
        seat_labels = tuple(labels[i] for i in order)
        # Mostly the agents' order (A best); every third game a random finish, so that
        # each agent is ahead of each other somewhere.
        finish = [int(i) for i in rng.permutation(3)] if k % 3 == 2 else [0, 1, 2]
        ranks = [1 + finish.index(i) for i in order]
        outcomes.append(GameOutcome(key=f"L0-G{k:03d}", group=f"L0-G{k // 3}", lineup=0, rotation=k % 3,
                                    seed=seed + k, labels=seat_labels, specs=tuple(specs[a] for a in seat_labels),
                                    agent_seeds=(0, 0, 0), moves=[], scores=[3.0 - r for r in ranks], ranks=ranks,
                                    plies=0, termination=END_RULES, move_seconds=[0.1, 0.2, 0.3],
                                    moves_made=[10, 10, 10]))
    return write_store(path, outcomes, definition.to_json())


def test_two_files_are_rated_as_one(tmp_path):
    a = small_store(tmp_path / "a.db", 1)
    b = small_store(tmp_path / "b.db", 2)
    alone = json.loads(run("ratings", a, "--json").stdout)
    pooled = run("ratings", a, b, "--json")
    assert pooled.exit_code == 0, pooled.output
    report = json.loads(pooled.stdout)
    assert report["model"]["games"] == 2 * alone["model"]["games"]
    assert [s["path"] for s in report["sources"]] == [str(a), str(b)]
    text = run("ratings", a, b).stdout
    assert "24 games (pooled from 2 files)" in text
    api = forumlab.ratings([a, b])
    assert api["games"] == 24 and api["agents"] == report["agents"]
    merged = run("ratings", a, b, "--merge", "AB=A,B", "--json")
    assert merged.exit_code == 0, merged.output
    assert {row["agent"] for row in json.loads(merged.stdout)["agents"]} == {"AB", "C"}


def assert_refused(result, *needles):
    assert result.exit_code == 2, (result.exit_code, result.output)
    message = result.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    assert not result.stdout
    for needle in needles:
        assert needle in message, message


def test_incompatible_files_are_refused_with_one_line(tmp_path):
    a = small_store(tmp_path / "a.db", 1)
    other_spec = small_store(tmp_path / "spec.db", 2, specs={"A": "greedy", "B": "random", "C": "random"})
    other_config = small_store(tmp_path / "config.db", 3, config={"players": 3, "max_rounds": 5})
    before = sorted(p.name for p in tmp_path.iterdir())
    assert_refused(run("ratings", a, other_spec), "'A'", "'random'", "'greedy'")
    assert_refused(run("ratings", a, other_config), "config")
    assert_refused(run("ratings", a, a), "given twice")
    copy = tmp_path / "copy.db"
    copy.write_bytes(Path(a).read_bytes())
    assert_refused(run("ratings", a, copy), "same tournament")
    assert_refused(run("ratings", a, tmp_path / "missing.db"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before + ["copy.db"])
    with pytest.raises(ConfigError, match="same agent spec"):
        forumlab.ratings([a, other_spec])
