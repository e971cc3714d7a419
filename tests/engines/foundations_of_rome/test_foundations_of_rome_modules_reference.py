"""Tests of the plain-Python Foundations of Rome reference engine's modules (Trading,
Stealing, Objectives, Invocations, Player roles, Will of the Consul) against
``shared/rules/foundations-of-rome.md``.

Worked examples 7, 9 and 10 are built the way the base-game tests build theirs: ``city``
starts a fresh game of the wanted modules whose seats own no lot, ``own``/``put`` give
lots and buildings, and everything after that is legal plays through ``play`` or the
engine's scoring functions. Lots: columns a.. left to right, rows 1.. top to bottom.
"""

import random
from collections import Counter

import pytest

from forumlab.core.errors import ConfigError, IllegalMoveError
from forumlab.engines.foundations_of_rome.reference import ReferenceFoundationsOfRome, replay, scoring
from forumlab.engines.foundations_of_rome.reference import consul as consul_rules
from forumlab.engines.foundations_of_rome.reference.catalogue import CONSUL, CONSUL_TOKENS, PIECES

ALL = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]


# ---------------------------------------------------------------- helpers
def new(seed=1, **options):
    return ReferenceFoundationsOfRome(**options).new_game(seed)


def lots(state, text):
    return [state.grid.index[name] for name in text.split()]


def city(players=3, **options):
    """A fresh game (seed 1), setup plies skipped, whose seats own no lot yet."""
    state = new(1, players=players, **options)
    state.owner = [-1] * state.grid.cells
    state.phase, state.player = "turn", 0
    if state.options.roles:
        state.roles = [None] * players
    return state


def own(state, seat, text):
    for lot in lots(state, text):
        state.owner[lot] = seat


def put(state, seat, code, text):
    own(state, seat, text)
    state._build(seat, PIECES[code], tuple(sorted(lots(state, text))))


def finish_setup(state, chooser):
    while state.phase in ("draft", "objectives", "roles"):
        state.play(state.random_move(chooser))


def random_game(seed, **options):
    state = new(seed, **options)
    chooser = random.Random(seed)
    while not state.is_terminal():
        state.play(state.random_move(chooser))
    return state


# ---------------------------------------------------------------- worked examples
@pytest.mark.parametrize("praetor", [False, True])
def test_example_7_end_scoring_of_objectives_invocations_and_favor_tokens(praetor):
    modules = ["stealing", "objectives", "invocations"] + (["roles"] if praetor else [])
    state = city(modules=modules)
    own(state, 0, "a1 c3 e5 g7")  # 4 empty lots: objective O16 is met
    state.obj_dealt[0], state.obj_kept[0] = [2, 16], 16
    state.held[0] = {19: "ongoing", 3: "unused"}  # Augur used (ongoing), Ianus unused
    state.tokens[0] = [1, 1]  # favor tokens on sides 2 and 4
    if praetor:
        state.roles[0] = 10
    before = state.vp(0)
    scoring.end_scoring(state)
    vp = state.vp_by_source[0]
    assert vp["lot_markers"] == (8 if praetor else 4)
    assert vp["objectives"] == 3 and vp["favor_tokens"] == 6
    assert vp["invocations"] == 3 + 2  # Augur 3 per objective met, Ianus's 2 VP
    assert state.vp(0) - before == (22 if praetor else 18)


