"""Foundations of Rome (numba engine) with the modules: the spec's worked examples 7, 9
and 10, bad input (an illegal move named with its ply, one line and exit 2 through the
CLI), forbidden option combinations, and every module set played to the end by the
agents (no truncation at the default cap under greedy play).

Positions are built on a fresh state by hand, as in tests/engines/foundations_of_rome/test_foundations_of_rome_engine.py."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.agents.base import Agent
from forumlab.agents.registry import create_agent
from forumlab.arena.match import play_match
from forumlab.cli import main
from forumlab.core.errors import ConfigError, IllegalMoveError
from forumlab.core.registry import create_game
from forumlab.engines.foundations_of_rome import layout as L
from forumlab.engines.foundations_of_rome import scoring
from forumlab.engines.foundations_of_rome.consul import TOKEN_BASE
from forumlab.engines.foundations_of_rome.data import BUILD_BASE, G_AUGUR, G_IANUS, P_PRAETOR, TRADE_BASE
from forumlab.engines.foundations_of_rome.game import FoundationsOfRome
from forumlab.engines.foundations_of_rome.objectives import score_objectives
from forumlab.engines.foundations_of_rome.pieces import marker_supply, slot_price

from .test_foundations_of_rome_engine import build, cells, clear_lots, own, texts

NAME = "foundations-of-rome"
ALL = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]


def in_play(game, seed=1):
    """A fresh state past the setup keeps (every seat keeps its first card), seat 0 to move."""
    state = game.new_state(seed)
    while state.array[L.PHASE] in (L.PH_OBJ, L.PH_ROLE):
        state.play(int(state.legal_moves()[0]))
    clear_lots(state.array)
    return state


# ---- worked example 7: the end with objectives, invocations and stealing ----------------
@pytest.mark.parametrize("praetor, gain", [(False, 18), (True, 22)])
def test_example_7_end_scoring(praetor, gain):
    game = FoundationsOfRome(players=3, modules=["stealing", "objectives", "invocations", "roles"])
    state = in_play(game)
    a = state.array
    own(a, 0, "a1,c1,e1,g1")  # 4 empty lots
    a[L.OBJ_KEPT] = 16  # >= 4 own empty lots: 3 VP
    a[L.INV_HOLDER + G_AUGUR], a[L.INV_STATUS + G_AUGUR] = 0, L.INV_ONGOING
    a[L.INV_HOLDER + G_IANUS], a[L.INV_STATUS + G_IANUS] = 0, L.INV_UNUSED
    a[L.TOKENS2], a[L.TOKENS4] = 1, 1
    a[L.ROLE] = P_PRAETOR if praetor else 1
    before = int(a[L.VP])
    scoring.score_end(a)
    score_objectives(a)
    assert int(a[L.VP]) - before == gain
    src = game.details(a)["vp_by_source"][0]
    assert src["lot_markers"] == (8 if praetor else 4) and src["objectives"] == 3
    assert src["favor_tokens"] == 6 and src["invocations"] == 2 + 3


# ---- worked example 9: steal and trade ----------------------------------------------------
def test_example_9_steal_and_trade():
    game = FoundationsOfRome(players=3, modules=["trading", "stealing"])
    state = in_play(game)
    a = state.array
    own(a, 0, "d3,a7,b7,c7,d7,e7,f7")
    build(game, a, 0, "R1@c4")
    own(a, 1, "d4")
    a[L.SILVER], a[L.SILVER + 2] = 3, 6
    assert marker_supply(a, 0) == 1 and list(a[L.TOKENS2:L.TOKENS2 + 3]) == [2, 2, 2]
    state.play("S:d4")
    assert cells(a, "d4")[0] in [c for c in range(64) if (int(a[L.OWN + (c >> 6)]) >> (c & 63)) & 1]
    assert marker_supply(a, 0) == 0 and (a[L.TOKENS2], a[L.TOKENS4]) == (1, 0)
    assert (a[L.TOKENS2 + 1], a[L.TOKENS4 + 1]) == (2, 1) and marker_supply(a, 1) == 8
    state.play("T2:d3/$4")
    assert state.current_player == 2 and texts(state) == {"Y", "N"}
    state.play("Y")
    assert state.current_player == 0
    assert a[L.SILVER] == 7 and marker_supply(a, 0) == 1
    d3 = cells(a, "d3")[0]
    assert (int(a[L.OWN + 4]) >> d3) & 1 and a[L.SILVER + 2] == 2
    assert not any(t.startswith("T") for t in texts(state))  # max_trades = 1
    scoring.score_end(a)
    assert game.details(a)["vp_by_source"][1]["favor_tokens"] == 8


# ---- worked example 10: the Consul ----------------------------------------------------------
def test_example_10_consul_placement_and_price_floor():
    game = FoundationsOfRome(players=2, consul="standard")
    state = game.new_state(3)
    a = state.array
    clear_lots(a)
    a[L.CONSUL_OWN:L.CONSUL_OWN + 2] = 0
    c3, c4 = cells(a, "c3,c4")
    a[L.CONSUL_OWN] = (1 << c3)
    a[L.CELL_BLD + c3] = TOKEN_BASE + 0  # a size-1 R token
    a[L.CPILE:L.CPILE + 12] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1]
    a[L.CPILE_N] = 11
    a[L.CPILE + 12:L.CPILE + 21] = [15, 12, 13, 14, 16, 17, 18, 19, 20]  # a C token (1 silver) on top
    a[L.CPILE_N + 1] = 9
    a[L.SLOTS] = c4
    assert a[L.CONSUL_HOLDER] == 0
    state.play("I")
    assert a[L.CELL_BLD + c3] == a[L.CELL_BLD + c4] == TOKEN_BASE + 15
    assert list(a[L.CDISC:L.CDISC + a[L.CDISC_N]]) == [0]
    assert scoring.consul_silver(a) == 1
    assert [slot_price(a, 1, j) for j in range(6)] == [2, 3, 4, 6, 8, 10]
    a[L.CELL_BLD + c3] = a[L.CELL_BLD + c4] = TOKEN_BASE + 28  # a C token of 3 silver ...
    a[L.CELL_BLD + cells(a, "g7")[0]] = TOKEN_BASE + 23  # ... and one of 2: S = 5
    assert scoring.consul_silver(a) == 5
    assert [slot_price(a, 1, j) for j in range(6)] == [4, 4, 4, 6, 8, 10]


def test_example_10_consul_population_scoring():
    game = FoundationsOfRome(players=2, consul="standard")
    a = game.new_state(3).array
    a[L.CELL_BLD:L.CELL_BLD + L.CELLS] = 0
    for c in cells(a, "a1,b1,c1,d1"):
        a[L.CELL_BLD + c] = TOKEN_BASE + 27  # the size-4 R token: 6 citizens
    a[L.POP], a[L.POP + 1] = 4, 0
    vp, consul = [int(a[L.VP + p]) for p in range(2)], int(a[L.CONSUL_VP])
    scoring.score_population_consul(a, 1)
    assert int(a[L.CONSUL_VP]) - consul == 4
    assert [int(a[L.VP + p]) - vp[p] for p in range(2)] == [-2, -6]


def test_a_consul_result_is_cooperative():
    game = FoundationsOfRome(players=2, modules=["monuments"], consul="hard")
    match = play_match(game, [create_agent("greedy", seed=s) for s in range(2)], seed=4)
    res = match.result
    margin = min(v - res["consul_vp"] for v in res["vp"])
    assert res["consul_margin"] == margin and res["scores"] == res["vp"] and res["ranks"] == [1, 1]
    assert res["winners"] == ([0, 1] if margin > 0 else [])
    out = np.zeros(2)
    game.kernels.scores(match.state.array, out)
    assert list(out) == [margin, margin]  # every seat's reward is the shared value


# ---- bad input --------------------------------------------------------------------------------
def test_a_steal_without_a_token_and_a_spent_invocation_are_illegal():
    game = FoundationsOfRome(players=3, modules=["stealing", "invocations"])
    state = in_play(game)
    a = state.array
    own(a, 0, "c3,e3")
    own(a, 1, "d3")
    assert "S:d3" in texts(state)
    a[L.TOKENS2] = 0
    with pytest.raises(IllegalMoveError):
        state.play("S:d3")
    a[L.INV_HOLDER + 1], a[L.INV_STATUS + 1] = 0, L.INV_UNUSED
    state.play("U:G1")
    assert a[L.INV_STATUS + 1] == L.INV_SPENT
    with pytest.raises(IllegalMoveError):
        state.play("U:G1")


@pytest.mark.parametrize("options", [
    ['modules=["trading"]', "consul=hard"], ['modules=["roles"]', "consul=true"],
    ["consul=standard", "players=5"], ['objectives="secret"'], ["max_trades=5"],
])
def test_forbidden_option_combinations_are_one_line_exit_2(options):
    args = ["play", NAME]
    for opt in options:
        if opt.startswith("players="):
            args += ["-p", opt.split("=")[1]]
        else:
            args += ["-o", opt]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    lines = [x for x in result.output.splitlines() if x]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    with pytest.raises(ConfigError):
        create_game(NAME, {k: json.loads(v) if v[0] in '["' or v.isdigit() else v
                           for k, v in (o.split("=") for o in options)})


# ---- every module set under every agent --------------------------------------------------
MODULE_SETS = [["trading"], ["stealing"], ["objectives"], ["invocations"], ["roles"],
               ["trading", "stealing", "invocations"], ["objectives", "roles", "monuments"], ALL]


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m))
def test_greedy_plays_every_module_set_to_the_end_without_truncation(modules):
    for players in (2, 4):
        game = create_game(NAME, {"players": players, "modules": modules})
        res = play_match(game, [create_agent("greedy", seed=s) for s in range(players)], seed=players).result
        assert res["terminal"] and not res["truncated"] and res["era"] == 3


@pytest.mark.parametrize("spec", ["random", "mcts(iterations=8)", "maxn(depth=1)", "paranoid(depth=1)",
                                  "brs(depth=1)"])
def test_every_agent_plays_every_module_set_and_the_consul_to_the_end(spec):
    configs = [{"players": 3, "modules": m} for m in MODULE_SETS[5:]] + [
        {"players": 2, "modules": ["objectives"], "objectives": "public"},
        {"players": 1, "consul": "challenge"}, {"players": 3, "modules": ["monuments"], "consul": "standard"}]
    for i, config in enumerate(configs):
        game = create_game(NAME, config)
        res = play_match(game, [create_agent(spec, seed=s) for s in range(game.players)], seed=i).result
        assert res["terminal"] and res["plies"] > 0


def test_greedy_plays_every_consul_level_to_the_end():
    for level, players in (("standard", 1), ("hard", 2), ("challenge", 4)):
        game = create_game(NAME, {"players": players, "modules": ["monuments"], "consul": level})
        res = play_match(game, [create_agent("greedy", seed=s) for s in range(players)], seed=5).result
        assert res["terminal"] and not res["truncated"] and "consul_vp" in res


def test_the_playout_fast_path_counts_offers_exactly_and_draws_only_legal_moves():
    """random_move counts the offers by item class instead of listing them; the count
    must equal the listed offers and every drawn move must be legal (the conformance kit
    checks that the draws are uniform)."""
    from forumlab.core.rng import make_rng
    from forumlab.engines.foundations_of_rome import kernels
    from forumlab.engines.foundations_of_rome.free_actions import trade_total

    game = FoundationsOfRome(players=4, modules=ALL, max_trades=2)
    rng = make_rng(3)
    checked = 0
    for seed in range(3):
        state = game.new_state(seed)
        while not state.is_terminal:
            a = state.array
            legal = set(state.legal_moves().tolist())
            if a[L.PHASE] in (L.PH_PLAY, L.PH_FINAL) and a[L.OFFERS] < 2:
                offers = sum(1 for m in legal if TRADE_BASE <= m < BUILD_BASE)
                assert trade_total(a, int(a[L.PLAYER])) == offers
                checked += 1
            move = int(kernels.random_move(a, rng))
            assert move in legal
            state.play(move)
    assert checked > 200


# ---- a seat acting out of turn: trade answers under the arena's fault policy -------------
class OffersToNextSeat(Agent):
    """Asks the next seat for $1 whenever it may (so that seat must answer)."""

    name = "offers"

    def choose(self, state):
        texts_ = state.legal_move_texts()
        want = f"T{(state.current_player + 1) % state.game.players}:-/$1"
        return int(state.legal_moves()[texts_.index(want)]) if want in texts_ else int(state.legal_moves()[-1])


class RaisesWhenAnswering(Agent):
    """Raises when it must answer an offer (a ply out of its turn)."""

    name = "raises-answering"

    def choose(self, state):
        if state.array[L.PHASE] == L.PH_ANSWER:
            raise RuntimeError("cannot answer")
        return int(state.legal_moves()[0])


def test_a_seat_that_fails_when_answering_out_of_turn_is_a_fault_and_the_game_goes_on():
    from forumlab.arena.definition import PoolEntry, TournamentDefinition
    from forumlab.arena.runner import run_job
    from forumlab.arena.schedule import plan

    here = "tests.engines.foundations_of_rome.test_foundations_of_rome_modules_engine"
    definition = TournamentDefinition(
        game=NAME, config={"players": 2, "modules": ["trading"], "max_turns": 40}, games_per_lineup=1,
        agents=(PoolEntry("offers", f"{here}:OffersToNextSeat"), PoolEntry("bad", f"{here}:RaisesWhenAnswering")))
    job = next(j for j in plan(definition) if j.labels == ("offers", "bad"))
    outcome = run_job(job)
    assert [(f.seat, f.kind) for f in outcome.faults] == [(1, "exception")]
    assert outcome.faults[0].ply == 2  # seat 0's offer is ply 1, seat 1's answer ply 2
    assert outcome.ranks[1] == 2 and outcome.plies > 40  # played on to the cap
    assert outcome.moves[1] in ("Y", "N")  # the fallback answered for seat 1


def test_a_solo_consul_game_gives_minimax_the_shared_value_at_the_end():
    """One human against the Consul: a finished game's minimax leaf value is the shared
    value (the player's VP minus the Consul's), not 'my score minus the best other' of no
    other seat (which was infinite)."""
    from forumlab.search.minimax.leaves import leaf_value

    game = FoundationsOfRome(players=1, consul="standard")
    match = play_match(game, [create_agent("greedy", seed=0)], seed=1)
    a = match.state.array
    value = leaf_value(game.kernels.tag, a, 0, np.zeros(8), True)
    assert value == match.result["consul_margin"]


def test_render_shows_the_modules_and_the_consul():
    from forumlab.core.rng import make_rng

    for config, words in (({"players": 3, "modules": ALL}, ["tokens", "cards", "role P"]),
                          ({"players": 2, "modules": ["monuments"], "consul": "hard"}, ["Consul: VP", "X:X"])):
        game = create_game(NAME, config)
        state = game.new_state(2)
        rng = make_rng(1)
        for _ in range(41):
            state.play(int(game.kernels.random_move(state.array, rng)))
        picture = state.render()
        assert all(w in picture for w in words), picture


def test_search_rewards_a_finished_consul_game_as_a_team_win_or_loss():
    from forumlab.search.rewards import REWARD_SHARED, REWARD_WIN, terminal_rewards

    game = FoundationsOfRome(players=3, consul="standard")
    match = play_match(game, [create_agent("greedy", seed=s) for s in range(3)], seed=2)
    won = match.result["consul_margin"] > 0
    out = np.zeros(3)
    terminal_rewards(game.kernels.tag, match.state.array, REWARD_SHARED, out)
    assert list(out) == [1.0 if won else 0.0] * 3
    terminal_rewards(game.kernels.tag, match.state.array, REWARD_WIN, out)
    assert list(out) == [1 / 3] * 3  # why a cooperative game needs its own reward


def _consul_endgame():
    """Seat 0 to move two plies before the end of a 2-player Consul game (greedy play,
    seed 0): every pair of moves (seat 0's, then seat 1's) finishes the game."""
    game = FoundationsOfRome(players=2, consul="standard", modules=["monuments"])
    state = game.new_state(0)
    agents = [create_agent("greedy", seed=1), create_agent("greedy", seed=2)]
    history = [state.copy()]
    while not state.is_terminal:
        state.play(int(agents[state.current_player].choose(state)))
        history.append(state.copy())
    return history[-3]


def _best_team_margin(state):
    """Brute force: the best shared value (lowest seat's VP minus the Consul's) the two
    seats can reach together from state, each ply maximizing it."""
    best = -np.inf
    for m in state.legal_moves():
        child = state.copy()
        child.play(int(m))
        for m2 in child.legal_moves():
            end = child.copy()
            end.play(int(m2))
            assert end.is_terminal
            best = max(best, end.result()["consul_margin"])
    return best


@pytest.mark.parametrize("spec", ["paranoid(depth=2)", "maxn(depth=2)", "brs(depth=2)"])
def test_minimax_agents_play_a_multi_seat_consul_game_as_one_team(spec):
    """With two seats against the Consul, a finished game is worth the shared value to
    both seats (it was worth 0, 'my VP minus my teammate's'), and the teammate is
    searched as maximizing it too: the depth-2 value is the best margin the team can
    reach, found by brute force over both plies (18 here; some first moves allow only 12)."""
    state = _consul_endgame()
    assert state.current_player == 0
    agent = create_agent(spec, seed=0)
    result = agent.search(state)
    target = _best_team_margin(state)
    assert target == 18
    assert result.value == target
    after = state.copy()
    after.play(result.move)
    reachable = []
    for m2 in after.legal_moves():
        end = after.copy()
        end.play(int(m2))
        reachable.append(end.result()["consul_margin"])
    assert max(reachable) == target
