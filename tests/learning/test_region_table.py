"""Region-table models (Forum Romanum): the least-squares fit recovers a known table, a
trained file round-trips into the agents' weight array and plays, the term-weights path
gives the values it gave before region tables existed, and a bad file is one line, exit 2."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.api import load_game, make_agent, play
from forumlab.cli import main
from forumlab.core.dispatch import apply_move, random_move
from forumlab.core.rng import make_rng
from forumlab.engines.forum_romanum import heuristic
from forumlab.engines.forum_romanum.layout import MAX_COLOURS, N_REGIONS, SCORE, TERMINAL
from forumlab.engines.forum_romanum.pattern_kernels import pattern_indices
from forumlab.engines.forum_romanum.patterns import TABLE_SHAPE, TABLE_SIZE
from forumlab.learning.model import read_model, save_model
from forumlab.learning.region_table import fit_table, learn_region_table

from ..cli.test_records_cli import assert_bad_input

# (players, ply, heuristic(s, 0), weighted_heuristic(s, 1, TERM_W)) along one random game
# per player count, computed by the heuristic before region tables were added
TERM_W = np.array([0.5, 2.0, 1.0, 3.0, 0.25, 1.5])
BEFORE = [
    (2, 9, 2.583333333333335, -2.580357142857141),
    (2, 23, 17.38690476190476, -30.401785714285708),
    (2, 41, -1.1785714285714377, 0.5625),
    (2, 69, 10.327380952380953, -2.625),
    (3, 9, 0.10714285714285632, -0.8392857142857153),
    (3, 23, -2.7857142857142856, 14.696428571428571),
    (3, 41, -11.633928571428575, 31.28571428571429),
    (3, 69, -0.5535714285714288, -16.54910714285714),
    (4, 9, 2.8392857142857144, -1.7767857142857135),
    (4, 23, -2.282738095238095, 1.7053571428571441),
    (4, 41, -11.142857142857142, -15.843750000000004),
    (4, 69, -6.964285714285717, -18.584821428571427),
]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def random_positions(players, plies=(9, 23, 41, 69), seed=5):
    """The positions of one random game at the given plies (the BEFORE positions)."""
    game = load_game("forum-romanum", players=players)
    s = game.initial_array(seed)
    rng = make_rng(11)
    tag = game.kernels.tag
    for ply in range(max(plies) + 1):
        if s[TERMINAL]:
            return
        if ply in plies:
            yield ply, s.copy()
        apply_move(tag, s, random_move(tag, s, rng))


def test_term_weights_path_gives_the_values_of_before():
    got = [(players, ply, heuristic.heuristic(s, 0), heuristic.weighted_heuristic(s, 1, TERM_W))
           for players in (2, 3, 4) for ply, s in random_positions(players)]
    assert got == BEFORE  # bit for bit


def test_fit_recovers_a_known_table():
    rng = np.random.default_rng(0)
    size = 40
    true_table = rng.normal(size=size) * 3
    idx = rng.integers(0, size, size=(5000, 6))
    idx[:, 5] = np.where(rng.random(5000) < 0.3, -1, idx[:, 5])  # some rows use fewer entries
    y = np.where(idx >= 0, true_table[idx], 0.0).sum(axis=1) + rng.normal(size=5000) * 0.1
    table = fit_table(idx, y, size, ridge=1e-3)
    assert np.allclose(table, true_table, atol=0.02), np.abs(table - true_table).max()


def test_table_estimate_is_score_plus_the_entries():
    rng = np.random.default_rng(1)
    table = rng.normal(size=TABLE_SIZE)
    w = np.concatenate([np.ones(len(TERM_W)), table])
    w[5] = 0.0  # no hand last-places term: the estimate is the score and the table alone
    idx = np.empty((MAX_COLOURS, N_REGIONS), dtype=np.int64)
    for _, s in random_positions(3):
        pattern_indices(s, idx)
        est = np.zeros(MAX_COLOURS)
        heuristic.colour_values(s, w, est)
        for k in range(3):
            row = idx[k][idx[k] >= 0]
            assert est[k] == pytest.approx(s[SCORE + k] + table[row].sum(), abs=1e-9)


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    game = load_game("forum-romanum", players=3)
    model = learn_region_table(game, games=10, seed=3)
    path = tmp_path_factory.mktemp("frt") / "table.json"
    save_model(str(path), model)
    return path, model


def test_training_twice_from_one_seed_is_identical(model_file):
    _, model = model_file
    assert learn_region_table(load_game("forum-romanum", players=3), games=10, seed=3) == model


def test_file_round_trips_into_the_weight_array(model_file):
    path, model = model_file
    assert read_model(str(path)) == model
    assert model["table"]["shape"] == list(TABLE_SHAPE)
    assert model["fit"][0]["rmse_table"] < model["fit"][0]["rmse_score_only"]
    w = make_agent(f"greedy(eval={path},w.rows=2)").heuristic_weights(load_game("forum-romanum", players=3))
    assert list(w[:6]) == [1.0, 2.0, 1.0, 1.0, 1.0, 0.0]  # w. overrides the term part
    assert list(w[6:]) == model["table"]["values"]


@pytest.mark.parametrize("agents", [
    ["greedy(eval={})", "mcts(eval={},iterations=60)", "brs(eval={},nodes=200)"],
])
def test_search_agents_play_with_a_region_table(model_file, agents):
    path, _ = model_file
    record = play("forum-romanum", [a.format(path) for a in agents], seed=4)
    assert record.result["terminal"]


def _write(path, **changes):
    model = {"format": "forumlab-eval/1", "kind": "region-table", "game": "forum-romanum", "players": 3,
             "weights": {"score": 1.0}, "table": {"shape": list(TABLE_SHAPE), "values": [0.0] * TABLE_SIZE}}
    model.update(changes)
    path.write_text(json.dumps(model))
    return path


@pytest.mark.parametrize("changes,game,fragment", [
    ({"table": {"shape": [2, 3], "values": [0.0] * 5}}, "forum-romanum", "6 finite numbers"),
    ({"table": {"shape": [2, 3], "values": [0.0] * 6}}, "forum-romanum", "not forum-romanum's"),
    ({"table": {"shape": [0], "values": []}}, "forum-romanum", "positive integers"),
    ({"table": None}, "forum-romanum", "positive integers"),
    ({"game": "forum-trajanum"}, "forum-trajanum", "no region tables"),
    ({}, "forum-trajanum", "not 'forum-trajanum'"),
])
def test_bad_region_table_file_is_one_line(tmp_path, changes, game, fragment):
    path = _write(tmp_path / "m.json", **changes)
    assert_bad_input(run("play", game, "-a", f"greedy(eval={path}),random,random"), fragment)


def test_learn_region_table_of_a_game_without_tables_is_one_line():
    assert_bad_input(run("learn", "forma", "-p", "2", "--model", "region-table", "--games", "1"),
                     "no region tables")


def test_learn_region_table_refuses_move_choice_with_one_line():
    assert_bad_input(run("learn", "forum-romanum", "-p", "3", "--model", "region-table", "--games", "1",
                         "--target", "move-choice"), "move-choice")
