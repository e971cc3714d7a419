"""The ``start_silver`` study option (beyond the spec: for the balance study of the
start-silver rule): the default is the spec's 5 + seat, both engines apply and record
it, and a bad value is one line and exit 2 from the CLI."""
import json

import pytest
from click.testing import CliRunner

from forumlab.cli import main
from forumlab.core.errors import ConfigError
from forumlab.core.registry import create_game
from forumlab.engines.foundations_of_rome import layout as L
from forumlab.engines.foundations_of_rome.reference import ReferenceFoundationsOfRome

NAME = "foundations-of-rome"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_default_is_the_spec_rule_and_is_not_recorded(players):
    game = create_game(NAME, players=players)
    a = game.new_state(3).array
    assert [int(a[L.SILVER + p]) for p in range(players)] == [5 + p for p in range(players)]
    ref = ReferenceFoundationsOfRome(players=players).new_game(3)
    assert ref.silver == [5 + p for p in range(players)]
    # the spec's rule written out is the default: the config stays the published one
    spelled = create_game(NAME, players=players, start_silver=[5 + p for p in range(players)])
    assert "start_silver" not in game.config and spelled.config == game.config
    assert ReferenceFoundationsOfRome(players=players, start_silver=[5 + p for p in range(players)]
                                      ).config == game.config


def test_other_start_silver_is_applied_and_recorded_by_both_engines():
    game = create_game(NAME, players=4, start_silver=[5, 5, 5, 5])
    assert game.config["start_silver"] == [5, 5, 5, 5]
    a = game.new_state(2).array
    assert [int(a[L.SILVER + p]) for p in range(4)] == [5, 5, 5, 5]
    ref_game = ReferenceFoundationsOfRome(players=4, start_silver=[0, 1, 0, 12])
    assert ref_game.config["start_silver"] == [0, 1, 0, 12]
    assert ref_game.new_game(2).silver == [0, 1, 0, 12]
    # the record's config rebuilds the same game
    again = create_game(NAME, json.loads(json.dumps(game.config)))
    assert (again.new_state(2).array == a).all()


@pytest.mark.parametrize("bad", [[5, 5, 5], [5, 5, 5, 5, 5], [5, -1, 5, 5], [5, 5.5, 5, 5],
                                 [5, True, 5, 5], "5555", 5])
def test_bad_start_silver_is_a_one_line_config_error_in_both_engines(bad):
    with pytest.raises(ConfigError, match="start_silver") as info:
        create_game(NAME, players=4, start_silver=bad)
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match="start_silver") as info:
        ReferenceFoundationsOfRome(players=4, start_silver=bad)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("value", ["[5,5,5]", "[5,-2,5,5]", "'lots'"])
def test_bad_start_silver_exits_2_with_one_line_from_the_cli(tmp_path, value):
    result = CliRunner().invoke(main, ["play", NAME, "-p", "4", "-o", f"start_silver={value}",
                                       "--record", str(tmp_path / "r.json")])
    assert result.exit_code == 2
    lines = [x for x in result.output.splitlines() if x]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "start_silver" in lines[0]
    assert not (tmp_path / "r.json").exists()


def test_a_record_with_start_silver_replays_to_the_same_result(tmp_path):
    path = tmp_path / "game.json"
    played = CliRunner().invoke(main, ["play", NAME, "-p", "3", "--seed", "4", "-o", "start_silver=[0,0,20]",
                                       "--record", str(path), "--json"])
    assert played.exit_code == 0, played.output
    record = json.loads(path.read_text())
    assert record["config"]["start_silver"] == [0, 0, 20]
    replayed = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    again, first = json.loads(replayed.stdout), json.loads(played.stdout)  # stderr may say "compiling"
    for key in ("scores", "ranks", "plies", "silver", "vp_by_source"):
        assert again[key] == first[key], key
