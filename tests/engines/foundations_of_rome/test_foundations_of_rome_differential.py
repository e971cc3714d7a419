"""The numba engine of Foundations of Rome against the plain-Python reference engine
(``forumlab/engines/foundations_of_rome/reference``, written from the spec alone).

Seeded random games over 2-5 players, with and without the draft and the Monuments
module, are played in both engines move for move; at every ply both must offer the
same legal move set (as notation), the same seat to move and the same state summary (the RNG
word included; ``tests/for_summary.py``), and at the end the same result. The moves are drawn by ``random.Random`` from the
reference's sorted legal moves, so neither engine's sampler is trusted.
"""
import random

import pytest

from forumlab.core.registry import create_game
from forumlab.engines.foundations_of_rome.reference import ReferenceFoundationsOfRome

from tests.for_summary import disagreement


def play_both(config: dict, seed: int) -> int:
    """Play one seeded random game in both engines, asserting agreement; return plies."""
    game = create_game("foundations-of-rome", config)
    state = game.new_state(seed)
    ref = ReferenceFoundationsOfRome(**config).new_game(seed)
    chooser = random.Random(seed * 31 + 7)
    ply = 0
    while True:
        where = f"{config} seed {seed} ply {ply}"
        assert state.is_terminal == ref.is_terminal(), where
        assert not disagreement(state.array, ref), where
        if state.is_terminal:
            break
        assert state.current_player == ref.current_player(), where
        legal = sorted(ref.legal_moves())
        assert sorted(state.legal_move_texts()) == legal, where
        text = legal[chooser.randrange(len(legal))]
        state.play(text)
        ref.play(text)
        ply += 1
    res, expected = state.result(), ref.result()
    assert res["vp"] == expected["scores"], where
    for key in ("ranks", "winners", "plies", "terminal", "truncated", "silver", "population", "vp_by_source"):
        assert res[key] == expected[key], f"{key}: {where}"
    return ply


CONFIGS = [{"players": p, "modules": m, "draft": d}
           for p in (2, 3, 4, 5) for m in ([], ["monuments"]) for d in (False, True)]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p-{'M' if c['modules'] else ''}"
                                                          f"{'D' if c['draft'] else ''}")
def test_engines_agree_move_for_move(config):
    for seed in range(13):
        play_both(config, seed)


def test_engines_agree_with_other_prices_and_a_cap():
    for seed in range(6):
        play_both({"players": 3, "modules": ["monuments"], "deed_prices": [0, 1, 1, 2, 3, 5],
                   "max_turns": 60 + 7 * seed}, seed)


@pytest.mark.parametrize("players, silver", [(2, [0, 0]), (3, [9, 5, 0]), (4, [5, 5, 5, 5]),
                                             (5, [1, 30, 2, 0, 7])])
def test_engines_agree_with_another_start_silver(players, silver):
    """The study option start_silver (beyond the spec), with and without the modules."""
    for seed in range(4):
        play_both({"players": players, "start_silver": silver, "modules": ["monuments"] * (seed % 2),
                   "draft": seed >= 2}, seed)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_engines_agree_on_many_more_games(config):
    # 16 configurations x 20 = 320 games, 558 with the fast tests above (the target:
    # at least 500); 70 per configuration also agreed once but cost ~4 CPU minutes of CI.
    for seed in range(100, 120):
        play_both(config, seed)


def test_engines_agree_on_greedy_games_full_of_monuments():
    """Greedy play builds far more (and more monuments) than random play does."""
    from forumlab.agents.registry import create_agent

    monuments = 0
    for seed in range(8):
        players = 2 + seed % 4
        config = {"players": players, "modules": ["monuments"], "draft": seed % 2 == 0,
                  "deed_prices": [1, 2, 3, 4, 5, 6] if seed % 3 == 0 else [2, 3, 4, 6, 8, 10]}
        game = create_game("foundations-of-rome", config)
        state = game.new_state(seed)
        ref = ReferenceFoundationsOfRome(**config).new_game(seed)
        agents = [create_agent("greedy", seed=q) for q in range(players)]
        while not state.is_terminal:
            where = f"{config} seed {seed} ply {len(state.history)}"
            assert sorted(state.legal_move_texts()) == sorted(ref.legal_moves()), where
            assert not disagreement(state.array, ref), where
            text = game.format_move(state.array, agents[state.current_player].choose(state))
            monuments += text.startswith("M")
            state.play(text)
            ref.play(text)
        assert not disagreement(state.array, ref)
        assert state.result()["vp_by_source"] == ref.result()["vp_by_source"]
    assert monuments >= 5
