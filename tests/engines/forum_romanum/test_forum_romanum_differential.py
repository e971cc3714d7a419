"""Differential tests: the numba Forum Romanum engine against the plain-Python reference.

1,200 random games (player counts 2-6; turn caps from 1 round to none) are played on
both engines with the same moves. After every ply the two must agree on the sorted
legal move set, the board, pieces in hand, colour and player scores, the settled and
deadlocked regions, the terminal and truncated flags, the seat to move and the ply count.

Half the games pick moves with a seeded Python RNG from the legal list; the other
half are driven by the numba ``random_move`` kernel (the playout fast path), whose
every draw must be a member of the legal set and must leave the state untouched.
The protocol functions of forumlab.core.dispatch, compiled in a numba kernel for the
Forum Romanum tag, and ``random_playouts`` are checked against the direct kernels on
identical RNG streams.
"""
import random
from collections import Counter

import numpy as np
import pytest
from numba import njit

from forumlab.core import dispatch
from forumlab.core.game import State
from forumlab.core.playout import random_playouts
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_romanum.game import ForumRomanum
from forumlab.engines.forum_romanum.layout import BOARD
from forumlab.engines.forum_romanum.moves import MAX_MOVES
from forumlab.engines.forum_romanum.reference import ReferenceForumRomanum

K = ForumRomanum.kernels
GAMES_PER_CHUNK = 100
CHUNKS = 6  # per driver: 2 drivers x 6 chunks x 100 games = 1,200 games
PLY_LIMIT = 20_000  # safety net for uncapped games (random ones end after ~700-1,400 plies)

# Turn caps, weighted towards short capped games but with long and uncapped ones:
# 1-8 rounds (capped within the placement phase), 20-60 (capped in the moving phase
# or, rarely, ended naturally), the default 100, and 0 = no cap (natural ends).
MAX_ROUNDS_CHOICES = [1, 1, 2, 3, 5, 8, 1, 2, 20, 40, 60, 100, 100, 0, 0]


def game_configs(driver: str, chunk: int):
    """Deterministic (players, max_rounds, seed) for one chunk of games."""
    rng = random.Random(f"{driver}-{chunk}")
    for i in range(GAMES_PER_CHUNK):
        players = 2 + (i + chunk) % 5  # every player count equally often
        yield players, rng.choice(MAX_ROUNDS_CHOICES), rng.randrange(2**31)


def reference_bitboards(ref: ReferenceForumRomanum) -> list[int]:
    boards = [0] * ref.n_colours
    for cell, colour in enumerate(ref.board()):
        if colour >= 0:
            boards[colour] |= 1 << cell
    return boards


def assert_same_state(game: ForumRomanum, array: np.ndarray, ref: ReferenceForumRomanum,
                      out: np.ndarray, where: str) -> list[int]:
    """Compare every observable of the two engines; return the legal move list."""
    n = K.legal_moves(array, out)
    fast = out[:n].tolist()
    assert fast == sorted(set(fast)), f"{where}: numba legal moves not ascending/unique"
    assert fast == ref.legal_moves(), f"{where}: legal moves differ"
    details = game.details(array)
    assert [int(array[BOARD + c]) for c in range(ref.n_colours)] == reference_bitboards(ref), \
        f"{where}: boards differ"
    assert details["pieces_in_hand"] == ref.pieces_in_hand(), f"{where}: pieces in hand differ"
    assert details["colour_scores"] == ref.colour_scores(), f"{where}: colour scores differ"
    scores = np.zeros(game.players, dtype=np.float64)
    K.scores(array, scores)
    assert scores.astype(np.int64).tolist() == ref.player_scores(), f"{where}: player scores differ"
    assert details["settled"] == ref.settled_regions(), f"{where}: settled regions differ"
    assert details["deadlocked"] == ref.deadlocked_regions(), f"{where}: deadlocked regions differ"
    assert bool(K.is_terminal(array)) == ref.is_terminal(), f"{where}: terminal flag differs"
    assert game.is_truncated(array) == ref.truncated, f"{where}: truncated flag differs"
    assert int(K.current_player(array)) == ref.current_player(), f"{where}: seat to move differs"
    assert game.plies(array) == ref.plies, f"{where}: ply count differs"
    return fast


def run_differential_game(players: int, max_rounds: int, seed: int, driver: str) -> dict:
    """Play one game on both engines, comparing after every ply; return a summary."""
    game = create_game("forum-romanum", players=players, max_rounds=max_rounds)
    array = game.initial_array(seed)
    ref = ReferenceForumRomanum(players, max_rounds)
    out = np.empty(MAX_MOVES, dtype=np.int64)
    py_rng = random.Random(seed)
    nb_rng = make_rng(seed)
    where = f"players={players} max_rounds={max_rounds} seed={seed} driver={driver}"
    for ply in range(PLY_LIMIT):
        legal = assert_same_state(game, array, ref, out, f"{where} ply={ply}")
        if ref.is_terminal():
            break
        if driver == "python":
            move = legal[py_rng.randrange(len(legal))]
        else:
            before = array.copy()
            move = int(K.random_move(array, nb_rng))
            assert np.array_equal(array, before), f"{where} ply={ply}: random_move changed the state"
            assert move in legal, f"{where} ply={ply}: random_move gave illegal {move}"
        K.apply_move(array, move)
        ref.apply(move)
    if ref.is_terminal():
        # The facade's result agrees with the reference once the game is over.
        res = State(game, array, seed).result()
        assert res["scores"] == ref.player_scores()
        assert res["colour_scores"] == ref.colour_scores()
        assert res["plies"] == ref.plies
        best = max(ref.player_scores())
        assert res["winners"] == [p for p, s in enumerate(ref.player_scores()) if s == best]
    return {"terminal": ref.is_terminal(), "truncated": ref.truncated, "plies": ref.plies}


@pytest.mark.parametrize("driver", ["python", "kernel"])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engines_agree_ply_by_ply(driver, chunk):
    outcomes = Counter()
    for players, max_rounds, seed in game_configs(driver, chunk):
        summary = run_differential_game(players, max_rounds, seed, driver)
        if summary["truncated"]:
            outcomes["truncated"] += 1
        elif summary["terminal"]:
            outcomes["natural"] += 1
        else:
            outcomes["unfinished"] += 1
    # The mix really covers both kinds of ending.
    assert outcomes["truncated"] >= 20 and outcomes["natural"] >= 3, outcomes
    assert outcomes["unfinished"] == 0, outcomes


def test_config_mix_covers_all_player_counts_and_caps():
    configs = [c for d in ("python", "kernel") for k in range(CHUNKS) for c in game_configs(d, k)]
    assert len(configs) >= 1000
    assert {p for p, _, _ in configs} == {2, 3, 4, 5, 6}
    caps = Counter(m for _, m, _ in configs)
    assert caps[0] >= 50 and sum(v for m, v in caps.items() if 1 <= m <= 8) >= 300


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
