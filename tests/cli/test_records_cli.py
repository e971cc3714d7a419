"""Game records, replay, determinism and the ``forumlab`` command line.

Most CLI tests run ``forumlab.cli.main`` in-process through click's CliRunner; one
test runs the installed console script in a real subprocess to prove the entry point.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.cli import main
from forumlab.core.errors import ForumlabError, RecordError
from forumlab.core.record import RECORD_FORMAT, Record, load_record, replay
from forumlab.core.registry import create_game
from forumlab.engines.forum_romanum.reference import ReferenceForumRomanum, cell_index, encode_move

RESULT_KEYS = {
    "scores", "colour_scores", "ranks", "winners", "plies",
    "terminal", "truncated", "settled", "deadlocked",
}

# ---------------------------------------------------------------- golden playthrough
# A hand-written 3-player game, max_rounds=8 (24 plies, all placements: 10 pieces each).
# Per colour, in the order played (round k = colour 0, 1, 2's k-th ply):
#   colour 0: a1 b1 c1 e6 a2 f6 d1 d4
#   colour 1: e1 a3 f1 b3 g6 a4 b2 e7
#   colour 2: g1 b4 a5 f7 b5 c2 g7 c7
# By hand (R = row, S = section; regions id'd as in the spec):
#   ply 17  a4 (c1) fills S-III a3:b5 = a3 b3 a4 | b4 a5 b5 -> (0, 3, 3): deadlock.
#   ply 19  d1 (c0) fills row 1 = a1 b1 c1 d1 | e1 f1 | g1 -> (4, 2, 1):
#           c0 +7, c2 -4                                         -> [7, 0, -4]
#   ply 20  b2 (c1) fills S-I a1:c2 = a1 b1 c1 a2 | b2 | c2 -> (4, 1, 1):
#           c0 +6, c1 and c2 tied lowest -2 each                -> [13, -2, -6]
#   ply 23  e7 (c1) fills S-VII e6:g7 = e6 f6 | g6 e7 | f7 g7 -> (2, 2, 2): deadlock.
#   ply 24  c7 (c2) completes round 8: the cap ends the game (truncated). Final
#           settlement of the two deadlocked regions:
#           S-III (0, 3, 3): c1 +4, c2 +4, c0 alone lowest of the rest -4;
#           S-VII (2, 2, 2): everybody tied for the lead, +4 each, nobody loses.
#   Final: c0 13 - 4 + 4 = 13, c1 -2 + 4 + 4 = 6, c2 -6 + 4 + 4 = 2.
# No other region is ever full: columns a and b miss rows 6-7, D1 misses c3 and e5,
# S-II misses d2:g2, rows 6/7 and S-VI have at most four pieces.
GOLDEN_CONFIG = {"players": 3, "max_rounds": 8}
GOLDEN_MOVES = [
    "a1", "e1", "g1",
    "b1", "a3", "b4",
    "c1", "f1", "a5",
    "e6", "b3", "f7",
    "a2", "g6", "b5",
    "f6", "a4", "c2",
    "d1", "b2", "g7",
    "d4", "e7", "c7",
]
GOLDEN_RESULT = {
    "scores": [13, 6, 2],
    "colour_scores": [13, 6, 2],
    "ranks": [1, 2, 3],
    "winners": [0],
    "plies": 24,
    "terminal": True,
    "truncated": True,
    "settled": [0, 16],  # row 1, section I
    "deadlocked": [18, 22],  # sections III and VII
    "pieces_in_hand": [2, 2, 2],
}
# The position after ply 20 (row 1 and section I settled, section III deadlocked).
GOLDEN_AFTER_20 = {
    "scores": [13, -2, -6],
    "ranks": [1, 2, 3],
    "winners": [],
    "plies": 20,
    "terminal": False,
    "truncated": False,
    "settled": [0, 16],
    "deadlocked": [18],
}


def golden_record(moves=GOLDEN_MOVES, **changes) -> dict:
    """The golden game's record with ``moves`` (and any fields in ``changes``, which
    are stored as given, unchecked) substituted."""
    data = {
        "format": RECORD_FORMAT,
        "game": "forum-romanum",
        "config": dict(GOLDEN_CONFIG),
        "seed": 0,
        "moves": list(moves),
    }
    data.update(changes)
    return data


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data))
    return path


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_bad_input(result, *fragments):
    """Exit code 2, a one-line 'error:' message naming the problem, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)  # not an escaped exception
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