def test_example_9_steal_and_trade():
    state = city(modules=["trading", "stealing"])
    own(state, 0, "d3 a1 a3 a5 a7 h1 h8")  # d3 and six other empty lots
    put(state, 0, "R1", "c4")
    own(state, 1, "d4")
    own(state, 2, "h4")
    state.silver = [3, 5, 6]
    assert state.marker_supply(0) == 1 and state.tokens[0] == [2, 0]
    assert "S:d4" in state.legal_moves()
    state.play("S:d4")
    assert state.owner[lots(state, "d4")[0]] == 0 and state.marker_supply(0) == 0
    assert state.tokens[0] == [1, 0] and state.tokens[1] == [2, 1]
    assert state.marker_supply(1) == 8
    assert state.current_player() == 0 and state.phase == "turn"
    state.play("T2:d3/$4")
    assert state.current_player() == 2 and state.phase == "answer" and state.legal_moves() == ["Y", "N"]
    state.play("Y")
    assert state.current_player() == 0 and state.phase == "turn"
    assert state.silver[0] == 7 and state.marker_supply(0) == 1
    assert state.owner[lots(state, "d3")[0]] == 2 and state.silver[2] == 2
    assert not any(m.startswith("T") for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match=r"ply 4 \(seat 0\): 'T1:a1/\$1' is illegal: .*max_trades 1"):
        state.play("T1:a1/$1")
    scoring.end_scoring(state)
    assert state.vp_by_source[1]["favor_tokens"] == 8  # tokens 2, 2, 4


def _consul_token(state, tid, text):
    """Put Consul token ``tid`` (taken out of its pile) on the lots, owned by the Consul."""
    cells = lots(state, text)
    for c in cells:
        state.owner[c] = CONSUL
    pile = state.consul_piles[CONSUL_TOKENS[tid].size - 1]
    if tid in pile:
        pile.remove(tid)
    consul_rules._token_on(state, tid, cells)


def consul_city(players=2):
    """A Consul game's canvas: no lot owned, no Consul token on the board, VP 5."""
    state = city(players=players, consul="hard")
    state.built = [-1] * state.grid.cells
    state.buildings = {}
    state.consul_vp = 5
    return state


def consul_tokens(state):
    return {code: cells for owner, code, cells in state.buildings.values() if owner == CONSUL}


def test_example_10_consul_placement_price_floor_and_population():
    state = city(players=2, consul="standard")
    _consul_token(state, 0, "c3")  # a size-1 R token (1 citizen)
    c4 = lots(state, "c4")[0]
    for holder in [state.slots] + state.piles:
        if c4 in holder:
            holder.remove(c4)
    state.slots[0] = c4
    state.consul_piles[1].remove(15)
    state.consul_piles[1].insert(0, 15)  # a C token of size 2 (1 silver) on top
    assert consul_rules.bfs_order(state, set(lots(state, "c3 c4")), c4) == lots(state, "c4 c3")
    state.play("I")  # seat 0, the card holder, ends its turn: the Consul acts
    assert state.owner[c4] == CONSUL and state.current_player() == 1
    tokens = sorted((code, cells) for owner, code, cells in state.buildings.values() if owner == CONSUL)
    assert tokens == [("X15", tuple(sorted(lots(state, "c3 c4"))))]
    assert state.consul_discards == [[0], [], [], []]
    assert consul_rules.token_silver(state) == 1
    assert [state.price(k, 1) for k in range(1, 7)] == [2, 3, 4, 6, 8, 10]
    _consul_token(state, 28, "a5 a6 a7 b7")  # size-4 C token: 3 silver -> S = 4
    _consul_token(state, 4, "g1")  # size-1 C token: 1 silver -> S = 5
    assert consul_rules.token_silver(state) == 5
    assert [state.price(k, 1) for k in range(1, 7)] == [4, 4, 4, 6, 8, 10]

    assert scoring.consul_population_points([4, 0], 6, era=1) == ([-2, -6], 4)
    pop = city(players=2, consul="standard")
    _consul_token(pop, 27, "a1 b1 c1 d1")  # R token of size 4: 6 citizens
    put(pop, 0, "R3I", "a4 a5 a6")  # 4 citizens
    consul_before, vp_before = pop.consul_vp, [pop.vp(0), pop.vp(1)]
    scoring.era_scoring(pop)
    assert pop.consul_vp - consul_before == 4
    assert [pop.vp(0) - vp_before[0], pop.vp(1) - vp_before[1]] == [-2, -6]


