"""Foundations of Rome (numba engine): the spec's worked examples 1-6 and 8, setup
figures, options, notation, replay and hidden information.

Positions for the examples are built on a fresh state by hand (lots owned and
buildings put with the engine's own build effect), so each test reads like the
spec's example."""
import json
from pathlib import Path

import numpy as np
import pytest

from forumlab.agents.registry import create_agent
from forumlab.core.errors import ConfigError, IllegalMoveError
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.foundations_of_rome import layout as L
from forumlab.engines.foundations_of_rome import moves, scoring
from forumlab.engines.foundations_of_rome.data import CODE_NAMES, decode_build
from forumlab.engines.foundations_of_rome.game import FoundationsOfRome
from forumlab.engines.foundations_of_rome.setup import pile_sizes

NAME = "foundations-of-rome"


def cells(array, names):
    n = int(array[L.SIZE])
    return [L.parse_cell(x, n) for x in names.split(",")]


def clear_lots(array):
    """Nobody owns anything (a blank city for a hand-built example)."""
    array[L.OWN:L.OWN + 2 * L.MAXP] = 0
    array[L.BUILT:L.BUILT + 2 * L.MAXP] = 0
    array[L.CELL_BLD:L.CELL_BLD + L.CELLS] = 0


def own(array, seat, names):
    for c in cells(array, names):
        array[L.OWN + 2 * seat + (c >> 6)] |= np.int64(1) << (c & 63)


def build(game, array, seat, text):
    """Put a building with the engine's build effect (the seat must own the lots)."""
    name, _, lots = text.partition("@")
    own(array, seat, lots)
    code = game.parse_move(array, text)
    bcode, loc = decode_build(code)
    moves.do_build(array, seat, bcode, loc)


def texts(state):
    return set(state.legal_move_texts())


def hand_built(players=3, **options):
    game = FoundationsOfRome(players=players, **options)
    state = game.new_state(1)
    clear_lots(state.array)
    return game, state


# ---- setup ---------------------------------------------------------------------------
@pytest.mark.parametrize("players, side, piles", [(2, 7, (13, 12, 12)), (3, 8, (16, 15, 15)),
                                                   (4, 9, (19, 19, 19)), (5, 10, (24, 23, 23))])
def test_setup_figures_per_player_count(players, side, piles):
    game = FoundationsOfRome(players=players)
    a = game.new_state(11).array
    assert a[L.SIZE] == side and pile_sizes(players) == piles
    assert [int(a[L.PILE_LEN + e] - a[L.PILE_POS + e]) for e in range(3)] == [piles[0] - 6, piles[1], piles[2]]
    for p in range(players):
        assert a[L.SILVER + p] == 5 + p and a[L.VP + p] == 0 and a[L.POP + p] == 0
        assert moves.marker_supply(a, p) == 2
    owned = [int(a[L.OWN + 2 * p]) | int(a[L.OWN + 2 * p + 1]) for p in range(players)]
    lots = sorted(c for p in range(players) for c in range(100)
                  if (int(a[L.OWN + 2 * p + (c >> 6)]) >> (c & 63)) & 1)
    deck = lots + [int(a[L.SLOTS + k]) for k in range(6)] + [
        int(a[L.PILES + e * L.PILE_ROOM + i]) for e in range(3) for i in range(a[L.PILE_POS + e], a[L.PILE_LEN + e])]
    assert sorted(deck) == list(range(side * side)) and all(owned)


