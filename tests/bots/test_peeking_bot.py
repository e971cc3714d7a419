"""A bot learns nothing hidden: a peeking bot, which writes down every line the referee
sends it, is sent the same lines whatever the hidden truth behind its seat's view.

At each of its turns in a game of Foundations of Rome and of Forum Trajanum, the bot at
seat 0 is asked once from the true position and once from another position its seat
cannot tell from it (the truth with everything hidden from seat 0 redrawn: other hands,
the deck, secret picks); both bots are told the same plies. The lines they are sent must
be equal, so their moves are too.
"""
import pytest

from forumlab.api import load_game
from forumlab.bots.news import tell_game_over, tell_ply
from forumlab.bots.referee import CommandAgent
from forumlab.core.rng import derive_seed, make_rng

from .helpers import SHORT_CONFIGS, broken


def _peeker(path, tmp_path):
    return CommandAgent(seed=11, command=broken("peek", str(path)), log_dir=str(tmp_path))


@pytest.mark.parametrize("name", ["foundations-of-rome", "forum-trajanum"])
def test_a_peeking_bot_is_sent_the_same_lines_whatever_the_hidden_truth(name, tmp_path):
    game = load_game(name, **SHORT_CONFIGS[name])
    assert not game.perfect_information
    seen_true, seen_alt = tmp_path / "true.jsonl", tmp_path / "alt.jsonl"
    truth_bot, alt_bot = _peeker(seen_true, tmp_path), _peeker(seen_alt, tmp_path)
    others = load_game(name, **SHORT_CONFIGS[name])  # (same game: its random mover draws below)
    state, rng, turns, differs = game.new_state(4), make_rng(5), 0, 0
    try:
        while not state.is_terminal and state._ply() < 120:
            seat = state.current_player
            if seat == 0:
                alt = state.copy()
                game.kernels.determinize(alt.array, 0, make_rng(derive_seed(6, turns)))
                differs += int((alt.array != state.array).any())
                view_seed = derive_seed(7, turns)
                move = truth_bot.act(state.view_for(0, make_rng(view_seed)))
                assert alt_bot.act(alt.view_for(0, make_rng(view_seed))) == move
                turns += 1
            else:
                move = int(others.kernels.random_move(state.array, rng))
            before = state.array.copy()
            state.play(move)
            tell_ply([truth_bot, None], game, before, move, seat)
            tell_ply([alt_bot, None], game, before, move, seat)
        result = state.result()
        for bot in (truth_bot, alt_bot):
            tell_game_over([bot], result["scores"], result["ranks"])
    finally:
        truth_bot.close()
        alt_bot.close()
    assert turns >= 3 and differs >= 1, "the test must ask from positions whose hidden parts differ"
    assert seen_true.read_text() == seen_alt.read_text()
    assert seen_true.read_text().count('"type":"move"') == turns