# ---------------------------------------------------------------- golden playthrough
def test_golden_playthrough_facade():
    state = create_game("forum-romanum", GOLDEN_CONFIG).new_state(0)
    for ply, move in enumerate(GOLDEN_MOVES, start=1):
        state.play(move)
        res = state.result()
        if ply == 19:
            assert res["colour_scores"] == [7, 0, -4] and res["settled"] == [0]
        if ply == 20:
            assert {k: res[k] for k in GOLDEN_AFTER_20} == GOLDEN_AFTER_20
        if ply == 23:
            assert res["deadlocked"] == [18, 22] and not res["terminal"]
    res = state.result()
    assert {k: res[k] for k in GOLDEN_RESULT} == GOLDEN_RESULT


def test_golden_playthrough_reference_engine_agrees():
    ref = ReferenceForumRomanum(3, max_rounds=8)
    for ply, move in enumerate(GOLDEN_MOVES):
        ref.apply(encode_move(ply % 3, 63, cell_index(move)))
    assert ref.is_terminal() and ref.truncated
    assert ref.player_scores() == GOLDEN_RESULT["scores"]
    assert ref.settled_regions() == GOLDEN_RESULT["settled"]
    assert ref.deadlocked_regions() == GOLDEN_RESULT["deadlocked"]


def test_golden_record_replays_via_cli(tmp_path):
    path = write_json(tmp_path / "golden.json", golden_record())
    result = run("replay", path, "--json")
    assert result.exit_code == 0, result.output
    res = json.loads(result.stdout)
    assert RESULT_KEYS <= set(res)
    assert {k: res[k] for k in GOLDEN_RESULT} == GOLDEN_RESULT


def test_golden_record_replays_as_text(tmp_path):
    path = write_json(tmp_path / "golden.json", golden_record())
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    assert "truncated by the turn cap after 24 plies" in result.stdout
    assert "winner(s): seat 0" in result.stdout
    assert "settled: R1 S1" in result.stdout and "deadlocked: S3 S7" in result.stdout


def test_record_cut_short_replays_to_the_position_reached(tmp_path):
    path = write_json(tmp_path / "partial.json", golden_record(GOLDEN_MOVES[:20]))
    result = run("replay", path, "--json")
    assert result.exit_code == 0, result.output
    res = json.loads(result.stdout)
    assert {k: res[k] for k in GOLDEN_AFTER_20} == GOLDEN_AFTER_20
    result = run("replay", path)
    assert "in progress after 20 plies" in result.stdout


def test_empty_record_replays_to_the_start(tmp_path):
    path = write_json(tmp_path / "empty.json", golden_record([]))
    res = json.loads(run("replay", path, "--json").stdout)
    assert res["plies"] == 0 and res["terminal"] is False and res["scores"] == [0, 0, 0]
    assert res["ranks"] == [1, 1, 1] and res["winners"] == []


# ---------------------------------------------------------------- records in Python
def test_record_round_trip_in_python(tmp_path):
    state = create_game("forum-romanum", GOLDEN_CONFIG).new_state(0)
    for move in GOLDEN_MOVES:
        state.play(move)
    record = Record.from_state(state)
    assert record.moves == GOLDEN_MOVES
    record.save(tmp_path / "r.json")
    loaded = load_record(tmp_path / "r.json")
    assert loaded == Record.from_json(json.loads((tmp_path / "r.json").read_text()))
    assert loaded.to_json()["format"] == RECORD_FORMAT
    again = replay(loaded)
    assert np.array_equal(again.array, state.array)
    assert again.result() == state.result() == loaded.result


def test_same_config_seed_and_moves_give_the_same_result():
    game = create_game("forum-romanum", players=4, max_rounds=30)
    first = game.new_state(11)
    rng = np.random.default_rng(5)
    while not first.is_terminal:
        legal = first.legal_moves()
        first.play(int(legal[rng.integers(len(legal))]))
    for _ in range(2):
        other = create_game("forum-romanum", players=4, max_rounds=30).new_state(11)
        for move in first.move_texts():
            other.play(move)
        assert np.array_equal(other.array, first.array)
        assert other.result() == first.result()


def test_replay_rejects_bad_records_with_record_error():
    with pytest.raises(RecordError, match=r"ply 3: illegal move 'a1'"):
        replay(Record.from_json(golden_record(["a1", "b1", "a1"])))
    with pytest.raises(RecordError):
        Record.from_json(golden_record(format="forumlab-record/0"))
    assert issubclass(RecordError, ForumlabError)


# ---------------------------------------------------------------- CLI: games, play
def test_games_lists_forum_romanum():
    result = run("games")
    assert result.exit_code == 0
    assert "forum-romanum" in result.stdout and "2-6 players" in result.stdout


