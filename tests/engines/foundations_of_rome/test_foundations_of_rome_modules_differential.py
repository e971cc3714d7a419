"""The numba engine of Foundations of Rome against the plain-Python reference engine with
every module and the Will of the Consul (``forumlab/engines/foundations_of_rome/reference``,
written from the spec alone, used here as a black box).

Seeded games over module combinations and 1-5 players are played in both engines move
for move; at every ply both must offer the same legal move set (as notation), the same
seat to move (a trade partner answering included) and the same state summary (the RNG
word included), and at the end the same result. Moves are drawn by ``random.Random``
from the reference's sorted legal moves; trade offers are drawn less often than they
are offered (most random turns would otherwise be offers), so games reach their end.
"""
import random

import pytest

from forumlab.core.registry import create_game
from forumlab.engines.foundations_of_rome.reference import ReferenceFoundationsOfRome

from tests.for_summary import disagreement

ALL = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]
RESULT_KEYS = ("scores", "ranks", "winners", "plies", "terminal", "truncated", "silver", "population",
               "vp_by_source", "consul_vp", "consul_margin")


def choose(chooser: random.Random, legal: list[str]) -> str:
    """A random move, offers (``T...``) one time in four when there are others."""
    others = [m for m in legal if not m.startswith("T")]
    if others and chooser.random() < 0.75:
        return others[chooser.randrange(len(others))]
    return legal[chooser.randrange(len(legal))]


def play_both(config: dict, seed: int, pick=choose) -> int:
    """Play one seeded game in both engines, asserting agreement; return its plies."""
    game = create_game("foundations-of-rome", config)
    state = game.new_state(seed)
    ref = ReferenceFoundationsOfRome(**config).new_game(seed)
    chooser = random.Random(seed * 31 + 7)
    ply = 0
    while True:
        where = f"{config} seed {seed} ply {ply}"
        assert state.is_terminal == ref.is_terminal(), where
        diff = disagreement(state.array, ref)
        assert not diff, f"{where}: {diff}"
        if state.is_terminal:
            break
        assert state.current_player == ref.current_player(), where
        legal = sorted(ref.legal_moves())
        mine = sorted(state.legal_move_texts())
        assert mine == legal, f"{where}: only numba {sorted(set(mine) - set(legal))[:8]}, " \
                              f"only reference {sorted(set(legal) - set(mine))[:8]}"
        text = pick(chooser, legal)
        state.play(text)
        ref.play(text)
        ply += 1
    res, expected = state.result(), ref.result()
    for key in RESULT_KEYS:
        if key in expected or key in res:
            assert res.get(key) == expected.get(key), f"{key}: {where}"
    return ply


def _configs():
    single = [[m] for m in ALL[1:]]
    pairs = [["trading", "stealing"], ["objectives", "roles"], ["invocations", "roles"],
             ["invocations", "stealing"], ["monuments", "invocations"], ["trading", "invocations"]]
    out = []
    for i, mods in enumerate(single + pairs + [ALL, ALL[1:]]):
        out.append({"players": 2 + i % 4, "modules": mods})
    out.append({"players": 3, "modules": ["objectives"], "objectives": "public"})
    out.append({"players": 4, "modules": ALL, "objectives": "public", "max_trades": 2, "draft": True})
    out.append({"players": 5, "modules": ALL, "max_trades": 0})
    out.append({"players": 2, "modules": ALL, "max_trades": 3})
    for level, players in (("standard", 1), ("standard", 2), ("hard", 3), ("challenge", 4), ("hard", 1)):
        out.append({"players": players, "modules": ["monuments"] if players % 2 else [], "consul": level})
    out.append({"players": 2, "modules": ["monuments"], "consul": "challenge", "draft": True})
    return out


CONFIGS = _configs()


def _id(c):
    mods = "".join(m[0] for m in c["modules"]) or "base"
    return f"{c['players']}p-{mods}-{c.get('consul', '')}{c.get('objectives', '')}{c.get('max_trades', '')}"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_engines_agree_move_for_move(config):
    play_both(config, 0)


def _slow_seeds(config) -> range:
    """More seeds where games are cheap (the Consul's are short), fewer for the longest
    games (4-5 players with trading): 506 games with the fast test, ~2-3 minutes of one busy core."""
    if config.get("consul"):
        return range(100, 134)
    if config["players"] >= 4 and "trading" in config["modules"] and len(config["modules"]) > 1:
        return range(100, 108)
    return range(100, 119)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_engines_agree_on_many_more_games(config):
    for seed in _slow_seeds(config):
        play_both(config, seed)


def test_the_differential_covers_at_least_500_games():
    assert len(CONFIGS) + sum(len(_slow_seeds(c)) for c in CONFIGS) >= 500


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["greedy", "mcts(iterations=6)"])
def test_engines_agree_on_agent_games_with_every_module(spec):
    """Agents build far more than random play (roles' and invocations' build effects,
    monuments, objectives met); MCTS also offers and answers trades."""
    from forumlab.agents.registry import create_agent

    for seed, config in enumerate([{"players": 3, "modules": ALL}, {"players": 4, "modules": ALL[1:]},
                                   {"players": 2, "modules": ["monuments"], "consul": "hard"}]):
        agents = [create_agent(spec, seed=q) for q in range(config["players"])]

        game = create_game("foundations-of-rome", config)
        state = game.new_state(seed)
        ref = ReferenceFoundationsOfRome(**config).new_game(seed)
        while not state.is_terminal:
            where = f"{config} seed {seed} ply {len(state.history)}"
            assert sorted(state.legal_move_texts()) == sorted(ref.legal_moves()), where
            diff = disagreement(state.array, ref)
            assert not diff, f"{where}: {diff}"
            text = game.format_move(state.array, agents[state.current_player].choose(state))
            state.play(text)
            ref.play(text)
        assert not disagreement(state.array, ref)
        res, expected = state.result(), ref.result()
        for key in RESULT_KEYS:
            assert res.get(key) == expected.get(key), key
