"""Foundations of Rome's module heuristic: a pending trade offer is valued as the partner
will answer it, so one-ply greedy offers the trades a greedy partner accepts and that help
it; the module weights can be changed for tuning (benchmarks/for_module_weights.py).

The positions are the 4-player trading opening with a blank city (nobody owns a lot)
and deeds priced out of reach (99 silver), so Income is the only main action and only
silver and favor tokens can be traded; silver and VP are set by hand: seat 0 holds 45
silver (more than 40 is worth nothing more to the heuristic, so Income gains it nothing
and paying $6 costs it 0.1), seat 2 leads by 20 VP (so no trade between seats 0 and 1
changes the leader), and each seat holds two 2-VP favor tokens.
"""
import json

import numpy as np
import pytest

from benchmarks import for_module_weights
from forumlab.agents.registry import create_agent
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.foundations_of_rome import heuristic as for_heuristic
from forumlab.engines.foundations_of_rome import kernels
from forumlab.engines.foundations_of_rome import layout as L
from forumlab.search.greedy import greedy_move

from .test_foundations_of_rome_engine import clear_lots


def _opening(silver):
    """Seat 0 to move in era 1 of the position above, each seat with the given silver."""
    game = create_game("foundations-of-rome", {"players": 4, "modules": ["trading"], "deed_prices": [99] * 6})
    state = game.new_state(1)
    a = state.array
    assert state.current_player == 0 and a[L.PHASE] == L.PH_PLAY
    clear_lots(a)
    for p, x in enumerate(silver):
        a[L.SILVER + p] = x
    a[L.VP + 2] = 20
    return game, state


def _greedy(game, state, seed=0):
    return game.format_move(state.array, greedy_move(game.kernels.tag, state.array, make_rng(seed)))


def test_greedy_offers_the_one_trade_a_greedy_partner_accepts_and_it_is_accepted():
    """Seat 1 has no silver: $6 is worth 2.1 to it, more than a 2-VP token, and the token
    is worth 2 to seat 0 for 0.1 (45 -> 39 silver). Fewer silver, seat 1 refuses; more,
    or a 4-VP token, costs seat 0 more or is refused; seats 2 and 3 hold 60 silver and
    want none. So T1:$6/F2 is the best move (before the fix an offer looked like a pass
    and tied with Income and thousands of other offers)."""
    game, state = _opening([45, 0, 60, 60])
    before = kernels.heuristic(state.array, 0)
    for seed in range(5):  # no tie is broken at random
        assert _greedy(game, state, seed) == "T1:$6/F2"
    state.play("T1:$6/F2")
    assert state.current_player == 1
    answer = create_agent("greedy", seed=0).choose(state)
    assert game.format_move(state.array, answer) == "Y"
    state.play(answer)
    a = state.array
    assert state.current_player == 0 and a[L.SILVER] == 39 and a[L.SILVER + 1] == 6
    assert a[L.TOKENS2] == 3 and a[L.TOKENS2 + 1] == 1
    assert abs(kernels.heuristic(a, 0) - before - 1.9) < 1e-9
    assert _greedy(game, state) == "I"  # max_trades 1: the turn goes on with Income


def test_greedy_offers_nothing_when_every_partner_would_refuse():
    """Every other seat holds 60 silver, so none gives a token for silver, and no other
    item is worth more to one side than to the other: every offer would be refused, and
    greedy takes Income (before the fix it picked one of the tied offers)."""
    game, state = _opening([45, 60, 60, 60])
    for seed in range(5):
        assert _greedy(game, state, seed) == "I"


def test_a_pending_offer_is_valued_as_the_partner_answers_it():
    """The heuristic of a position awaiting an answer is that of the answer the partner's
    own heuristic prefers (refused: unchanged), less a tiny cost, for every seat."""
    game, state = _opening([45, 0, 60, 60])
    settled = [kernels.heuristic(state.array, p) for p in range(4)]
    for offer, answer in (("T1:$6/F2", "Y"), ("T1:$5/F2", "N"), ("T1:-/F2", "N")):
        pending = state.copy().play(offer)
        answered = pending.copy().play(answer)
        other = pending.copy().play("N" if answer == "Y" else "Y")
        assert kernels.heuristic(answered.array, 1) > kernels.heuristic(other.array, 1)
        for p in range(4):
            got = kernels.heuristic(pending.array, p)
            assert abs(got - (kernels.heuristic(answered.array, p) - for_heuristic.OFFER_COST)) < 1e-12
            if answer == "N":
                assert abs(got - settled[p] + for_heuristic.OFFER_COST) < 1e-12
    assert np.array_equal(state.array, _opening([45, 0, 60, 60])[1].array)


def test_the_offer_weight_adds_to_the_proposer_of_an_accepted_offer_that_helps_it_only():
    _, state = _opening([45, 0, 60, 60])
    w = for_heuristic.MODULE_WEIGHTS.copy()
    w[for_heuristic.W_OFFER] = 2.0
    helps = state.copy().play("T1:$6/F2")  # accepted, +1.9 for seat 0
    refused = state.copy().play("T1:$5/F2")
    for p in range(4):
        extra = 2.0 if p == 0 else 0.0
        assert abs(for_heuristic.heuristic_with(helps.array, p, w) - kernels.heuristic(helps.array, p) - extra) < 1e-12
        assert for_heuristic.heuristic_with(refused.array, p, w) == kernels.heuristic(refused.array, p)
        assert for_heuristic.heuristic_with(state.array, p, for_heuristic.MODULE_WEIGHTS) == kernels.heuristic(state.array, p)


@pytest.mark.parametrize("argv", [["--weights", "1,2"], ["--weights", "a,b,c,d,e,f"],
                                  ["--weights", "0.8,3,1.5,1,1,0", "--seeds", "0"]])
def test_the_weight_benchmark_rejects_bad_input_with_one_line_and_exit_2(argv, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["for_module_weights", *argv])
    with pytest.raises(SystemExit) as exit_:
        for_module_weights.main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.slow
def test_the_weight_benchmark_plays_the_new_seat_in_every_position(monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["for_module_weights", "--weights", "0.8,3,3,1,1,0", "--seeds", "1"])
    for_module_weights.main()
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and out["weights"][2] == 3.0 and out["defaults"][2] == 1.5
    assert 0 <= out["new_seat_win_rate"] <= 1 and out["plies"] > 100