def test_play_random_agents_are_deterministic(tmp_path):
    args = ["play", "forum-romanum", "-p", "4", "--seed", "17", "-o", "max_rounds=40", "--json"]
    a = run(*args, "--record", tmp_path / "a.json")
    b = run(*args, "--record", tmp_path / "b.json")
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    assert json.loads(a.stdout) == json.loads(b.stdout)
    rec_a = json.loads((tmp_path / "a.json").read_text())
    rec_b = json.loads((tmp_path / "b.json").read_text())
    assert rec_a == rec_b
    assert len(rec_a["moves"]) == json.loads(a.stdout)["plies"] > 0
    # A different seed gives a different game.
    c = run("play", "forum-romanum", "-p", "4", "--seed", "18", "-o", "max_rounds=40",
            "--record", tmp_path / "c.json")
    assert c.exit_code == 0
    assert json.loads((tmp_path / "c.json").read_text())["moves"] != rec_a["moves"]


@pytest.mark.parametrize("players,options",
                         [(2, ["-o", "max_rounds=25"]), (3, []), (5, ["-o", "max_rounds=0"])])
def test_play_record_replays_to_the_same_result(tmp_path, players, options):
    path = tmp_path / "game.json"
    played = run("play", "forum-romanum", "-p", players, "--seed", 3, *options, "--record", path, "--json")
    assert played.exit_code == 0, played.output
    res_play = json.loads(played.stdout)
    assert res_play["agents"] == ["random"] * players
    assert res_play["terminal"] is True
    record = json.loads(path.read_text())
    assert record["format"] == RECORD_FORMAT and record["game"] == "forum-romanum"
    assert record["config"]["players"] == players and record["seed"] == 3
    assert all(isinstance(m, str) for m in record["moves"])
    replayed = run("replay", path, "--json")
    assert replayed.exit_code == 0, replayed.output
    res_replay = json.loads(replayed.stdout)
    assert RESULT_KEYS <= set(res_replay)
    del res_play["agents"]
    assert res_replay == res_play
    assert res_replay == record["result"]
    assert res_replay["plies"] == len(record["moves"])
    if players == 5:  # max_rounds=0: no cap, the game ends by the rules
        assert res_replay["truncated"] is False
        assert sorted(res_replay["settled"] + res_replay["deadlocked"]) == list(range(23))


def test_play_text_output_and_show():
    result = run("play", "forum-romanum", "-p", "3", "--seed", "1", "-o", "max_rounds=2", "--show")
    assert result.exit_code == 0, result.output
    assert "ply 6: seat 2 (random) plays" in result.stdout
    assert "truncated by the turn cap after 6 plies" in result.stdout
    assert "seat 0 random: score" in result.stdout


def test_cut_record_from_play_replays_to_the_position_reached(tmp_path):
    path = tmp_path / "full.json"
    assert run("play", "forum-romanum", "-p", "6", "--seed", "9", "--record", path).exit_code == 0
    record = json.loads(path.read_text())
    cut = dict(record, moves=record["moves"][:45])
    del cut["result"]
    res = json.loads(run("replay", write_json(tmp_path / "cut.json", cut), "--json").stdout)
    assert res["plies"] == 45 and res["terminal"] is False and res["truncated"] is False
    assert res["winners"] == []
    state = create_game("forum-romanum", record["config"]).new_state(9)
    for move in record["moves"][:45]:
        state.play(move)
    assert res == state.result()


# ---------------------------------------------------------------- CLI: bad input
def test_replay_illegal_move_names_ply_and_move(tmp_path):
    moves = GOLDEN_MOVES[:6] + ["a1"] + GOLDEN_MOVES[7:]  # a1 is occupied at ply 7
    path = write_json(tmp_path / "bad.json", golden_record(moves))
    assert_bad_input(run("replay", path, "--json"), "ply 7", "'a1'")


def test_replay_illegal_moving_move_names_ply_and_move(tmp_path):
    moves = GOLDEN_MOVES[:3] + ["a1-a2"]  # colour 0 still has pieces in hand
    path = write_json(tmp_path / "bad.json", golden_record(moves))
    assert_bad_input(run("replay", path), "ply 4", "'a1-a2'")


@pytest.mark.parametrize("bad", ["zz9", "d4-", "1:d4", "x:d4", "", "d4 e5"])
def test_replay_malformed_move_names_ply_and_move(tmp_path, bad):
    moves = GOLDEN_MOVES[:2] + [bad] + GOLDEN_MOVES[3:]
    path = write_json(tmp_path / "bad.json", golden_record(moves))
    assert_bad_input(run("replay", path, "--json"), "ply 3", repr(bad))


def test_replay_move_after_the_end(tmp_path):
    path = write_json(tmp_path / "long.json", golden_record(GOLDEN_MOVES + ["e5"]))
    assert_bad_input(run("replay", path), "ply 25", "'e5'", "after the end")