# ---------------------------------------------------------------- consul rules
def test_consul_placement_discards_in_id_order_and_re_covers_freed_cells():
    state = consul_city()
    state.consul_piles = [[1, 2], [13], [21], []]
    state.consul_discards = [[], [], [], []]
    _consul_token(state, 12, "a1 b1")
    _consul_token(state, 0, "c1")
    _consul_token(state, 3, "a2")
    own(state, CONSUL, "b2")
    b2 = lots(state, "b2")[0]
    # Group {a1 b1 c1 a2 b2}; BFS from b2 (up, left, right, down): b2 b1 a2 a1 c1.
    assert consul_rules.bfs_order(state, set(lots(state, "a1 b1 c1 a2 b2")), b2) == lots(state, "b2 b1 a2 a1 c1")
    consul_rules.place(state, b2)  # no size-4 token anywhere: 7 VP and nothing else
    assert consul_tokens(state) == {"X12": tuple(lots(state, "a1 b1")), "X0": tuple(lots(state, "c1")),
                                    "X3": tuple(lots(state, "a2"))}
    assert state.consul_vp == 5 + 7
    state.consul_piles[3] = [29]
    consul_rules.place(state, b2)  # T = b2 b1 a2 a1: X3 and X12 go, in id order
    assert consul_tokens(state) == {"X29": tuple(lots(state, "a1 b1 a2 b2")), "X0": tuple(lots(state, "c1"))}
    assert state.consul_discards == [[3], [12], [], []]

    state = consul_city()
    state.consul_piles = [[1, 2], [13], [], [29]]
    state.consul_discards = [[], [], [], []]
    own(state, CONSUL, "a1")
    _consul_token(state, 21, "b1 c1 d1")
    own(state, CONSUL, "a2")
    consul_rules.place(state, lots(state, "a2")[0])
    # T = a2 a1 b1 c1 gets X29; X21 goes, freeing d1, which gets the top size-1 token.
    assert consul_tokens(state) == {"X29": tuple(lots(state, "a1 b1 c1 a2")), "X1": tuple(lots(state, "d1"))}
    assert state.consul_discards == [[], [], [21], []] and state.consul_piles[0] == [2]


def test_consul_refills_an_empty_pile_from_its_discards_with_the_state_rng():
    state = consul_city()
    state.consul_piles = [[], [], [], []]
    state.consul_discards = [[4, 7], [], [], []]
    own(state, CONSUL, "d4")
    consul_rules.place(state, lots(state, "d4")[0])
    assert state.consul_discards == [[], [], [], []]
    assert len(state.consul_piles[0]) == 1 and set(consul_tokens(state)) | {f"X{state.consul_piles[0][0]}"} == {"X4", "X7"}


def test_consul_game_flow_with_one_player_and_cooperative_result():
    state = new(4, players=1, consul="challenge", modules=["monuments"])
    assert state.grid.n == 7 and len(state.display) == 4
    assert sum(1 for o in state.owner if o == CONSUL) == 4
    assert [len(p) for p in state.piles] == [13 - 6, 13, 13]  # 49 - 6 - 4 = 39 deeds
    assert state.vp(0) == 5 and state.consul_vp >= 5
    slot1 = state.slots[0]
    state.play("I")
    assert state.owner[slot1] == CONSUL and state.current_player() == 0
    chooser = random.Random(4)
    while not state.is_terminal():
        state.play(state.random_move(chooser))
    result = state.result()
    assert result["ranks"] == [1] and result["consul_vp"] == state.consul_vp
    assert result["consul_margin"] == state.vp(0) - state.consul_vp
    assert result["winners"] == ([0] if result["consul_margin"] > 0 else [])


