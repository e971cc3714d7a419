"""Tests of the plain-Python Forma reference engine against ``rules/forma.md``.

Positions are built only through legal ``apply`` calls, written in the engine's notation
(``"U5/0@d1"`` = piece U5, orientation 0, top-left of its bounding box on d1; the
orientation pictures are in ``forma.pieces``). ``"~"`` is a filler move: the mover places its
largest piece somewhere out of the way (by default in columns k-t) where it scores nothing
but its squares, so the other seats can take their turns while a test builds a position.
Squares: columns a-t left to right, rows 1-20 top to bottom (north = row 1).
"""

import random

import pytest

from forumlab.engines.forma.pieces import (
    BASE_SHAPES,
    COPIES_PER_SET,
    ORIENTATIONS,
    PIECE_NAMES,
    parse_placement,
    parse_square,
)
from forumlab.engines.forma.reference import (
    PASS,
    ReferenceForma,
    decode_move,
    encode_move,
)

FREE, STONE, TOWER = -1, -2, -3
RIGHT_HALF = frozenset(s for s in range(400) if s % 20 >= 10)  # columns k-t


# ---------------------------------------------------------------- helpers
def code(text: str) -> int:
    """Move code of a placement in notation, e.g. ``"I5/1@a1"``."""
    return encode_move(*parse_placement(text))


def sq(name: str) -> int:
    return parse_square(name)


def squares_of(move: int) -> list[int]:
    """The squares a placement covers, worked out from the shared orientation table."""
    piece, orientation, anchor = decode_move(move)
    row, col = divmod(anchor, 20)
    return [(row + r) * 20 + col + c for r, c in ORIENTATIONS[PIECE_NAMES[piece]][orientation]]


def neighbours(square: int) -> list[int]:
    row, col = divmod(square, 20)
    return [
        r * 20 + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        if 0 <= r < 20 and 0 <= c < 20
    ]


def filler(game: ReferenceForma, zone=RIGHT_HALF) -> int:
    """A placement for the mover inside ``zone`` that scores nothing beyond its squares.

    Pentominoes first (highest piece index), so the small pieces stay available to the tests.
    """
    player = game.current_player()
    before = game.score_breakdown()[player]
    moves = [m for m in game.legal_codes() if m != PASS and set(squares_of(m)) <= zone]
    for move in sorted(moves, key=lambda m: (-decode_move(m)[0], m)):
        trial = game.copy()
        trial.apply(move)
        after = trial.score_breakdown()[player]
        if after == dict(before, squares=before["squares"] + len(squares_of(move))):
            return move
    raise AssertionError("no filler move left in the zone")


def play(game: ReferenceForma, *plies: str, zone=RIGHT_HALF) -> None:
    """Apply plies in seat order; each must be legal. ``"~"`` is a filler move."""
    for ply in plies:
        if ply == "~":
            game.apply(filler(game, zone))
        else:
            move = code(ply)
            assert move in game.legal_codes(), f"{ply} is not legal"
            game.apply(move)


def can_place_brute(game: ReferenceForma, player: int) -> bool:
    """Independent check: does any piece left to ``player`` fit on free squares somewhere?"""
    board, markers, supply = game.board(), game.markers(), game.supply()[player]
    free = [board[s] == FREE and markers[s] == -1 for s in range(400)]
    for piece, name in enumerate(PIECE_NAMES):
        if supply[piece] == 0:
            continue
        for cells in ORIENTATIONS[name]:
            h = 1 + max(r for r, _ in cells)
            w = 1 + max(c for _, c in cells)
            for r0 in range(21 - h):
                for c0 in range(21 - w):
                    if all(free[(r0 + r) * 20 + c0 + c] for r, c in cells):
                        return True
    return False


def play_out(game: ReferenceForma, rng: random.Random) -> None:
    """Play random legal moves until the game is over."""
    while not game.is_terminal():
        game.apply(game.random_move(rng))


