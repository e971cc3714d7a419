"""A person types a Forum Trajanum draft pair in the order the prompt names the street
cards ("Cb = column b, then R1 = row 1": ``take b3 c1``), while the notation writes the
pair in reading order (``take c1 b3``). The human agent takes the one legal move with the
same words in another order, and says how it read them; anything else is refused as
before."""
from click.testing import CliRunner

from forumlab.cli import main
from forumlab.core.record import load_record
from forumlab.core.registry import create_game

HUMAN = "human(input=-)"


def play(tmp_path, monkeypatch, lines):
    """Seat 0 a person reading ``lines``, seat 1 ``random`` (seeded from the game's seed)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "forum-trajanum", "-p", "2", "--seed", "3", "-a",
                                       f"{HUMAN},random", "--record", "g.json"],
                                input="".join(line + "\n" for line in lines))
    assert result.exit_code == 0, result.output
    return result.stdout, load_record(tmp_path / "g.json")


def first_take(tmp_path, monkeypatch):
    """Seat 0's first draft pair of two Colonia spaces, after its setup move 1 and seat 1's."""
    _, record = play(tmp_path, monkeypatch, ["1", "quit"])
    state = create_game("forum-trajanum", {"players": 2}).new_state(3)
    for text in record.moves:
        state.play(state.parse(text))
    assert len(record.moves) == 2 and state.current_player == 0
    takes = [t for t in state.legal_move_texts() if t.startswith("take ") and "rv" not in t]
    return takes[0]


def test_a_pair_in_the_other_order_is_read_as_the_legal_move(tmp_path, monkeypatch):
    take = first_take(tmp_path, monkeypatch)
    a, b = take.split()[1:]
    out, record = play(tmp_path, monkeypatch, ["1", f"take {b} {a}", "quit"])
    assert record.moves[2] == take
    assert f"(read 'take {b} {a}' as '{take}'" in out


def test_words_that_name_no_legal_move_are_still_refused(tmp_path, monkeypatch):
    take = first_take(tmp_path, monkeypatch)
    a, _ = take.split()[1:]
    out, record = play(tmp_path, monkeypatch, ["1", f"take {a} {a}", "quit"])
    assert len(record.moves) == 2
    assert "not a legal move" in out
