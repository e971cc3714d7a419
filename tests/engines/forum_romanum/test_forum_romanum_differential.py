"""Forum Romanum beyond the conformance kit's differential games (forumlab.testing;
the uniform seeded games at every configuration of the game's conformance data are
tests/conformance/test_conformance.py and test_differential.py):

- games driven by the numba ``random_move`` kernel (the playout fast path), played move
  for move against the plain-Python reference engine, over every player count and turn
  caps from 1 round to none;
- ``random_move`` draws every legal move about equally often;
- the protocol functions of forumlab.core.dispatch, compiled in a numba kernel for the
  Forum Romanum tag, and ``random_playouts`` agree with the direct kernels on identical
  RNG streams.
"""
import random
from collections import Counter

import numpy as np
import pytest
from numba import njit

from forumlab.core import dispatch
from forumlab.core.playout import random_playouts
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_romanum.game import ForumRomanum
from forumlab.engines.forum_romanum.moves import MAX_MOVES
from forumlab.testing.differential import differential_game, kernel_sampler

K = ForumRomanum.kernels
# Turn caps from 1 round to none (0), weighted towards short games.
MAX_ROUNDS_CHOICES = [1, 1, 2, 3, 5, 8, 1, 2, 20, 40, 60, 100, 100, 0, 0]


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2))
def test_games_played_by_the_numba_sampler_match_the_reference(chunk):
    configs = random.Random(f"kernel-{chunk}")
    for i in range(50):
        players, max_rounds = 2 + (i + chunk) % 5, configs.choice(MAX_ROUNDS_CHOICES)
        seed = configs.randrange(2**31)
        differential_game(create_game("forum-romanum", players=players, max_rounds=max_rounds), seed,
                          choose=kernel_sampler(seed))


# ---------------------------------------------------------------- random_move
@pytest.mark.parametrize("players,plies", [(3, 0), (2, 0), (2, 1), (4, 40), (2, 40), (2, 41)])
def test_random_move_is_roughly_uniform(players, plies):
    """Every legal move is drawn, and none far more or less often than the others."""
    state = create_game("forum-romanum", players=players, max_rounds=0).new_state(1)
    rng = random.Random(players * 100 + plies)
    for _ in range(plies):
        legal = state.legal_moves()
        state.play(int(legal[rng.randrange(len(legal))]))
    legal = set(state.legal_moves().tolist())
    per_move = 300
    nb_rng = make_rng(12345)
    counts = Counter(int(K.random_move(state.array, nb_rng)) for _ in range(per_move * len(legal)))
    assert set(counts) == legal
    # Binomial(n, 1/k) with mean 300 has sd ~17: 6 sd either side never fails by chance.
    assert min(counts.values()) > per_move - 105 and max(counts.values()) < per_move + 105


# ---------------------------------------------------------------- generic kernels
@njit
def _dispatched_ply(tag, s, out, heuristics, final_scores, rng):
    """One random ply through the tag-dispatched protocol, as generic kernels use it;
    returns (terminal, mover, legal count, move) and fills heuristics and scores."""
    terminal = dispatch.is_terminal(tag, s)
    dispatch.scores(tag, s, final_scores)
    if terminal:
        return terminal, -1, 0, -1
    mover = dispatch.current_player(tag, s)
    n = dispatch.legal_moves(tag, s, out)
    for p in range(dispatch.num_players(s)):
        heuristics[p] = dispatch.heuristic(tag, s, p)
    move = dispatch.random_move(tag, s, rng)
    dispatch.apply_move(tag, s, move)
    return terminal, mover, n, move


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_dispatch_kernels_match_direct_kernels(players):
    array_d = create_game("forum-romanum", players=players, max_rounds=30).initial_array(players)
    array_k = array_d.copy()
    rng_d, rng_k = make_rng(7), make_rng(7)
    out_d = np.empty(MAX_MOVES, dtype=np.int64)
    out_k = np.empty(MAX_MOVES, dtype=np.int64)
    hd, sd, sk = np.zeros(players), np.zeros(players), np.zeros(players)
    while True:
        terminal, mover, n, move = _dispatched_ply(K.tag, array_d, out_d, hd, sd, rng_d)
        assert terminal == K.is_terminal(array_k)
        K.scores(array_k, sk)
        assert sd.tolist() == sk.tolist()
        if terminal:
            break
        assert mover == K.current_player(array_k)
        assert out_d[:n].tolist() == out_k[: K.legal_moves(array_k, out_k)].tolist()
        assert hd.tolist() == [K.heuristic(array_k, p) for p in range(players)]
        assert move == K.random_move(array_k, rng_k)
        K.apply_move(array_k, move)
        assert np.array_equal(array_d, array_k)


@pytest.mark.parametrize("players,max_rounds", [(2, 10), (3, 0), (6, 25)])
def test_random_playouts_match_a_python_loop(players, max_rounds):
    start = create_game("forum-romanum", players=players, max_rounds=max_rounds).initial_array(0)
    n_games = 20
    total = random_playouts(K.tag, start, n_games, make_rng(99))
    rng = make_rng(99)
    expected = 0
    for _ in range(n_games):
        s = start.copy()
        while not K.is_terminal(s):
            K.apply_move(s, K.random_move(s, rng))
            expected += 1
    assert total == expected
    if max_rounds:
        assert total <= n_games * max_rounds * (4 if players == 2 else players)