def check_final_score(game: ReferenceForma, player: int) -> None:
    """The final score is the spec's sum, bridges included at 50 each."""
    b = game.score_breakdown()[player]
    assert (b["bridges_ns"], b["bridges_ew"]) == game.bridges(player)
    assert game.scores()[player] == (
        b["squares"] + 10 * (b["enclosures"] + b["stones"]) + 50 * b["tower"]
        + 50 * (b["bridges_ns"] + b["bridges_ew"])
    )


# ---------------------------------------------------------------- pieces, codes, setup
def test_orientation_counts():
    counts = {name: len(ORIENTATIONS[name]) for name in PIECE_NAMES}
    assert counts["X5"] == 1 and counts["I5"] == 2 and counts["F5"] == 8
    assert counts["I1"] == 1 and counts["O4"] == 1 and counts["L4"] == 8
    assert sum(counts.values()) == 91


@pytest.mark.parametrize("name", PIECE_NAMES)
def test_orientations_distinct_normalised_and_complete(name):
    shapes = ORIENTATIONS[name]
    assert len(set(shapes)) == len(shapes)  # distinct
    for cells in shapes:
        assert min(r for r, _ in cells) == 0 and min(c for _, c in cells) == 0
        assert list(cells) == sorted(cells) and len(cells) == len(BASE_SHAPES[name])

    # Every rotation/reflection of the base shape is one of them (independent generation:
    # the 8 symmetries of the square as (r, c) -> (+-r or +-c, +-c or +-r)).
    def norm(cells):
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        return tuple(sorted((r - r0, c - c0) for r, c in cells))

    images = set()
    for swap in (False, True):
        for sr in (1, -1):
            for sc in (1, -1):
                moved = [(c, r) if swap else (r, c) for r, c in BASE_SHAPES[name]]
                images.add(norm([(sr * r, sc * c) for r, c in moved]))
    assert images == set(shapes)
    assert shapes[0] == norm(BASE_SHAPES[name])


def test_move_codes():
    assert PASS == 21 * 8 * 400 == 67200
    assert encode_move(0, 0, 0) == 0
    assert encode_move(20, 7, 399) == PASS - 1
    assert code("P5/3@h7") == (PIECE_NAMES.index("P5") * 8 + 3) * 400 + 6 * 20 + 7
    for move in (0, 1234, 40000, PASS - 1):
        assert encode_move(*decode_move(move)) == move
    with pytest.raises(ValueError):
        decode_move(PASS)
    with pytest.raises(ValueError):
        encode_move(21, 0, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_opening_move_count(players):
    # On an empty board a shape whose bounding box is h rows by w columns fits at
    # (21 - h) * (21 - w) anchors; every orientation of every shape is a distinct move.
    expected = 0
    for name in PIECE_NAMES:
        for cells in ORIENTATIONS[name]:
            h = 1 + max(r for r, _ in cells)
            w = 1 + max(c for _, c in cells)
            expected += (21 - h) * (21 - w)
    game = ReferenceForma(players)
    moves = game.legal_codes()
    assert len(moves) == expected
    assert moves == sorted(set(moves))
    # e.g. the monomino fits on all 400 squares, the straight domino at 2 * 20 * 19 anchors
    assert sum(1 for m in moves if decode_move(m)[0] == 0) == 400
    assert sum(1 for m in moves if decode_move(m)[0] == 1) == 760


def test_initial_state():
    game = ReferenceForma(4, obstacles=["c3", "h8"], tower="j10")
    board = game.board()
    assert board[sq("c3")] == STONE and board[sq("h8")] == STONE and board[sq("j10")] == TOWER
    assert board.count(FREE) == 397
    assert game.markers() == [-1] * 400
    assert game.supply() == [list(COPIES_PER_SET)] * 4
    assert COPIES_PER_SET[0] == 2 and sum(COPIES_PER_SET) == 22
    assert game.current_player() == 0 and game.players == 4
    assert game.scores() == [0, 0, 0, 0] and not game.is_terminal()


# 26 stones on squares with odd row and odd column: none touch along an edge.
TOO_MANY_STONES = [f"{'acegikmoqs'[i % 10]}{2 * (i // 10) + 1}" for i in range(26)]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(players=1),
        dict(players=5),
        dict(players=4, obstacles="random"),
        dict(players=4, obstacles="lots"),
        dict(players=4, obstacles=["z9"]),
        dict(players=4, obstacles=[42]),  # squares are given by name
        dict(players=4, obstacles=TOO_MANY_STONES),
        dict(players=4, obstacles=["c3", "c3"]),
        dict(players=4, obstacles=["c3", "c4"]),  # touch along an edge
        dict(players=4, obstacles=["j9"], tower="j10"),  # a stone touches the tower
        dict(players=4, obstacles=["j10"], tower="j10"),
        dict(players=4, tower="a5"),  # tower on the edge
        dict(players=4, tower="j20"),
    ],
)
def test_bad_setup_rejected(kwargs):
    with pytest.raises(ValueError):
        ReferenceForma(**kwargs)