# ---------------------------------------------------------------- setup of the modules
def test_setup_deals_invocations_objectives_roles_and_tokens():
    state = new(8, players=4, modules=ALL)
    assert state.phase == "objectives" and state.current_player() == 0
    cards = state.slots + [c for p in state.piles for c in p]
    invocations = sorted(c - 100 for c in cards if c > 100)
    assert len(invocations) == 9 and len(set(invocations)) == 9
    assert sorted(invocations + state.spare_invocations) == list(range(1, 21))  # all eligible
    in_piles = [sum(1 for c in p if c > 100) for p in state.piles]
    assert sum(1 for c in state.slots if c > 100) + in_piles[0] == 3 and in_piles[1:] == [3, 3]
    assert [len(p) for p in state.piles] == [19 - 6 + 3, 19 + 3, 19 + 3]
    dealt = [c for pair in state.obj_dealt for c in pair]
    assert len(set(dealt)) == 8 and all(1 <= c <= 18 for c in dealt)
    assert state.tokens == [[2, 0]] * 4 and state.token_pool == 2
    no_roles = new(8, players=2, modules=["invocations"])
    eligible = sorted([c - 100 for c in no_roles.slots + sum(no_roles.piles, []) if c > 100]
                      + no_roles.spare_invocations)
    assert eligible == list(range(1, 16))  # G16-G20 need absent modules


def test_setup_keeps_are_secret_plies_in_seat_order_then_roles_are_revealed():
    state = new(2, players=3, modules=["objectives", "roles"], draft=True)
    chooser = random.Random(0)
    while state.phase == "draft":
        state.play(state.random_move(chooser))
    assert state.phase == "objectives"
    for seat in range(3):
        assert state.current_player() == seat
        assert state.legal_moves() == [f"K:O{k}" for k in state.obj_dealt[seat]]
        state.play(state.legal_moves()[1])
    assert state.phase == "roles" and state.obj_kept == [p[1] for p in state.obj_dealt]
    silver = list(state.silver)
    for seat in range(3):
        assert state.roles == [None] * 3  # hidden until all chose
        state.play(f"K:P{state.role_dealt[seat][0]}")
    assert state.roles == [p[0] for p in state.role_dealt] and state.phase == "turn"
    assert state.silver == [s + 5 * (r == 2) for s, r in zip(silver, state.roles)]  # Argentarius
    assert state.main_actions == 0 and state.current_player() == 0


# ---------------------------------------------------------------- invocations and roles
def test_invocation_buy_and_uses():
    state = city(players=3, modules=["monuments", "invocations", "roles", "stealing"])
    state.slots[0] = 100 + 7  # G7 Vulcanus in slot 1
    state.silver = [2, 5, 5]
    state.play("D1")  # no lot marker needed; seat 0 had 8 in supply anyway
    assert state.held[0] == {7: "unused"} and state.silver[0] == 0
    state.held[1] = {9: "unused", 13: "unused"}
    put(state, 1, "R2", "a1 b1")
    state.play("U:G9")  # Mars: ongoing, +1 lot marker
    assert state.marker_total[1] == 9 and state.held[1][9] == "ongoing"
    state.play("U:G13")  # Saturnus: silver = population
    assert state.silver[1] == 2
    with pytest.raises(IllegalMoveError, match=r"ply 4 \(seat 1\): 'U:G13' is illegal: G13 is spent"):
        state.play("U:G13")
    with pytest.raises(IllegalMoveError, match=r"ply 4 \(seat 1\): 'U:G9' is illegal: G9 is already in play"):
        state.play("U:G9")
    with pytest.raises(IllegalMoveError, match=r"ply 4 \(seat 1\): 'U:G7' is illegal: seat 1 does not hold G7"):
        state.play("U:G7")
    state.play("I")
    state.silver[0] = 1
    state.play("I")
    state.play("U:G7")  # seat 0: prices -3 this turn, min 0
    assert [state.price(k, 0) for k in range(1, 7)] == [0, 0, 1, 3, 5, 7]
    state.play("I")
    assert [state.price(k, 0) for k in range(1, 7)] == [2, 3, 4, 6, 8, 10]


def test_ianus_makes_the_next_build_free_and_flamen_lifts_requirements():
    state = city(players=2, modules=["monuments", "invocations"])
    state.display = [14, 5]
    own(state, 0, "a1 b1 c1 a2 b2 c2 e5")
    state.held[0] = {3: "unused", 18: "unused"}
    assert not any(m.startswith("M5@") for m in state.legal_moves())  # Temple of Minerva: 4 residential
    state.play("U:G3")
    state.play("R1@e5")  # free: seat 0 still to move
    assert state.current_player() == 0 and state.main_actions == 0
    state.play("U:G18")
    assert any(m.startswith("M5@") for m in state.legal_moves())
    state.play("M5@a1,c1,a2,b2,c2")
    assert state.current_player() == 1 and state.main_actions == 1 and state.population(0) == 9
    assert state.turn_effects == set()