@pytest.mark.parametrize(
    "changes,fragment",
    [
        ({"format": "forumlab-record/2"}, "unsupported record format"),
        ({"format": None}, "unsupported record format"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": 7}, "'game'"),
        ({"config": {"players": 9}}, "2-6 players"),
        ({"config": {"players": 1}}, "2-6 players"),
        ({"config": {"players": 3, "max_rounds": -1}}, "max_rounds"),
        ({"config": {"players": 3, "bogus": 1}}, "bogus"),
        ({"config": [3]}, "'config'"),
        ({"seed": "seven"}, "'seed'"),
        ({"moves": "a1 b1"}, "'moves'"),
        ({"moves": ["a1", 5]}, "'moves'"),
    ],
)
def test_replay_bad_record_fields(tmp_path, changes, fragment):
    data = golden_record()
    data.update(changes)  # e.g. a "moves" that is not a list
    path = write_json(tmp_path / "bad.json", data)
    assert_bad_input(run("replay", path, "--json"), fragment)


def test_replay_record_that_is_not_an_object(tmp_path):
    assert_bad_input(run("replay", write_json(tmp_path / "list.json", [1, 2])), "JSON object")


def test_replay_malformed_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "forumlab-record/1", "moves": [')
    assert_bad_input(run("replay", path), "not valid JSON")


def test_replay_empty_file(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text("")
    assert_bad_input(run("replay", path, "--json"), "not valid JSON")


def test_replay_missing_file(tmp_path):
    assert_bad_input(run("replay", tmp_path / "nope.json"), "cannot read", "nope.json")


def test_play_unknown_game():
    assert_bad_input(run("play", "forum-trajanum-x", "--json"), "unknown game 'forum-trajanum-x'",
                     "forum-romanum")


@pytest.mark.parametrize("players", [0, 1, 7, 100, -2])
def test_play_player_count_out_of_range(players):
    assert_bad_input(run("play", "forum-romanum", "-p", players), "2-6 players")


@pytest.mark.parametrize(
    "extra,fragment",
    [
        (["-o", "max_rounds=-5"], "max_rounds"),
        (["-o", "max_rounds=lots"], "max_rounds"),
        (["-o", "colour=red"], "colour"),
        (["-a", "random,random"], "2 agents given for 3 players"),
        (["-a", "nosuchagent,random,random"], "unknown agent 'nosuchagent'"),
    ],
)
def test_play_bad_options(extra, fragment):
    assert_bad_input(run("play", "forum-romanum", "-p", "3", *extra), fragment)


def test_play_record_into_missing_directory_is_a_clean_error(tmp_path):
    result = run("play", "forum-romanum", "-p", "3", "-o", "max_rounds=1",
                 "--record", tmp_path / "no" / "such" / "dir" / "g.json")
    assert_bad_input(result, "g.json")


@pytest.mark.parametrize("where", ["play", "record"])
def test_seed_out_of_int64_range_is_a_clean_error(tmp_path, where):
    if where == "play":
        result = run("play", "forum-romanum", "-p", "3", "--seed", 2**64)
    else:
        result = run("replay", write_json(tmp_path / "big.json", golden_record(seed=2**64)))
    assert_bad_input(result, "seed")


# ---------------------------------------------------------------- the real entry point
def test_console_script_plays_and_replays_in_a_subprocess(tmp_path):
    script = Path(sys.executable).with_name("forumlab")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "forumlab.cli"]
    path = tmp_path / "sub.json"
    proc = subprocess.run(
        command + ["play", "forum-romanum", "-p", "3", "--seed", "21", "-o", "max_rounds=5",
                   "--record", str(path), "--json"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    res = json.loads(proc.stdout)
    assert res["plies"] == 15 and res["truncated"] is True
    # The subprocess and this process agree on the same seeded game.
    in_process = run("play", "forum-romanum", "-p", "3", "--seed", "21", "-o", "max_rounds=5", "--json")
    assert json.loads(in_process.stdout) == res
    assert json.loads(run("replay", path, "--json").stdout) == {k: v for k, v in res.items() if k != "agents"}


def test_colour_rendering_paints_only_the_grid():
    from forumlab.core.registry import create_game

    for name, options, moves in (("forum-romanum", {}, ["d4", "a1"]),
                                 ("forma", {"obstacles": "none"}, ["I1/0@a1"])):
        state = create_game(name, players=3, **options).new_state(0)
        for m in moves:
            state.play(m)
        plain, painted = state.render(), state.render(color=True)
        assert "\x1b[" not in plain and "\x1b[1;31mA\x1b[0m" in painted
        # Removing the escape codes gives the plain picture back.
        import re
        assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == plain
