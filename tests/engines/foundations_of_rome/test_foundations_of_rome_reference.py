"""Tests of the plain-Python Foundations of Rome reference engine against
``shared/rules/foundations-of-rome.md``.

Worked examples 1-6 and 8 of the spec are below, one test each, asserting exactly what the
example says. Example 1 is reached by legal plays from a seed. The others describe a
position the opening cannot reach in a few plies, so ``city`` builds it on a fresh game:
it clears every seat's lots, then gives lots (``own``) and puts buildings (``put``, which
takes them from the owner's supply, as a Build would). Everything after that is legal
plays through ``play`` or the engine's scoring functions. Lots: columns a.. left to right,
rows 1.. top to bottom.
"""

import random

import numpy as np
import pytest

from forumlab.core.errors import ConfigError, GameOverError, IllegalMoveError
from forumlab.core.rng import derive_seed, make_rng, next_u64, rand_below
from forumlab.engines.foundations_of_rome.reference import (
    ReferenceFoundationsOfRome,
    SpecRng,
    replay,
    scoring,
)
from forumlab.engines.foundations_of_rome.reference.catalogue import PIECES
from forumlab.engines.foundations_of_rome.reference.grid import orientations


# ---------------------------------------------------------------- helpers
def new(seed=1, **options):
    return ReferenceFoundationsOfRome(**options).new_game(seed)


def lots(state, text):
    """Lot indices of space-separated names."""
    return [state.grid.index[name] for name in text.split()]


def city(players=3, **options):
    """A fresh game (seed 1) whose seats own no lot yet: the canvas of a described position."""
    state = new(1, players=players, **options)
    state.owner = [-1] * state.grid.cells
    return state


def own(state, seat, text):
    for lot in lots(state, text):
        state.owner[lot] = seat


def put(state, seat, code, text):
    """Seat ``seat`` owns the lots and has building ``code`` on them (from its supply)."""
    own(state, seat, text)
    cells = tuple(sorted(lots(state, text)))
    state._build(seat, PIECES[code], cells)


def until_turn(state, seat):
    """Everyone else takes Income until ``seat`` is to move."""
    while state.current_player() != seat:
        state.play("I")


def random_game(seed, **options):
    state = new(seed, **options)
    chooser = random.Random(seed)
    while not state.is_terminal():
        state.play(state.random_move(chooser))
    return state


# ---------------------------------------------------------------- chance
def test_spec_rng_draws_the_words_of_forumlab_core_rng():
    word = derive_seed("foundations-of-rome", 7)
    core, spec = make_rng(word), SpecRng.for_game(7)
    assert [int(next_u64(core)) for _ in range(50)] == [spec.next_u64() for _ in range(50)]
    assert [int(rand_below(core, n)) for n in range(1, 60)] == [spec.below(n) for n in range(1, 60)]


