"""The plain-Python reference engine of Forum Trajanum against the spec
(shared/rules/forum-trajanum.md): worked examples 1-10, setup figures, whole random games,
replay, hidden information and bad input."""

import random
from collections import Counter

import pytest

from forumlab.core.errors import ConfigError, GameOverError, IllegalMoveError, RecordError
from forumlab.engines.forum_trajanum.reference import ReferenceForumTrajanum, replay, scoring
from forumlab.engines.forum_trajanum.reference.catalogue import CELL_INDEX, CORNERS, RIVER
from forumlab.engines.forum_trajanum.reference.colonia import active_citizens, multiplier
from forumlab.engines.forum_trajanum.reference.forum import Forum


def cell(name):
    return CELL_INDEX[name]


def fcell(name):
    return ("abcdefghijklmnopqrst".index(name[0]), int(name[1]) - 1)


def position(players=4, seat=0, round_=1):
    """A fixed-setup game with seat ``seat`` about to decide whatever the test pushes on
    the stack; a ``use`` decision below is a stop so nothing else runs afterwards."""
    state = ReferenceForumTrajanum(players=players, setup="fixed").new_game(3)
    state.round = round_
    state.stack = [("use", seat)]
    state.conv_used = {"MII": 0, "CI": 0, "CII": 0}
    p = state.players[seat]
    p["rows"] = {r: [] for r in range(1, 7)}
    p["res"] = dict.fromkeys(p["res"], 0)
    return state, p


def decide(state, item):
    state.stack.append(item)
    state._advance()


def random_game(players, intro, setup, seed):
    state = ReferenceForumTrajanum(players=players, intro=intro, setup=setup).new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.play(rng.choice(state.legal_moves()))
    return state


# ---------------------------------------------------------------- worked examples
def test_example_1_column():
    state, p = position(round_=5)  # cycle II: column value 2
    p["rows"][1] = [True]
    p["rows"][3] = [True, True]
    p["res"]["B"] = 1
    p["board"][cell("d2")] = None
    decide(state, ("convbuild", 0))
    state.play("build col@d2/B")
    assert p["res"]["B"] == 0 and p["vp"]["column"] == 5 and p["cols"] == 1


def test_example_2_finishing_a_track():
    state, p = position(players=4, round_=9)  # cycle III
    p["tracks"]["mkt"] = 3
    p["rows"][1] = [True]
    p["rows"][5] = [True]
    p["prestige"], p["merchant"], p["ship"] = 2, False, 1
    p["res"].update(B=1, y=1)
    p["board"][cell("c4")] = p["board"][cell("d4")] = None
    decide(state, ("convbuild", 0))
    state.play("build mkt+y@c4,d4/B,y")
    assert p["res"]["B"] == 0 and p["res"]["y"] == 0 and p["tracks"]["mkt"] == 4
    assert state.legal_moves() == ["track 1", "track 2", "track 3", "track 4"]
    state.play("track 4")
    assert p["prestige"] == 3 and p["res"]["C"] == 1 and p["vp"]["track_end"] == 3
    assert "env s2" in state.legal_moves()
    state.play("env s2")
    assert p["ship"] == 0 and state.envoys[fcell("s2")] == 0


def _example_3(pi: bool, pii: bool):
    state, p = position(players=4)
    for name in ("g1", "h1", "i1", "j1"):
        state.envoys[fcell(name)] = 1
    p["res"]["b"], p["ship"] = 1, 1
    p["rows"][1] = [True] if pi else []
    p["rows"][2] = [True] if pii else []
    p["board"][cell("f3")] = None
    decide(state, ("convbuild", 0))
    state.play("build b@f3/b")
    return state, p


def test_example_3_forced_area_and_its_bonus():
    state, p = _example_3(pi=False, pii=True)
    assert sorted(state.legal_moves()) == ["env -", "env i2"]
    state.play("env i2")
    assert "pick T+V" in state.legal_moves()
    state.play("pick T+V")
    assert p["res"]["T"] == 1 and p["vp"]["bonus"] == 2
    state, _ = _example_3(pi=True, pii=False)
    assert {"env i2", "env t2"} <= set(state.legal_moves())


