"""The numba Forum Romanum engine, through the Game/State facade, against the rules spec.

Every position is built by playing legal moves in notation (``state.play("d4")``;
``"1:d4"`` names the colour in the 2-player game, ``"a1-a6"`` moves a piece), and every
expected number below can be checked by hand against ``rules/forum-romanum.md``.
Region ids: 0-6 rows 1..7, 7-13 columns a..g, 14/15 diagonals, 16-22 sections I..VII.
"""
import random
import re

import numpy as np
import pytest

from forumlab.core.errors import ConfigError, ForumlabError, GameOverError, IllegalMoveError
from forumlab.core.game import State
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_romanum.game import ForumRomanum
from forumlab.engines.forum_romanum.layout import BOARD, SUBMOVE
from forumlab.engines.forum_romanum.moves import decode_move
from forumlab.engines.forum_romanum.notation import parse_cell

ROW1, SEC_I, SEC_III, SEC_IV, SEC_V, SEC_VII = 0, 16, 18, 19, 20, 22
PIECES = {2: 8, 3: 10, 4: 8, 5: 6, 6: 5}
COLOURS = {2: 4, 3: 3, 4: 4, 5: 5, 6: 6}

# A 6-player placement layout for colours 1..5 (the same one the reference tests use):
# rows 1-5 minus g1, g2, a3, d4, g5. Together with colour 0's pieces only section I can
# be full at the end of the placement phase.
SIX_OTHERS = [
    ["e2", "f2", "b3", "c3", "d3"],
    ["e3", "f3", "g3", "a4", "b4"],
    ["c4", "e4", "f4", "g4", "a5"],
    ["b5", "c5", "d5", "e5", "f5"],
]


def new_state(players: int, max_rounds: int = 100, seed: int = 0) -> State:
    return create_game("forum-romanum", players=players, max_rounds=max_rounds).new_state(seed)


def play(state: State, plies) -> State:
    for ply in plies:
        state.play(ply)
    return state


def rounds(*per_colour):
    """Interleave each colour's plies in seat order, round by round."""
    return [cells[i] for i in range(len(per_colour[0])) for cells in per_colour]


def owner(state: State, cell: str) -> int:
    """Colour on a cell, -1 if empty (read from the per-colour bitboards)."""
    i = parse_cell(cell)
    n_colours = state.game.colours
    found = [c for c in range(n_colours) if (int(state.array[BOARD + c]) >> i) & 1]
    assert len(found) <= 1
    return found[0] if found else -1


def random_play(state: State, plies: int, seed: int) -> State:
    """Play up to ``plies`` uniformly random legal moves (stops at the end)."""
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        legal = state.legal_moves()
        state.play(int(legal[rng.randrange(len(legal))]))
    return state


def play_to_end(state: State, seed: int, limit: int = 50_000) -> State:
    rng = make_rng(seed)
    kernels = state.game.kernels
    while not state.is_terminal and len(state.history) < limit:
        state.play(int(kernels.random_move(state.array, rng)))
    assert state.is_terminal, "random game did not end"
    return state


# ---------------------------------------------------------------- initial state
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_initial_result(players):
    state = new_state(players)
    res = state.result()
    n = COLOURS[players]
    assert res["scores"] == [0] * players
    assert res["colour_scores"] == [0] * n
    assert res["pieces_in_hand"] == [PIECES[players]] * n
    assert res["ranks"] == [1] * players
    assert res["winners"] == []
    assert res["plies"] == 0
    assert res["settled"] == [] and res["deadlocked"] == []
    assert res["terminal"] is False and res["truncated"] is False
    assert state.current_player == 0
    legal = state.legal_moves()
    assert len(legal) == 49 * (2 if players == 2 else 1)
    assert legal.tolist() == sorted(set(legal.tolist()))


