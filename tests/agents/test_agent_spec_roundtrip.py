"""``Agent.spec()`` recreates the agent: only the parameters given are written, so the
game's tuned defaults still apply to a recreated agent (writing every declared default
overrode them: a recreated mcts searched 2-player Forma with rollout=random instead of
the tuned sampled rollouts)."""
import pytest

from forumlab.agents.registry import create_agent
from forumlab.core.registry import create_game


@pytest.mark.parametrize("spec", ["mcts(iterations=40)", "greedy", "random", "brs(depth=1)",
                                  "mcts(iterations=40, c=0.5)"])
def test_spec_writes_the_given_parameters_only(spec):
    agent = create_agent(spec, seed=3)
    again = create_agent(agent.spec(), seed=3)
    assert again.given == agent.given
    assert again.spec() == agent.spec()


def test_a_recreated_mcts_plays_the_tuned_search_of_the_original():
    game = create_game("forma", {"players": 2})
    state = game.new_state(4)
    for _ in range(6):
        state.play(int(state.legal_moves()[0]))
    original = create_agent("mcts(iterations=300)", seed=9)
    recreated = create_agent(original.spec(), seed=9)
    view = state.view_for(state.current_player)
    assert recreated.act(view.copy()) == original.act(view.copy())
    assert "rollout" not in recreated.given  # the game's tuned rollout still applies