def test_roles_numa_swap_architectus_and_dominus_markers():
    state = city(players=3, modules=["invocations", "roles"])
    state.roles = [4, 5, 15]  # Architectus, Dominus, Faber
    put(state, 0, "R1", "a1")
    put(state, 0, "R1", "c1")
    own(state, 0, "b1")
    assert "R1@a1" in state.legal_moves()  # same code, same cells, none in supply: legal
    assert "C1@a1" in state.legal_moves()  # same size, other code
    state.play("R1@a1")
    assert state.supply[0]["R1"] == 0 and state.current_player() == 1
    own(state, 1, "a7 b7 c7 d7 e7 f7 g7 h7 a6 b6")  # 10 empty lots: needs Dominus's 2 markers
    assert state.marker_supply(1) == 0
    state.held[1] = {20: "unused"}
    assert "U:G20=0" not in state.legal_moves() and "U:G20=2" not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"ply 2 \(seat 1\): 'U:G20=2' is illegal: seat 1 would be left"):
        state.play("U:G20=2")
    state.play("I")
    state.held[2] = {20: "unused"}
    state.play("U:G20=0")
    assert state.roles == [15, 5, 4]
    state.play("I")  # seat 2's main action; seat 0 is Faber now
    silver = state.silver[0]
    state.play("C1@b1")
    assert state.silver[0] == silver + 1


def test_trade_of_an_ongoing_mars_moves_its_marker():
    state = city(players=2, modules=["trading", "invocations"])
    own(state, 0, "a1 b1 c1 d1 e1 f1 g1 a2")  # 8 markers on the board
    state.held[0] = {9: "ongoing"}
    assert state.marker_supply(0) == 1
    own(state, 0, "b2")
    assert state.marker_supply(0) == 0
    assert "T1:G9/-" not in state.legal_moves()  # seat 0 would have -1 markers
    with pytest.raises(IllegalMoveError, match="seat 0 would be left without a lot marker"):
        state.play("T1:G9/-")
    state.play("T1:b2/-")
    state.play("N")
    assert state.owner[lots(state, "b2")[0]] == 0 and state.current_player() == 0


# ---------------------------------------------------------------- notation and bad input
@pytest.mark.parametrize("move,message", [
    ("T1:d4/-", r"illegal: seat 0 does not own d4 as an empty lot"),
    ("T1:-/$9", r"illegal: seat 1 has 6 silver, not 9"),
    ("T1:F2/-", r"illegal: seat 0 has no favor token on its 2-VP side"),
    ("T1:-/-", r"illegal: a trade needs an item"),
    ("T1:$1/$2", r"illegal: silver is not traded for silver"),
    ("T0:$1/-", r"illegal: a seat cannot trade with itself"),
    ("T3:$1/-", r"malformed: a seat must be 0-2"),
    ("T1:$11/-", r"malformed: silver in a trade must be 1-10"),
    ("T1:$01/-", r"malformed: silver in a trade must be 1-10"),
    ("T1:G3/-", r"malformed: there are no invocation cards"),
    ("T1:z9/-", r"malformed: 'z9' is not a lot"),
    ("S:c3", r"illegal: seat 0 has no favor token on its 2-VP side"),
    ("S:a8", r"illegal: a8 is not another player's lot"),
    ("S:h8", r"illegal: seat 0 owns fewer than 2 lots next to h8"),
    ("U:G3", r"malformed: not a move of this game"),
    ("Y", r"illegal: no trade offer awaits an answer"),
    ("K:O3", r"malformed: not a move of this game"),
])
def test_module_moves_malformed_or_illegal_name_the_ply(move, message):
    state = city(players=3, modules=["trading", "stealing"])
    own(state, 0, "b3 c2 a1")
    own(state, 1, "c3 h8 g8")
    state.play("I")
    state.play("I")
    state.play("I")
    state.silver = [5, 6, 7]
    state.tokens[0] = [0, 1]
    with pytest.raises(IllegalMoveError, match=r"^ply 4 \(seat 0\): .*" + message):
        state.play(move)
    assert state.plies == 3