# ---------------------------------------------------------------- worked examples
def test_example_1_row_settles_4_2_1():
    state = new_state(3)
    plies = rounds(["a1", "b1", "c1", "d1"], ["e1", "f1", "a3", "b3"], ["c3", "d3", "e3", "g1"])
    play(state, plies[:-1])
    assert state.result()["settled"] == []
    assert state.result()["colour_scores"] == [0, 0, 0]
    state.play(plies[-1])  # g1 by colour 2 fills row 1 with counts (4, 2, 1)
    res = state.result()
    assert res["settled"] == [ROW1]
    assert res["deadlocked"] == []
    assert res["colour_scores"] == [7, 0, -4]
    assert res["scores"] == [7, 0, -4]
    assert res["ranks"] == [1, 2, 3]
    assert res["winners"] == []  # not over yet
    assert res["plies"] == 12
    assert res["terminal"] is False and res["truncated"] is False


def test_example_2_deadlock_then_final_settlement():
    state = new_state(4, max_rounds=3)
    plies = rounds(["a1", "b1", "c1"], ["a2", "b2", "c2"], ["a7", "b7", "c7"], ["e7", "f7", "g7"])
    play(state, plies[:10])
    # Ply 10 (c2 by colour 1) fills section I with (3, 3, 0, 0): deadlock, no score now.
    res = state.result()
    assert res["deadlocked"] == [SEC_I]
    assert res["settled"] == []
    assert res["colour_scores"] == [0, 0, 0, 0]
    assert res["terminal"] is False
    play(state, plies[10:])  # ply 12 completes round 3: the cap ends the game
    res = state.result()
    assert res["plies"] == 12
    assert res["terminal"] is True and res["truncated"] is True
    assert res["deadlocked"] == [SEC_I] and res["settled"] == []
    # Final settlement: both leaders +4, colours 2 and 3 tied lowest -2 each.
    assert res["colour_scores"] == [4, 4, -2, -2]
    assert res["scores"] == [4, 4, -2, -2]
    assert res["ranks"] == [1, 1, 3, 3]  # shared ranks
    assert res["winners"] == [0, 1]
    assert state.legal_moves().size == 0


def test_example_3_section_iv_5_2_2():
    state = new_state(3)
    play(
        state,
        rounds(
            ["c3", "d3", "e3", "c4", "d4"],
            ["e4", "c5", "a1", "b1", "c1"],
            ["a7", "b7", "c7", "d5", "e5"],
        ),
    )
    res = state.result()
    assert res["settled"] == [SEC_IV]
    assert res["colour_scores"] == [9, -2, -2]
    assert res["ranks"] == [1, 2, 2]
    assert res["terminal"] is False


@pytest.mark.parametrize(
    "section,cells",
    [
        (SEC_I, ["a1", "b1", "c1", "a2", "b2", "c2"]),
        (SEC_III, ["a3", "b3", "a4", "b4", "a5", "b5"]),
        (SEC_V, ["f3", "g3", "f4", "g4", "f5", "g5"]),
        (SEC_VII, ["e6", "f6", "g6", "e7", "f7", "g7"]),
    ],
)
def test_example_4_all_tied_deadlock_nobody_loses(section, cells):
    state = new_state(3, max_rounds=2)
    play(state, cells)  # colours take turns: two cells each, (2, 2, 2)
    res = state.result()
    assert res["terminal"] is True and res["truncated"] is True
    assert res["deadlocked"] == [section] and res["settled"] == []
    assert res["colour_scores"] == [4, 4, 4]
    assert res["ranks"] == [1, 1, 1]
    assert res["winners"] == [0, 1, 2]


def test_example_5_settled_region_does_not_score_again():
    state = new_state(6)
    play(state, rounds(["a1", "b1", "c1", "a2", "d1"], ["b2", "c2", "e1", "f1", "d2"], *SIX_OTHERS))
    # Section I: (4, 2, 0, 0, 0, 0); the four colours tied on 0 lose 2 each.
    res = state.result()
    assert res["settled"] == [SEC_I]
    assert res["colour_scores"] == [6, 0, -2, -2, -2, -2]
    assert res["pieces_in_hand"] == [0] * 6
    state.play("a1-a6")  # section I is no longer full
    state.play("d2-a1")  # refilled, tied 3-3: neither scores nor deadlocks
    assert owner(state, "a1") == 1
    res = state.result()
    assert res["settled"] == [SEC_I] and res["deadlocked"] == []
    assert res["colour_scores"] == [6, 0, -2, -2, -2, -2]