def test_obstacles_touching_at_a_corner_and_25_stones_are_fine():
    ReferenceForma(4, obstacles=["c3", "d4"], tower="e5")
    ReferenceForma(4, obstacles=TOO_MANY_STONES[:25], tower="b2")


def test_illegal_moves_raise():
    game = ReferenceForma(4)
    for bad in (
        code("I5/0@q1"),  # columns q..u: off the board
        encode_move(PIECE_NAMES.index("X5"), 1, 0),  # X5 has only orientation 0
        PASS,  # the mover can place, so may not pass
        PASS + 1,
        -1,
    ):
        with pytest.raises(ValueError):
            game.apply(bad)
    play(game, "I5/0@a1")
    with pytest.raises(ValueError):
        game.apply(code("I2/1@c1"))  # c1 is covered
    play(game, "~", "~", "~")
    with pytest.raises(ValueError):
        game.apply(code("I5/0@a5"))  # player 0 has no I5 left
    assert game.current_player() == 0


# ---------------------------------------------------------------- enclosed free squares
def test_free_square_goes_to_the_player_who_closes_it():
    # e5's four sides are covered by four different players; the last one (player 3, who
    # covers e6) closes it: +10 and a marker.
    game = ReferenceForma(4)
    play(game, "I1/0@e4", "I1/0@d5", "I1/0@f5")
    assert game.scores() == [1, 1, 1, 0] and game.markers()[sq("e5")] == -1
    play(game, "I1/0@e6")
    assert game.scores() == [1, 1, 1, 11]
    assert game.markers()[sq("e5")] == 3 and game.board()[sq("e5")] == FREE
    assert game.score_breakdown()[3]["enclosures"] == 1
    # The marked square is no longer free: player 0 may not cover it with a monomino.
    assert code("I1/0@e5") not in game.legal_codes()
    with pytest.raises(ValueError):
        game.apply(code("I1/0@e5"))


def test_two_touching_free_squares_are_not_enclosed():
    # e5 and f5 are closed on every side except the one they share.
    game = ReferenceForma(4)
    play(game, "I2/0@e4", "I1/0@d5", "I1/0@g5", "I2/0@e6")  # e4 f4 / d5 / g5 / e6 f6
    assert game.markers() == [-1] * 400
    assert game.scores() == [2, 1, 1, 2]
    # Player 0 covers f5: now e5 is closed on all sides (e4, d5, f5, e6) -> player 0.
    play(game, "I1/0@f5")
    assert game.markers()[sq("e5")] == 0
    assert game.scores() == [2 + 1 + 10, 1, 1, 2]


def test_one_placement_can_close_several_squares():
    # Row 1: a1 (p0), b1 free, c1 (p1), d1 free, e1 (p2). Player 3's I3 on b2-d2 closes
    # the south side of both b1 and d1: +20.
    game = ReferenceForma(4)
    play(game, "I1/0@a1", "I1/0@c1", "I1/0@e1", "I3/0@b2")
    assert game.scores() == [1, 1, 1, 3 + 20]
    markers = game.markers()
    assert markers[sq("b1")] == 3 and markers[sq("d1")] == 3
    assert game.score_breakdown()[3]["enclosures"] == 2