def test_setup_follows_the_spec_draw_order():
    """The lots shuffled by the spec's Fisher-Yates on derive_seed("foundations-of-rome", seed)."""
    from forumlab.core.rng import derive_seed, rand_below

    rng = make_rng(derive_seed("foundations-of-rome", 42))
    deck = list(range(64))
    for i in range(63, 0, -1):
        j = int(rand_below(rng, i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    a = FoundationsOfRome(players=3).new_state(42).array
    for p in range(3):
        mine = {c for c in range(64) if (int(a[L.OWN + 2 * p + (c >> 6)]) >> (c & 63)) & 1}
        assert mine == set(deck[6 * p:6 * p + 6])
    assert [int(a[L.SLOTS + k]) for k in range(6)] == deck[18:24]
    ids = list(range(1, 20))
    for i in range(18, 0, -1):
        j = int(rand_below(rng, i + 1))
        ids[i], ids[j] = ids[j], ids[i]
    m = FoundationsOfRome(players=3, modules=["monuments"]).new_state(42).array
    assert [int(m[L.DISPLAY + k]) for k in range(6)] == ids[:6]


# ---- worked examples -----------------------------------------------------------------
def test_example_1_setup_and_buy():
    game = FoundationsOfRome(players=3)
    state = game.new_state(5)
    a = state.array
    assert a[L.PILE_LEN] - a[L.PILE_POS] == 10
    slots = [int(a[L.SLOTS + k]) for k in range(6)]
    top = int(a[L.PILES + a[L.PILE_POS]])
    state.play("D2")
    assert a[L.SILVER] == 2 and moves.marker_supply(a, 0) == 1
    assert [int(a[L.SLOTS + k]) for k in range(6)] == [slots[0]] + slots[2:] + [top]
    assert a[L.PILE_LEN] - a[L.PILE_POS] == 9
    assert (int(a[L.OWN + (slots[1] >> 6)]) >> (slots[1] & 63)) & 1
    state.play("I")
    state.play("I")
    assert a[L.SILVER] == 2 and "D3" not in texts(state) and "D1" in texts(state)


def test_example_2_build_and_replace():
    game, state = hand_built()
    a = state.array
    own(a, 0, "c4,d4,d5,d6,d7")
    build(game, a, 0, "R1@c3")
    assert moves.marker_supply(a, 0) == 3
    state.play("R3L@c3,c4,d4")
    assert moves.marker_supply(a, 0) == 5 and a[L.POP] == 4 and a[L.SUPPLY + 0] == 2  # R1 back
    a[L.PLAYER] = 0
    legal = texts(state)
    assert "C3I@d4,d5,d6" not in legal and "C4I@d4,d5,d6,d7" in legal
    with pytest.raises(IllegalMoveError):
        state.play("C3I@d4,d5,d6")
    state.play("C4I@d4,d5,d6,d7")
    assert moves.marker_supply(a, 0) == 6 and a[L.POP] == 0
    assert set(game.render(a).split("buildings: ")[1].split("\n")[0].split(", ")) == {"A:C4I@d4,d5,d6,d7"}
    a[L.PLAYER] = 0
    silver = int(a[L.SILVER])
    state.play("I")
    assert a[L.SILVER] == silver + 8


def test_example_3_population():
    game = FoundationsOfRome(players=4)
    a = game.new_state(0).array
    a[L.POP:L.POP + 4] = [9, 6, 6, 0]
    scoring.score_population(a, 2)
    assert list(a[L.VP:L.VP + 4]) == [16, 9, 9, 0]
    b = FoundationsOfRome(players=3).new_state(0).array
    b[L.POP:L.POP + 3] = [5, 5, 3]
    scoring.score_population(b, 3)
    assert list(b[L.VP:L.VP + 3]) == [15, 15, 5]


def test_example_4_civic():
    game, state = hand_built()
    a = state.array
    build(game, a, 0, "V1F@d4")
    build(game, a, 0, "R2@d2,d3")
    build(game, a, 1, "C3L@c4,c5,d5")
    build(game, a, 1, "C4O@g5,h5,g6,h6")
    build(game, a, 0, "C2@e6,e7")
    build(game, a, 2, "V2M@f5,f6")
    fountain = int(a[L.CELL_BLD + cells(a, "d4")[0]])
    market = int(a[L.CELL_BLD + cells(a, "f5")[0]])
    assert scoring.civic_value(a, fountain) == 2 and scoring.civic_value(a, market) == 8
    scoring.score_civic(a)
    assert a[L.VP] == 2 and a[L.VP + 1] == 0 and a[L.VP + 2] == 8
    game, state = hand_built()
    b = state.array
    build(game, b, 0, "V1L@d4")
    build(game, b, 1, "R3I@a4,b4,c4")
    build(game, b, 2, "R1@e4")
    assert scoring.civic_value(b, int(b[L.CELL_BLD + cells(b, "d4")[0]])) == 2


def test_example_5_commercial():
    game, state = hand_built()
    a = state.array
    build(game, a, 0, "C1@a1")
    build(game, a, 0, "C2@c1,d1")
    build(game, a, 0, "C4O@a3,b3,a4,b4")
    silver = int(a[L.SILVER])
    state.play("I")
    assert a[L.SILVER] == silver + 10
    silver = int(a[L.SILVER])
    scoring.score_commercial(a, 1)
    assert a[L.SILVER] == silver + 5 and a[L.VP] == 7
    scoring.score_commercial(a, 3)
    assert a[L.SILVER] == silver + 5 and a[L.VP] == 7 + 12
    src = game.details(a)["vp_by_source"][0]
    assert src["tray"] == 14 and src["commercial"] == 5


def test_example_6_era_end():
    game = FoundationsOfRome(players=3)
    state = game.new_state(2)
    a = state.array
    state.play("I")  # seat 0
    a[L.PILE_POS] = a[L.PILE_LEN]
    a[L.SLOTS + 1:L.SLOTS + 6] = -1
    assert state.current_player == 1
    state.play("D1")
    assert a[L.PHASE] == L.PH_FINAL
    assert state.current_player == 2
    state.play("I")
    assert state.current_player == 0
    state.play("I")
    assert state.current_player == 1 and not any(t.startswith("D") for t in texts(state))
    state.play("I")
    assert a[L.ERA] == 2 and state.current_player == 2 and a[L.START_PLAYER] == 2
    assert all(a[L.SLOTS + k] >= 0 for k in range(6)) and a[L.PILE_LEN + 1] - a[L.PILE_POS + 1] == 9


def test_example_8_monument():
    game, state = hand_built(modules=["monuments"])
    a = state.array
    a[L.DISPLAY] = 12
    own(a, 0, "e4,f4,e5,f5")
    build(game, a, 0, "R2@d4,d5")
    build(game, a, 1, "C2@g4,g5")
    build(game, a, 2, "V1F@e6")
    silver = [int(a[L.SILVER + p]) for p in range(3)]
    supply = moves.marker_supply(a, 0)
    state.play("M12@e4,f4,e5,f5")
    assert [int(a[L.SILVER + p]) for p in range(3)] == [x + 3 for x in silver]
    assert moves.marker_supply(a, 0) == supply + 4 and a[L.MON_LEFT] == 5
    colosseum = int(a[L.CELL_BLD + cells(a, "e4")[0]])
    fountain = int(a[L.CELL_BLD + cells(a, "e6")[0]])
    assert scoring.civic_value(a, colosseum) == 2 and scoring.civic_value(a, fountain) == 1
    scoring.score_civic(a)
    assert game.details(a)["vp_by_source"][0]["monuments"] == 2
    a[L.PLAYER] = 0
    assert not any(t.startswith("M12") for t in texts(state))  # built once


def test_draft_picks_are_hidden_then_revealed_and_hands_pass():
    game = FoundationsOfRome(players=3, draft=True)
    state = game.new_state(4)
    a = state.array
    hands = [sorted(int(a[L.HANDS + 6 * p + j]) for j in range(6)) for p in range(3)]
    first = state.legal_move_texts()
    assert len(first) == 6 and all(t.startswith("K:") for t in first)
    state.play(first[0])
    assert not (int(a[L.OWN]) | int(a[L.OWN + 1]))  # not revealed yet
    state.play(state.legal_move_texts()[0])
    state.play(state.legal_move_texts()[0])
    assert all(moves.marker_supply(a, p) == 7 for p in range(3))
    assert state.current_player == 0
    assert set(int(a[L.HANDS + 6 * 1 + j]) for j in range(5)) < set(hands[0])  # hand 0 went to seat 1
    for _ in range(15):
        state.play(state.legal_move_texts()[0])
    assert a[L.PHASE] == L.PH_PLAY and all(moves.marker_supply(a, p) == 2 for p in range(3))
    assert state.current_player == 0


# ---- options and notation ------------------------------------------------------------
@pytest.mark.parametrize("options, words", [
    ({"players": 6}, "2-5 players"),
    ({"modules": ["trading"], "consul": "hard"}, "only the monuments"),
    ({"modules": ["roles"], "consul": True}, "only the monuments"),
    ({"players": 5, "consul": "standard"}, "1-4 players"),
    ({"players": 1}, "2-5 players"),
    ({"consul": "easy"}, "consul must be"),
    ({"objectives": "secret"}, "objectives must be"),
    ({"max_trades": 4}, "max_trades"),
    ({"modules": ["castles"]}, "unknown module"),
    ({"modules": ["monuments", "monuments"]}, "twice"),
    ({"deed_prices": [2, 3, 4]}, "deed_prices"),
    ({"deed_prices": [3, 2, 4, 6, 8, 10]}, "deed_prices"),
    ({"deed_prices": [-1, 3, 4, 6, 8, 10]}, "deed_prices"),
    ({"draft": "yes"}, "draft"),
    ({"max_turns": 0}, "max_turns"),
])
def test_bad_options_are_one_line_config_errors(options, words):
    with pytest.raises(ConfigError) as exc:
        create_game(NAME, {"players": 3, **options})
    assert words in str(exc.value) and "\n" not in str(exc.value)

def test_notation_round_trips_on_the_10x10_city():
    game = FoundationsOfRome(players=5, modules=["monuments"])
    state = game.new_state(3)
    for text in state.legal_move_texts():
        assert game.format_move(state.array, game.parse_move(state.array, text)) == text
    assert L.parse_cell("a10", 10) == 90 and L.cell_name(99, 10) == "j10"


def test_identical_copies_are_one_move():
    game, state = hand_built()
    own(state.array, 0, "a1")
    assert sorted(t for t in texts(state) if t.endswith("@a1")) == sorted(
        f"{c}@a1" for c in CODE_NAMES if c in ("R1", "C1", "V1F", "V1L", "V1M", "V1G"))

# ---- random games (replay and determinism: the conformance kit) -------------------------
def _random_texts(game, seed, plies=10_000):
    state = game.new_state(seed)
    rng = make_rng(seed + 99)
    out = []
    while not state.is_terminal and len(out) < plies:
        move = int(game.kernels.random_move(state.array, rng))
        out.append(game.format_move(state.array, move))
        state.play(move)
    return state, out


def test_max_turns_truncates_without_scoring():
    game = FoundationsOfRome(players=2, max_turns=5)
    state = game.new_state(0)
    for _ in range(5):
        state.play("I")
    res = state.result()
    assert res["terminal"] and res["truncated"] and res["vp"] == [0, 0]
    assert res["silver"] == [20, 16] and res["winners"] == [0] and res["ranks"] == [1, 2]  # silver breaks the tie
    assert res["scores"] == [0, 0]  # the VP, as the rules score them (it was [0.1, 0])


def test_ties_go_to_silver_then_are_shared():
    game = FoundationsOfRome(players=4)
    state = game.new_state(0)
    a = state.array
    a[L.VP:L.VP + 4] = [30, 30, 30, 12]
    a[L.SILVER:L.SILVER + 4] = [4, 9, 4, 50]
    res = state.result()
    assert res["scores"] == [30, 30, 30, 12] and res["ranks"] == [2, 1, 2, 4]


def test_result_reports_vp_by_source_that_adds_up():
    game = FoundationsOfRome(players=3, modules=["monuments"])
    state, _ = _random_texts(game, 12)
    res = state.result()
    assert set(res["vp_by_source"][0]) == {"population", "civic", "commercial", "tray", "monuments",
                                           "lot_markers"}
    assert [sum(d.values()) for d in res["vp_by_source"]] == res["vp"]
    assert res["silver"] and res["population"]


# ---- hidden information --------------------------------------------------------------
def test_determinize_redeals_piles_and_unseen_hands_but_keeps_the_observation():
    game = FoundationsOfRome(players=3, draft=True)
    state = game.new_state(9)
    state.play(state.legal_move_texts()[2])  # seat 0's pick, hidden from seats 1 and 2
    a = state.array
    view = a.copy()
    game.kernels.determinize(view, 1, make_rng(3))
    assert np.array_equal(game.observation(view, 1), game.observation(a, 1))
    assert not np.array_equal(view, a)
    seat1_hand = sorted(int(a[L.HANDS + 6 + j]) for j in range(6))
    assert sorted(int(view[L.HANDS + 6 + j]) for j in range(6)) == seat1_hand
    piles = lambda x: sorted(int(v) for e in range(3)  # noqa: E731
                             for v in x[L.PILES + e * L.PILE_ROOM + x[L.PILE_POS + e]:
                                        L.PILES + e * L.PILE_ROOM + x[L.PILE_LEN + e]])
    # every unlocated card stays unlocated: piles + seat 0's hand-and-pick + seat 2's hand
    unlocated = lambda x: sorted(piles(x) + [int(x[L.PICK])] + [  # noqa: E731
        int(x[L.HANDS + 6 * q + j]) for q in (0, 2) for j in range(int(x[L.HAND_N + q]))])
    assert unlocated(view) == unlocated(a)

def test_render_shows_city_deed_board_piles_and_supplies():
    game = FoundationsOfRome(players=3, modules=["monuments"], deed_prices=[1, 2, 3, 4, 5, 6])
    state = game.new_state(0)
    a = state.array
    own_lot = next(c for c in range(64) if (int(a[L.OWN + (c >> 6)]) >> (c & 63)) & 1)
    state.play(f"R1@{L.cell_name(own_lot, 8)}")
    picture = state.render()
    assert f"A:R1@{L.cell_name(own_lot, 8)}" in picture and "($6)" in picture and "piles 10/15/15" in picture
    assert "B: VP 0 silver 6 population 0 markers 2/8 monument markers 6" in picture
    assert "B to move" in picture and "M" in picture.split("monuments: ")[1]
    rows = picture.splitlines()[1:9]
    assert sum(row.count("A") for row in rows) == 1 and sum(row.count("a") for row in rows) == 5
    assert "\x1b[" in state.render(color=True)


@pytest.mark.parametrize("config, plies, vp, silver, population", [
    ({"players": 3, "modules": ["monuments"], "draft": True}, 164, [75, 64, 85], [35, 29, 23], [12, 8, 14]),
    ({"players": 5}, 206, [67, 36, 65, 66, 68], [21, 59, 3, 21, 53], [8, 6, 1, 6, 6]),
])
def test_golden_games(config, plies, vp, silver, population):
    """Seed 21, moves drawn by random.Random(21) from the sorted legal notation; the
    end agrees with the reference engine's (checked when these figures were taken)."""
    import random

    state = create_game(NAME, config).new_state(21)
    chooser = random.Random(21)
    while not state.is_terminal:
        state.play(chooser.choice(sorted(state.legal_move_texts())))
    res = state.result()
    assert (res["plies"], res["vp"], res["silver"], res["population"]) == (plies, vp, silver, population)


def test_greedy_leaves_an_income_stall_with_hundreds_of_silver():
    # A 4-player greedy self-play game (tournament seed below) in which every seat took
    # Income for hundreds of turns until the 1000-turn cap: with silver's worth
    # unbounded in the base game's heuristic, Income beat every Buy. At ply 400 the seats
    # hold 580-790 silver; greedy must now spend it.
    data = json.loads((Path(__file__).resolve().parents[3] / "tests" / "data" / "for_greedy_income_stall.json").read_text())
    game = create_game(data["game"], **data["config"])
    state = game.new_state(data["seed"])
    for text in data["moves"]:
        state.play(text)
    assert data["moves"][-20:] == ["I"] * 20
    for k in range(4):
        view = state.view_for(state.current_player, make_rng(k))
        move = create_agent("greedy", seed=k).act(view)
        assert game.format_move(state.array, move) != "I"