def test_example_5_refilled_with_a_unique_leader_does_not_score_again():
    state = new_state(6)
    play(state, rounds(["a1", "b1", "c1", "a2", "d1"], ["b2", "c2", "e1", "f1", "d2"], *SIX_OTHERS))
    state.play("a1-a6")
    # Colours 1..5 move elsewhere, then colour 0 refills section I: (4, 2, 0, 0, 0, 0)
    # again, which would score +6 / -2 x4 a second time if the region were not settled.
    play(state, ["f1-a7", "e2-b7", "e3-c7", "c4-d7", "b5-e7", "a6-a1"])
    assert owner(state, "a1") == 0
    res = state.result()
    assert res["settled"] == [SEC_I] and res["deadlocked"] == []
    assert res["colour_scores"] == [6, 0, -2, -2, -2, -2]
    assert res["terminal"] is False


# ---------------------------------------------------------------- more settlement rules
def test_two_regions_settle_on_the_same_ply():
    state = new_state(3)
    play(state, rounds(["b1", "c1", "d1", "a2"], ["e1", "f1", "b2", "a5"], ["g1", "c2", "b5", "c5"]))
    assert state.result()["settled"] == []
    state.play("a1")
    # Row 1 (4, 2, 1): +7 / -4.  Section I (4, 1, 1): +6 / -2 -2.
    res = state.result()
    assert res["settled"] == [ROW1, SEC_I]
    assert res["colour_scores"] == [13, -2, -6]


def test_final_settlement_lowest_among_the_other_colours():
    state = new_state(5, max_rounds=2)
    play(state, rounds(["a1", "b1"], ["c1", "a2"], ["b2", "a7"], ["c2", "b7"], ["c7", "d7"]))
    # Section I (2, 2, 1, 1, 0): leaders +4 each, colour 4 alone lowest of the rest -4.
    res = state.result()
    assert res["terminal"] is True and res["truncated"] is True
    assert res["deadlocked"] == [SEC_I]
    assert res["colour_scores"] == [4, 4, 0, 0, -4]
    assert res["ranks"] == [1, 1, 3, 3, 5]
    assert res["winners"] == [0, 1]


def test_deadlock_is_rechecked_when_region_empties_and_refills():
    state = new_state(6)
    play(state, rounds(["a1", "b1", "c1", "d1", "e1"], ["a2", "b2", "c2", "d2", "f1"], *SIX_OTHERS))
    assert state.result()["deadlocked"] == [SEC_I]
    assert state.result()["colour_scores"] == [0] * 6
    state.play("a1-a6")
    assert state.result()["deadlocked"] == []
    play(state, ["f1-a7", "e2-b7", "e3-c7", "c4-d7", "b5-e7", "a6-a1"])
    assert state.result()["deadlocked"] == [SEC_I]  # tied 3-3 again
    assert state.result()["settled"] == []
    # Colour 1 leaves section I; colour 0 refills it: (4, 2, 0, 0, 0, 0) settles now.
    play(state, ["a2-g6", "f2-b6", "f3-c6", "e4-d6", "c5-e6"])
    assert state.result()["deadlocked"] == []
    state.play("d1-a2")
    res = state.result()
    assert res["deadlocked"] == [] and res["settled"] == [SEC_I]
    assert res["colour_scores"] == [6, 0, -2, -2, -2, -2]


