"""Heuristic weights as agent parameters: ``w.NAME=VALUE`` and ``archetype=NAME`` in specs,
written back by ``spec()``, checked against the game's terms with a one-line error."""
import pytest
from click.testing import CliRunner

from forumlab.agents.registry import create_agent
from forumlab.agents.spec import AgentSpecError, parse_spec
from forumlab.agents.weights import WeightedAgent, check_weights_for_game, heuristic_terms, term_names
from forumlab.cli import main
from forumlab.core.registry import create_game, get_game_class

WEIGHTED = ["greedy", "paranoid", "maxn", "brs", "mcts"]


def test_a_spec_takes_dotted_weight_keys():
    assert parse_spec("greedy(w.trajan=2, w.area=0.5)") == ("greedy", {"w.trajan": 2, "w.area": 0.5})
    with pytest.raises(AgentSpecError, match="malformed parameter"):
        parse_spec("greedy(w.=2)")
    with pytest.raises(AgentSpecError, match="malformed parameter"):
        parse_spec("greedy(x.trajan=2)")


@pytest.mark.parametrize("name", WEIGHTED)
def test_weights_and_archetype_survive_the_spec(name):
    for spec in (f"{name}(w.rows=2, w.last_places=0.5)", f"{name}(archetype=cautious)",
                 f"{name}(archetype=lines, w.sections=1.5)"):
        agent = create_agent(spec, seed=3)
        again = create_agent(agent.spec(), seed=3)
        assert again.given == agent.given and again.spec() == agent.spec(), spec
        assert again.term_weights == agent.term_weights
        game = get_game_class("forum-romanum")
        assert (again.heuristic_weights(game) == agent.heuristic_weights(game)).all()


def test_an_agent_without_weights_uses_the_games_own_heuristic():
    agent = create_agent("brs(depth=2)")
    assert isinstance(agent, WeightedAgent) and agent.heuristic_weights(get_game_class("forma")) is None
    assert "w." not in agent.spec()


@pytest.mark.parametrize("spec, message", [
    ("greedy(w.trajan=2)", "forum-romanum has no heuristic term 'trajan' (terms: score, rows, columns, "
                           "diagonals, sections, last_places)"),
    ("mcts(archetype=civic)", "forum-romanum has no archetype 'civic' (archetypes: balanced, lines,"),
])
def test_unknown_names_are_refused_with_the_games_list(spec, message):
    with pytest.raises(AgentSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_weights_for_game(create_agent(spec), create_game("forum-romanum", {"players": 3}))


def test_a_weight_must_be_a_finite_number():
    for value in ("x", "true", "inf", "nan"):
        with pytest.raises(AgentSpecError, match="w.rows must be a finite number"):
            create_agent(f"greedy(w.rows={value})")


def test_play_refuses_an_unknown_term_with_exit_2():
    result = CliRunner().invoke(main, ["play", "forum-romanum", "-p", "3", "-a", "greedy(w.trajan=2),greedy,greedy"])
    assert result.exit_code == 2
    assert "no heuristic term 'trajan' (terms: score, rows" in result.output


def test_every_built_in_game_names_its_terms_with_what_they_measure():
    for game in ("forum-romanum", "forma", "forum-trajanum", "foundations-of-rome"):
        terms = heuristic_terms(get_game_class(game))
        assert len(terms) >= 5 and all(name.isidentifier() and len(text) > 10 for name, text in terms)
        assert len(set(term_names(get_game_class(game)))) == len(terms)


def test_each_games_page_lists_its_terms_and_archetypes():
    from pathlib import Path

    from forumlab.agents.archetypes import archetypes

    root = Path(__file__).resolve().parents[2]
    for game in ("forum-romanum", "forma", "forum-trajanum", "foundations-of-rome"):
        page = (root / "docs" / "games" / f"{game}.md").read_text()
        section = page[page.index("## The heuristic's terms and strategy archetypes"):]
        for name in term_names(get_game_class(game)) + tuple(archetypes(game)):
            assert f"| `{name}` |" in section, (game, name)