def test_setup_deals_from_the_spec_shuffle_of_the_lots():
    """Recompute the setup with forumlab.core.rng's own generator: Fisher-Yates over the
    lots in index order, hands 6i..6i+5, piles from the rest, slots = top 6 of pile 1."""
    state = new(11, players=4, modules=["monuments"])
    core = make_rng(derive_seed("foundations-of-rome", 11))
    deck = list(range(81))
    for i in range(80, 0, -1):
        j = int(rand_below(core, i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    for seat in range(4):
        assert sorted(c for c in range(81) if state.owner[c] == seat) == sorted(deck[6 * seat: 6 * seat + 6])
    assert state.slots == deck[24:30]
    assert state.piles == [deck[30:43], deck[43:62], deck[62:81]]
    monuments = list(range(1, 20))
    for i in range(18, 0, -1):
        j = int(rand_below(core, i + 1))
        monuments[i], monuments[j] = monuments[j], monuments[i]
    assert state.display == monuments[:7]


def test_shapes_have_their_orientation_counts():
    counts = {shape: len(orientations(shape)) for shape in ("1", "I2", "L3", "I3", "O4", "I4", "T4", "U5", "R6")}
    assert counts == {"1": 1, "I2": 2, "L3": 4, "I3": 2, "O4": 1, "I4": 2, "T4": 4, "U5": 4, "R6": 2}


# ---------------------------------------------------------------- setup figures
@pytest.mark.parametrize("players,side,piles", [
    (2, 7, (13, 12, 12)), (3, 8, (16, 15, 15)), (4, 9, (19, 19, 19)), (5, 10, (24, 23, 23))])
def test_setup_figures(players, side, piles):
    state = new(3, players=players, modules=["monuments"])
    assert state.grid.n == side
    assert [len(p) for p in state.piles] == [piles[0] - 6, piles[1], piles[2]]
    assert len(state.slots) == 6
    assert state.silver == [5 + i for i in range(players)]
    for seat in range(players):
        assert sum(1 for o in state.owner if o == seat) == 6
        assert state.marker_supply(seat) == 2
        assert state.population(seat) == 0 and state.vp(seat) == 0
    assert len(state.display) == players + 3
    cards = state.slots + [c for p in state.piles for c in p] + [c for c in range(side * side) if state.owner[c] >= 0]
    assert sorted(cards) == list(range(side * side))


def test_notation_on_the_10x10_city():
    state = city(players=5)
    own(state, 0, "i10 j9 j10")
    moves = state.legal_moves()
    assert "R1@j10" in moves and "R2@j9,j10" in moves and "R2@i10,j10" in moves
    assert state.grid.index["j10"] == 99 and state.grid.index["a10"] == 90
    with pytest.raises(IllegalMoveError, match="ascending"):
        state.play("R2@j10,j9")


def test_summary_is_the_whole_state_and_replays_equal():
    state = random_game(12, players=3, draft=True, max_turns=30)
    again = replay(state.record())
    assert again.summary() == state.summary()
    assert state.summary()["piles"] != again.copy().determinize(0, 1).summary()["piles"]


def test_draft_setup_and_picks():
    state = new(5, players=3, draft=True)
    assert state.owner == [-1] * 64 and [len(h) for h in state.hands] == [6, 6, 6]
    assert state.marker_supply(0) == 8
    hand1 = list(state.hands[1])
    assert state.legal_moves() == [f"K:{state.grid.names[c]}" for c in sorted(state.hands[0])]
    picks = []
    for seat in range(3):
        assert state.current_player() == seat
        picks.append(state.legal_moves()[0])
        state.play(picks[-1])
        if seat < 2:  # hidden until all have picked
            assert all(o == -1 for o in state.owner)
    for seat, pick in enumerate(picks):
        assert state.owner[state.grid.index[pick[2:]]] == seat
    assert sorted(state.hands[2]) == sorted(c for c in hand1 if state.grid.names[c] != picks[1][2:])
    for _ in range(15):
        state.play(state.legal_moves()[-1])
    assert state.phase == "turn" and state.current_player() == 0 and state.main_actions == 0
    assert [sum(1 for o in state.owner if o == s) for s in range(3)] == [6, 6, 6]
    assert "I" in state.legal_moves()


# ---------------------------------------------------------------- worked examples
def test_example_1_setup_and_buy():
    state = new(1, players=3)
    assert state.grid.n == 8 and len(state.piles[0]) == 10
    assert [len(p) for p in state.piles[1:]] == [15, 15]
    assert state.silver == [5, 6, 7] and [state.marker_supply(s) for s in range(3)] == [2, 2, 2]
    before, top = list(state.slots), state.piles[0][0]
    state.play("D2")
    assert state.silver[0] == 2 and state.marker_supply(0) == 1
    assert state.owner[before[1]] == 0
    assert state.slots == [before[0]] + before[2:] + [top] and len(state.piles[0]) == 9
    state.play("I")
    state.play("I")
    assert state.silver[0] == 2 and "D3" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"ply 4 \(seat 0\): 'D3' is illegal: slot 3 costs 4"):
        state.play("D3")


def test_example_2_build_and_replace():
    state = city()
    put(state, 0, "R1", "c3")
    own(state, 0, "c4 d4 d5 d6 d7")
    assert state.marker_supply(0) == 3
    state.play("R3L@c3,c4,d4")
    assert state.supply[0]["R1"] == 2 and state.supply[0]["R3L"] == 0
    assert state.marker_supply(0) == 5 and state.population(0) == 4
    until_turn(state, 0)
    assert "C3I@d4,d5,d6" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="R3L on c3 is not smaller"):
        state.play("C3I@d4,d5,d6")
    state.play("C4I@d4,d5,d6,d7")
    assert state.supply[0]["R3L"] == 1
    assert [state.built[c] < 0 for c in lots(state, "c3 c4")] == [True, True]  # markers on them
    assert state.marker_supply(0) == 6 and state.population(0) == 0
    until_turn(state, 0)
    silver = state.silver[0]
    state.play("I")
    assert state.silver[0] == silver + 8


