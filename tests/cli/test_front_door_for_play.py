"""A first game of Foundations of Rome at the terminal: a legend says what the board's
letters, codes and figures mean, and the other seats' main actions are told in words
(income and its silver, a deed bought and its price, a building by kind, size and shape),
never a secret move's."""
import random

from click.testing import CliRunner

from forumlab.cli import main
from forumlab.core.registry import create_game


def test_the_legend_is_shown_at_the_start_and_on_request(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "foundations-of-rome", "-p", "3", "--seed", "2", "-a",
                                       "human(input=-),greedy,greedy", "--record", "g.json"],
                                input="legend\nquit\n")
    assert result.exit_code == 0, result.output
    legend = create_game("foundations-of-rome", {"players": 3}).legend()
    assert result.stdout.count(legend) == 2
    for words in ("lot marker", "residential", "commercial", "civic", "deed board", "piles", "supply"):
        assert words in legend, words


def _played(config, seed, plies=400):
    """(game, [(before, move, after, text)]) of a seeded random game."""
    game = create_game("foundations-of-rome", config)
    state = game.new_state(seed)
    chooser = random.Random(seed)
    out = []
    while not state.is_terminal and len(out) < plies:
        moves = state.legal_moves()
        move = int(moves[chooser.randrange(len(moves))])
        before = state.array.copy()
        text = game.format_move(before, move)
        state.play(move)
        out.append((before, move, state.array.copy(), text))
    return game, out


def test_main_actions_are_told_in_words():
    game, plies = _played({"players": 3}, 5)
    seen = set()
    for before, move, after, text in plies:
        words = game.move_words(before, move, after, 0)
        if text == "I":
            assert words.startswith("takes income: +") and words.endswith(" silver"), words
            seen.add("I")
        elif text.startswith("D"):
            assert words.startswith(f"buys the deed in slot {text[1]} for ") and "silver" in words, words
            seen.add("D")
        elif "@" in text and text[0] in "RCV":
            assert words.startswith("builds ") and text.split("@")[1] in words, (text, words)
            seen.add(text[0])
    assert {"I", "D", "R", "C"} <= seen, seen


def test_a_secret_move_gets_no_words():
    game, plies = _played({"players": 3, "draft": True}, 7, plies=60)
    secret = [(b, m, a) for b, m, a, _ in plies if game.move_seen_by(b, m, 0) is None]
    assert secret, "the draft has secret picks"
    assert all(not game.move_words(b, m, a, 0) for b, m, a in secret)
