"""Stage-weights models (Foundations of Rome): the logit fit recovers known weights per
(term, stage), a trained file round-trips into the agents' weight array and plays, the
default and term-weights paths give the values they gave before stages existed, and a bad
file is one line, exit 2."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.api import load_game, make_agent, play
from forumlab.cli import main
from forumlab.core.dispatch import apply_move, is_terminal, random_move
from forumlab.core.rng import make_rng
from forumlab.engines.foundations_of_rome import heuristic
from forumlab.engines.foundations_of_rome.layout import ERA
from forumlab.engines.foundations_of_rome.stages import N_STAGES
from forumlab.learning.fit import fit_softmax
from forumlab.learning.model import read_model, save_model
from forumlab.learning.stage_weights import expand_by_stage, learn_stage_weights

from ..cli.test_records_cli import assert_bad_input

GAME = "foundations-of-rome"
# (players, ply, heuristic(s, 0), weighted_heuristic(s, 1, TERM_W)) along one random game
# per player count, computed by the heuristic before stage weights were added
TERM_W = np.array([0.5, 2.0, 1.0, 3.0, 0.25, 1.5, 0.7, 1.2])
BEFORE = [
    (2, 9, 4.049999999999997, -14.569999999999997),
    (2, 40, -20.0, 7.279999999999994),
    (2, 90, -24.150000000000006, 5.040000000000006),
    (3, 9, 1.25, -20.71),
    (3, 40, -6.5, 4.910000000000011),
    (3, 90, -19.25, -7.109999999999999),
    (4, 9, -5.650000000000002, 14.499999999999996),
    (4, 40, -10.600000000000001, -63.5),
    (4, 90, -12.200000000000017, -37.71000000000001),
    (4, 150, -21.25, -37.06),
]


MAX_PLIES = 1000  # past any game (random play may reach the turn cap)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def random_game(players, seed=5):
    """Every position of one random game (the BEFORE game), the finished one last."""
    game = load_game(GAME, players=players)
    s = game.initial_array(seed)
    rng = make_rng(11)
    tag = game.kernels.tag
    for _ in range(MAX_PLIES):
        yield s.copy()
        if is_terminal(tag, s):
            return
        apply_move(tag, s, random_move(tag, s, rng))


def test_default_and_term_weights_paths_give_the_values_of_before():
    got = []
    for players in (2, 3, 4):
        for ply, s in enumerate(random_game(players)):
            if ply in (9, 40, 90, 150):
                got.append((players, ply, heuristic.heuristic(s, 0), heuristic.weighted_heuristic(s, 1, TERM_W)))
    assert got == BEFORE  # bit for bit


def test_a_stage_model_plays_the_term_weights_times_its_era_row():
    rng = np.random.default_rng(2)
    rows = rng.uniform(-1, 3, size=(N_STAGES, len(TERM_W)))
    w = np.concatenate([TERM_W, rows.ravel()])
    eras = set()
    positions = list(random_game(3))
    for s in positions[::7] + positions[-1:]:
        finished = is_terminal(load_game(GAME, players=3).kernels.tag, s)
        played = TERM_W if finished else TERM_W * rows[s[ERA] - 1]
        eras.add("over" if finished else int(s[ERA]))
        for p in range(3):
            assert heuristic.weighted_heuristic(s, p, w) == heuristic.weighted_heuristic(s, p, played)
    assert eras == {1, 2, 3, "over"}


def test_rows_of_ones_are_the_term_weights_model():
    w = np.concatenate([TERM_W, np.ones(N_STAGES * len(TERM_W))])
    for s in list(random_game(4))[::11]:
        assert heuristic.weighted_heuristic(s, 2, w) == heuristic.weighted_heuristic(s, 2, TERM_W)


def test_expand_by_stage_splits_each_column():
    x = np.arange(2 * 3 * 2, dtype=float).reshape(2, 3, 2) + 1
    out = expand_by_stage(x, np.array([2, 0]), 3)
    assert out.shape == (2, 3, 6)
    assert (out[0, :, 4:] == x[0]).all() and (out[0, :, :4] == 0).all()
    assert (out[1, :, :2] == x[1]).all() and (out[1, :, 2:] == 0).all()
    assert (out.reshape(2, 3, 3, 2).sum(axis=2) == x).all()  # ones over the split columns: the terms


def test_fit_recovers_known_stage_weights():
    rng = np.random.default_rng(0)
    n, seats, k, n_stages = 20000, 3, 3, 3
    true = np.array([[0.2, 1.0, -0.5], [1.0, 0.5, 0.0], [2.0, -0.3, 0.8]])
    x = rng.normal(size=(n, seats, k))
    stages = rng.integers(0, n_stages, size=n)
    z = expand_by_stage(x, stages, n_stages)
    logits = z @ true.ravel()
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    winners = (rng.random(n)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    y = np.eye(seats)[winners]
    fitted = fit_softmax(z, y, l2=1e-6).reshape(n_stages, k)
    assert np.allclose(fitted, true, atol=0.1), np.abs(fitted - true).max()


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    game = load_game(GAME, players=3)
    model = learn_stage_weights(game, games=6, seed=3, iterations=2)
    path = tmp_path_factory.mktemp("fos") / "stages.json"
    save_model(str(path), model)
    return path, model


def test_file_round_trips_into_the_weight_array(model_file):
    path, model = model_file
    assert read_model(str(path)) == model
    assert model["kind"] == "stage-weights" and model["stages"]["shape"] == [N_STAGES, len(TERM_W)]
    fit = model["fit"][-1]
    assert fit["log_loss"] < fit["log_loss_uniform"] and sum(fit["positions_per_stage"]) == fit["positions"]
    game = load_game(GAME, players=3)
    w = make_agent(f"greedy(eval={path},w.silver=2)").heuristic_weights(game)
    assert list(w[:8]) == [1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]  # w. overrides the term part
    assert list(w[8:]) == model["stages"]["values"]


def test_training_twice_from_one_seed_is_identical(model_file):
    _, model = model_file
    assert learn_stage_weights(load_game(GAME, players=3), games=6, seed=3, iterations=2) == model


def test_search_agents_play_with_a_stage_model(model_file):
    path, _ = model_file
    agents = [f"greedy(eval={path})", f"mcts(eval={path},iterations=60)", f"brs(eval={path},nodes=200)"]
    record = play(GAME, agents, seed=4)
    assert record.result["terminal"]


def _write(path, **changes):
    model = {"format": "forumlab-eval/1", "kind": "stage-weights", "game": GAME, "players": 3,
             "weights": {"vp": 1.0}, "stages": {"shape": [N_STAGES, 8], "values": [1.0] * (N_STAGES * 8)}}
    model.update(changes)
    path.write_text(json.dumps(model))
    return path


@pytest.mark.parametrize("changes,game,fragment", [
    ({"stages": {"shape": [3, 8], "values": [1.0] * 23}}, GAME, "24 finite numbers"),
    ({"stages": {"shape": [3, 8], "values": [1.0] * 23 + ["x"]}}, GAME, "24 finite numbers"),
    ({"stages": {"shape": [2, 8], "values": [1.0] * 16}}, GAME, "not foundations-of-rome's [3, 8]"),
    ({"stages": {"shape": [24], "values": [1.0] * 24}}, GAME, "two positive integers"),
    ({"stages": None}, GAME, "two positive integers"),
    ({"game": "forum-romanum"}, "forum-romanum", "no stages"),
    ({}, "forum-trajanum", "not 'forum-trajanum'"),
])
def test_bad_stage_file_is_one_line(tmp_path, changes, game, fragment):
    path = _write(tmp_path / "m.json", **changes)
    assert_bad_input(run("play", game, "-a", f"greedy(eval={path}),random,random"), fragment)


def test_learn_stage_weights_of_a_game_without_stages_is_one_line():
    assert_bad_input(run("learn", "forma", "-p", "2", "--model", "stage-weights", "--games", "1"), "no stages")


def test_learn_stage_weights_refuses_move_choice_with_one_line():
    assert_bad_input(run("learn", GAME, "-p", "3", "--model", "stage-weights", "--games", "1",
                         "--target", "move-choice"), "move-choice")


def test_the_shipped_model_is_a_stage_weights_model():
    from forumlab.learning.model import shipped_path

    shipped = read_model(shipped_path(GAME, 3))  # the model of experiments 21 and 22
    assert shipped["kind"] == "stage-weights" and shipped["settings"]["seed"] == 4970
    w = make_agent("brs(eval=learned)").heuristic_weights(load_game(GAME, players=3))
    assert list(w) == [1.0] * 8 + shipped["stages"]["values"]