@pytest.mark.parametrize("answer,message", [
    ("y", "malformed"), ("Yes", "malformed"), ("", "malformed"),
    ("I", r"illegal: a trade offer awaits its answer: Y or N"),
    ("T0:$1/-", r"illegal: a trade offer awaits its answer"),
])
def test_a_malformed_or_wrong_answer_is_refused_with_the_ply_and_the_partner_seat(answer, message):
    state = city(players=3, modules=["trading"])
    state.play("T2:$1/-")
    with pytest.raises(IllegalMoveError, match=r"^ply 2 \(seat 2\): .*" + message):
        state.play(answer)
    state.play("Y")
    assert state.silver[2] == 8 and state.current_player() == 0


def test_use_notation_numa_needs_a_seat_and_no_other_card_takes_one():
    state = city(players=3, modules=["invocations", "roles"])
    state.roles = [1, 2, 3]
    state.held[0] = {20: "unused", 1: "spent"}
    for move, message in (("U:G20", "Numa names a seat"), ("U:G1=2", "Numa names a seat"),
                          ("U:G21", "an invocation card must be 1-20"), ("U:G20=3", "a seat must be 0-2")):
        with pytest.raises(IllegalMoveError, match=r"^ply 1 \(seat 0\): .* is malformed: " + message):
            state.play(move)
    with pytest.raises(IllegalMoveError, match=r"^ply 1 \(seat 0\): 'U:G1' is illegal: G1 is spent"):
        state.play("U:G1")
    assert [m for m in state.legal_moves() if m.startswith("U")] == ["U:G20=1", "U:G20=2"]
    state.play("U:G20=2")
    assert state.roles == [3, 2, 1] and state.held[0][20] == "spent"


def test_keep_notation_is_checked():
    state = new(1, players=2, modules=["objectives", "roles"])
    mine = state.obj_dealt[0]
    other = next(k for k in range(1, 19) if k not in mine)
    with pytest.raises(IllegalMoveError, match=rf"^ply 1 \(seat 0\): 'K:O{other}' is illegal: O{other} is not one"):
        state.play(f"K:O{other}")
    for move in ("K:O19", "K:O0", "K:O01"):
        with pytest.raises(IllegalMoveError, match=r"malformed: an objective must be 1-18"):
            state.play(move)
    with pytest.raises(IllegalMoveError, match="illegal: objectives are being chosen"):
        state.play("I")
    with pytest.raises(IllegalMoveError, match="illegal: objectives are being chosen"):
        state.play(f"K:P{state.role_dealt[0][0]}")


# ---------------------------------------------------------------- options
@pytest.mark.parametrize("options,message", [
    ({"consul": "standard", "modules": ["monuments", "trading"]}, "allows only the monuments module"),
    ({"consul": "hard", "modules": ["objectives"]}, "allows only the monuments module"),
    ({"consul": "challenge", "players": 5}, "players must be 1-4 with the Will of the Consul"),
    ({"consul": "standard", "players": 0}, "players must be 1-4"),
    ({"players": 1}, r"players must be 2-5 \(1 only with the Will of the Consul\)"),
    ({"consul": "expert"}, "consul must be false, true"),
    ({"max_trades": 4, "modules": ["trading"]}, "max_trades must be 0-3"),
    ({"objectives": "secret", "modules": ["objectives"]}, "objectives must be 'hidden' or 'public'"),
])
def test_forbidden_combinations_are_one_line_config_errors(options, message):
    with pytest.raises(ConfigError, match=message) as info:
        ReferenceFoundationsOfRome(**options)
    assert "\n" not in str(info.value)


