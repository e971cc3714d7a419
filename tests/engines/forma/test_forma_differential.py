"""Differential test: the numba Forma engine against the plain-Python reference engine.

Both engines play the same random games (2 and 4 players, plus a few 3-player games;
random obstacle layouts drawn by the numba engine's setup and handed to the reference
as explicit lists, and empty boards). At every ply the two engines must agree on the
player to move, the exact set of legal moves (as sorted lists), the scores so far and
the terminal flag; at the end on the final scores, the score breakdown, the board and
the markers.

Some games use a biased policy that crowds one player's pieces into a strip along an
edge, so that bridges (rare in uniform random play) are exercised; some pick moves
with the numba engine's ``random_move`` to check that its samples are legal.
"""
import random

import numpy as np
import pytest

from forumlab.core.rng import make_rng
from forumlab.engines.forma import kernels as forma_kernels
from forumlab.engines.forma.data import MAX_MOVES, PASS, decode_move
from forumlab.engines.forma.game import Forma
from forumlab.engines.forma.moves import count_moves
from forumlab.engines.forma.pieces import square_name
from forumlab.engines.forma.reference import ReferenceForma
from forumlab.engines.forma.render import board_contents, marker_owners

GAMES_PER_COUNT = 160  # 2 and 4 players each: 320 games
GAMES_3P = 20


def _setup(players: int, game_index: int):
    """(numba game, reference engine) with the same layout."""
    seed = 1000 * players + game_index
    if game_index % 4 == 3:
        game = Forma(players=players, obstacles="none")
        ref = ReferenceForma(players, obstacles="none")
    else:
        game = Forma(players=players)
        stones, tower = game.layout(seed)
        ref = ReferenceForma(players, obstacles=[square_name(q) for q in stones], tower=square_name(tower))
    return game, game.new_state(seed).array, ref


def _in_strip(move: int, player: int) -> bool:
    """Whether a placement's anchor lies in the player's strip (columns a-c for even
    seats, rows 1-3 for odd seats)."""
    _, _, anchor = decode_move(move)
    return anchor % 20 < 3 if player % 2 == 0 else anchor // 20 < 3


def _play_and_compare(players: int, game_index: int) -> None:
    game, array, ref = _setup(players, game_index)
    rng = random.Random(game_index * 7919 + players)
    nrng = make_rng(game_index)
    biased = game_index % 3 == 1
    use_numba_sampler = game_index % 5 == 2
    out = np.empty(MAX_MOVES, dtype=np.int64)
    ply = 0
    while True:
        terminal = bool(forma_kernels.is_terminal(array))
        assert terminal == ref.is_terminal(), f"game {game_index} ply {ply}: terminal differs"
        scores = np.zeros(players)
        forma_kernels.scores(array, scores)
        assert scores.astype(int).tolist() == ref.scores(), f"game {game_index} ply {ply}: scores differ"
        if terminal:
            break
        assert int(forma_kernels.current_player(array)) == ref.current_player()
        n = forma_kernels.legal_moves(array, out)
        mine = out[:n].tolist()
        theirs = ref.legal_moves()
        assert n == len(theirs), f"game {game_index} ply {ply}: {n} legal moves vs reference {len(theirs)}"
        assert mine == theirs, f"game {game_index} ply {ply}: legal move lists differ"
        assert int(count_moves(array)) == n
        player = ref.current_player()
        if use_numba_sampler:
            move = int(forma_kernels.random_move(array, nrng))
            assert move in theirs if move != PASS else theirs == [PASS]
        elif biased and theirs != [PASS] and rng.random() < 0.85:
            strip = [m for m in theirs if _in_strip(m, player)]
            move = rng.choice(strip or theirs)
        else:
            move = rng.choice(theirs)
        forma_kernels.apply_move(array, move)
        ref.apply(move)
        ply += 1
    breakdown = ref.score_breakdown()
    details = game.details(array)
    for p in range(players):
        b = breakdown[p]
        assert details["squares"][p] == b["squares"]
        assert details["enclosures"][p] == b["enclosures"]
        assert details["stones"][p] == b["stones"]
        assert (details["tower"] == p) == bool(b["tower"])
        assert details["bridges_ns"][p] == b["bridges_ns"]
        assert details["bridges_ew"][p] == b["bridges_ew"]
    assert board_contents(array) == ref.board()
    assert marker_owners(array) == ref.markers()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_match_the_reference(players):
    for i in range(GAMES_PER_COUNT):
        _play_and_compare(players, i)


@pytest.mark.slow
def test_three_player_games_match_the_reference():
    for i in range(GAMES_3P):
        _play_and_compare(3, i)
