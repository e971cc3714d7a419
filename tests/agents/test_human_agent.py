"""The ``human`` agent: a person playing through ``forumlab play``, driven here by
scripted standard input (``human(input=-)`` reads piped input; plain ``human`` wants a
terminal)."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.agents import human as human_module
from forumlab.cli import main
from forumlab.core.record import load_record, replay
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng

HUMAN = "human(input=-)"
ROOT = Path(__file__).resolve().parents[2]


def play(tmp_path, monkeypatch, args, lines, human=HUMAN, others="greedy"):
    """``forumlab play`` in ``tmp_path`` with a human at seat 0 reading ``lines``."""
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, ["play", *args, "-a", f"{human},{others}"],
                              input="".join(line + "\n" for line in lines))


def human_moves(record, seat):
    """(position before, move code) of every move ``seat`` made in ``record``."""
    game = create_game(record.game, record.config)
    state = game.new_state(record.seed)
    out = []
    for text in record.moves:
        code = state.parse(text)
        if state.current_player == seat:
            out.append((state.copy(), code))
        state.play(code)
    return out


def test_a_full_game_against_a_bot_by_numbers(tmp_path, monkeypatch):
    """'1' (the first listed move) at every prompt plays 2-player Forum Romanum to its end
    (here the 30-round cap: always the first move shuffles one piece to and fro); the
    record replays to the finished game."""
    result = play(tmp_path, monkeypatch, ["forum-romanum", "--seed", "3", "-o", "max_rounds=30",
                                          "--record", "g.json"], ["1"] * 200)
    assert result.exit_code == 0, result.output
    assert "game truncated by the turn cap after 120 plies" in result.stdout
    assert "warning" not in result.stderr  # no fault: every answer was a legal move
    record = load_record(tmp_path / "g.json")
    assert replay(record).is_terminal
    mine = human_moves(record, 0)
    assert len(mine) > 20
    for before, code in mine:  # '1' is the first legal move of the position
        assert code == int(before.legal_moves()[0])
    assert result.stdout.count("seat 0> ") == len(mine)
    # the board of every position the person moves in is shown at the prompt
    assert all(before.render() in result.stdout for before, _ in mine[:5])
    assert CliRunner().invoke(main, ["replay", str(tmp_path / "g.json")]).exit_code == 0


def test_malformed_and_illegal_moves_are_refused_and_asked_again(tmp_path, monkeypatch):
    lines = ["zz", "2:a1", "0", "", "0:a1", "quit"]  # colour 2 is seat 1's
    result = play(tmp_path, monkeypatch, ["forum-romanum", "--record", "g.json"], lines)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "not a legal move: move 'zz' needs a colour prefix" in out
    assert "not a legal move: '2:a1' is not legal here" in out
    assert "no move numbered 0: there are 98 legal moves" in out
    assert "ply 1: seat 0 (human(input=-)) plays 0:a1" in out
    assert out.count("seat 0> ") == 6  # every line answered a prompt (none went to the warm-up)
    assert "warning" not in result.stderr
    record = load_record(tmp_path / "g.json")
    assert record.moves == ["0:a1"]
    assert record.extra["interrupted"]["cause"].startswith("quit (seat 0")


def test_moves_lists_legal_moves_by_prefix_in_pages(tmp_path, monkeypatch):
    result = play(tmp_path, monkeypatch, ["forum-romanum"], ["moves 1:", "more", "? 0:g", "quit"],
                  human="human(input=-, page=10)")
    assert result.exit_code == 0, result.output
    texts = create_game("forum-romanum", {"players": 2}).new_state(0).legal_move_texts()
    listed = {}  # number -> text, from lines like "  50. 1:a1    51. 1:b1"
    for line in result.stdout.splitlines():
        cells = line.split()
        if cells and cells[0].endswith(".") and cells[0][:-1].isdigit():
            for number, text in zip(cells[::2], cells[1::2]):
                listed[int(number[:-1])] = text
    ones = [t for t in texts if t.startswith("1:")]
    assert f"{len(ones)} of {len(texts)} legal moves start with '1:'" in result.stdout
    assert f"... {len(ones) - 10} more: 'more' shows the next 10" in result.stdout
    gs = [t for t in texts if t.startswith("0:g")]
    assert len(listed) == 20 + len(gs)  # two pages of '1:' and every '0:g' move
    for number, text in listed.items():  # the numbers are the legal moves' places
        assert texts[number - 1] == text
        assert text.startswith(("1:", "0:g"))


def test_a_long_list_says_how_its_moves_begin(tmp_path, monkeypatch):
    """Forma has ~22,000 opening moves: a bare 'moves' names the prefixes that narrow it."""
    result = play(tmp_path, monkeypatch, ["forma"], ["moves", "moves P5/3", "quit"], others="random")
    assert result.exit_code == 0, result.output
    texts = create_game("forma", {"players": 2}).new_state(0).legal_move_texts()
    p5 = sum(t.startswith("P5/") for t in texts)
    assert f"P5 ({p5})" in result.stdout
    p53 = sum(t.startswith("P5/3") for t in texts)
    assert f"{p53} of {len(texts)} legal moves start with 'P5/3'" in result.stdout


def test_undo_restores_the_position_before_the_last_move(tmp_path, monkeypatch):
    """Forum Romanum 2 players: seat 0 plays plies 1-2, the bot 3-4; 'undo' at ply 5 takes
    back ply 2 and the bot's replies; 'undo' before any move is refused."""
    lines = ["undo", "1", "1", "undo", "quit"]
    result = play(tmp_path, monkeypatch, ["forum-romanum", "--seed", "5", "--record", "g.json"], lines)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "nothing to undo: you have not moved yet" in out
    assert "ply 4: seat 1 (greedy) plays" in out  # the bot had replied
    assert "undone: back to ply 1, before seat 0's last move" in out
    after_one = create_game("forum-romanum", {"players": 2}).new_state(5)
    after_one.play(after_one.legal_moves()[0])
    assert after_one.render() in out.split("undone: back to ply 1")[1]  # the board shown again
    record = load_record(tmp_path / "g.json")
    assert record.moves == after_one.move_texts()