def test_square_enclosed_by_the_setup_scores_nobody_and_stays_free():
    # Stones on b1 and a2 enclose a1 from the start: no marker, still free, and no later
    # placement elsewhere claims it.
    game = ReferenceForma(4, obstacles=["b1", "a2"])
    assert game.markers()[sq("a1")] == -1
    play(game, "I1/0@e5")
    assert game.scores() == [1, 0, 0, 0] and game.markers()[sq("a1")] == -1
    assert code("I1/0@a1") in game.legal_codes()
    play(game, "I1/0@a1")  # covering it scores just the square
    assert game.scores() == [1, 1, 0, 0]
    assert game.markers() == [-1] * 400 and game.board()[sq("a1")] == 1


# ---------------------------------------------------------------- enclosed stones
def test_stone_enclosed_by_two_players_scores_nothing():
    # Stone e5: player 0 covers e4 and d5, player 1 covers f5 and e6.
    game = ReferenceForma(4, obstacles=["e5"])
    play(game, "I1/0@e4", "I1/0@f5", "~", "~", "I1/0@d5", "I1/0@e6")
    assert game.markers()[sq("e5")] == -1
    assert all(b["stones"] == 0 and b["enclosures"] == 0 for b in game.score_breakdown())
    assert game.scores()[:2] == [2, 2]


def test_stone_in_the_open_enclosed_by_one_player():
    # Stone e5: player 0's U5 (d4 e4 f4 d5 f5) closes three sides, its monomino on e6 the
    # fourth: +10 and a marker on the stone.
    game = ReferenceForma(4, obstacles=["e5"])
    play(game, "U5/2@d4", "~", "~", "~")
    assert game.scores()[0] == 5
    play(game, "I1/0@e6")
    assert game.scores()[0] == 5 + 1 + 10
    assert game.markers()[sq("e5")] == 0 and game.board()[sq("e5")] == STONE
    assert game.score_breakdown()[0]["stones"] == 1


@pytest.mark.parametrize(
    "stone,placement,squares",
    [
        ("e1", "U5/0@d1", 5),  # north edge: U5 covers d1 f1 d2 e2 f2 -> sides d1, f1, e2
        ("a1", "V3/3@a1", 3),  # corner: V3 covers b1 a2 b2 -> sides b1, a2
    ],
)
def test_stone_at_the_edge_needs_only_its_open_sides(stone, placement, squares):
    game = ReferenceForma(4, obstacles=[stone])
    play(game, placement)
    assert game.scores() == [squares + 10, 0, 0, 0]
    assert game.markers()[sq(stone)] == 0


def test_stone_completed_by_a_marker_of_the_same_player():
    # Stone c1. Player 0's V3 covers d1 c2 d2 (two of its three sides). Later player 0's T4
    # on a1 a2 b2 a3 encloses free b1 (edge, a1, stone c1, b2): its marker on b1 is the
    # stone's third side, so the same placement claims the stone too: 4 + 10 + 10.
    game = ReferenceForma(4, obstacles=["c1"])
    play(game, "V3/3@c1", "~", "~", "~", "T4/3@a1")
    assert game.markers()[sq("b1")] == 0 and game.markers()[sq("c1")] == 0
    assert game.scores()[0] == 3 + 4 + 10 + 10
    b = game.score_breakdown()[0]
    assert (b["enclosures"], b["stones"]) == (1, 1)


def test_stone_with_a_side_marked_by_another_player_is_never_claimed():
    # As above, but player 1 closes b1: b1 carries player 1's marker, so stone c1 has sides
    # of two colours and scores for nobody.
    game = ReferenceForma(4, obstacles=["c1"])
    play(game, "V3/3@c1", "V3/0@a1")
    assert game.markers()[sq("b1")] == 1 and game.markers()[sq("c1")] == -1
    assert game.scores()[:2] == [3, 3 + 10]
    assert all(b["stones"] == 0 for b in game.score_breakdown())