def test_example_4_crane():
    _, p = position()
    p["uncovered"] = [cell("a6")]
    p["crane"] = {cell("a1"): "r", cell("f1"): "g", cell("a6"): "g", cell("f6"): "y"}
    for name, piece in (("c3", "g"), ("c4", "g"), ("d4", "g"), ("b3", "col"), ("b4", "g")):
        p["built"][cell(name)] = piece
    assert scoring.crane_points(p, 1) == 12
    assert p["crane"][cell("a6")] is None
    assert scoring.crane_points(p, 2) == 0  # colourless; f1 is still covered


def test_example_5_colonia_scoring():
    _, p = position()
    p["rows"][1] = [False]
    p["rows"][3] = [True, True]
    p["rows"][5] = [True]
    for name, piece in (("b1", "bas"), ("c1", "col"), ("a3", "col"), ("c3", "lib"), ("d3", "lib"),
                        ("f3", "mkt"), ("c5", "mkt")):
        p["built"][cell(name)] = piece
    assert scoring.colonia_points(p) == 2 + 9 + 2


def test_example_6_forum_scoring():
    forum = Forum(4)
    cells = [fcell(n) for n in ("a1", "b1", "c1", "b2", "c2", "a3")]
    assert forum.eagle_points(cells, True) == 7
    assert forum.eagle_points(cells, False) == 4
    _, p = position()
    p["prestige"] = 3
    assert forum.largest_group(cells) == 5
    assert scoring.area_points(5, p) == 11


def test_example_7_trajan():
    _, p = position()
    p["merchant"], p["prestige"] = True, 2
    assert scoring.trajan_value(p) == 7
    measures = {"colours": 4, "grp": 4}
    assert scoring.trajan_value(p) * scoring.tasks_met((2, 2), measures) == 14
    measures["grp"] = 3
    assert scoring.trajan_value(p) * scoring.tasks_met((2, 2), measures) == 7


def test_example_8_payment():
    state, p = position()
    p["rows"][1] = [True]
    p["rows"][5] = [True, True]
    p["res"]["C"] = 1
    decide(state, ("pay", 0))
    assert sorted(state.legal_moves()) == ["pay -", "pay 1", "pay 5"]
    state.play("pay 5")
    assert p["res"]["C"] == 0 and p["rows"][1] == [False] and p["rows"][5] == [True, True]
    assert multiplier(p, 1) == 1 and active_citizens(p) == 2
    forum = Forum(4)
    from forumlab.engines.forum_trajanum.reference.colonia import row_active
    assert not row_active(p, 1)  # PI's diagonal eagle points are lost at this scoring
    assert forum.eagle_points([fcell("a1")], row_active(p, 1)) == 0


def test_example_9_tie_break():
    state, _ = position(players=2)
    for seat, res in ((0, 3), (1, 5)):
        p = state.players[seat]
        p["vp"] = dict.fromkeys(p["vp"], 0)
        p["vp"]["column"] = 150
        p["rows"] = {1: [True, True], 2: [True, True], 3: [], 4: [], 5: [], 6: []}
        p["res"] = dict.fromkeys(p["res"], 0)
        p["res"]["C"] = res
    assert state.ranks() == [2, 1]


def _example_10(tribunes, empty_column_f=False):
    state = ReferenceForumTrajanum(players=3, setup="fixed").new_game(3)
    assert state.current_player() == 0 and state.stack[-1] == ("draft",)
    state.cards = ["R2", "Cf"]
    p = state.players[0]
    p["board"][cell("a2")] = p["board"][cell("d2")] = None  # R2 holds c2 and f2
    if empty_column_f:
        for row in range(1, 7):
            p["board"][cell(f"f{row}")] = None
    p["res"]["T"] = tribunes
    return state, p


