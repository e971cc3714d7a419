"""Tests of the plain-Python Forum Romanum reference engine against the rules spec.

Positions are built only through legal ``apply`` calls. Each helper ply is written in the
spec's notation: ``"d4"`` places a piece of the colour to move, ``"a1-a6"`` moves one, and
in the 2-player game a ``"1:"`` prefix names the colour (``"1:d4"``, ``"0:a1-a6"``).
"""

import random

import pytest

from forumlab.engines.forum_romanum.reference import (
    PLACE,
    REGION_VALUES,
    REGIONS,
    ReferenceForumRomanum,
    cell_index,
    decode_move,
    encode_move,
)

ROW1, COL_A, D1, SEC_I, SEC_IV = 0, 7, 14, 16, 19


def move_code(game: ReferenceForumRomanum, ply: str) -> int:
    """Translate one ply in notation into a move code for ``game``'s side to move."""
    if ":" in ply:
        colour_text, ply = ply.split(":")
        colour = int(colour_text)
    else:
        colour = game.current_player()
    if "-" in ply:
        src_text, dst_text = ply.split("-")
        return encode_move(colour, cell_index(src_text), cell_index(dst_text))
    return encode_move(colour, PLACE, cell_index(ply))


def play(game: ReferenceForumRomanum, plies: list[str]) -> None:
    """Apply a sequence of plies, each of which must be legal."""
    for ply in plies:
        code = move_code(game, ply)
        assert code in game.legal_codes(), f"{ply} not legal at ply {game.plies}"
        game.apply(code)


def rounds(*per_colour: list[str]) -> list[str]:
    """Interleave each colour's placements in seat order: round by round."""
    return [cells[i] for i in range(len(per_colour[0])) for cells in per_colour]


# A 6-player placement layout: rows 1-5 minus g1, g2, a3, d4, g5 (30 cells). Every row,
# column, diagonal and section except section I keeps an empty cell, so only section I can
# be full at the end of the placement phase.
SIX_OTHERS = [
    ["e2", "f2", "b3", "c3", "d3"],
    ["e3", "f3", "g3", "a4", "b4"],
    ["c4", "e4", "f4", "g4", "a5"],
    ["b5", "c5", "d5", "e5", "f5"],
]


# ---------------------------------------------------------------- construction, layout
def test_region_table_matches_spec():
    assert len(REGIONS) == 23
    assert REGION_VALUES == [7] * 16 + [6, 8, 6, 9, 6, 8, 6]
    assert REGIONS[SEC_I] == tuple(cell_index(c) for c in ["a1", "b1", "c1", "a2", "b2", "c2"])
    assert REGIONS[15] == tuple(cell_index(c) for c in ["g1", "f2", "e3", "d4", "c5", "b6", "a7"])
    assert cell_index("a1") == 0 and cell_index("g7") == 48 and cell_index("d4") == 24
    every_cell = sorted(c for r in range(16, 23) for c in REGIONS[r])
    assert every_cell == list(range(49))  # sections tile the board


@pytest.mark.parametrize("bad", [0, 1, 7])
def test_bad_player_count_rejected(bad):
    with pytest.raises(ValueError):
        ReferenceForumRomanum(bad)


@pytest.mark.parametrize(
    "players,colours,pieces", [(2, 4, 8), (3, 3, 10), (4, 4, 8), (5, 5, 6), (6, 6, 5)]
)
def test_initial_state(players, colours, pieces):
    game = ReferenceForumRomanum(players)
    assert game.players == players and game.n_colours == colours
    assert game.pieces_in_hand() == [pieces] * colours
    assert game.board() == [-1] * 49
    assert game.current_player() == 0 and game.plies == 0
    assert not game.is_terminal() and not game.truncated
    assert game.colour_scores() == [0] * colours
    assert game.player_scores() == [0] * players


# ---------------------------------------------------------------- worked examples
def test_example_1_row_settles_4_2_1():
    game = ReferenceForumRomanum(3)
    play(game, rounds(["a1", "b1", "c1", "d1"], ["e1", "f1", "a3", "b3"], ["c3", "d3", "e3", "g1"]))
    assert game.settled_regions() == [ROW1]
    assert game.colour_scores() == [7, 0, -4]
    assert not game.is_terminal()


