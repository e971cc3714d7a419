"""The numba Forma engine, through the Game/State facade, against the rules spec.

Positions are built by playing legal moves in notation. Pieces are named by a picture
of the cells (``"XXXX/X..."`` = four in a row with a foot under the first), turned
into ``NAME/orientation@square`` by :func:`put`, so every position can be checked by
hand against ``rules/forma.md``. Seats that the example does not need play *filler*
moves: the last legal placement (pentominoes first) that lies wholly in a far corner of
the board (rows 13-20, columns k-t), so they never touch the squares the example is about.
"""
import random

import numpy as np
import pytest

from forumlab.core.errors import ConfigError, GameOverError, IllegalMoveError
from forumlab.core.game import State
from forumlab.core.registry import create_game, game_names
from forumlab.core.rng import make_rng
from forumlab.engines.forma import kernels as forma_kernels
from forumlab.engines.forma.bridges import bridge_progress, bridges
from forumlab.engines.forma.data import MAX_MOVES, N_PLACEMENTS, PASS, decode_move, placement_squares
from forumlab.engines.forma.game import Forma
from forumlab.engines.forma.layout import NEIGHBOURS
from forumlab.engines.forma.moves import can_place
from forumlab.engines.forma.pieces import (
    BASE_SHAPES,
    ORIENTATIONS,
    PIECE_NAMES,
    parse_square,
    square_name,
)
from forumlab.engines.forma.potential import enclosure_threats
from forumlab.engines.forma.render import board_symbols, marker_owners
from forumlab.engines.forma.setup import obstacle_squares


# ---------------------------------------------------------------- helpers
def put(name: str, picture: str, square: str) -> str:
    """Notation of piece ``name`` in the orientation drawn by ``picture`` (rows split
    by '/', 'X' = cell), its bounding box's top-left corner on ``square``."""
    cells = tuple(sorted((r, c) for r, row in enumerate(picture.split("/"))
                         for c, ch in enumerate(row) if ch == "X"))
    orientation = ORIENTATIONS[name].index(cells)
    return f"{name}/{orientation}@{square}"


def one(square: str) -> str:
    return f"I1/0@{square}"


def vertical(name: str, square: str) -> str:
    """A straight piece (I2-I5) standing upright from ``square`` down."""
    return put(name, "/".join("X" * 1 for _ in range(int(name[1]))), square)


def horizontal(name: str, square: str) -> str:
    return put(name, "X" * int(name[1]), square)