def test_example_3_population():
    assert scoring.population_points([9, 6, 6, 0], era=2) == [16, 9, 9, 0]
    assert scoring.population_points([5, 5, 3], era=3) == [15, 15, 5]
    state = city(players=4)  # the same era-2 scoring from buildings on a 9x9 city
    put(state, 0, "R4O", "a1 b1 a2 b2")
    put(state, 0, "R2", "a4 a5")
    put(state, 0, "R1", "a7")
    put(state, 1, "R4I", "c1 d1 e1 f1")
    put(state, 2, "R4O", "h8 i8 h9 i9")
    state.era = 2
    assert [state.population(s) for s in range(4)] == [9, 6, 6, 0]
    scoring.era_scoring(state)
    assert [v["population"] for v in state.vp_by_source] == [16, 9, 9, 0]


def test_example_4_civic():
    state = city()
    put(state, 0, "V1F", "d4")
    put(state, 0, "R2", "d2 d3")
    put(state, 1, "C3L", "c4 c5 d5")
    put(state, 2, "V2M", "f5 f6")
    put(state, 1, "C4O", "g5 h5 g6 h6")
    put(state, 0, "C2", "e6 e7")
    assert state.owner[state.grid.index["e4"]] == -1
    fountain, market = state.built[lots(state, "d4")[0]], state.built[lots(state, "f5")[0]]
    assert scoring.civic_value(state, fountain) == 2  # R2 and C3L, the C3L once
    assert scoring.civic_value(state, market) == 8  # 2 x (3 + 1)
    scoring.era_scoring(state)
    assert [v["civic"] for v in state.vp_by_source] == [2, 0, 8]

    library = city()
    put(library, 0, "V1L", "b2")
    put(library, 1, "R3I", "c1 c2 c3")
    put(library, 2, "R1", "a2")
    assert scoring.civic_value(library, library.built[lots(library, "b2")[0]]) == 2  # (4+1)//2


def test_example_5_commercial():
    state = city()
    put(state, 0, "C1", "a1")
    put(state, 0, "C2", "c1 d1")
    put(state, 0, "C4O", "f1 g1 f2 g2")
    state.play("I")
    assert state.silver[0] == 5 + 10
    state.era = 1
    scoring.era_scoring(state)
    assert state.silver[0] == 15 + 5 and state.vp(0) == 7 and state.vp_by_source[0]["tray"] == 7
    state.era = 3
    scoring.era_scoring(state)
    assert state.silver[0] == 20 and state.vp(0) == 7 + 12
    assert state.vp_by_source[0]["commercial"] == 5 and state.vp_by_source[0]["tray"] == 14