def test_end_of_input_saves_the_record_under_a_new_name(tmp_path, monkeypatch):
    result = play(tmp_path, monkeypatch, ["forum-romanum", "--seed", "2"], ["1"])
    assert result.exit_code == 0, result.output
    files = list(tmp_path.glob("forumlab-forum-romanum-seed2-*.json"))
    assert len(files) == 1
    assert f"stopped by seat 0 (end of input); the record of the 1 plies played is in {files[0].name}" \
        in result.stderr
    record = load_record(files[0])
    assert len(record.moves) == 1
    assert record.extra["interrupted"] == {"cause": "end of input (seat 0, human(input=-))", "after_plies": 1}
    replayed = CliRunner().invoke(main, ["replay", str(files[0]), "--json"])
    assert replayed.exit_code == 0 and json.loads(replayed.stdout)["plies"] == 1


def test_commands_from_a_file(tmp_path, monkeypatch):
    (tmp_path / "cmds.txt").write_text("board\n1\nquit\n")
    result = play(tmp_path, monkeypatch, ["forum-romanum", "--record", "g.json"], [],
                  human=f"human(input={tmp_path / 'cmds.txt'})")
    assert result.exit_code == 0, result.output
    assert "seat 0> board\n" in result.stdout  # echoed, so the transcript reads as a session
    assert len(load_record(tmp_path / "g.json").moves) == 1


