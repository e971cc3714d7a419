"""``forumlab ratings --merge``: copies of one spec rated as one agent."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.arena.merge import merge_labels, parse_merge
from forumlab.arena.ratings import ELO_PER_NAT, rate, rated_games
from forumlab.arena.store import ResultStore
from forumlab.cli import main
from forumlab.core.errors import ConfigError

SPECS = {"slow": "mcts(cpu_time=1)", "fast1": "mcts(cpu_time=0.1)", "fast2": "mcts(cpu_time=0.1)",
         "fast3": "mcts(cpu_time=0.1)", "greedy": "greedy"}


def gauntlet_outcomes(seed=0, groups=40, slow_elo=100.0):
    """4-player games of slow against three copies, every seat in turn, ranks drawn from
    Plackett-Luce (Gumbel trick) with slow ``slow_elo`` above the copies."""
    rng = np.random.default_rng(seed)
    lineup = ["slow", "fast1", "fast2", "fast3"]
    outcomes = []
    for g in range(groups):
        for r in range(4):
            seated = lineup[r:] + lineup[:r]
            eta = np.array([(slow_elo if a == "slow" else 0.0) / ELO_PER_NAT for a in seated])
            order = np.argsort(-(eta + rng.gumbel(size=4)))
            ranks = np.empty(4, dtype=int)
            ranks[order] = np.arange(1, 5)
            outcomes.append(GameOutcome(
                key=f"{g}-{r}", group=str(g), lineup=0, rotation=r, seed=g, labels=tuple(seated),
                specs=tuple(SPECS[a] for a in seated), agent_seeds=(0,) * 4, moves=[],
                scores=[float(10 - x) for x in ranks], ranks=[int(x) for x in ranks], plies=0,
                termination=END_RULES))
    return outcomes


def test_parse_merge_reads_name_and_labels():
    assert parse_merge("fast=fast1, fast2,fast3") == ("fast", ("fast1", "fast2", "fast3"))
    for bad in ("fast", "=a,b", "fast=", "fast=a", "fast=a,,b", "fast=a,a"):
        with pytest.raises(ConfigError):
            parse_merge(bad)


def test_merged_copies_are_one_agent_and_the_games_are_untouched():
    outcomes = gauntlet_outcomes()
    merged = merge_labels(outcomes, ["fast=fast1,fast2,fast3"])
    assert [o.labels.count("fast") for o in merged] == [3] * len(outcomes)
    assert [o.ranks for o in merged] == [o.ranks for o in outcomes]
    assert outcomes[0].labels == ("slow", "fast1", "fast2", "fast3")  # the originals are not changed
    r = rate(rated_games(merged), anchor="fast")
    assert sorted(r.fit.elo) == ["fast", "slow"]
    assert r.agent_stats["fast"].entries == 3 * len(outcomes)


def test_merged_rating_is_as_centred_and_narrower_than_against_one_copy():
    """Over many simulated gauntlets with slow +100 above its copies, slow's Elo against the
    merged copies and against fast1 both centre near +100; the merged interval is narrower
    in every one, since it does not carry fast1's own estimation noise."""
    apart, together = [], []
    for seed in range(12):
        outcomes = gauntlet_outcomes(seed)
        a = rate(rated_games(outcomes), anchor="fast1")
        b = rate(rated_games(merge_labels(outcomes, ["fast=fast1,fast2,fast3"])), anchor="fast")
        width_a = a.elo_interval["slow"][1] - a.elo_interval["slow"][0]
        width_b = b.elo_interval["slow"][1] - b.elo_interval["slow"][0]
        assert width_b < 0.9 * width_a
        apart.append(a.fit.elo["slow"])
        together.append(b.fit.elo["slow"])
    # 12 x 160 games: each mean has a standard error of about 10 Elo.
    assert np.mean(together) == pytest.approx(100, abs=35)
    assert np.mean(apart) == pytest.approx(100, abs=35)


@pytest.mark.parametrize("merges, message", [
    (["fast=fast1,nobody"], "nobody"),
    (["fast=fast1,slow"], "different specs"),
    (["slow=fast1,fast2"], "already another agent's label"),
    (["a=fast1,fast2", "b=fast2,fast3"], "two merges"),
])
def test_bad_merges_are_refused(merges, message):
    with pytest.raises(ConfigError, match=message):
        merge_labels(gauntlet_outcomes(groups=2), merges)


def test_ratings_command_merges_and_refuses_in_one_line(tmp_path):
    outcomes = gauntlet_outcomes(groups=6)
    db = tmp_path / "g.db"
    definition = TournamentDefinition(config={"players": 4},  # the games' seats: a file is read strictly
                                      agents=tuple(PoolEntry(a, SPECS[a]) for a in ("slow", "fast1", "fast2",
                                                                                      "fast3")))
    with ResultStore.create(db, definition, {}, synchronous="NORMAL") as store:
        for o in outcomes:
            store.record(o)
    runner = CliRunner()
    out = runner.invoke(main, ["ratings", str(db), "--merge", "fast=fast1,fast2,fast3", "--anchor", "fast",
                               "--json"])
    assert out.exit_code == 0, out.output
    rows = {row["agent"]: row for row in json.loads(out.stdout)["agents"]}
    assert sorted(rows) == ["fast", "slow"] and rows["fast"]["entries"] == 3 * len(outcomes)
    bad = runner.invoke(main, ["ratings", str(db), "--merge", "fast=fast1,slow"])
    assert bad.exit_code == 2
    assert bad.stderr.strip().startswith("error: ") and "\n" not in bad.stderr.strip()
    assert "different specs" in bad.stderr