def test_example_10_draft_with_a_tribune():
    state, p = _example_10(1)
    assert "take c2 rv" in state.legal_moves()
    passed = p["board"][cell("c2")]
    state.play("take c2 rv")
    assert p["res"]["T"] == 0
    state.play("keep rv")
    assert state.passing[2] is passed  # the right neighbour of seat 0 is seat 2
    state, _ = _example_10(0)
    assert "take c2 rv" not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        state.play("take c2 rv")
    state, p = _example_10(0, empty_column_f=True)
    with pytest.raises(IllegalMoveError):
        state.play("take a4 c2")  # not in reading order (row, then column)
    state.play("take c2 a4")
    assert p["res"]["T"] == 0
    state, p = position()
    p["res"]["T"] = 2
    p["held"] = {"k": {"o": 0, "t": "C", "up": True, "seen": [0]},
                 "r": {"o": 1, "t": "B", "up": True, "seen": [0]}}
    decide(state, ("use", 0))
    state.play("use kr")
    assert p["res"]["T"] == 0 and p["res"]["C"] == 1 and p["res"]["B"] == 1 and p["ship"] == 1


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize("players,areas,sizes", [
    (2, 16, {2: 9, 3: 3, 4: 2, 5: 2}), (3, 21, {2: 11, 3: 4, 4: 4, 5: 2}),
    (4, 26, {2: 13, 3: 5, 4: 6, 5: 2})])
