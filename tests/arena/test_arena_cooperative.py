"""Cooperative games in the arena (Foundations of Rome's Will of the Consul): team win
rates with Wilson intervals per agent and per lineup instead of Plackett-Luce ratings,
in ``ratings`` and ``balance``."""
import json
from types import SimpleNamespace

from click.testing import CliRunner

from forumlab.arena.balance import wilson_interval
from forumlab.arena.cooperative import is_cooperative, team_report
from forumlab.cli import main


def test_team_report_counts_each_game_once_per_agent_and_lineup():
    games = [SimpleNamespace(labels=("a", "b"), scores=[3, 3]), SimpleNamespace(labels=("b", "a"), scores=[-2, -2]),
             SimpleNamespace(labels=("a", "a"), scores=[5, 5]), SimpleNamespace(labels=("b", "b"), scores=[0, 0])]
    report = team_report(games)
    assert report["games"] == 4 and report["team"]["team_wins"] == 2
    assert report["agents"]["a"]["games"] == 3 and report["agents"]["a"]["team_wins"] == 2
    assert report["agents"]["b"]["games"] == 3 and report["agents"]["b"]["team_wins"] == 1  # 0 is no win
    assert report["lineups"]["a+b"] == {"games": 2, "team_wins": 1, "win_rate": 0.5,
                                        "win_rate_95": list(wilson_interval(1, 2)), "mean_value": 0.5}
    assert report["agents"]["a"]["mean_value"] == 2.0


def test_only_the_consul_game_is_cooperative():
    assert is_cooperative({"game": "foundations-of-rome", "config": {"players": 2, "consul": "hard"}})
    assert not is_cooperative({"game": "foundations-of-rome", "config": {"players": 2}})
    assert not is_cooperative({"game": "forum-romanum", "config": {"players": 3}})


def test_ratings_and_balance_report_the_team_for_a_consul_game(tmp_path):
    db = tmp_path / "c.db"
    run = CliRunner().invoke
    result = run(main, ["tournament", "run", "--game", "foundations-of-rome", "-p", "2", "-o", "consul=standard",
                        "-a", "random", "-a", "greedy", "--games", "1", "--db", str(db), "-q", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "team win rate" in result.stdout and "Elo" not in result.stdout
    report = json.loads(run(main, ["ratings", str(db), "--json"]).stdout)
    assert report["games"] == 2 and set(report["agents"]) == {"random", "greedy"}
    assert report["lineups"]["greedy+random"]["games"] == 2
    low, high = report["team"]["win_rate_95"]
    assert 0 <= low <= report["team"]["win_rate"] <= high <= 1
    result = run(main, ["balance", "foundations-of-rome", "-p", "1", "--agent", "greedy", "--games", "4",
                        "-o", "consul=hard", "--json", "-q", "--workers", "1"])
    assert result.exit_code == 0, result.output
    team = json.loads(result.stdout)["team"]
    assert team["games"] == 4 and 0 <= team["team_wins"] <= 4 and len(team["win_rate_95"]) == 2
