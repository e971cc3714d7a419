"""Forum Romanum's score sources (forumlab.engines.forum_romanum.sources, behind
``Game.score_sources``): every point goes to the kind of region that paid it.

- the spec's worked examples 1-4 (shared/rules/forum-romanum.md) land in the right source
  and seat;
- on random games at 2-6 players, with and without a turn cap, each seat's sources sum to
  its final score, and every source agrees with an independent oracle: the plain-Python
  reference engine with every change of a colour's score booked to the region it was
  scoring;
- moves as text or as codes, one game or a batch, give the same answer every time; a move
  that does not replay is the error ``State.play`` gives.
"""
import random

import pytest

from forumlab.core.errors import IllegalMoveError
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_romanum.reference import ReferenceForumRomanum
from forumlab.engines.forum_romanum.sources import SOURCE_NAMES

ZERO = dict.fromkeys(SOURCE_NAMES, 0)


def sources(game, moves, seed=0):
    return game.score_sources(seed, moves)


def only(**points):
    return {**ZERO, **points}


def random_game(game, seed):
    """A random game's moves (codes) and final scores."""
    state = game.new_state(seed)
    rng = make_rng(seed)
    while not state.is_terminal:
        state.play(int(game.kernels.random_move(state.array, rng)))
    return state


# ---- the spec's worked examples ------------------------------------------------------
def test_example_1_a_row_pays_its_majority_and_its_sole_minority():
    # Row 1 fills 4-2-1 (colour 0 on a1 c1 e1 g1, colour 1 on b1 d1, colour 2 on f1); the
    # other pieces lie apart, where nothing fills.
    game = create_game("forum-romanum", players=3)
    moves = ["a1", "b1", "a3", "c1", "d1", "f1", "e1", "b4", "c5", "g1"]
    assert sources(game, moves) == [only(rows=7), only(), only(rows=-4)]


def test_example_2_a_deadlocked_section_pays_at_the_end():
    # Section I (a1:c2) fills 3-3-0-0 in the third round: deadlocked, nothing now; the
    # turn cap ends the game after that round, and the final settlement pays it.
    game = create_game("forum-romanum", players=4, max_rounds=3)
    fill = ["a1", "b1", "d4", "e6", "c1", "a2", "g3", "b7", "b2", "c2", "f5", "c6"]
    before_the_end = game.score_sources(0, fill[:10])
    assert before_the_end == [only()] * 4
    state = game.new_state(0)
    for move in fill:
        state.play(move)
    assert state.is_terminal and state.result()["deadlocked"] == [16]
    assert sources(game, fill) == [only(deadlocks=4), only(deadlocks=4), only(deadlocks=-2),
                                   only(deadlocks=-2)]


def test_example_3_a_section_with_two_tied_minorities():
    # Section IV (c3:e5) fills 5-2-2: colour 0 +9, colours 1 and 2 lose 2 each.
    game = create_game("forum-romanum", players=3)
    moves = ["c3", "d3", "e3", "c4", "d4", "e4", "c5", "a7", "g7", "d5", "a1", "g1", "e5"]
    assert sources(game, moves) == [only(sections=9), only(sections=-2), only(sections=-2)]


def test_example_4_an_all_tied_deadlock_pays_everyone_and_costs_nobody():
    # Section I fills 2-2-2 on the last ply the cap allows.
    game = create_game("forum-romanum", players=3, max_rounds=2)
    moves = ["a1", "b1", "c1", "a2", "b2", "c2"]
    assert sources(game, moves) == [only(deadlocks=4)] * 3


def test_a_ply_that_fills_a_row_and_a_column_pays_each_to_its_own_source():
    # g1 completes row 1 (colour 0: 4 of 7) and column g (colour 0: 4 of 7) at once.
    game = create_game("forum-romanum", players=3)
    moves = ["a1", "b1", "c1", "d1", "e1", "f1", "g2", "g3", "g4", "g5", "g6", "g7",
             "a4", "b5", "c6", "g1"]
    state = game.new_state(0)
    for move in moves:
        state.play(move)
    assert state.result()["settled"] == [0, 13]
    got = sources(game, moves)
    assert got[0]["rows"] > 0 and got[0]["columns"] > 0
    assert [sum(seat.values()) for seat in got] == state.scores()


def test_two_players_sum_their_two_colours():
    # Colours 0 and 1 (seat 0) take row 1 4-3 against nothing of seat 1's colours 2 and 3:
    # +7 for colour 0, and colours 2 and 3, tied lowest with none, lose 2 each.
    game = create_game("forum-romanum", players=2)
    moves = ["0:a1", "1:b1", "2:a3", "3:b3", "0:c1", "1:d1", "2:a4", "3:b4", "0:e1", "1:f1",
             "2:a5", "3:b6", "0:g1"]
    assert sources(game, moves) == [only(rows=7), only(rows=-4)]


