"""Learned evaluations: training is reproducible, the fit recovers a known answer, the
shipped files load and play, and a bad ``eval=`` or ``learn`` input is one line, exit 2."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.agents.weights import term_names
from forumlab.api import load_game, make_agent, play
from forumlab.cli import main
from forumlab.learning.fit import fit_softmax
from forumlab.learning.model import read_model, shipped_path
from forumlab.learning.train import learn

from ..cli.test_records_cli import assert_bad_input

SHIPPED = [("forma", 4), ("foundations-of-rome", 3), ("forum-romanum", 3), ("forum-trajanum", 3)]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_fit_recovers_known_weights():
    rng = np.random.default_rng(0)
    true_w = np.array([1.5, -0.5, 0.0])
    x = rng.normal(size=(4000, 3, 3))
    logits = x @ true_w
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    winners = np.array([rng.choice(3, p=row) for row in p])
    y = np.eye(3)[winners]
    w = fit_softmax(x, y, l2=1e-4)
    assert np.allclose(w, true_w, atol=0.1), w


def test_training_twice_from_one_seed_is_identical():
    game = load_game("forum-romanum", players=3)
    first = learn(game, games=4, seed=7, iterations=2)
    second = learn(game, games=4, seed=7, iterations=2)
    assert first == second
    assert learn(game, games=4, seed=8) != first


@pytest.mark.parametrize("name,players", SHIPPED)
def test_shipped_file_loads(name, players):
    model = read_model(shipped_path(name, players))
    assert model["game"] == name and model["players"] == players
    assert set(model["weights"]) == set(term_names(load_game(name, players=players)))
    assert model["command"].startswith(f"forumlab learn {name} -p {players}")


def test_greedy_with_learned_eval_plays():
    record = play("forum-romanum", ["greedy(eval=learned)", "greedy", "random"], seed=3)
    assert record.result["terminal"]


def test_search_agents_play_with_learned_eval():
    record = play("forum-romanum", ["mcts(eval=learned,iterations=30)", "brs(eval=learned,nodes=100)",
                                    "maxn(eval=learned,nodes=100)"], seed=4)
    assert record.result["terminal"]


def test_eval_weights_reach_the_agent(tmp_path):
    game = load_game("forum-romanum", players=3)
    path = tmp_path / "m.json"
    weights = {name: float(i) for i, name in enumerate(term_names(game))}
    path.write_text(json.dumps({"format": "forumlab-eval/1", "game": "forum-romanum", "players": 3,
                                "weights": weights}))
    agent = make_agent(f"greedy(eval={path},w.score=9)")
    expected = [9.0] + [float(i) for i in range(1, len(weights))]
    assert list(agent.heuristic_weights(game)) == expected


@pytest.mark.parametrize("spec,fragment", [
    ("greedy(eval=/no/such/file.json)", "cannot read"),
    ("mcts(eval=/no/such/file.json,iterations=10)", "cannot read"),
])
def test_bad_eval_path_is_one_line(spec, fragment):
    assert_bad_input(run("play", "forum-romanum", "-a", f"{spec},random,random"), fragment)


def test_eval_of_another_game_is_one_line():
    path = shipped_path("forum-romanum", 3)
    assert_bad_input(run("play", "forum-trajanum", "-a", f"greedy(eval={path}),random,random"),
                     "not 'forum-trajanum'")


def test_learned_without_a_shipped_file_is_one_line():
    assert_bad_input(run("play", "forum-romanum", "-a", "greedy(eval=learned),random,random,random"),
                     "no learned evaluation")


def test_learn_unknown_game_is_one_line():
    assert_bad_input(run("learn", "no-such-game", "-p", "3", "--games", "1"))


def test_learned_eval_checks_against_a_game_class():
    # the arena checks agents against the game's class before the player count is known
    from forumlab.agents.weights import check_weights_for_game
    from forumlab.core.registry import get_game_class

    agent = make_agent("greedy(eval=learned)")
    check_weights_for_game(agent, get_game_class("forum-romanum"))
    game = load_game("forum-romanum", players=3)
    shipped = read_model(shipped_path("forum-romanum", 3))  # a region-table model: terms, then the table
    assert list(agent.heuristic_weights(game)) == [shipped["weights"][name] for name in term_names(game)] \
        + shipped["table"]["values"]


def test_learn_refuses_a_search_agent_with_one_line():
    assert_bad_input(run("learn", "forum-romanum", "-p", "3", "--games", "1", "--agent", "mcts"), "greedy")


def test_learn_with_an_archetype_writes_a_model(tmp_path):
    out = tmp_path / "m.json"
    result = run("learn", "forum-romanum", "-p", "3", "--games", "3", "--agent", "greedy(archetype=lines)",
                 "-o", out)
    assert result.exit_code == 0, result.output
    assert read_model(str(out))["game"] == "forum-romanum"