# ---------------------------------------------------------------- tower
def test_tower_goes_to_the_player_who_closes_its_last_side():
    game = ReferenceForma(4, tower="e10")
    play(game, "I1/0@e9", "I1/0@d10", "I1/0@f10")
    assert game.scores() == [1, 1, 1, 0]
    play(game, "I1/0@e11")  # player 3 closes the last side
    assert game.scores() == [1, 1, 1, 51]
    assert [b["tower"] for b in game.score_breakdown()] == [0, 0, 0, 1]
    assert game.markers() == [-1] * 400  # the tower gets no marker
    play(game, "I1/0@a1")
    assert [b["tower"] for b in game.score_breakdown()] == [0, 0, 0, 1]  # once only


def test_tower_closed_through_an_enclosed_square():
    # Tower e10. e9, d10, f10 are covered; player 3's U5 (d11 f11 d12 e12 f12) encloses free
    # e11 (tower, d11, f11, e12), whose marker closes the tower's last side: 5 + 10 + 50.
    game = ReferenceForma(4, tower="e10")
    play(game, "I1/0@e9", "I1/0@d10", "I1/0@f10", "U5/0@d11")
    assert game.markers()[sq("e11")] == 3
    assert game.scores() == [1, 1, 1, 5 + 10 + 50]


# ---------------------------------------------------------------- bridges
def away_from(plies: list[str]) -> frozenset[int]:
    """Squares neither covered by nor next to any of ``plies``."""
    covered = {s for ply in plies for s in squares_of(code(ply))}
    near = covered | {n for s in covered for n in neighbours(s)}
    return frozenset(range(400)) - near


def build(game: ReferenceForma, plan: list[str], zone=None, last_round=True) -> None:
    """Player 0 plays ``plan`` in order; the others play fillers in ``zone`` in between.

    The default zone keeps the fillers off and away from every square of the plan. With
    ``last_round=False`` the others do not move after player 0's last ply.
    """
    zone = away_from(plan) if zone is None else zone
    for i, ply in enumerate(plan):
        assert game.current_player() == 0
        play(game, ply)
        if i < len(plan) - 1 or last_round:
            while game.current_player() != 0:
                play(game, "~", zone=zone)


def build_whole_set(game: ReferenceForma, chains: list[str], islands: list[str]) -> None:
    """Player 0 places its whole set: ``chains``, then ``islands`` (pieces apart from all others).

    The other players' fillers stay off and away from the chains and off the islands. Once
    player 0's supply is empty its squares can never change (markers go only to the player
    whose placement closes a square), so its bridges are final.
    """
    island_squares = {s for ply in islands for s in squares_of(code(ply))}
    build(game, chains + islands, zone=away_from(chains) - island_squares, last_round=False)
    assert sum(game.supply()[0]) == 0


# Column a, rows 1-20: I5 a1-a5, I4 a6-a9, L5 a10-a13+b13, L4 a14-a16+b16, I3 a17-a19, I1 a20.
CHAIN_A = ["I5/1@a1", "I4/1@a6", "L5/0@a10", "L4/0@a14", "I3/1@a17", "I1/0@a20"]
# Columns e-f: Y5 f1 e2 f2 f3 f4, N5 f5 f6 e7 f7 e8, P5 e9 f9 e10 f10 e11,
# T5 e12 f12 g12 f13 f14, I2 f15 f16, V5 f17 f18 f19 g19 h19, I1 f20.
CHAIN_F = ["Y5/0@e1", "N5/0@e5", "P5/0@e9", "T5/0@e12", "I2/1@f15", "V5/0@f17", "I1/0@f20"]
# The other 9 pieces of the set, each an island touching no other square of player 0:
# X5 m1 l2 m2 n2 m3, O4 p1 q1 p2 q2, V3 s1 s2 t2, T4 l5 m5 n5 m6, S4 q5 r5 p6 q6,
# F5 m9 n9 l10 m10 m11, U5 p9 r9 p10 q10 r10, W5 l14 l15 m15 m16 n16, Z5 p14 q14 q15 q16 r16.
ISLANDS_EAST = ["X5/0@l1", "O4/0@p1", "V3/0@s1", "T4/0@l5", "S4/0@p5",
                "F5/0@l9", "U5/0@p9", "W5/0@l14", "Z5/0@p14"]