def test_example_2_deadlock_then_final_settlement():
    game = ReferenceForumRomanum(4, max_rounds=3)
    plies = rounds(["a1", "b1", "c1"], ["a2", "b2", "c2"], ["a7", "b7", "c7"], ["e7", "f7", "g7"])
    play(game, plies[:10])
    # Section I filled on ply 10 with (3, 3, 0, 0): deadlock, nothing scored now.
    assert game.deadlocked_regions() == [SEC_I]
    assert game.settled_regions() == []
    assert game.colour_scores() == [0, 0, 0, 0]
    play(game, plies[10:])  # finishes round 3: the cap ends the game still deadlocked
    assert game.plies == 12
    assert game.is_terminal() and game.truncated
    assert game.colour_scores() == [4, 4, -2, -2]


def test_example_3_section_iv_5_2_2():
    game = ReferenceForumRomanum(3)
    play(
        game,
        rounds(
            ["c3", "d3", "e3", "c4", "d4"],
            ["e4", "c5", "a1", "b1", "c1"],
            ["a7", "b7", "c7", "d5", "e5"],
        ),
    )
    assert game.settled_regions() == [SEC_IV]
    assert game.colour_scores() == [9, -2, -2]


def test_example_4_all_tied_deadlock_nobody_loses():
    game = ReferenceForumRomanum(3, max_rounds=2)
    play(game, rounds(["a1", "b1"], ["c1", "a2"], ["b2", "c2"]))
    assert game.is_terminal() and game.truncated
    assert game.deadlocked_regions() == [SEC_I]
    assert game.colour_scores() == [4, 4, 4]


def test_example_5_settled_region_does_not_score_again():
    game = ReferenceForumRomanum(6)
    play(game, rounds(["a1", "b1", "c1", "a2", "d1"], ["b2", "c2", "e1", "f1", "d2"], *SIX_OTHERS))
    # Section I: (4, 2, 0, 0, 0, 0); the four colours tied on 0 lose 2 each.
    assert game.settled_regions() == [SEC_I]
    assert game.colour_scores() == [6, 0, -2, -2, -2, -2]
    assert game.pieces_in_hand() == [0] * 6
    play(game, ["a1-a6"])  # section I is no longer full
    play(game, ["d2-a1"])  # refilled, now tied 3-3: neither scores nor deadlocks
    assert game.board()[cell_index("a1")] == 1
    assert game.settled_regions() == [SEC_I]
    assert game.deadlocked_regions() == []
    assert game.colour_scores() == [6, 0, -2, -2, -2, -2]


# ---------------------------------------------------------------- more settlement rules
def test_two_regions_settle_on_the_same_ply():
    game = ReferenceForumRomanum(3)
    play(game, rounds(["b1", "c1", "d1", "a2"], ["e1", "f1", "b2", "a5"], ["g1", "c2", "b5", "c5"]))
    assert game.settled_regions() == []
    play(game, ["a1"])
    # Row 1 (4, 2, 1): +7 / -4.  Section I (4, 1, 1): +6 / -2 -2.
    assert game.settled_regions() == [ROW1, SEC_I]
    assert game.colour_scores() == [13, -2, -6]


def test_final_settlement_lowest_among_the_other_colours():
    game = ReferenceForumRomanum(5, max_rounds=2)
    play(game, rounds(["a1", "b1"], ["c1", "a2"], ["b2", "a7"], ["c2", "b7"], ["c7", "d7"]))
    # Section I (2, 2, 1, 1, 0): the leaders +4 each, colour 4 alone lowest of the rest.
    assert game.is_terminal() and game.truncated
    assert game.colour_scores() == [4, 4, 0, 0, -4]