def test_module_options_are_recorded_only_where_they_act():
    assert "max_trades" not in ReferenceFoundationsOfRome(max_trades=2).config
    assert ReferenceFoundationsOfRome(modules=["trading"], max_trades=2).config["max_trades"] == 2
    assert ReferenceFoundationsOfRome(modules=["objectives"], objectives="public").config["objectives"] == "public"
    assert ReferenceFoundationsOfRome(players=2, consul=True).config["consul"] == "standard"


def test_max_trades_bounds_offers_per_turn():
    for max_trades in (0, 2):
        state = city(players=2, modules=["trading"], max_trades=max_trades)
        for _ in range(max_trades):
            state.play("T1:$1/-")
            state.play("N")
        assert not any(m.startswith("T") for m in state.legal_moves())
        state.play("I")
        assert any(m.startswith("T") for m in state.legal_moves()) == (max_trades > 0)


# ---------------------------------------------------------------- full games
GAMES = [(players, {"modules": [m]}) for players, m in zip((2, 3, 4, 5, 2, 3), ALL)] + [
    (2, {"modules": ALL, "draft": True}),
    (3, {"modules": ALL, "objectives": "public", "max_trades": 3}),
    (4, {"modules": ALL}),
    (5, {"modules": ALL, "draft": True}),
    (4, {"modules": ["trading", "stealing"], "max_trades": 2}),
    (3, {"modules": ["objectives", "roles", "invocations"], "draft": True}),
    (5, {"modules": ["monuments", "trading", "invocations", "objectives"], "objectives": "public"}),
    (1, {"consul": "standard"}),
    (2, {"consul": "hard", "modules": ["monuments"]}),
    (3, {"consul": "challenge", "modules": ["monuments"], "draft": True}),
    (4, {"consul": True, "modules": ["monuments"]}),
]


@pytest.mark.parametrize("players,options", GAMES, ids=lambda x: str(x))
def test_random_games_under_every_module_end_without_truncation(players, options):
    state = random_game(40 + players, players=players, **options)
    result = state.result()
    assert result["terminal"] and not result["truncated"] and state.era == 3
    assert result["scores"] == [sum(v.values()) for v in result["vp_by_source"]]
    assert all(state.marker_supply(s) >= 0 for s in range(players))
    assert not state.slots and not any(state.piles)
    if state.options.favor_tokens:
        total = sum(sum(t) for t in state.tokens) + state.token_pool
        assert total == 10
    if state.options.consul:
        assert result["ranks"] == [1] * players and "consul_vp" in result
    else:
        assert result["winners"] == [s for s, r in enumerate(result["ranks"]) if r == 1]


def test_replay_of_a_module_game_is_deterministic():
    state = random_game(5, players=3, modules=ALL, draft=True, max_trades=2)
    again = replay(state.record())
    assert again.summary() == state.summary() and again.result() == state.result()
    consul = random_game(6, players=2, consul="hard", modules=["monuments"])
    assert replay(consul.record()).summary() == consul.summary()


# ---------------------------------------------------------------- hidden information
def _hidden_multiset(state):
    return Counter([c for p in state.piles for c in p] + [100 + g for g in state.spare_invocations])


def test_determinize_keeps_the_view_and_permutes_only_hidden_cards():
    state = new(3, players=4, modules=ALL)
    chooser = random.Random(3)
    for _ in range(5):  # all 4 objectives kept, 1 role chosen
        state.play(state.random_move(chooser))
    assert state.phase == "roles"
    for seat in range(4):
        changed_pairs = False
        for word in range(6):
            view = state.copy().determinize(seat, word)
            assert view.observation(seat) == state.observation(seat)
            assert _hidden_multiset(view) == _hidden_multiset(state)
            assert [sum(1 for c in p if c > 100) for p in view.piles] == \
                   [sum(1 for c in p if c > 100) for p in state.piles]
            assert view.obj_dealt[seat] == state.obj_dealt[seat] and view.obj_kept[seat] == state.obj_kept[seat]
            dealt = [c for pair in view.obj_dealt for c in pair]
            assert len(set(dealt)) == 8
            assert all(k is None or k in p for k, p in zip(view.obj_kept, view.obj_dealt))
            assert [k is None for k in view.obj_kept] == [k is None for k in state.obj_kept]
            roles = [c for pair in view.role_dealt for c in pair]
            assert len(set(roles)) == 8 and view.role_dealt[seat] == state.role_dealt[seat]
            changed_pairs |= view.obj_dealt != state.obj_dealt
        assert changed_pairs

    finish_setup(state, chooser)
    for _ in range(30):
        state.play(state.random_move(chooser))
    for seat in range(4):
        view = state.copy().determinize(seat, seat + 11)
        assert view.observation(seat) == state.observation(seat)
        assert view.roles == state.roles and view.role_pick == state.role_pick
        assert all(view.role_pick[s] in view.role_dealt[s] for s in range(4))
        assert len({c for pair in view.role_dealt for c in pair}) == 8
        assert _hidden_multiset(view) == _hidden_multiset(state)


