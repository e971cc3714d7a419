"""benchmarks.score_sources: the per-source breakdown adds up to the winners' margins."""
import json

import pytest
from click.testing import CliRunner

from benchmarks.score_sources import main, source_breakdown
from forumlab.arena.export import iter_game_records
from forumlab.arena.store import ResultStore
from forumlab.cli import main as cli


def test_source_leads_add_up_to_the_winners_mean_lead(tmp_path):
    db = tmp_path / "b.db"
    run = CliRunner().invoke(cli, ["balance", "foundations-of-rome", "-p", "3", "--agent", "random",
                                   "--games", "2", "--db", str(db), "-q", "-w", "1"])
    assert run.exit_code == 0, run.output
    with ResultStore.open(db, readonly=True) as store:
        records = list(iter_game_records(store))
    sole = [r for r in records if r["result"]["ranks"].count(1) == 1]
    # Every VP comes from one source, so the sources' leads sum to the score lead.
    expected = sum(
        r["result"]["scores"][r["result"]["ranks"].index(1)]
        - (sum(r["result"]["scores"]) - r["result"]["scores"][r["result"]["ranks"].index(1)]) / 2
        for r in sole) / len(sole)
    report = source_breakdown(records)
    assert report["games_with_one_winner"] == len(sole)
    assert sum(s["winner_lead"] for s in report["sources"].values()) == pytest.approx(
        expected, abs=0.01 * len(report["sources"]))
    for stats in report["sources"].values():
        assert 0.0 <= stats["winner_top_share"] <= 1.0
    out = CliRunner().invoke(main, [str(db)])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["game"] == "foundations-of-rome"