# ---- random games against the reference engine -----------------------------------------
class _Ledger(list):
    """A reference colour-score list that books every change to its owner's ledger."""

    def __init__(self, values, owner, deadlocks):
        super().__init__(values)
        self.owner, self.deadlocks = owner, deadlocks

    def __setitem__(self, colour, value):
        self.owner.book(colour, value - self[colour], self.deadlocks)
        super().__setitem__(colour, value)


class BookedReference(ReferenceForumRomanum):
    """The reference engine, booking each score change to the kind of region being scored
    (the reference counts a region's pieces right before it scores it)."""

    def __init__(self, players, max_rounds):
        super().__init__(players, max_rounds)
        self.scores = _Ledger(self.scores, self, False)
        self.final_bonus = _Ledger(self.final_bonus, self, True)
        self.booked = [dict(ZERO) for _ in range(self.n_colours)]
        self.region = None

    def _counts(self, region):
        self.region = region
        return super()._counts(region)

    def book(self, colour, points, at_the_end):
        kind = "deadlocks" if at_the_end else SOURCE_NAMES[(self.region >= 7) + (self.region >= 14)
                                                          + (self.region >= 16)]
        self.booked[colour][kind] += points

    def by_seat(self):
        if self.players != 2:
            return self.booked
        return [{k: self.booked[2 * p][k] + self.booked[2 * p + 1][k] for k in ZERO} for p in range(2)]


@pytest.mark.parametrize("players", range(2, 7))
def test_random_games_sum_to_the_score_and_match_the_booked_reference(players):
    configs = random.Random(f"sources-{players}")
    games = []
    for _ in range(40):
        max_rounds = configs.choice([100, 0, 0, 3, 20])  # 0: ended by the rules, deadlocks too
        game = create_game("forum-romanum", players=players, max_rounds=max_rounds)
        state = random_game(game, configs.randrange(2**31))
        got = game.score_sources(state.seed, state.move_texts())
        assert [sum(seat.values()) for seat in got] == state.scores()
        reference = BookedReference(players, max_rounds)
        for move in state.history:
            reference.apply(move)
        assert reference.player_scores() == state.scores()
        assert got == reference.by_seat(), (players, max_rounds, state.seed)
        games.append(got)
    assert any(seat["deadlocks"] for got in games for seat in got)


@pytest.mark.parametrize("players", range(2, 7))
def test_hundreds_of_games_in_one_batch_sum_to_their_scores(players):
    game = create_game("forum-romanum", players=players, max_rounds=0 if players % 2 else 100)
    states = [random_game(game, seed) for seed in range(200)]
    batch = game.score_sources_many((s.seed, s.move_texts()) for s in states)
    assert [[sum(seat.values()) for seat in got] for got in batch] == [s.scores() for s in states]
    assert batch[:20] == [game.score_sources(s.seed, s.history) for s in states[:20]]


def test_the_same_games_give_the_same_sources_every_time():
    game = create_game("forum-romanum", players=3)
    states = [random_game(game, seed) for seed in range(30)]
    games = [(s.seed, s.move_texts()) for s in states]
    first = game.score_sources_many(games)
    assert game.score_sources_many(games) == first
    assert game.score_sources_many(reversed(games)) == first[::-1]
    assert first[0] and all(set(seat) == set(SOURCE_NAMES) for seat in first[0])


def test_an_empty_game_and_no_games():
    game = create_game("forum-romanum", players=5)
    assert game.score_sources(7, []) == [only()] * 5
    assert game.score_sources_many([]) == []


@pytest.mark.parametrize("bad", [["a1", "a1"], ["a1", "zz"], ["a1", "9:b2"], ["a1", 12345678],
                                 ["a1", True], ["a1", 2.0]])
def test_a_move_that_does_not_replay_is_the_error_play_gives(bad):
    game = create_game("forum-romanum", players=3)
    good = (0, ["a1", "b1", "c1"])
    with pytest.raises(IllegalMoveError) as expected:
        state = game.new_state(0)
        for move in bad:
            state.play(move)
    with pytest.raises(IllegalMoveError) as got:
        game.score_sources_many([good, (0, bad)])
    assert str(got.value) == str(expected.value)


def test_a_two_player_move_without_its_colour_needs_one_where_two_colours_may_move():
    game = create_game("forum-romanum", players=2)
    assert game.score_sources(0, ["0:a1", "b1"]) == [only(), only()]  # the second ply: colour 1
    with pytest.raises(IllegalMoveError, match="needs a colour prefix"):
        game.score_sources(0, ["a1"])


def test_the_first_replay_on_an_empty_cache_announces_its_compile_and_later_ones_do_not(tmp_path):
    # A balance report of Forum Romanum compiles this kernel the first time: a user is told.
    import os
    import subprocess
    import sys

    code = ("import forumlab\n"
            "game = forumlab.load_game('forum-romanum', players=3)\n"
            "print(game.score_sources(1, ['d4', 'a1']))\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                           timeout=600) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    assert "compiling the forum-romanum score-sources kernel once" in runs[0].stderr
    assert "compiled in" in runs[0].stderr
    assert "compiling" not in runs[1].stderr
    assert runs[0].stdout == runs[1].stdout