def test_example_6_era_end():
    state = new(1, players=3)
    put(state, 2, "C2", "a1 b1")  # something for era-1 scoring to score: tray 2 VP
    state.piles[0] = []
    state.slots = state.slots[:1]
    state.player = 1
    next_cards = state.piles[1][:6]
    state.play("D1")
    assert state.phase == "final" and state.current_player() == 2
    state.play("I")
    assert state.current_player() == 0
    state.play("I")
    assert state.current_player() == 1 and not any(m.startswith("D") for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="no Buy in an era.s final turns"):
        state.play("D1")
    assert state.vp(2) == 0
    state.play("I")
    assert state.vp(2) == 2  # era-1 scoring ran once
    assert state.era == 2 and state.phase == "turn" and state.current_player() == 2
    assert state.slots == next_cards and len(state.piles[1]) == 9
    assert "D1" in state.legal_moves()


def test_example_8_monument():
    state = city(modules=["monuments"])
    state.display = [12, 1, 2, 3, 4, 5]
    own(state, 0, "e4 f4 e5 f5")
    put(state, 0, "R2", "d4 d5")
    put(state, 1, "C2", "g4 g5")
    put(state, 2, "V1F", "e6")
    silver, markers = list(state.silver), state.marker_supply(0)
    assert "M12@e4,f4,e5,f5" in state.legal_moves()
    state.play("M12@e4,f4,e5,f5")
    assert state.silver == [s + 3 for s in silver]
    assert state.marker_supply(0) == markers + 4 and state.monument_markers[0] == 5
    assert 12 not in state.display
    colosseum = state.built[lots(state, "e4")[0]]
    fountain = state.built[lots(state, "e6")[0]]
    assert scoring.civic_value(state, colosseum) == 2
    assert colosseum in scoring.adjacent_buildings(state, fountain)
    scoring.era_scoring(state)
    assert state.vp_by_source[0]["monuments"] == 2 and state.vp_by_source[2]["civic"] == 1


# ---------------------------------------------------------------- monuments
def test_monument_requirements_edge_and_no_cover():
    state = city(modules=["monuments"])
    state.display = [10, 14, 16]
    own(state, 0, "a1 b1 c1 a2 b2 c2 d4")
    moves = state.legal_moves()
    assert "M10@a1" in moves and "M10@d4" not in moves  # Observation Tower: edge
    assert "M14@a1,b1,c1,a2,b2,c2" in moves  # Regia: no requirement
    assert not any(m.startswith("M16") for m in moves)  # Temple of Venus: 4 commercial silver
    state.play("M14@a1,b1,c1,a2,b2,c2")
    assert state.population(0) == 9
    until_turn(state, 0)
    assert not any("@" in m and "a1" in m.split("@")[1].split(",") for m in state.legal_moves())


# ---------------------------------------------------------------- game end, cap, results
def test_truncation_at_the_era_ending_buy_skips_final_turns_and_scoring():
    state = new(1, players=3, max_turns=1)
    put(state, 0, "C2", "a1 b1")
    state.piles[0] = []
    state.slots = state.slots[:1]
    state.play("D1")
    assert state.is_terminal() and state.truncated and state.phase == "over"
    assert state.scores() == [0, 0, 0] and state.legal_moves() == []
    result = state.result()
    assert result["terminal"] and result["truncated"] and result["plies"] == 1
    assert result["ranks"] == [3, 2, 1] and result["winners"] == [2]  # tie on VP: silver
    with pytest.raises(GameOverError, match="ply 2"):
        state.play("I")


def test_draft_picks_do_not_count_toward_max_turns():
    state = new(2, players=2, draft=True, max_turns=3)
    for _ in range(12):
        state.play(state.legal_moves()[0])
    assert not state.is_terminal()
    for _ in range(3):
        state.play("I")
    assert state.is_terminal() and state.truncated and state.plies == 15


@pytest.mark.parametrize("players,draft,monuments", [
    (2, False, False), (3, True, True), (4, False, True), (5, True, False), (2, True, True),
    (3, False, False), (4, True, False), (5, False, True)])