# ---------------------------------------------------------------- the 2-player game
def test_two_player_sub_moves():
    state = new_state(2)
    first = state.legal_move_texts()
    assert len(first) == 2 * 49
    assert {t.split(":")[0] for t in first} == {"0", "1"}
    with pytest.raises(IllegalMoveError):
        state.play("d4")  # ambiguous: either of player 0's colours could place
    state.play("1:d4")  # the player chooses to start with colour 1
    assert state.current_player == 0
    texts = state.legal_move_texts()
    assert len(texts) == 48 and all(t.startswith("0:") for t in texts)
    for wrong in ("1:e5", "2:e5", "3:e5", "0:d4"):
        with pytest.raises(IllegalMoveError):
            state.play(wrong)
    state.play("0:e5")
    assert state.current_player == 1
    assert {decode_move(int(m))[0] for m in state.legal_moves()} == {2, 3}
    with pytest.raises(IllegalMoveError):
        state.play("0:a1")  # not player 1's colour
    state.play("2:a1")
    state.play("b1")  # the prefix may be left out when only one colour can move
    res = state.result()
    assert state.current_player == 0 and res["plies"] == 4
    assert res["pieces_in_hand"] == [7, 7, 7, 7]
    assert state.move_texts() == ["1:d4", "0:e5", "2:a1", "3:b1"]


def test_two_player_first_colour_may_be_either_each_turn():
    state = new_state(2)
    play(state, ["0:a1", "1:b1", "3:c1", "2:d1", "1:e1", "0:f1"])
    assert state.result()["pieces_in_hand"] == [6, 6, 7, 7]
    assert state.current_player == 1


def test_two_player_scores_sum_colours_and_settle_mid_turn():
    state = new_state(2)
    play(state, ["0:a1", "1:b1", "2:c1", "3:a7", "1:d1", "0:e1", "3:b7", "2:f1", "0:g1"])
    # Row 1 filled on the first sub-move of a turn: (3, 2, 2, 0) -> +7 / colour 3 -4.
    res = state.result()
    assert res["settled"] == [ROW1]
    assert res["colour_scores"] == [7, 0, 0, -4]
    assert res["scores"] == [7, -4]
    assert res["ranks"] == [1, 2]
    assert state.current_player == 0
    assert {decode_move(int(m))[0] for m in state.legal_moves()} == {1}


def test_two_player_placement_to_moving():
    state = random_play(new_state(2), 32, seed=5)
    res = state.result()
    assert res["pieces_in_hand"] == [0, 0, 0, 0] and not res["terminal"]
    texts = state.legal_move_texts()
    # Both colours of player 0 may move: 2 colours x 8 pieces x 17 empty cells.
    assert len(texts) == 2 * 8 * 17
    assert all(re.fullmatch(r"[01]:[a-g][1-7]-[a-g][1-7]", t) for t in texts)


def test_two_player_cap_counts_four_plies_per_round():
    state = new_state(2, max_rounds=2)
    random_play(state, 7, seed=1)
    assert not state.is_terminal
    random_play(state, 1, seed=2)
    res = state.result()
    assert res["terminal"] and res["truncated"] and res["plies"] == 8


# ---------------------------------------------------------------- placement -> moving
def test_placement_to_moving_transition():
    state = new_state(3)
    rng = random.Random(3)
    for ply in range(30):
        texts = state.legal_move_texts()
        assert all("-" not in t for t in texts)  # placements only
        assert len(texts) == 49 - ply
        state.play(rng.choice(texts))
    res = state.result()
    assert res["pieces_in_hand"] == [0, 0, 0] and not res["terminal"]
    own = [c for c in _cells() if owner(state, c) == 0]
    other = [c for c in _cells() if owner(state, c) == 1]
    empty = [c for c in _cells() if owner(state, c) == -1]
    assert len(own) == 10 and len(empty) == 19
    texts = state.legal_move_texts()
    assert len(texts) == 10 * 19
    assert {t.split("-")[0] for t in texts} == set(own)
    assert {t.split("-")[1] for t in texts} == set(empty)
    for bad in (empty[0], f"{other[0]}-{empty[0]}", f"{own[0]}-{own[1]}", f"{own[0]}-{own[0]}"):
        with pytest.raises(IllegalMoveError):  # placement / foreign piece / occupied / same cell
            state.play(bad)
    state.play(f"{own[0]}-{empty[0]}")
    assert owner(state, own[0]) == -1 and owner(state, empty[0]) == 0
    assert state.current_player == 1
    assert state.result()["pieces_in_hand"] == [0, 0, 0]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_must_place_while_pieces_in_hand(players):
    state = new_state(players)
    play(state, ["a1", "b1", "c1", "d1", "e1"][: players - 1] + ["c2"])
    assert state.current_player == 0
    with pytest.raises(IllegalMoveError):
        state.play("a1-a2")  # colour 0 still has pieces in hand
    with pytest.raises(IllegalMoveError):
        state.play("b1")  # occupied