def test_deadlock_is_rechecked_when_region_empties_and_refills():
    game = ReferenceForumRomanum(6)
    play(game, rounds(["a1", "b1", "c1", "d1", "e1"], ["a2", "b2", "c2", "d2", "f1"], *SIX_OTHERS))
    assert game.deadlocked_regions() == [SEC_I]
    assert game.colour_scores() == [0] * 6
    play(game, ["a1-a6"])
    assert game.deadlocked_regions() == []
    # Other colours move away from section I, then colour 0 refills it: tied 3-3 again.
    play(game, ["f1-a7", "e2-b7", "e3-c7", "c4-d7", "b5-e7", "a6-a1"])
    assert game.deadlocked_regions() == [SEC_I]
    assert game.settled_regions() == []
    assert game.colour_scores() == [0] * 6
    # Colour 1 leaves it; colour 0 refills it: (4, 2, 0, 0, 0, 0) settles now.
    play(game, ["a2-g6", "f2-b6", "f3-c6", "e4-d6", "c5-e6"])
    assert game.deadlocked_regions() == []
    play(game, ["d1-a2"])
    assert game.deadlocked_regions() == []
    assert game.settled_regions() == [SEC_I]
    assert game.colour_scores() == [6, 0, -2, -2, -2, -2]


# ---------------------------------------------------------------- turns and moves
def test_two_player_sub_moves():
    game = ReferenceForumRomanum(2)
    first = game.legal_codes()
    assert len(first) == 2 * 49
    assert {decode_move(m)[0] for m in first} == {0, 1}
    assert first == sorted(first)
    game.apply(move_code(game, "1:d4"))  # the player chooses to start with colour 1
    assert game.current_player() == 0
    assert {decode_move(m)[0] for m in game.legal_codes()} == {0}
    assert len(game.legal_codes()) == 48
    for wrong in ("1:e5", "2:e5"):
        with pytest.raises(ValueError):
            game.apply(move_code(game, wrong))
    game.apply(move_code(game, "0:e5"))
    assert game.current_player() == 1
    assert {decode_move(m)[0] for m in game.legal_codes()} == {2, 3}
    with pytest.raises(ValueError):
        game.apply(move_code(game, "0:a1"))
    play(game, ["2:a1", "3:b1"])
    assert game.current_player() == 0 and game.plies == 4
    assert game.pieces_in_hand() == [7, 7, 7, 7]


def test_two_player_scores_sum_colours_and_settle_mid_turn():
    game = ReferenceForumRomanum(2)
    play(game, ["0:a1", "1:b1", "2:c1", "3:a7", "1:d1", "0:e1", "3:b7", "2:f1", "0:g1"])
    # Row 1 filled on the first sub-move of a turn: (3, 2, 2, 0) -> +7 / colour 3 -4.
    assert game.settled_regions() == [ROW1]
    assert game.colour_scores() == [7, 0, 0, -4]
    assert game.player_scores() == [7, -4]
    assert game.current_player() == 0
    assert {decode_move(m)[0] for m in game.legal_codes()} == {1}


def test_placement_to_moving_transition():
    game = ReferenceForumRomanum(3)
    rng = random.Random(3)
    for _ in range(30):
        moves = game.legal_codes()
        assert all(decode_move(m)[1] == PLACE for m in moves)
        assert len(moves) == 49 - game.plies
        game.apply(game.random_move(rng))
    assert game.pieces_in_hand() == [0, 0, 0]
    assert not game.is_terminal()
    board = game.board()
    own = [c for c in range(49) if board[c] == 0]
    empty = [c for c in range(49) if board[c] == -1]
    moves = game.legal_codes()
    assert len(moves) == 10 * 19
    assert {decode_move(m)[1] for m in moves} == set(own)
    assert {decode_move(m)[2] for m in moves} == set(empty)
    with pytest.raises(ValueError):  # no more placements
        game.apply(encode_move(0, PLACE, empty[0]))
    with pytest.raises(ValueError):  # a piece of another colour
        game.apply(encode_move(0, board.index(1), empty[0]))
    with pytest.raises(ValueError):  # onto an occupied cell
        game.apply(encode_move(0, own[0], own[1]))
    game.apply(encode_move(0, own[0], empty[0]))
    assert game.board()[own[0]] == -1 and game.board()[empty[0]] == 0
    assert game.current_player() == 1