def test_hidden_information_shows_only_the_seat_view(tmp_path, monkeypatch):
    """Foundations of Rome with the draft: the bot at seat 0 picks first; its secret picks
    are never named to the person at seat 1, who cannot undo and plays to the end."""
    monkeypatch.chdir(tmp_path)
    lines = ["undo", "history"] + ["1"] * 400
    result = CliRunner().invoke(
        main, ["play", "foundations-of-rome", "-o", "draft=true", "--seed", "2", "-a", f"random,{HUMAN}",
               "--record", "g.json"], input="".join(line + "\n" for line in lines))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "game finished after" in out
    assert "warning" not in result.stderr  # every pick from the view was legal in the game
    assert "undo is not possible in a hidden-information game" in out
    assert "the history is not shown in a hidden-information game" in out
    record = load_record(tmp_path / "g.json")
    bot_picks = [text for (before, code) in human_moves(record, 0)
                 if (text := before.game.format_move(before.array, code)).startswith("K:")]
    assert bot_picks  # the draft happened
    for text in bot_picks:
        assert text not in out  # neither announced nor listed
    assert "plays a move hidden from you" in out
    # the human's own picks and every public move of the bot are named
    mine = human_moves(record, 1)
    first_own = mine[0][0].game.format_move(mine[0][0].array, mine[0][1])
    assert f"seat 1 (human(input=-)) plays {first_own}" in out
    assert any(" seat 0 (random) plays " in line and "hidden" not in line for line in out.splitlines())
    # the board at the prompt is drawn from a determinization from seat 1: in this game
    # it shows only what the seat may see, so any determinization draws the true board
    rng = make_rng(7)
    for before, _ in mine[:40]:
        assert before.view_for(1, rng).render() == before.render()
        assert before.render() in out


def test_hidden_information_takes_one_human_seat(tmp_path, monkeypatch):
    result = play(tmp_path, monkeypatch, ["foundations-of-rome"], [], others=HUMAN)
    assert result.exit_code == 2
    assert "takes at most one human seat" in result.stderr
    assert not list(tmp_path.iterdir())


def test_human_needs_a_terminal_unless_input_is_given(tmp_path, monkeypatch):
    result = play(tmp_path, monkeypatch, ["forum-romanum"], ["1"], human="human")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: agent 'human' needs an interactive standard input")
    # a tournament refuses it without a terminal, and with one too (its games run in
    # worker processes, which have none), unless its commands come from a file
    args = ["tournament", "run", "-a", "human", "-a", "random", "-p", "2", "--games", "1", "--db", "t.db"]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2 and "needs an interactive standard input" in refused.stderr
    monkeypatch.setattr(human_module, "_stdin_is_terminal", lambda: True)
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2
    assert "asks a person at the terminal" in refused.stderr and "human(input=PATH)" in refused.stderr
    assert not (tmp_path / "t.db").exists()


def test_ctrl_c_at_the_prompt_saves_the_record_and_exits_130(tmp_path):
    """A real process: SIGINT while the person is asked for a move."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "forumlab.cli", "play", "forum-romanum", "-a", f"{HUMAN},greedy",
         "--record", "g.json"], cwd=tmp_path, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = bytearray()

    def read():
        while chunk := os.read(proc.stdout.fileno(), 4096):
            seen.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    proc.stdin.write(b"1\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 600  # generous: a cold numba cache compiles first
    while seen.count(b"seat 0> ") < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert seen.count(b"seat 0> ") >= 2, seen.decode()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err.decode()
    assert "interrupted; the record of the 1 plies played is in g.json" in err.decode()
    record = load_record(tmp_path / "g.json")
    assert len(record.moves) == 1
    assert record.extra["interrupted"]["cause"] == "interrupted (Ctrl-C)"


@pytest.mark.parametrize("name", ["forum-romanum", "foundations-of-rome"])
def test_rewind_replays_the_history(name):
    """The driver's undo: the position and history are those before the seat's last move."""
    game = create_game(name, {"players": 2})
    state = game.new_state(4)
    positions = [state.copy()]
    movers = []
    for _ in range(7):
        movers.append(state.current_player)
        state.play(state.legal_moves()[-1])
        positions.append(state.copy())
    seat = movers[-1]
    last = max(i for i, s in enumerate(movers) if s == seat)
    assert human_module.rewind_before_last_move(state, seat) == last
    assert state.history == positions[last].history
    assert (state.array == positions[last].array).all()