def test_two_disjoint_north_south_bridges_score_100():
    # Chains A (columns a-b) and F (columns e-h) are two north-south bridges sharing no
    # square, and there is no third: player 0's only squares in row 20 are a20 and f20.
    # Nothing joins the chains to each other or to the islands (columns l-t): they are at
    # least two squares apart and a marker fills a single square (markers never touch each
    # other: a square is only enclosed when none of its sides is free). So no east-west bridge.
    game = ReferenceForma(3)
    build_whole_set(game, CHAIN_A + CHAIN_F, ISLANDS_EAST)
    assert game.bridges(0) == (2, 0)
    b = game.score_breakdown()[0]
    assert b["squares"] == 90 and game.scores()[0] == 90 + 10 * (b["enclosures"] + b["stones"])
    assert not game.is_terminal()  # bridges are not scored before the end
    play_out(game, random.Random(1))
    b = game.score_breakdown()[0]
    assert game.is_terminal() and (b["bridges_ns"], b["bridges_ew"]) == (2, 0)
    assert game.scores()[0] == 90 + 10 * (b["enclosures"] + b["stones"]) + 50 * b["tower"] + 100
    for p in range(3):
        check_final_score(game, p)


# Row 10: I5 a-e10, I4 f-i10, I3 j-l10, I2 m-n10, L5 r9 + o-r10, I1 s10, I1 t10.
ROW_10 = ["I5/0@a10", "I4/0@f10", "I3/0@j10", "I2/0@m10", "L5/3@o9", "I1/0@s10", "I1/0@t10"]
# Column j (crossing row 10 at j10): Y5 j1 j2 j3 k3 j4, L4 j5 j6 j7 k7, V3 j8 j9 k9,
# P5 j11 k11 j12 k12 j13, N5 j14 j15 j16 k16 k17, T5 j18 k18 l18 k19 k20.
COLUMN_J = ["Y5/2@j1", "L4/0@j5", "V3/0@j8", "P5/0@j11", "N5/4@j14", "T5/0@j18"]
# Islands in the four corners: X5 b1 a2 b2 c2 b3, O4 e1 f1 e2 f2, T4 a6 b6 c6 b7,
# S4 o1 p1 n2 o2, F5 r1 s1 q2 r2 r3, U5 n5 p5 n6 o6 p6, V5 a14 a15 a16 b16 c16,
# W5 e14 e15 f15 f16 g16, Z5 o14 p14 p15 p16 q16.
ISLANDS_CORNERS = ["X5/0@a1", "O4/0@e1", "T4/0@a6", "S4/0@n1", "F5/0@q1",
                   "U5/0@n5", "V5/0@a14", "W5/0@e14", "Z5/0@o14"]


def test_crossing_north_south_and_east_west_bridges_score_100():
    # The chains share j10. Player 0's only square in row 20 is k20 and its only square in
    # column t is t10, so there is at most one bridge each way: exactly one north-south and
    # one east-west, which cross.
    game = ReferenceForma(3)
    build_whole_set(game, ROW_10 + COLUMN_J, ISLANDS_CORNERS)
    assert game.bridges(0) == (1, 1)
    play_out(game, random.Random(2))
    b = game.score_breakdown()[0]
    assert game.is_terminal() and (b["bridges_ns"], b["bridges_ew"]) == (1, 1)
    assert game.scores()[0] == 90 + 10 * (b["enclosures"] + b["stones"]) + 50 * b["tower"] + 100