def test_must_place_while_pieces_in_hand():
    game = ReferenceForumRomanum(4)
    play(game, ["a1", "b1", "c1", "d1"])
    with pytest.raises(ValueError):
        game.apply(encode_move(0, cell_index("a1"), cell_index("a2")))
    with pytest.raises(ValueError):
        game.apply(encode_move(0, PLACE, cell_index("b1")))  # occupied
    with pytest.raises(ValueError):
        game.apply(encode_move(1, PLACE, cell_index("a2")))  # not colour 1's turn


def test_copy_is_independent():
    game = ReferenceForumRomanum(3)
    play(game, ["a1", "b1"])
    clone = game.copy()
    play(clone, ["c1", "d1"])
    assert game.plies == 2 and clone.plies == 4
    assert game.board()[cell_index("c1")] == -1
    assert game.pieces_in_hand() == [9, 9, 10]


# ---------------------------------------------------------------- end of game, cap
@pytest.mark.parametrize("players,plies", [(2, 8), (3, 6), (6, 12)])
def test_cap_ends_game_truncated(players, plies):
    game = ReferenceForumRomanum(players, max_rounds=2)
    rng = random.Random(0)
    for _ in range(plies - 1):
        game.apply(game.random_move(rng))
        assert not game.is_terminal()
    game.apply(game.random_move(rng))
    assert game.is_terminal() and game.truncated
    assert game.legal_codes() == []
    with pytest.raises(ValueError):
        game.apply(encode_move(0, PLACE, game.board().index(-1)))


def play_out(game: ReferenceForumRomanum, seed: int, limit: int = 5000) -> list[int]:
    """Play random moves until the end (or ``limit`` plies); return the moves."""
    rng = random.Random(seed)
    moves = []
    while not game.is_terminal() and game.plies < limit:
        move = game.random_move(rng)
        moves.append(move)
        game.apply(move)
    return moves


def test_no_cap_game_ends_naturally():
    game = ReferenceForumRomanum(4, max_rounds=0)
    play_out(game, seed=1)
    assert game.is_terminal() and not game.truncated
    assert game.plies > 400  # far beyond the default cap of 100 rounds x 4 plies
    for region in range(23):
        assert region in game.settled_regions() or region in game.deadlocked_regions()


def test_natural_end_on_cap_ply_is_not_truncated():
    for seed in range(40):
        free = ReferenceForumRomanum(4, max_rounds=0)
        moves = play_out(free, seed)
        if free.plies % 4 == 0:
            break
    else:
        pytest.fail("no seed ended on a round boundary")
    cap = free.plies // 4
    exact = ReferenceForumRomanum(4, max_rounds=cap)
    for move in moves:
        exact.apply(move)
    assert exact.is_terminal() and not exact.truncated
    assert exact.colour_scores() == free.colour_scores()
    early = ReferenceForumRomanum(4, max_rounds=cap - 1)
    for move in moves[: 4 * (cap - 1)]:
        early.apply(move)
    assert early.is_terminal() and early.truncated


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_terminate_under_default_cap(players):
    per_round = 4 if players == 2 else players
    pieces = {2: 8, 3: 10, 4: 8, 5: 6, 6: 5}[players]
    for seed in range(2):
        game = ReferenceForumRomanum(players, max_rounds=100)
        rng = random.Random(seed)
        while not game.is_terminal():
            moves = game.legal_codes()
            assert moves and moves == sorted(set(moves))
            move = game.random_move(rng)
            assert move in moves
            game.apply(move)
            board = game.board()
            for colour in range(game.n_colours):
                assert board.count(colour) + game.pieces_in_hand()[colour] == pieces
            assert set(game.settled_regions()).isdisjoint(game.deadlocked_regions())
        assert game.plies <= 100 * per_round
        if game.truncated:
            assert game.plies == 100 * per_round
        else:
            covered = set(game.settled_regions()) | set(game.deadlocked_regions())
            assert covered == set(range(23))
        if players == 2:
            s = game.colour_scores()
            assert game.player_scores() == [s[0] + s[1], s[2] + s[3]]
        else:
            assert game.player_scores() == game.colour_scores()