def test_random_games_end_with_consistent_results(players, draft, monuments):
    state = random_game(100 + players, players=players, draft=draft,
                        modules=["monuments"] if monuments else [])
    result = state.result()
    assert result["terminal"] and not result["truncated"] and state.era == 3
    assert result["plies"] == len(state.moves)
    assert result["scores"] == [sum(v.values()) for v in result["vp_by_source"]]
    assert result["winners"] == [s for s, r in enumerate(result["ranks"]) if r == 1]
    assert not state.slots and not any(state.piles)
    assert all(state.marker_supply(s) >= 0 for s in range(players))
    for seat in range(players):
        assert result["vp_by_source"][seat]["lot_markers"] == state.markers_on_board(seat)
        if not monuments:
            assert result["vp_by_source"][seat]["monuments"] == 0
    ordered = sorted(range(players), key=lambda s: (-result["scores"][s], -result["silver"][s]))
    assert result["ranks"][ordered[0]] == 1


def test_replay_is_deterministic():
    state = random_game(9, players=4, draft=True, modules=["monuments"])
    again = replay(state.record())
    assert again.result() == state.result() and again.moves == state.moves
    assert again.observation(0) == state.observation(0)
    assert replay({"config": {"players": 4, "draft": True, "modules": ["monuments"]}, "seed": 9,
                   "moves": state.moves[:40]}).observation(2) == _prefix(state, 40).observation(2)


def _prefix(state, plies):
    return replay({**state.record(), "moves": state.moves[:plies]})


# ---------------------------------------------------------------- hidden information
def test_determinize_keeps_the_view_and_resamples_the_piles():
    state = random_game(4, players=3, max_turns=20)  # cut short while piles are full
    state = _prefix(state, 10)
    for seat in range(3):
        view = state.copy().determinize(seat, SpecRng(seat + 1))
        assert view.observation(seat) == state.observation(seat)
        assert view.piles != state.piles
        assert [sorted(p) for p in view.piles] != [sorted(p) for p in state.piles]  # redealt
        assert view.rng.word != state.rng.word
        assert state.observation(seat) == _prefix(state, 10).observation(seat)  # original untouched


def test_determinize_in_the_draft_keeps_located_cards_and_redraws_picks():
    state = new(6, players=3, draft=True)
    for _ in range(3):  # round 1
        state.play(state.legal_moves()[0])
    state.play(state.legal_moves()[0])  # round 2: seat 0 picks, seat 1 to move
    # Seat 1 holds seat 0's first hand; seat 2 holds seat 1's first hand, which seat 1 has seen.
    known_by_1 = sorted(state.hands[2])
    changed_pick = changed_hand0 = False
    for word in range(20):
        view = state.copy().determinize(1, word)
        assert view.observation(1) == state.observation(1)
        assert sorted(view.hands[1]) == sorted(state.hands[1]) and sorted(view.hands[2]) == known_by_1
        # Seat 0's pick comes from the hand seat 0 now holds (seat 2's first hand, unseen by 1).
        changed_pick |= view.picks[0] != state.picks[0]
        changed_hand0 |= sorted(view.hands[0]) != sorted(state.hands[0])
    assert changed_pick and changed_hand0
    view = state.copy().determinize(0, 3)  # seat 0 knows its own pick
    assert view.picks[0] == state.picks[0] and view.observation(0) == state.observation(0)


