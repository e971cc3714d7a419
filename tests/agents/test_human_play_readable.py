"""What a person playing through ``forumlab play`` reads: the rules and a legend on
request, the scoring sections of Forum Romanum and what "settled" means, and in Forum
Trajanum the other seats' public moves in words (the secret ones still hidden), the
tiles just taken, and a screen that moves by a few lines per ply of the other seats.
Driven by scripted standard input (``human(input=-)``), as in test_human_agent.py."""
import re

from click.testing import CliRunner

from forumlab.agents.human import announce_ply, seat_picture
from forumlab.cli import main
from forumlab.core.record import load_record
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.testing.conformance import check_move_seen_by

HUMAN = "human(input=-)"
PROMPT = "seat 0> "


def play(tmp_path, monkeypatch, args, lines, agents=f"{HUMAN},greedy"):
    """``forumlab play`` in ``tmp_path`` with the human at seat 0 reading ``lines``."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", *args, "-a", agents, "--record", "g.json"],
                                input="".join(line + "\n" for line in lines))
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr
    return result.stdout, load_record(tmp_path / "g.json")


def moves_by(record, seat):
    """(true array before, move code, notation) of every move ``seat`` made in ``record``."""
    state = create_game(record.game, record.config).new_state(record.seed)
    out = []
    for text in record.moves:
        code = state.parse(text)
        if state.current_player == seat:
            out.append((state.array.copy(), code, text))
        state.play(code)
    return out


# ---- rules, legend, help -----------------------------------------------------------------
def test_rules_prints_the_short_rules_and_is_named_in_the_greeting_and_help(tmp_path, monkeypatch):
    out, _ = play(tmp_path, monkeypatch, ["forum-romanum", "-p", "3"], ["rules", "help", "quit"],
                  agents=f"{HUMAN},greedy,greedy")
    rules = create_game("forum-romanum", {"players": 3}).rules_text()
    assert f"{PROMPT}rules\n" + rules.strip("\n") in out
    greeting = out.split(PROMPT)[0]
    assert "'rules' for the rules" in greeting
    assert re.search(r"^  rules +the game's short rules$", out, re.M)


def test_forum_trajanum_rules_and_legend_commands(tmp_path, monkeypatch):
    out, _ = play(tmp_path, monkeypatch, ["forum-trajanum", "-p", "2"], ["rules", "legend", "quit"])
    game = create_game("forum-trajanum", {"players": 2})
    assert game.rules_text().strip("\n") in out
    legend = game.legend()
    assert out.count(legend) == 2  # once at the start, once for 'legend'
    assert out.index(legend) < out.index(PROMPT)


# ---- Forum Romanum ---------------------------------------------------------------------------
def test_forum_romanum_board_labels_the_sections_and_explains_settled(tmp_path, monkeypatch):
    out, record = play(tmp_path, monkeypatch, ["forum-romanum", "-p", "3", "--seed", "1"], ["1"] * 12,
                       agents=f"{HUMAN},greedy,greedy")
    # the section map beside the board, at every prompt
    assert out.count("    a b c d e f g     sections S1-S7") == out.count(PROMPT)
    assert re.search(r"^ 1  (\S ){7}    1 1 1 2 2 2 2$", out, re.M)
    assert re.search(r"^ 7  (\S ){7}    6 6 6 6 7 7 7$", out, re.M)
    # the legend at the start: the 23 regions, settled and deadlocked in words
    start = out.split(PROMPT)[0]
    assert "sections S1-S7, worth their cells: 6 8 6 9 6 8 6" in start
    assert "SETTLED" in start and "never scores again" in start and "DEADLOCKED" in start
    assert "you are A" in out
    # a region that settles is announced with its points, and the board explains the word
    state = create_game("forum-romanum", {"players": 3}).new_state(1)
    for text in record.moves:
        state.play(text)
    settled = state.result()["settled"]
    assert settled, "the scripted game settles a region"
    assert re.search(r"^  \* settled: S\d \(worth \d\): ", out, re.M)
    assert "settled: S" in out and "(filled with a sole leader, scored once: never scores again)" in out


def test_forum_romanum_render_keeps_its_lines_for_other_tools():
    state = create_game("forum-romanum", {"players": 3}).new_state(0)
    picture = state.render()
    assert "settled: -" in picture and "deadlocked: -" in picture
    assert "never scores again" not in picture  # explained only once something settled


# ---- Forum Trajanum ---------------------------------------------------------------------------
def test_forum_trajanum_announces_public_moves_in_words_and_hides_the_draft(tmp_path, monkeypatch):
    out, record = play(tmp_path, monkeypatch, ["forum-trajanum", "-p", "2", "--seed", "3"], ["1"] * 30)
    bot = moves_by(record, 1)
    setup = next(text for _, _, text in bot if text.startswith("setup "))
    # the bot's setup: named and told in words, never hidden
    line = next(x for x in out.splitlines() if x.startswith("ply 2: seat 1 (greedy) plays"))
    assert line == f"ply 2: seat 1 (greedy) plays {setup}"
    assert "cranes a1 " in out.split(line)[1].splitlines()[1]
    # its secret draft plies: hidden, and their notation never printed
    secret = [text for _, _, text in bot if text.startswith(("take ", "keep "))]
    assert secret
    for text in secret:
        assert f"seat 1 (greedy) plays {text}" not in out
    assert "ply 5: seat 1 (greedy) plays a move hidden from you: its secret draft choice" in out
    # once the draft is over, the spaces the bot took are public
    assert re.search(r"^  \* draft over: B took [a-f][1-6] and ([a-f][1-6]|rv) \(\d tribunes?\); "
                     r"you received ", out, re.M)
    # its public plies of the turn: notation and words
    public = [text for _, _, text in bot if text.startswith(("use ", "build "))]
    assert public
    for text in public:
        assert f"seat 1 (greedy) plays {text}" in out


def test_forum_trajanum_shows_the_tiles_just_taken(tmp_path, monkeypatch):
    out, record = play(tmp_path, monkeypatch, ["forum-trajanum", "-p", "2", "--seed", "3"], ["1"] * 3)
    take = next(text for _, _, text in moves_by(record, 0) if text.startswith("take "))
    a, b = take.split()[1:]
    words = r"(a|an) [A-Za-z ]+"
    flat = re.sub(r"\n    ", " ", out)  # the words go on indented lines when the line is long
    assert re.search(rf"^ply 3: seat 0 \(human\(input=-\)\) plays {take}:? takes {a} \({words}\) and "
                     rf"{b} \({words}\), paying \d tribunes?$", flat, re.M)
    assert re.search(rf"^  drafting: took {a} \[..\] and {b} \[..\] \(\d tribunes?\); keeps one, "
                     r"passes the other to B$", out, re.M)
    assert "[??] and" not in out.split("ply 3:")[1]  # the taker knows both tiles


def test_forum_trajanum_screen_moves_little_per_ply_of_the_others(tmp_path, monkeypatch):
    """4 players: each other seat's ply takes a few lines; the board at the prompt fits in
    30 lines; the whole board is there on 'board'."""
    lines = ["1"] * 20 + ["board"] + ["1"] * 20
    out, record = play(tmp_path, monkeypatch, ["forum-trajanum", "-p", "4", "--seed", "5"], lines,
                       agents=f"{HUMAN},greedy,greedy,greedy")
    assert len(record.moves) > 30
    text = out.split(PROMPT, 1)[1]  # after the greeting and legend
    blocks = re.split(r"^(?=ply \d+: )", text, flags=re.M)
    others = [b for b in blocks if re.match(r"ply \d+: seat [123] ", b)]
    assert len(others) > 20
    for block in others:
        announced = block.split("Forum   ")[0].rstrip("\n").split("\n")
        assert len(announced) <= 4, block
        if "Forum   " in block:  # the board drawn for the next prompt
            picture = "Forum   " + block.split("Forum   ", 1)[1].split(PROMPT)[0]
            assert len(picture.rstrip("\n").split("\n")) <= 30, picture
    full = out.split(f"{PROMPT}board\n")[1].split(PROMPT)[0]
    for seat in "BCD":
        assert f"{seat}'s Colonia" in full
    assert "Your Colonia (A)" in full


def test_forum_trajanum_move_seen_by_names_public_plies():
    game = create_game("forum-trajanum", {"players": 3})
    state = game.new_state(2)
    setup = int(state.legal_moves()[7])
    assert game.move_seen_by(state.array, setup, 1) == game.format_move(state.array, setup)
    while not game.format_move(state.array, int(state.legal_moves()[0])).startswith("take "):
        state.play(int(state.legal_moves()[0]))
    mover = state.current_player
    take = int(state.legal_moves()[0])
    assert game.move_seen_by(state.array, take, mover) == game.format_move(state.array, take)
    assert all(game.move_seen_by(state.array, take, seat) is None for seat in range(3) if seat != mover)
    for seed in (1, 2):
        check_move_seen_by(game, seed)


def test_forum_trajanum_seat_picture_and_words_show_nothing_hidden():
    """The picture at the prompt and every announcement depend only on what the seat
    sees: the same from two different determinizations of its view, and the same for
    two true states it cannot tell apart."""
    game = create_game("forum-trajanum", {"players": 3})
    state = game.new_state(4)
    rng_a, rng_b = make_rng(1), make_rng(2)
    for ply in range(60):
        for seat in range(3):
            a, b = state.view_for(seat, rng_a), state.view_for(seat, rng_b)
            assert seat_picture(a, seat, full=True) == seat_picture(b, seat, full=True)
            assert seat_picture(a, seat) == seat_picture(b, seat)
        move = int(state.legal_moves()[ply % len(state.legal_moves())])
        mover = state.current_player
        before = state.array.copy()
        twin = state.view_for((mover + 1) % 3, rng_a)  # a true state seat mover+1 cannot tell apart
        state.play(move)
        observer = (mover + 1) % 3
        if move in twin.legal_moves():  # the move's line and words (news may show what is new)
            twin_before = twin.array.copy()
            twin.play(move)
            told = announce_ply(game, before, move, state.array, mover, "x", observer, ply + 1)
            guess = announce_ply(game, twin_before, move, twin.array, mover, "x", observer, ply + 1)
            assert [x for x in told if not x.startswith("  * ")] == [x for x in guess if not x.startswith("  * ")]


def test_forum_trajanum_legend_names_every_symbol_of_the_picture():
    game = create_game("forum-trajanum", {"players": 2})
    state = game.new_state(3)
    rng = make_rng(0)
    for _ in range(40):
        state.play(int(state.legal_moves()[-1]))
    picture = seat_picture(state.view_for(0, rng), 0, full=True)
    legend = game.legend()
    tokens = set(re.findall(r"\[..\]|K:[rbgy-]|TMPL|\b(?:col|lib|bas|mkt|hse|fnt|prk|stb)\b", picture))
    tokens |= {"ship", "bar", "tracks", "res", "cranes", "held", "rv"}
    for token in tokens:
        shown = token if not token.startswith("K:") else "K:r"
        assert shown in legend or token in legend, token


def test_forum_trajanum_moves_lists_what_a_take_costs(tmp_path, monkeypatch):
    """Cards R6 then R1 (seed 3): a pair with one space in row 6 and one in row 1 is free,
    a1 with a2 costs a tribune; 'moves' says so beside each take."""
    out, _ = play(tmp_path, monkeypatch, ["forum-trajanum", "-p", "2", "--seed", "3"],
                  ["setup rbgy/1/a1", "moves take a1", "quit"])
    listed = out.split(f"{PROMPT}moves take a1\n")[1]
    assert re.search(r"\d+\. take a1 b6 \(free\)", listed)
    assert re.search(r"\d+\. take a1 a2 \(1 tribune\)", listed)
    game = create_game("forum-trajanum", {"players": 2})
    state = game.new_state(3)
    assert game.move_note(state.array, int(state.legal_moves()[0])) == ""  # a setup ply: no note