def test_forum_check_values(players, areas, sizes):
    forum = Forum(players)
    assert len(forum.areas) == areas and dict(Counter(len(a) for a in forum.areas)) == sizes
    assert forum.width == 4 * (players + 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_figures(players):
    state = ReferenceForumTrajanum(players=players, setup="fixed").new_game(11)
    assert sorted(c for pile in state.piles for c in pile) == sorted(
        [f"R{r}" for r in range(1, 7)] * 2 + [f"C{c}" for c in "abcdef"] * 2)
    assert all(len(pile) == 8 for pile in state.piles)
    assert [c[0] for c in state.trajan] == [1, 2, 3] and all(1 <= c[1] <= 4 for c in state.trajan)
    workers = []
    for seat, p in enumerate(state.players):
        res = p["res"]
        assert (res["T"], res["B"], res["A"], res["C"]) == (1, 1, 1, 1)
        workers += [w for w in "rbgy" if res[w] == 1]
        assert sum(t is not None for t in p["board"]) == 33
        assert sum(len(r) for r in p["rows"].values()) == 1 and active_citizens(p) == 1
        row = {"P": 1, "M": 3, "C": 5}[p["female"]]
        assert p["rows"][row] == [True] and p["merchant"] == (row == 3)
        assert all(p["board"][c]["up"] for c in CORNERS) and p["board"][RIVER]["seen"] == [seat]
        assert p["crane"] == dict(zip(CORNERS, "rbgy")) and p["vp"] and state.vp(seat) == 0
        kinds = Counter(t["t"] for t in p["board"] if t is not None)
        assert kinds["citP"] + kinds["citM"] + kinds["citC"] == 5
    assert len(set(workers)) == players
    assert state.cards == state.piles[0][:2] and state.queue == list(range(players))
    assert state.plies == 0 and state.current_player() == 0


def test_setup_choose_is_a_ply_and_fills_the_corners():
    state = ReferenceForumTrajanum(players=2).new_game(4)
    moves = state.legal_moves()
    assert len(moves) == 24 * 2 * 4 and "setup rbgy/1/a1" in moves
    female = state.players[0]["female"]
    pool = [t["t"] for t in state.players[0]["pool"]]
    state.play("setup gbry/2/f1")
    p = state.players[0]
    others = [c for c in "PMC" if c != female]
    assert p["board"][cell("f1")]["t"] == "cit" + others[0]
    assert p["board"][cell("a6")]["t"] == "cit" + others[1]
    assert [p["board"][cell(n)]["t"] for n in ("a1", "f6", "b1", "rv")] == [pool[0], pool[1], pool[2], pool[30]]
    assert p["rows"][{"P": 2, "M": 4, "C": 6}[female]] == [True]
    assert p["crane"][cell("a1")] == "g" and state.current_player() == 1


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("players,intro,setup", [
    (2, False, "choose"), (3, True, "choose"), (4, False, "fixed"), (2, True, "fixed")])
def test_random_games_end_consistently(players, intro, setup):
    state = random_game(players, intro, setup, seed=players * 7 + intro)
    result = state.result()
    assert result["terminal"] and state.legal_moves() == [] and state.current_player() == -1
    assert result["scores"] == [sum(v.values()) for v in result["vp_by_source"]]
    assert 1 in result["ranks"] and result["winners"] == [s for s, r in enumerate(result["ranks"]) if r == 1]
    assert state.round == 12 and all(d == 8 for d in state.drawn)
    for p in state.players:
        assert sum(t is not None for t in p["board"]) == 33 - 24
        assert all(v >= 0 for v in p["res"].values())
    if not intro:
        assert all(p["vp"]["crane"] >= 0 for p in state.players)
    again = replay(state.record())
    assert again.summary() == state.summary() and again.result() == result
    with pytest.raises(GameOverError):
        state.play("use k")


# ---------------------------------------------------------------- hidden information
def _tile_multiset(state, owner):
    """Types of every unused tile of ``owner``'s colour (each tile once)."""
    p = state.players[owner]
    tiles = [t for t in p["board"] if t is not None]
    tiles += [t for q in state.players for t in q["held"].values() if t["o"] == owner]
    tiles += [t for t in state.passing.values() if t["o"] == owner]
    for log in state.draft.values():
        tiles += [t for t in log.get("tiles", {}).values() if t["o"] == owner]
    return Counter(t["t"] for t in {id(t): t for t in tiles}.values())


def test_determinize_keeps_what_the_observer_sees():
    state = ReferenceForumTrajanum(players=3).new_game(21)
    rng, changed = random.Random(2), 0
    while not state.is_terminal():
        seat = state.current_player()
        if state.plies % 3 == 0:
            seen = state.observation(seat)
            other = state.copy().determinize(seat, rng.getrandbits(62))
            assert other.observation(seat) == seen
            assert other.current_player() == seat
            assert sorted(other.legal_moves()) == sorted(state.legal_moves())
            for owner in range(3):
                if state.players[owner]["pool"] is None:  # after the owner's setup ply
                    assert _tile_multiset(other, owner) == _tile_multiset(state, owner)
            changed += other.summary() != state.summary()
        state.play(rng.choice(state.legal_moves()))
    assert changed > 0


def test_observation_hides_an_earlier_seats_draft_choice():
    base = ReferenceForumTrajanum(players=3, setup="fixed").new_game(8)
    views, tribunes = set(), []
    for take in base.legal_moves()[:12]:
        state = base.copy()
        state.play(take)
        state.play(state.legal_moves()[0])  # seat 0 keeps one of its tiles
        assert state.current_player() == 1
        views.add(repr(state.observation(1)))
        undone = state.copy().determinize(1, 5)
        assert undone.queue == [1, 2, 0] and "take" not in undone.draft[0]
        assert undone.players[0]["res"]["T"] == base.players[0]["res"]["T"]
        tribunes.append(state.players[0]["res"]["T"])
    assert len(views) == 1


def test_determinize_resamples_face_down_tiles_and_street_cards():
    state = ReferenceForumTrajanum(players=2, setup="fixed").new_game(1)
    boards, piles = set(), set()
    for word in range(6):
        other = state.copy().determinize(0, word)
        boards.add(tuple(t["t"] for t in other.players[1]["board"] if t is not None))
        piles.add(tuple(c for p in other.piles for c in p))
        assert other.players[0]["board"][RIVER]["t"] == state.players[0]["board"][RIVER]["t"]
        assert [other.players[1]["board"][c]["t"] for c in CORNERS] == \
            [state.players[1]["board"][c]["t"] for c in CORNERS]
        assert other.cards == state.cards
    assert len(boards) > 1 and len(piles) > 1


# ---------------------------------------------------------------- bad input
def test_bad_moves_and_options_raise():
    state = ReferenceForumTrajanum(players=2).new_game(0)
    for text in ("", "setup", "setup rbgy/3/a1", "setup rrgy/1/a1", "use k", "build -", 5):
        with pytest.raises(IllegalMoveError, match="ply 1"):
            state.play(text)
    for options in ({"players": 5}, {"players": 1}, {"players": True}, {"intro": 1},
                    {"setup": "random"}, {"colour": "red"}):
        with pytest.raises(ConfigError):
            ReferenceForumTrajanum(**options)
    with pytest.raises(RecordError):
        replay({"game": "forum-romanum", "seed": 1, "moves": []})
    with pytest.raises(IllegalMoveError, match="ply 2"):
        replay({"config": {"players": 2}, "seed": 0, "moves": ["setup rbgy/1/a1", "take a1"]})


# ---------------------------------------------------------------- spec parentheticals
def test_use_r_of_a_second_row_1_citizen_gives_no_envoy_with_an_empty_ship():
    state, p = position()
    p["rows"][1] = [True]
    p["held"] = {"k": {"o": 0, "t": "C", "up": True, "seen": [0]},
                 "r": {"o": 1, "t": "citP", "up": True, "seen": [0]}}
    decide(state, ("use", 0))
    state.play("use r")
    state.play("cit 1")
    assert p["rows"][1] == [True, True] and state.envoys == {} and p["ship"] == 1


def test_use_kr_puts_an_own_k_in_the_ship_before_the_row_1_bonus():
    state, p = position()
    p["rows"][1] = [True]
    p["res"]["T"] = 2
    p["held"] = {"k": {"o": 0, "t": "C", "up": True, "seen": [0]},
                 "r": {"o": 1, "t": "citP", "up": True, "seen": [0]}}
    decide(state, ("use", 0))
    state.play("use kr")
    state.play("cit 1")
    assert "env b2" in state.legal_moves() and "env -" in state.legal_moves()  # eagles included
    state.play("env b2")
    assert p["ship"] == 0 and state.envoys == {fcell("b2"): 0}


def test_single_option_decisions_are_not_plies():
    state, p = position()
    p["rows"][5] = [True]
    p["res"]["C"] = 0
    decide(state, ("pay", 0))  # a payment with 0 coins
    assert state.plies == 0 and p["rows"][5] == [False] and state.stack == [("use", 0)]
    p["rows"][6] = [True]
    p["held"] = {"k": {"o": 0, "t": "citC", "up": True, "seen": [0]},
                 "r": {"o": 1, "t": "B", "up": True, "seen": [0]}}
    decide(state, ("use", 0))
    state.play("use k")  # rows 5 and 6 both have room: a cit ply
    assert sorted(state.legal_moves()) == ["cit 5", "cit 6"]
    state.play("cit 6")  # the second citizen of row 6: +1 builder, automatically
    assert p["res"]["B"] == 1 and state.plies == 2 and p["ship"] == 0


def test_merchant_upgrade_goes_to_the_next_cypress():
    state, p = position()
    p["rows"][3] = [True]
    p["prestige"] = 2
    state._gain(0, "U")
    assert p["prestige"] == 4
    p["rows"][3] = [False]
    state._gain(0, "U")
    assert p["prestige"] == 5


def test_determinize_resamples_unrevealed_held_tiles_but_not_the_passed_one():
    state = ReferenceForumTrajanum(players=3, setup="fixed").new_game(6)
    rng = random.Random(6)
    while state.stack[-1][0] == "draft":
        state.play(rng.choice(state.legal_moves()))
    assert state.stack[-1] == ("use", 0)
    kept_by_2, passed_by_0 = set(), set()
    for word in range(12):
        other = state.copy().determinize(0, word)
        kept_by_2.add(other.players[2]["held"]["k"]["t"])
        passed_by_0.add(other.players[2]["held"]["r"]["t"])
        assert other.players[0]["held"] == state.players[0]["held"]
    assert len(kept_by_2) > 1  # seat 2's kept tile is unknown to seat 0
    assert passed_by_0 == {state.players[2]["held"]["r"]["t"]}  # seat 0 passed it