def _cells():
    return [f"{c}{r}" for r in range(1, 8) for c in "abcdefg"]


# ---------------------------------------------------------------- cap and truncation
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("max_rounds", [1, 3])
def test_cap_ends_game_truncated(players, max_rounds):
    state = new_state(players, max_rounds=max_rounds, seed=players)
    last = max_rounds * COLOURS[players]
    random_play(state, last - 1, seed=10 * players + max_rounds)
    assert not state.is_terminal and state.result()["truncated"] is False
    random_play(state, 1, seed=1)
    res = state.result()
    assert res["plies"] == last
    assert res["terminal"] is True and res["truncated"] is True
    assert res["winners"] == [p for p, r in enumerate(res["ranks"]) if r == 1]
    assert state.legal_moves().size == 0


def test_default_cap_is_100_rounds():
    game = create_game("forum-romanum", players=3)
    assert game.config == {"players": 3, "max_rounds": 100}
    state = game.new_state(4)
    rng = make_rng(4)
    while not state.is_terminal:
        state.play(int(game.kernels.random_move(state.array, rng)))
    res = state.result()
    assert res["plies"] <= 300
    assert res["truncated"] == (res["plies"] == 300 and len(res["settled"]) + len(res["deadlocked"]) < 23)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_cap_game_ends_naturally(players):
    state = play_to_end(new_state(players, max_rounds=0, seed=1), seed=players)
    res = state.result()
    assert res["terminal"] is True and res["truncated"] is False
    assert sorted(res["settled"] + res["deadlocked"]) == list(range(23))
    assert res["winners"] and all(res["ranks"][w] == 1 for w in res["winners"])


def test_no_cap_outlasts_any_small_cap():
    """With max_rounds=0 a random 4-player game runs past 100 rounds' worth of plies
    for some seed (random games take ~700 plies), and still ends untruncated."""
    lengths = []
    for seed in range(5):
        res = play_to_end(new_state(4, max_rounds=0, seed=seed), seed=seed).result()
        assert not res["truncated"]
        lengths.append(res["plies"])
    assert max(lengths) > 400


def test_natural_end_on_the_cap_ply_is_not_truncated():
    for seed in range(60):
        free = play_to_end(new_state(4, max_rounds=0, seed=seed), seed=seed)
        if len(free.history) % 4 == 0:
            break
    else:
        pytest.fail("no seed ended on a round boundary")
    cap = len(free.history) // 4
    exact = play(new_state(4, max_rounds=cap, seed=seed), free.history)
    res = exact.result()
    assert res["terminal"] is True and res["truncated"] is False
    assert res["colour_scores"] == free.result()["colour_scores"]
    early = play(new_state(4, max_rounds=cap - 1, seed=seed), free.history[: 4 * (cap - 1)])
    assert early.is_terminal and early.result()["truncated"] is True


# ---------------------------------------------------------------- ranks and winners
def test_scores_are_colour_scores_in_random_games():
    # Ranks and winners from scores: the conformance kit.
    for players in (2, 3, 4, 5, 6):
        for seed in range(4):
            state = play_to_end(new_state(players, max_rounds=20, seed=seed), seed=seed)
            res = state.result()
            cs, scores = res["colour_scores"], res["scores"]
            if players == 2:
                assert scores == [cs[0] + cs[1], cs[2] + cs[3]]
            else:
                assert scores == cs
            assert set(res["settled"]).isdisjoint(res["deadlocked"])


# ---------------------------------------------------------------- notation
def _round_trip_positions():
    yield "2p start", new_state(2)
    yield "2p second sub-move", play(new_state(2), ["1:d4"])
    yield "2p moving", random_play(new_state(2), 34, seed=8)
    yield "2p moving, second sub-move", random_play(new_state(2), 35, seed=8)
    for players in (3, 4, 5, 6):
        yield f"{players}p start", new_state(players)
        yield f"{players}p placing", random_play(new_state(players), 2 * players + 1, seed=players)
        pieces = PIECES[players] * players
        yield f"{players}p moving", random_play(new_state(players), pieces + 3, seed=players)


