"""Models trained for move choice: the conditional logit recovers known weights, training
is byte-identical from a seed, the compiled evaluation equals a plain-Python evaluation
of the model, and bad model files or teachers are one line, exit 2."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.agents.weights import term_names
from forumlab.api import load_game
from forumlab.cli import main
from forumlab.core.dispatch import apply_move, is_terminal, random_move
from forumlab.core.rng import make_rng
from forumlab.learning.choice_fit import fit_choice, margin_features
from forumlab.learning.model import save_model
from forumlab.learning.terms import seat_values_kernel, term_features
from forumlab.learning.train import learn_choice
from forumlab.search.weighted import heuristic_value

from ..cli.test_records_cli import assert_bad_input


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_choice_fit_recovers_known_weights():
    rng = np.random.default_rng(1)
    true_w = np.array([1.0, 2.0, -0.5])
    n, a, seats = 3000, 6, 3
    x = rng.normal(size=(n, a, seats, 3))
    mover = rng.integers(0, seats, size=n)
    mask = np.ones((n, a), dtype=bool)
    u = margin_features(x, mask, mover, true_w) @ true_w
    p = np.exp(u - u.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    chosen = np.array([rng.choice(a, p=row) for row in p])
    for i, c in enumerate(chosen):  # the chosen afterstate goes first
        x[i, [0, c]] = x[i, [c, 0]]
    w = fit_choice(x, mask, mover, l2=1e-5)
    assert np.allclose(w, true_w, atol=0.15), w


def test_choice_fit_ignores_a_term_no_move_changes():
    """A term equal in every afterstate of a position (banked points) gets no weight."""
    rng = np.random.default_rng(2)
    n, a, seats = 2000, 5, 3
    x = rng.normal(size=(n, a, seats, 2))
    x[:, :, :, 1] = rng.normal(size=(n, 1, seats)) * 10  # the same across a position's afterstates
    mover = np.zeros(n, dtype=np.int64)
    mask = np.ones((n, a), dtype=bool)
    best = (margin_features(x, mask, mover, np.array([1.0, 0.0])) @ np.array([1.0, 0.0])).argmax(axis=1)
    for i, c in enumerate(best):
        x[i, [0, c]] = x[i, [c, 0]]
    w = fit_choice(x, mask, mover, l2=1e-3)
    assert w[0] > 0 and abs(w[1]) < 0.05 * w[0], w


def test_choice_training_is_byte_identical_from_a_seed(tmp_path):
    game = load_game("forum-romanum", players=3)
    paths = []
    for i in range(2):
        model = learn_choice(game, games=2, seed=11, teacher_spec="brs(nodes=200)", alternatives=5)
        paths.append(tmp_path / f"m{i}.json")
        save_model(str(paths[-1]), model)
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert model["kind"] == "term-weights" and model["training"] == "move-choice"
    assert model["fit"][0]["positions"] > 20
    other = learn_choice(game, games=2, seed=12, teacher_spec="brs(nodes=200)", alternatives=5)
    assert other["weights"] != model["weights"]


def _random_positions(game, count, seed):
    tag, rng = game.kernels.tag, make_rng(seed)
    for i in range(count):
        s = game.initial_array(seed + i)
        for _ in range(int(rng[0] % 200)):
            if is_terminal(tag, s):
                break
            apply_move(tag, s, random_move(tag, s, rng))
        yield s


def _plain_value(contributions, base, w, player):
    """The model's value in plain Python: each seat's weighted terms, mine less the best other's."""
    values = [base[q] + sum(float(c) * float(wk) for c, wk in zip(contributions[q], w))
              for q in range(len(base))]
    return values[player] - max(v for q, v in enumerate(values) if q != player)


@pytest.mark.parametrize("name,players", [("forum-romanum", 3), ("foundations-of-rome", 3), ("forma", 2),
                                          ("forum-trajanum", 3)])
def test_compiled_evaluation_equals_plain_python(name, players):
    game = load_game(name, players=players)
    names = term_names(game)
    seat_values, tag = seat_values_kernel(game), game.kernels.tag
    rng = np.random.default_rng(3)
    for s in _random_positions(game, 12, 40):
        # every weight drawn, Forum Trajanum's too: its held tiles no longer follow the
        # weights of the terms they feed, so the model is linear in all of them
        w = rng.normal(1.0, 1.0, size=len(names))
        base = np.zeros(players)
        seat_values(s, np.zeros(len(names)), base)
        contributions = term_features(game, seat_values, s, len(names))
        for p in range(players):
            compiled = heuristic_value(tag, s, p, w)
            assert compiled == pytest.approx(_plain_value(contributions, base, w, p), rel=1e-9, abs=1e-9)


def _model(tmp_path, **changes):
    model = {"format": "forumlab-eval/1", "kind": "term-weights", "game": "forum-romanum", "players": 3,
             "weights": {}}
    model.update(changes)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model))
    return path


@pytest.mark.parametrize("changes,fragment", [
    ({"kind": "n-tuple"}, "kind 'n-tuple'"),
    ({"weights": {"score": "high"}}, "finite numbers"),
    ({"weights": [1, 2]}, "finite numbers"),
    ({"game": "forma"}, "is for 'forma'"),
    ({"format": "other/2"}, "not a forumlab-eval/1 model"),
])
def test_bad_model_file_is_one_line(tmp_path, changes, fragment):
    path = _model(tmp_path, **changes)
    assert_bad_input(run("play", "forum-romanum", "-a", f"greedy(eval={path}),random,random"), fragment)


def test_model_file_not_json_is_one_line(tmp_path):
    path = tmp_path / "m.json"
    path.write_text("{ not json")
    assert_bad_input(run("play", "forum-romanum", "-a", f"greedy(eval={path}),random,random"), "not JSON")


def test_bad_teacher_is_one_line():
    assert_bad_input(run("learn", "forum-romanum", "-p", 3, "--games", 1, "--target", "move-choice",
                         "--teacher", "nosuchagent"), "nosuchagent")