def far(move: int) -> bool:
    return all(q // 20 >= 12 and q % 20 >= 10 for q in placement_squares(move))


def filler(state: State) -> int:
    moves = state.legal_moves()
    if moves.tolist() == [PASS]:
        return PASS
    for m in reversed(moves.tolist()):  # big pieces first: the small ones stay for the example
        if far(m):
            return m
    raise AssertionError("no filler move left")


def to_seat(state: State, seat: int) -> State:
    """Let the other seats play filler moves until ``seat`` is to move."""
    while state.current_player != seat:
        state.play(filler(state))
    return state


def script(state: State, steps) -> State:
    """Play (seat, move) steps in order; other seats in between play filler moves."""
    for seat, text in steps:
        to_seat(state, seat)
        state.play(text)
    return state


def game(players=4, obstacles="none", tower=None) -> Forma:
    return Forma(players=players, obstacles=obstacles, tower=tower)


def score(state: State, seat: int) -> int:
    return state.scores()[seat]


def marker(state: State, square: str) -> int:
    return marker_owners(state.array)[parse_square(square)]


def finish_randomly(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not state.is_terminal:
        state.play(int(rng.choice(state.legal_moves().tolist())))
    return state


# ---------------------------------------------------------------- pieces and moves
def test_orientation_counts():
    expected = {"I1": 1, "I2": 2, "I3": 2, "V3": 4, "I4": 2, "O4": 1, "T4": 4, "L4": 8, "S4": 4,
                "F5": 8, "I5": 2, "L5": 8, "N5": 8, "P5": 8, "T5": 4, "U5": 4, "V5": 4,
                "W5": 4, "X5": 1, "Y5": 8, "Z5": 4}
    assert {n: len(ORIENTATIONS[n]) for n in PIECE_NAMES} == expected
    assert sum(expected.values()) == 91
    for name in PIECE_NAMES:
        shapes = ORIENTATIONS[name]
        assert len(set(shapes)) == len(shapes)
        assert all(len(s) == len(BASE_SHAPES[name]) for s in shapes)


def test_opening_has_every_placement_on_an_empty_board():
    state = game().new_state(0)
    moves = state.legal_moves()
    assert len(moves) == N_PLACEMENTS == MAX_MOVES == 30433
    assert np.all(np.diff(moves) > 0)
    # Each move covers squares on the board only, in the shape it names.
    for m in moves[::97].tolist():
        piece, orientation, anchor = decode_move(m)
        squares = placement_squares(m)
        assert len(squares) == len(BASE_SHAPES[PIECE_NAMES[piece]])
        assert all(0 <= q < 400 for q in squares)


def test_set_and_double_supply():
    four = game(4).new_state(0)
    assert four.game.details(four.array)["pieces_left"] == [22] * 4
    two = game(2).new_state(0)
    assert two.game.details(two.array)["pieces_left"] == [44, 44]
    # The two monominoes of a set: a third one is not in a 4-player supply.
    state = script(game(4).new_state(0), [(0, one("a1")), (0, one("c1"))])
    to_seat(state, 0)
    moves = state.legal_moves().tolist()
    assert moves and not any(decode_move(m)[0] == 0 for m in moves)
    # ... but a 2-player supply holds four.
    state = script(game(2).new_state(0), [(0, one("a1")), (0, one("c1")), (0, one("e1"))])
    to_seat(state, 0)
    assert any(decode_move(m)[0] == 0 for m in state.legal_moves().tolist())


def test_notation_example():
    state = game().new_state(0)
    state.play("P5/3@h7")
    assert state.move_texts() == ["P5/3@h7"]
    squares = placement_squares(state.history[0])
    assert square_name(min(squares)).startswith(("h", "i"))
    assert state.game.format_move(state.array, PASS) == "pass"
    assert state.game.parse_move(state.array, "pass") == PASS


def test_illegal_moves_are_rejected():
    state = game(4, ["c3"]).new_state(0)
    with pytest.raises(IllegalMoveError):
        state.play(one("c3"))  # a stone
    with pytest.raises(IllegalMoveError):
        state.play(horizontal("I5", "q1"))  # off the board
    with pytest.raises(IllegalMoveError):
        state.play("pass")  # may place
    state.play(one("a1"))
    with pytest.raises(IllegalMoveError):
        state.play(one("a1"))  # covered
    for code in (PASS + 1, -1, 400):  # not a move code / off-board anchor for I1? (400 = I1/1)
        with pytest.raises(IllegalMoveError):
            state.play(code)


# ---------------------------------------------------------------- scoring: free squares
def test_free_square_enclosed_by_several_colours_goes_to_the_closer():
    state = script(game(4).new_state(0), [
        (0, one("e4")), (1, one("d5")), (2, one("f5")), (3, one("e6"))])
    assert state.scores() == [1, 1, 1, 11]
    assert marker(state, "e5") == 3
    assert state.result()["enclosures"] == [0, 0, 0, 1]
    assert state.result()["markers_used"] == [0, 0, 0, 1]
    # A marked square is no longer free: nothing can be placed on it.
    assert not any(parse_square("e5") in placement_squares(m) for m in state.legal_moves().tolist())


def test_corner_square_is_enclosed_by_the_edges_and_two_pieces():
    state = script(game(4).new_state(0), [(0, one("b1")), (1, one("a2"))])
    assert state.scores()[:2] == [1, 11]
    assert marker(state, "a1") == 1


def test_two_touching_free_squares_are_not_enclosed():
    state = script(game(4).new_state(0), [
        (0, horizontal("I2", "e4")), (1, horizontal("I2", "e6")), (2, one("d5")), (3, one("g5"))])
    assert state.scores() == [2, 2, 1, 1]
    assert marker(state, "e5") == marker(state, "f5") == -1
    # Covering one of the pair closes the other: +10 to whoever does it.
    script(state, [(0, one("e5"))])
    assert score(state, 0) == 2 + 1 + 10
    assert marker(state, "f5") == 0


def test_one_placement_can_enclose_several_squares():
    # Player 0 walls in b2 and d2 (rows 1 and 3, a2 and e2); c2 is the last open side
    # of both, so player 1's monomino there closes the two at once.
    state = script(game(4).new_state(0), [
        (0, horizontal("I5", "a1")), (0, horizontal("I4", "a3")), (0, one("a2")), (0, one("e2"))])
    to_seat(state, 1)
    before = score(state, 1)  # filler pieces of seat 1 so far
    state.play(one("c2"))
    assert marker(state, "b2") == marker(state, "d2") == 1
    assert score(state, 0) == 5 + 4 + 1 + 1
    assert score(state, 1) - before == 1 + 20
    assert state.result()["enclosures"][1] == 2


def test_square_enclosed_by_the_setup_stays_free_and_scores_nobody():
    state = game(4, ["b1", "a2"]).new_state(0)
    assert marker(state, "a1") == -1
    assert any(placement_squares(m) == [0] for m in state.legal_moves().tolist())
    state.play(one("a1"))
    assert state.scores() == [1, 0, 0, 0]


# ---------------------------------------------------------------- scoring: stones and tower
def test_stone_enclosed_by_two_colours_scores_nothing():
    state = script(game(4, ["e5"]).new_state(0), [
        (0, one("e4")), (1, one("f5")), (0, one("d5")), (1, horizontal("I2", "e6"))])
    assert state.result()["stones"] == [0, 0, 0, 0]
    assert score(state, 0) == 2 and score(state, 1) == 3
    assert marker(state, "e5") == -1


def test_stone_at_the_edge_enclosed_on_its_three_sides_by_one_colour_scores():
    u_open_west = put("U5", "XX/.X/XX", "a9")  # a9 b9 / b10 / a11 b11 around the stone on a10
    state = script(game(4, ["a10"]).new_state(0), [(0, u_open_west)])
    assert state.scores()[0] == 5 + 10
    assert state.result()["stones"] == [1, 0, 0, 0]
    assert state.result()["markers_used"] == [1, 0, 0, 0]
    assert marker(state, "a10") == 0
    assert board_symbols(state.array)[parse_square("a10")] == "a"


def test_stone_in_the_open_needs_four_sides_of_one_colour():
    state = script(game(4, ["e5"]).new_state(0), [
        (0, put("V3", "XX/X.", "d4")), (0, put("T4", ".X/XX/.X", "e5"))])
    # d4 e4 d5 then f5 e6 f6 f7: all four sides of e5 belong to player 0.
    assert state.result()["stones"] == [1, 0, 0, 0]
    assert score(state, 0) == 3 + 4 + 10


def test_stone_completed_by_a_marker_of_the_same_move():
    # Stone on e5. Player 0 holds e4, d5 (V3 d4 e4 d5), f5 and f6 (I2) and d6; its last
    # placement e7 encloses the free square e6 (stone, d6, f6, e7): the marker on e6 is
    # the stone's fourth side, so the same placement also claims the stone.
    state = script(game(4, ["e5"]).new_state(0), [
        (0, put("V3", "XX/X.", "d4")), (0, vertical("I2", "f5")), (0, one("d6"))])
    assert score(state, 0) == 6 and marker(state, "e6") == -1
    script(state, [(0, one("e7"))])
    assert marker(state, "e6") == 0 and marker(state, "e5") == 0
    assert state.result()["enclosures"][0] == 1 and state.result()["stones"][0] == 1
    assert score(state, 0) == 7 + 10 + 10


def test_tower_goes_to_the_closer():
    state = script(game(4, [], "e5").new_state(0), [
        (0, one("e4")), (1, one("d5")), (2, one("f5")), (3, one("e6"))])
    assert state.scores() == [1, 1, 1, 51]
    assert state.result()["tower"] == 3
    assert marker(state, "e5") == -1


# ---------------------------------------------------------------- bridges
def _two_columns():
    column_a = [vertical("I5", "a1"), vertical("I5", "a6"), vertical("I4", "a11"),
                vertical("I4", "a15"), vertical("I2", "a19")]
    foot = "X./X./X./XX"
    column_c = [vertical("I3", "c1"), vertical("I3", "c4"), vertical("I2", "c7"),
                put("L4", "X./X./XX", "c9"), one("c12"), put("L5", foot, "c13"), put("L5", foot, "c17")]
    return column_a + column_c


def test_two_disjoint_north_south_bridges_score_100():
    state = script(game(2).new_state(0), [(0, m) for m in _two_columns()])
    assert bridges(state.array, 0) == (2, 0)
    assert bridges(state.array, 1) == (0, 0)
    assert "bridges_ns" not in state.result()  # scored only at the end
    before = score(state, 0)
    finish_randomly(state, 1)
    res = state.result()
    assert res["bridges_ns"][0] == 2 and res["bridges_ew"][0] == 0
    b = {k: res[k][0] for k in ("squares", "enclosures", "stones")}
    tower = 1 if res["tower"] == 0 else 0
    assert res["scores"][0] == b["squares"] + 10 * (b["enclosures"] + b["stones"]) + 50 * tower + 100
    assert res["scores"][0] > before


def test_crossing_north_south_and_east_west_bridges_score_100():
    column_e = [vertical("I5", "e1"), vertical("I4", "e6"), vertical("I5", "e11"),
                vertical("I4", "e16"), one("e20")]
    row_10 = [horizontal("I3", "a10"), horizontal("I2", "d10"), put("L5", "XXXX/X...", "f10"),
              put("L5", "XXXX/X...", "j10"), put("Y5", "XXXX/.X..", "n10"), horizontal("I3", "r10")]
    state = script(game(2).new_state(0), [(0, m) for m in column_e + row_10])
    assert bridges(state.array, 0) == (1, 1)
    finish_randomly(state, 2)
    res = state.result()
    assert res["bridges_ns"][0] == 1 and res["bridges_ew"][0] == 1


def test_markers_count_as_bridge_squares():
    # Column a with a gap on a10 that player 0 encloses (a9, a11, b10): the marker joins it.
    steps = [vertical("I5", "a1"), vertical("I4", "a6"), vertical("I5", "a11"), vertical("I4", "a16"),
             one("a20")]
    state = script(game(2).new_state(0), [(0, m) for m in steps])
    assert bridges(state.array, 0) == (0, 0)
    script(state, [(0, one("b10"))])
    assert marker(state, "a10") == 0
    assert bridges(state.array, 0) == (1, 0)


def test_a_marker_on_a_stone_counts_as_a_bridge_square():
    steps = [vertical("I5", "a1"), vertical("I3", "a6"), vertical("I5", "a12"),
             vertical("I4", "a17"), put("U5", "XX/.X/XX", "a9")]
    state = script(game(2, ["a10"]).new_state(0), [(0, m) for m in steps])
    assert marker(state, "a10") == 0
    assert bridges(state.array, 0) == (1, 0)


def test_bridge_counts_are_square_disjoint():
    # Two columns joined by rungs still hold exactly two disjoint chains.
    state = script(game(2).new_state(0), [(0, m) for m in _two_columns()] + [(0, one("b5")), (0, one("b15"))])
    assert bridges(state.array, 0) == (2, 0)
    # One column and a second that stops a row short: one chain only.
    column_a = _two_columns()[:5]
    column_c = [vertical("I3", "c1"), vertical("I3", "c4"), vertical("I2", "c7"), put("L4", "X./X./XX", "c9"),
                put("L5", "X./X./X./XX", "c12"), put("L5", "X./X./X./XX", "c16")]  # c1-c19
    state = script(game(2).new_state(0), [(0, m) for m in column_a + column_c])
    assert bridges(state.array, 0) == (1, 0)


def test_bridge_progress_counts_the_share_of_the_board_the_edge_chains_cover():
    # Column a: a1-a10 (from the north edge, 10 rows) and a16-a20 (from the south, 5 rows).
    steps = [vertical("I5", "a1"), vertical("I5", "a6"), vertical("I4", "a16"), one("a20")]
    state = script(game(2).new_state(0), [(0, m) for m in steps])
    # North-south (10 + 5) / 20 squared; east-west: one column from the west edge, 1/20.
    assert bridge_progress(state.array, 0) == pytest.approx(0.75 ** 2 + 0.05 ** 2)
    # Closing the gap a11-a15 finishes the bridge: its direction counts 1.
    script(state, [(0, vertical("I4", "a11")), (0, one("a15"))])
    assert bridges(state.array, 0) == (1, 0)
    assert bridge_progress(state.array, 0) == pytest.approx(1.0 + 0.05 ** 2)


def test_bridge_progress_follows_a_chain_that_turns_back():
    # A chain from the north edge down column a to a10, east along row 10 (b10-d10) and
    # back up column e to e4: the east-west reach follows it to column e (5 of 20).
    steps = [vertical("I5", "a1"), vertical("I5", "a6"), horizontal("I3", "b10"),
             vertical("I4", "e7"), vertical("I3", "e4")]
    state = script(game(2).new_state(0), [(0, m) for m in steps])
    ns = 10 / 20
    ew = 5 / 20
    assert bridge_progress(state.array, 0) == pytest.approx(ns ** 2 + ew ** 2)


def test_bridge_progress_sees_a_finished_bridge_exactly_when_the_max_flow_does():
    rng = random.Random(5)
    for seed in range(40):
        state = game(rng.choice([2, 4]), "random").new_state(seed)
        finish_randomly(state, seed)
        for seat in range(state.game.players):
            ns, ew = bridges(state.array, seat)
            progress = bridge_progress(state.array, seat)
            # A finished direction adds 1, an unfinished one at most (19/20)**2.
            finished = (ns > 0) + (ew > 0)
            assert finished <= progress <= finished + (2 - finished) * 0.95 ** 2


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_setup_rules_hold_over_many_seeds(players):
    g = game(players, "random")
    seen = set()
    enclosing = 0
    for seed in range(150):
        array = g.new_state(seed).array
        stones, tower = obstacle_squares(array)
        assert len(stones) == 25
        assert 0 <= tower < 400
        r, c = divmod(tower, 20)
        assert 0 < r < 19 and 0 < c < 19
        obstacles = set(stones) | {tower}
        assert len(obstacles) == 26
        for q in obstacles:
            assert not any(int(nb) in obstacles for nb in NEIGHBOURS[q] if nb >= 0)
        enclosing += any(all(int(nb) in obstacles for nb in NEIGHBOURS[q] if nb >= 0)
                         for q in range(400) if q not in obstacles)
        seen.add((tuple(stones), tower))
        assert (stones, tower) == obstacle_squares(g.new_state(seed).array)  # deterministic
    assert len(seen) == 150
    # The spec allows a layout that encloses a free square by itself (about 1 in 21;
    # the square then stays free and scores nobody), so the uniform setup draws some.
    assert enclosing > 0


def test_random_setup_tower_spreads_over_the_interior():
    g = game(4, "random")
    towers = [obstacle_squares(g.new_state(seed).array)[1] for seed in range(400)]
    rows = [t // 20 for t in towers]
    assert min(rows) <= 3 and max(rows) >= 16
    assert len(set(towers)) > 200


@pytest.mark.parametrize("options", [
    {"players": 1}, {"players": 5}, {"obstacles": "many"}, {"obstacles": "none", "tower": "e5"},
    {"obstacles": ["z1"]}, {"obstacles": ["a1", "a1"]}, {"obstacles": ["a1", "a2"]},
    {"obstacles": [], "tower": "a5"}, {"obstacles": ["e4"], "tower": "e5"},
    {"obstacles": [f"{c}{r}" for c in "acegikmoqs" for r in (1, 3, 5)]}, {"obstacles": 3},
    {"obstacles": [], "tower": 5}, {"colours": 3},
])
def test_bad_configs_raise_config_error(options):
    with pytest.raises(ConfigError):
        create_game("forma", options)


def test_configs_and_defaults():
    g = create_game("forma")
    assert g.config == {"players": 4, "obstacles": "random", "tower": None}
    g = create_game("forma", {"players": 2, "obstacles": ["c3", "e5"], "tower": "j10"})
    assert g.config == {"players": 2, "obstacles": ["c3", "e5"], "tower": "j10"}
    array = g.new_state(0).array
    assert obstacle_squares(array) == ([parse_square("c3"), parse_square("e5")], parse_square("j10"))
    assert create_game("forma", g.config).config == g.config


# ---------------------------------------------------------------- passing and the end
def test_passing_and_the_end_in_random_games():
    passes = 0
    for seed in range(40):
        players = (2, 3, 4)[seed % 3]
        state = game(players, "random").new_state(seed)
        rng = make_rng(seed)
        while not state.is_terminal:
            moves = state.legal_moves().tolist()
            assert moves, "a running game always has a legal move"
            if moves == [PASS]:
                passes += 1
                # The mover cannot place, but somebody else can.
                assert not can_place(state.array.copy(), state.current_player)
                assert any(can_place(state.array.copy(), q) for q in range(players))
            else:
                assert PASS not in moves
            move = int(forma_kernels.random_move(state.array, rng))
            assert move in moves
            state.play(move)
        assert len(state.legal_moves()) == 0
        # Nobody can place at the end, and the last move was not a pass.
        assert not any(can_place(state.array.copy(), q) for q in range(players))
        assert state.history[-1] != PASS
        with pytest.raises(GameOverError):
            state.play("pass")
    assert passes > 0


def test_no_free_square_means_nobody_can_place():
    # The sets hold 360 squares in all, so a full board is rare in play; the kernel's
    # first test is the free-square count.
    from forumlab.engines.forma.layout import FREE

    array = game(4).new_state(0).array.copy()
    array[FREE] = 0
    assert not any(can_place(array, q) for q in range(4))


def test_game_ends_when_nobody_can_place_and_bridges_scored_once():
    state = finish_randomly(game(4, "random").new_state(3), 3)
    res = state.result()
    assert res["terminal"] and not res["truncated"]
    for p in range(4):
        expected = (res["squares"][p] + 10 * (res["enclosures"][p] + res["stones"][p])
                    + (50 if res["tower"] == p else 0) + 50 * (res["bridges_ns"][p] + res["bridges_ew"][p]))
        assert res["scores"][p] == expected
    assert sum(res["squares"]) + sum(res["enclosures"]) + 26 <= 400


# ---------------------------------------------------------------- facade
def test_render_shows_colours_obstacles_tower_and_markers():
    state = script(game(4, ["c3"], "j10").new_state(0), [(0, one("b1")), (1, one("a2"))])
    text = state.render()
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijklmnopqrst")
    assert lines[1].split()[1:3] == ["b", "A"]  # a1 marked by B, b1 piece of A
    assert lines[2].split()[1] == "B"
    assert lines[3].split()[3] == "#"
    assert lines[10].split()[10] == "T"
    assert "to move: C" in text


def test_result_details():
    state = game(4).new_state(0)
    res = state.result()
    assert res["scores"] == [0, 0, 0, 0]
    assert res["plies"] == 0 and not res["terminal"] and not res["truncated"]
    assert res["markers_used"] == [0, 0, 0, 0] and res["tower"] is None


def test_registered():
    assert "forma" in game_names()
    assert isinstance(create_game("forma", players=2), Forma)


def test_current_player_cycles_through_passes():
    state = game(3, "random").new_state(5)
    seats = []
    rng = make_rng(1)
    while not state.is_terminal:
        seats.append(state.current_player)
        state.play(int(forma_kernels.random_move(state.array, rng)))
    assert seats == [i % 3 for i in range(len(seats))]


def test_enclosure_threats_count_squares_with_one_free_side():
    from forumlab.engines.forma.render import is_free

    rng = make_rng(9)
    for seed in range(4):
        state = game(4, "random").new_state(seed)
        while not state.is_terminal:
            free = [is_free(state.array, q) for q in range(400)]
            expected = sum(
                1 for q in range(400)
                if free[q] and sum(1 for nb in NEIGHBOURS[q] if nb >= 0 and free[int(nb)]) == 1
            )
            assert enclosure_threats(state.array) == expected
            state.play(int(forma_kernels.random_move(state.array, rng)))


def test_greedy_beats_random():
    from forumlab.search.greedy import greedy_move

    rng = make_rng(3)
    wins = 0
    for seed in range(4):
        array = game(4, "random").new_state(seed).array.copy()
        seat = seed % 4
        while not forma_kernels.is_terminal(array):
            if forma_kernels.current_player(array) == seat:
                move = greedy_move(Forma.kernels.tag, array, rng)
            else:
                move = forma_kernels.random_move(array, rng)
            forma_kernels.apply_move(array, move)
        scores = np.zeros(4)
        forma_kernels.scores(array, scores)
        wins += scores[seat] == scores.max()
    assert wins == 4