def test_chains_through_one_square_are_one_bridge():
    # Two branches from the north edge reach c10: column c1-c9 from the north and column
    # a1-a10 via b10 from the west. Two branches leave it for the south edge: column
    # c11-c20 to the south and d10 e10 + column e11-e20 to the east. Every north-south chain
    # passes the one square c10, so there is one bridge (square-disjoint), although two
    # chains could cross there without sharing a *side* (an edge-disjoint count would say 2).
    game = ReferenceForma(2)  # two sets: two I5s, two I4s, two L5s, ...
    # North: I5 a1-a5, I4 a6-a9, I2 a10 b10, I5 c1-c5, I4 c6-c9. Centre: I3 c10 d10 e10.
    # South: L5 c11-c14 + b14, L5 c15-c18 + b18, I2 c19 c20,
    #        L4 e11-e13 + f13, L4 e14-e16 + f16, I3 e17-e19, I1 e20.
    build(game, ["I5/1@a1", "I4/1@a6", "I2/0@a10", "I5/1@c1", "I4/1@c6", "I3/0@c10",
                 "L5/4@b11", "L5/4@b15", "I2/1@c19", "L4/0@e11", "L4/0@e14", "I3/1@e17", "I1/0@e20"])
    assert game.markers() == [-1] * 400  # no enclosure joins anything
    assert game.bridges(0) == (1, 0)


def test_touching_parallel_columns_are_two_bridges():
    # Columns a and b both run from row 1 to row 20: two disjoint chains although they touch.
    game = ReferenceForma(2)
    # Column a: I5 a1-a5, I5 a6-a10, I4 a11-a14, I4 a15-a18, I2 a19-a20.
    # Column b: L5 b1-b4 + c4, L5 b5-b8 + c8, I3 b9-b11, I3 b12-b14, L4 b15-b17 + c17,
    # I2 b18-b19, I1 b20.
    build(game, ["I5/1@a1", "I5/1@a6", "I4/1@a11", "I4/1@a15", "I2/1@a19",
                 "L5/0@b1", "L5/0@b5", "I3/1@b9", "I3/1@b12", "L4/0@b15", "I2/1@b18", "I1/0@b20"])
    assert game.bridges(0) == (2, 0)


# Column a with a gap at a10: I5 a1-a5, I4 a6-a9, L5 a11-a14+b14, L4 a15-a17+b17, I3 a18-a20.
GAPPED_A = ["I5/1@a1", "I4/1@a6", "L5/0@a11", "L4/0@a15", "I3/1@a18"]


@pytest.mark.parametrize("stone", [False, True])
@pytest.mark.parametrize("closer", [0, 1])
def test_markers_are_bridge_squares(stone, closer):
    # a10 is free (or a stone); its sides are a9, a11 (player 0), the west edge and b10.
    # Whoever covers b10 encloses a10 and marks it. Player 0's marker completes the column
    # (the only chain), so player 0 has a bridge; with player 1's marker it has none (and a
    # stone with sides of two colours gets no marker at all).
    game = ReferenceForma(4, obstacles=["a10"] if stone else "none")
    build(game, GAPPED_A)
    assert game.bridges(0) == (0, 0)
    while game.current_player() != closer:
        play(game, "~")
    play(game, "I1/0@b10")
    expected_marker = closer if (closer == 0 or not stone) else -1
    assert game.markers()[sq("a10")] == expected_marker
    assert game.bridges(0) == ((1, 0) if closer == 0 else (0, 0))


# ---------------------------------------------------------------- passing and the end
def test_pass_only_when_stuck_and_end_when_nobody_can_place():
    # Random 4-player games, checked move by move against a brute-force fit test.
    passes = 0
    for seed in range(3):
        passes += play_checking_passes(random.Random(seed))
    assert passes > 0  # these seeds do exercise the pass rule


def play_checking_passes(rng: random.Random) -> int:
    game = ReferenceForma(4, obstacles=["c3", "h8", "p15", "e17"], tower="j10")
    passes = 0
    move = None
    while not game.is_terminal():
        moves = game.legal_codes()
        mover = game.current_player()
        if moves == [PASS]:
            passes += 1
            # The mover really cannot place, yet someone else can (else the game would be over).
            assert not can_place_brute(game, mover)
            assert any(can_place_brute(game, p) for p in range(4) if p != mover)
            with pytest.raises(ValueError):
                game.apply(code("I1/0@a1"))  # no placement is legal for the mover
        else:
            assert PASS not in moves
        move = rng.choice(moves)
        game.apply(move)
        assert game.current_player() == (mover + 1) % 4
    # The game ended as soon as nobody could place: right after a placement, no trailing passes.
    assert move != PASS
    assert not any(can_place_brute(game, p) for p in range(4))
    assert game.legal_codes() == []
    with pytest.raises(ValueError):
        game.apply(PASS)
    with pytest.raises(ValueError):
        game.random_move(rng)
    return passes