def test_determinize_shuffles_the_consul_piles_and_keeps_the_view():
    state = new(9, players=2, consul="challenge", modules=["monuments"])
    for _ in range(6):
        state.play(state.random_move(random.Random(1)))
    view = state.copy().determinize(1, 5)
    assert view.observation(1) == state.observation(1)
    assert [sorted(p) for p in view.consul_piles] == [sorted(p) for p in state.consul_piles]
    assert view.consul_piles != state.consul_piles


def _candidates(state):
    """Free-action texts, legal or not, around the current position."""
    seats = range(state.options.players)
    items = {"-", "$1", "$10", "$11", "F2", "F4"}
    for seat in seats:
        items |= {state._format_item(i) for i in state._items(seat)}
        items |= {f"G{g}" for g in state.held[seat]}
    items |= {state.grid.names[c] for c in range(0, state.grid.cells, 5)}
    texts = [f"T{s}:{a}/{b}" for s in seats for a in items for b in items]
    texts += [f"S:{name}" for name in state.grid.names]
    texts += [f"U:G{g}" for g in range(1, 21)] + [f"U:G20={s}" for s in seats]
    return texts + ["I", "Y", "N"] + [f"D{k}" for k in range(1, 7)]


@pytest.mark.parametrize("seed", [1, 2])
def test_legal_moves_are_exactly_the_moves_play_accepts(seed):
    """At positions of a random all-module game, every candidate text is either in
    legal_moves() and accepted by play, or refused with IllegalMoveError."""
    state = new(seed, players=3, modules=ALL, max_trades=2)
    chooser = random.Random(seed)
    checked = 0
    while not state.is_terminal() and state.plies < 160:
        if state.plies % 9 == 0 and state.phase in ("turn", "final", "answer"):
            legal = set(state.legal_moves())
            for text in _candidates(state):
                try:
                    state.copy().play(text)
                    accepted = True
                except IllegalMoveError:
                    accepted = False
                assert accepted == (text in legal), (text, state.plies)
                checked += 1
        state.play(state.random_move(chooser))
    assert checked > 1000


def test_observation_hides_others_objectives_and_role_choices_until_the_reveal():
    state = new(7, players=3, modules=["objectives", "roles"])
    for seat in range(3):
        state.play(f"K:O{state.obj_dealt[seat][0]}")
    state.play(f"K:P{state.role_dealt[0][0]}")  # seat 0 chose; seats 1, 2 to go
    other = state.copy()
    other.obj_dealt[1] = [c for c in range(1, 19) if c not in state.obj_dealt[0] + state.obj_dealt[1]
                          + state.obj_dealt[2]][:2]
    other.obj_kept[1] = other.obj_dealt[1][1]
    other.role_pick[0] = other.role_dealt[0][1]
    assert other.observation(2) == state.observation(2)  # seat 2 cannot tell them apart
    assert other.observation(1) != state.observation(1)  # its own kept card changed
    assert other.observation(0) != state.observation(0)
    for seat in (1, 2):
        state.play(f"K:P{state.role_dealt[seat][0]}")
        other.play(f"K:P{other.role_dealt[seat][0]}")
    assert other.observation(2) != state.observation(2)  # the reveal shows seat 0's choice