@pytest.mark.parametrize("label,state", list(_round_trip_positions()), ids=lambda x: x if isinstance(x, str) else "")
def test_notation_pattern(label, state):
    # Round trips, malformed text and replay are the conformance kit's
    # (tests/conformance/test_conformance.py); this is the notation the rules spec shows.
    game = state.game
    pattern = r"[0-3]:" if game.players == 2 else r""
    pattern += r"[a-g][1-7](-[a-g][1-7])?"
    for move in state.legal_moves():
        text = game.format_move(state.array, int(move))
        assert re.fullmatch(pattern, text), text
    if game.players == 2 and state.array[SUBMOVE] == 1:  # second sub-move: the colour is implied
        move = int(state.legal_moves()[0])
        bare = game.format_move(state.array, move).split(":", 1)[1]
        assert state.parse(bare) == move


def test_illegal_moves_raise_illegal_move_error():
    state = play(new_state(3), ["a1", "b1"])
    for text in ("a1", "b1", "0:c1", "1:c1", "a1-c1", "c1-d1"):
        with pytest.raises(IllegalMoveError):
            state.play(text)
    for code in (-1, 0, 10**6, int(state.legal_moves()[0]) + (1 << 12)):
        with pytest.raises(IllegalMoveError):
            state.play(code)
    assert state.current_player == 2 and state.result()["plies"] == 2
    state.play(np.int64(state.legal_moves()[0]))  # numpy codes are fine


def test_illegal_move_errors_are_forumlab_errors():
    assert issubclass(IllegalMoveError, ForumlabError)
    assert issubclass(GameOverError, ForumlabError)
    assert issubclass(ConfigError, ForumlabError)


# ---------------------------------------------------------------- after the end
def test_playing_after_the_end_raises_game_over():
    state = new_state(3, max_rounds=1)
    play(state, ["a1", "b1", "c1"])
    assert state.is_terminal
    for move in ("d1", "zz", 0):
        with pytest.raises(GameOverError):
            state.play(move)
    assert state.legal_moves().size == 0
    assert state.result()["plies"] == 3 and len(state.history) == 3


# ---------------------------------------------------------------- configuration
@pytest.mark.parametrize(
    "options",
    [
        {"players": 0},
        {"players": 1},
        {"players": 7},
        {"players": -3},
        {"players": "3"},
        {"players": 3.0},
        {"players": True},
        {"players": None},
        {"players": 3, "max_rounds": -1},
        {"players": 3, "max_rounds": 1.5},
        {"players": 3, "max_rounds": "10"},
        {"players": 3, "max_rounds": True},
        {"players": 3, "max_rounds": None},
        {"players": 3, "bogus": 1},
        {"colours": 4},
    ],
)
def test_bad_configs_raise_config_error(options):
    with pytest.raises(ConfigError):
        create_game("forum-romanum", options)


def test_bad_config_types():
    with pytest.raises(ConfigError):
        ForumRomanum.from_config([3])
    with pytest.raises(ConfigError):
        create_game("forum-romanum", {"players": 3}, bogus=True)


def test_good_configs():
    for players in range(2, 7):
        for max_rounds in (0, 1, 100, 10_000):
            game = create_game("forum-romanum", players=players, max_rounds=max_rounds)
            assert game.config == {"players": players, "max_rounds": max_rounds}
            assert game.players == players
            assert ForumRomanum.from_config(game.config).config == game.config


def test_huge_max_rounds_is_rejected_or_behaves_as_a_huge_cap():
    try:
        state = new_state(3, max_rounds=2**62)
    except ConfigError:
        return
    state.play("a1")
    assert not state.is_terminal


@pytest.mark.parametrize("make", [lambda: new_state(3, seed=2**64), lambda: new_state(3, max_rounds=2**63)])
def test_out_of_range_integers_raise_config_error(make):
    with pytest.raises(ConfigError):
        make()