def test_determinize_accepts_a_core_rng_array():
    state = new(3, players=2)
    rng = make_rng(5)
    before = int(rng[0])
    view = state.copy().determinize(0, rng)
    assert int(rng[0]) != before and view.observation(0) == state.observation(0)
    assert isinstance(rng, np.ndarray)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("options,message", [
    ({"players": 6}, "players must be 2-5"),
    ({"players": True}, "players must be an integer"),
    ({"modules": ["trading"], "consul": "standard"}, "allows only the monuments module, not 'trading'"),
    ({"modules": ["monuments", "roles"], "consul": True}, "allows only the monuments module, not 'roles'"),
    ({"modules": ["colosseum"]}, "unknown module 'colosseum'"),
    ({"modules": "monuments"}, "modules must be a list"),
    ({"modules": ["monuments", "monuments"]}, "twice"),
    ({"deed_prices": [2, 3, 4, 6, 8]}, "deed_prices must be a list of 6"),
    ({"deed_prices": [2, 3, 4, 6, 10, 8]}, "non-decreasing"),
    ({"deed_prices": [-1, 3, 4, 6, 8, 10]}, "non-negative"),
    ({"draft": "yes"}, "draft must be true or false"),
    ({"max_turns": 0}, "max_turns must be >= 1"),
    ({"consul": "easy"}, "consul must be false, true, 'standard'"),
    ({"players": 5, "consul": "hard"}, "players must be 1-4 with the Will of the Consul"),
    ({"players": 1}, "players must be 2-5"),
    ({"colour": 1}, "unknown option 'colour'"),
])
def test_bad_options_raise_one_line_config_errors(options, message):
    with pytest.raises(ConfigError, match=message) as info:
        ReferenceFoundationsOfRome(**options)
    assert "\n" not in str(info.value)


def test_seed_may_be_a_numpy_integer():
    assert new(np.int64(5)).slots == new(5).slots
    assert new(5).slots != new(6).slots


def test_deed_prices_option_sets_the_slot_prices():
    state = new(1, players=3, deed_prices=[0, 0, 5, 5, 6, 6])
    state.play("D2")
    assert state.silver[0] == 5
    assert "D3" not in new(1, players=3, deed_prices=[0, 0, 6, 6, 6, 6]).legal_moves()


@pytest.mark.parametrize("move,message", [
    ("D7", "malformed: deed-board slots are 1-6"),
    ("D01", "malformed: not a move of this game"),
    ("X", "malformed: not a move of this game"),
    ("R2@d4,c4", "malformed: cells must be listed once each in ascending"),
    ("R2@c4,e4", "malformed: the cells do not form R2's shape I2"),
    ("R2@c4,z4", "malformed: 'z4' is not a lot"),
    ("M12@e4,f4,e5,f5", "malformed: M12 is not a building of this game"),
    ("K:c4", "illegal: no draft pick is due"),
    ("T2:d3/$4", "malformed"),
    (7, "malformed: a move is a notation string"),
])
def test_malformed_and_illegal_moves_name_the_ply(move, message):
    state = new(1, players=3)
    state.play("I")
    state.play("I")
    with pytest.raises(IllegalMoveError, match=r"^ply 3 \(seat 2\): .*" + message):
        state.play(move)
    assert state.plies == 2  # nothing was played


def test_build_on_a_lot_not_owned_is_illegal():
    state = city()
    own(state, 1, "a1")
    with pytest.raises(IllegalMoveError, match="seat 0 does not own a1"):
        state.play("R1@a1")


def _last_card_of_era(state, era, buyer):
    """The position of example 6 in ``era``: the era's pile empty, one card on the board,
    ``buyer`` to move."""
    state.era = era
    for pile in state.piles[:era]:
        pile.clear()
    state.slots = state.slots[:1]
    state.player = buyer


def test_era_3_ends_the_game_with_lot_marker_points():
    state = city()
    own(state, 1, "c3 c4")
    put(state, 2, "C2", "a1 b1")
    _last_card_of_era(state, 3, buyer=0)
    state.play("D1")
    for _ in range(3):
        assert not state.is_terminal()
        state.play("I")
    assert state.is_terminal() and not state.truncated
    assert [v["lot_markers"] for v in state.vp_by_source] == [1, 2, 0]  # seat 0: the lot it bought
    assert state.vp_by_source[2]["tray"] == 2 and state.vp_by_source[2]["commercial"] == 1


def test_cap_on_the_last_final_turn_skips_era_scoring():
    state = new(1, players=3, max_turns=4)
    put(state, 2, "C2", "a1 b1")
    _last_card_of_era(state, 1, buyer=1)
    for move in ("D1", "I", "I", "I"):
        state.play(move)
    assert state.is_terminal() and state.truncated and state.era == 1 and state.vp(2) == 0
