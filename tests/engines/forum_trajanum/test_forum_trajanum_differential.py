"""Forum Trajanum beyond the conformance kit's differential games (forumlab.testing;
the uniform seeded games at every configuration of the game's conformance data are
tests/conformance/test_conformance.py and test_differential.py), against the
plain-Python reference engine (``forumlab/engines/forum_trajanum/reference``, written
from the spec alone):

- games biased towards building (libraries, doubles, conversions, high tracks, paying
  citizens), rules that uniform random play rarely reaches, in both setup modes and the
  introductory game;
- ``determinize``: from the same random stream both engines resample to the same state.
"""
import collections
import random

import numpy as np
import pytest

from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_trajanum import layout as L
from forumlab.engines.forum_trajanum.reference import ReferenceForumTrajanum
from forumlab.engines.forum_trajanum.summary import summary
from forumlab.testing.differential import differential_game


def builder(text: str) -> int:
    """Prefer libraries (a track to level 4 and past it), other builds (doubles most),
    conversions, two-tile uses, high track levels and paying citizens."""
    if text.startswith("build lib"):
        return 7 + ("+" in text)
    if text.startswith("build") and text != "build -":
        return 5 + ("," in text)
    if text.startswith(("conv", "use kr", "use rk")) or "+" in text:
        return 4
    if text.startswith("track"):
        return int(text[-1])
    if text.startswith("pay") and text != "pay -":
        return 2
    return 0 if text in ("env -", "pay -") else 1


def prefer_building(rng, legal, state):
    """Mostly (80 %) a ply of the highest :func:`builder` rank, else any."""
    if rng.random() < 0.8:
        best = max(map(builder, legal))
        legal = [t for t in legal if builder(t) == best]
    return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engines_agree_on_building_games_and_the_intro(players):
    differential_game(create_game("forum-trajanum", players=players, intro=True), 50 + players,
                      choose=prefer_building)
    differential_game(create_game("forum-trajanum", players=players, setup="fixed"), 60 + players,
                      choose=prefer_building)


@pytest.mark.slow
@pytest.mark.parametrize("config", [{"players": p, "setup": s} for p in (2, 3, 4) for s in ("choose", "fixed")],
                         ids=lambda c: f"{c['players']}p-{c['setup']}")
def test_engines_agree_on_more_building_games(config):
    for seed in range(700, 705):
        differential_game(create_game("forum-trajanum", config, intro=seed % 2 == 0), seed, choose=prefer_building)


def tile_types(a: np.ndarray, owner: int) -> collections.Counter:
    """The types of every tile of an owner, wherever it is (blank types counted as 0)."""
    words = list(a[L.SEAT + owner * L.SEAT_SIZE + L.TILE:][:37]) + list(a[L.SEAT + owner * L.SEAT_SIZE + L.POOL:][:31])
    for p in range(int(a[L.N_PLAYERS])):
        words += list(a[L.SEAT + p * L.SEAT_SIZE + L.HELD:][:2])
    words += list(a[L.PASSING:L.PASSING + 4]) + list(a[L.D_TILES:L.D_TILES + 8])
    return collections.Counter(int(w) & L.TW_TYPE for w in words
                               if w and (int(w) >> L.TW_OWNER_SHIFT) & 3 == owner)


@pytest.mark.parametrize("config, seed", [({"players": 3, "intro": False, "setup": "choose"}, 1),
                                          ({"players": 4, "intro": False, "setup": "fixed"}, 2),
                                          ({"players": 2, "intro": False, "setup": "choose"}, 3)])
def test_determinize_agrees_with_the_reference(config, seed):
    """Every third ply, every observer: the same stream gives the same state in both
    engines, the observation is unchanged, the seat to move and its legal moves too, and
    each owner's tiles outside the draft stay the same multiset of types."""
    game = create_game("forum-trajanum", config)
    state = game.new_state(seed)
    ref = ReferenceForumTrajanum(**config).new_game(seed)
    chooser = random.Random(seed)
    changed = 0
    while not state.is_terminal:
        if len(state.history) % 3 == 0:
            for seat in range(config["players"]):
                where = f"{config} seed {seed} ply {len(state.history)} seat {seat}"
                word = 1000 * seed + 7 * len(state.history) + seat
                view = state.array.copy()
                game.kernels.determinize(view, seat, make_rng(word))
                ref_view = ref.copy()
                ref_view = ref_view.determinize(seat, make_rng(word)) or ref_view
                assert summary(view) == ref_view.summary(), where
                assert np.array_equal(game.observation(view, seat), game.observation(state.array, seat)), where
                if seat == state.current_player:
                    assert sorted(game.format_move(view, m) for m in view_moves(game, view)) == \
                        sorted(state.legal_move_texts()), where
                if not state.array[L.QLEN]:
                    for q in range(config["players"]):
                        assert tile_types(view, q) == tile_types(state.array, q), where
                changed += not np.array_equal(view, state.array)
        text = chooser.choice(sorted(ref.legal_moves()))
        state.play(text)
        ref.play(text)
    assert changed > 0


def view_moves(game, array):
    out = np.empty(game.kernels.max_moves, dtype=np.int64)
    return out[:game.kernels.legal_moves(array, out)].tolist()