# ---------------------------------------------------------------- 2 players
def test_two_players_own_two_sets_as_one_colour():
    game = ReferenceForma(2, obstacles=["e5"])
    assert game.supply() == [[2 * k for k in COPIES_PER_SET]] * 2
    # Player 0 surrounds stone e5 with four monominoes (two sets' worth): one colour, +10.
    play(game, "I1/0@e4", "~", "I1/0@d5", "~", "I1/0@f5", "~", "I1/0@e6")
    assert game.markers()[sq("e5")] == 0
    assert game.scores()[0] == 4 + 10
    assert game.supply()[0][0] == 0
    # Two I5s, not three.
    play(game, "~", "I5/0@a1", "~", "I5/0@a3", "~")
    with pytest.raises(ValueError):
        game.apply(code("I5/0@a7"))


# ---------------------------------------------------------------- whole games
def check_consistency(game: ReferenceForma) -> None:
    players = game.players
    sets = 2 if players == 2 else 1
    board, markers, supply = game.board(), game.markers(), game.supply()
    breakdown = game.score_breakdown()
    sizes = [len(BASE_SHAPES[name]) for name in PIECE_NAMES]
    stones = [s for s in range(400) if board[s] == STONE]
    for p in range(players):
        b = breakdown[p]
        unplaced = sum(k * size for k, size in zip(supply[p], sizes))
        assert b["squares"] == board.count(p) == 90 * sets - unplaced
        marked_free = sum(1 for s in range(400) if markers[s] == p and board[s] == FREE)
        marked_stones = sum(1 for s in stones if markers[s] == p)
        assert (b["enclosures"], b["stones"]) == (marked_free, marked_stones)
        check_final_score(game, p)
    assert sum(b["tower"] for b in breakdown) <= 1
    for s in range(400):
        if board[s] == FREE:
            open_sides = [n for n in neighbours(s) if board[n] == FREE and markers[n] == -1]
            if markers[s] != -1:
                assert not open_sides  # a marked square is enclosed
            elif not open_sides:
                # a free square closed on all sides without a marker was closed by the setup
                assert all(board[n] in (STONE, TOWER) for n in neighbours(s))
    for s in stones:
        sides = {board[n] if board[n] >= 0 else markers[n] for n in neighbours(s)}
        if markers[s] != -1:
            assert sides == {markers[s]}
        else:
            assert len(sides) != 1 or sides == {-1}


@pytest.mark.parametrize(
    "players,obstacles,tower",
    [
        (4, ["c3", "h8", "p15", "e17", "b12", "s2"], "j10"),
        (3, "none", None),
        (2, ["a1", "t20", "k4"], "m13"),
    ],
)
def test_random_game_terminates_with_consistent_scores(players, obstacles, tower):
    for seed in range(2):
        rng = random.Random(seed)
        game = ReferenceForma(players, obstacles=obstacles, tower=tower)
        moves = 0
        while not game.is_terminal():
            before = game.scores()
            game.apply(game.random_move(rng))
            moves += 1
            assert all(a >= b for a, b in zip(game.scores(), before))  # points are never lost
            assert moves <= 2 * players * 44
        check_consistency(game)
        assert all(0 < b["squares"] <= 90 * (2 if players == 2 else 1) for b in game.score_breakdown())


def test_copy_is_independent_and_random_move_is_uniform_choice():
    game = ReferenceForma(4)
    play(game, "I5/0@a1")
    clone = game.copy()
    play(clone, "I1/0@e5")
    assert game.board()[sq("e5")] == FREE and game.current_player() == 1
    assert clone.board()[sq("e5")] == 1 and clone.current_player() == 2
    assert game.supply()[1] == list(COPIES_PER_SET)
    a, b = random.Random(7), random.Random(7)
    assert game.random_move(a) == b.choice(game.legal_codes())
