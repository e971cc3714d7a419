"""The numba engine of Foundations of Rome against the plain-Python reference engine
(``forumlab/engines/foundations_of_rome/reference``, written from the spec alone).

Seeded random games over 2-5 players, with and without the draft and the Monuments
module, are played in both engines move for move; at every ply both must offer the
same legal move set (as notation), the same seat to move and the same state summary (the RNG word included),
and at the end the same result. The moves are drawn by ``random.Random`` from the
reference's sorted legal moves, so neither engine's sampler is trusted.
"""
import random

import numpy as np
import pytest

from forumlab.core.registry import create_game
from forumlab.engines.foundations_of_rome import layout as L
from forumlab.engines.foundations_of_rome.data import CODE_NAMES, N_PLAYER_CODES
from forumlab.engines.foundations_of_rome.moves import marker_supply
from forumlab.engines.foundations_of_rome.reference import ReferenceFoundationsOfRome
from forumlab.engines.foundations_of_rome.scoring import instance_code, instance_owner

PHASES = {L.PH_DRAFT: "draft", L.PH_PLAY: "turn", L.PH_FINAL: "final", L.PH_OVER: "over"}


def summary(a: np.ndarray) -> dict:
    """The numba state in the reference's ``summary()`` terms (order-free parts sorted)."""
    n, players = int(a[L.SIZE]), int(a[L.N_PLAYERS])
    owner = [-1] * (n * n)
    for p in range(players):
        for c in range(n * n):
            if (int(a[L.OWN + 2 * p + (c >> 6)]) >> (c & 63)) & 1:
                owner[c] = p
    cells: dict[int, list[int]] = {}
    for c in range(n * n):
        if a[L.CELL_BLD + c]:
            cells.setdefault(int(a[L.CELL_BLD + c]), []).append(c)
    buildings = sorted([cs, int(instance_owner(b)), CODE_NAMES[instance_code(b)]] for b, cs in cells.items())
    built = int(a[L.MON_BUILT])
    phase = int(a[L.PHASE])
    return {
        "phase": PHASES[phase],
        "player": int(a[L.PLAYER]) if phase != L.PH_OVER else None,
        "era": int(a[L.ERA]),
        "final_turns_left": int(a[L.FINAL_LEFT]) if phase == L.PH_FINAL else 0,
        "main_actions": int(a[L.TURNS]),
        "plies": int(a[L.PLY]),
        "truncated": bool(a[L.TRUNCATED]),
        "owner": owner,
        "buildings": buildings,
        "supply": [{CODE_NAMES[c]: int(a[L.SUPPLY + p * N_PLAYER_CODES + c]) for c in range(N_PLAYER_CODES)}
                   for p in range(players)],
        "marker_supply": [int(marker_supply(a, p)) for p in range(players)],
        "monument_markers": [int(a[L.MON_LEFT + p]) for p in range(players)],
        "display": [int(m) for m in a[L.DISPLAY:L.DISPLAY + 8] if m and not (built >> (int(m) - 1)) & 1],
        "silver": [int(a[L.SILVER + p]) for p in range(players)],
        "vp_by_source": [[int(x) for x in a[L.VP_SRC + p * L.N_SRC:L.VP_SRC + p * L.N_SRC + 6]]
                         for p in range(players)],
        "slots": [int(x) for x in a[L.SLOTS:L.SLOTS + 6]],
        "piles": [[int(x) for x in a[L.PILES + e * L.PILE_ROOM + a[L.PILE_POS + e]:
                                     L.PILES + e * L.PILE_ROOM + a[L.PILE_LEN + e]]] for e in range(3)],
        "hands": [sorted(int(x) for x in a[L.HANDS + 6 * p:L.HANDS + 6 * p + a[L.HAND_N + p]])
                  for p in range(players)],
        "picks": [int(a[L.PICK + p]) if a[L.PICK + p] >= 0 else None for p in range(players)],
        "rng": int(a[L.RNG]) & 0xFFFFFFFFFFFFFFFF,
    }


def reference_summary(ref) -> dict:
    """The reference's summary in the same terms (hands sorted, slots padded with -1)."""
    s = dict(ref.summary())
    s["buildings"] = sorted([sorted(cells), owner, code] for cells, owner, code in s["buildings"])
    s["hands"] = [sorted(h) for h in s["hands"]]
    s["slots"] = [(-1 if x is None else x) for x in s["slots"]] + [-1] * (6 - len(s["slots"]))
    s["vp_by_source"] = [[d[k] for k in L.SOURCE_NAMES[:6]] for d in s["vp_by_source"]]
    if s["phase"] == "over":
        s["player"] = None
    if s["phase"] != "final":
        s["final_turns_left"] = 0
    return s


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
        mine = reference_summary(ref)
        assert summary(state.array) == mine, where
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
    # 16 configurations x 20 = 320 games, 558 with the fast tests above (the issue asks
    # for >= 500); 70 per configuration also agreed once but cost ~4 CPU minutes of CI.
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
            assert summary(state.array) == reference_summary(ref), where
            text = game.format_move(state.array, agents[state.current_player].choose(state))
            monuments += text.startswith("M")
            state.play(text)
            ref.play(text)
        assert summary(state.array) == reference_summary(ref)
        assert state.result()["vp_by_source"] == ref.result()["vp_by_source"]
    assert monuments >= 5
