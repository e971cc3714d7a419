"""``Agent.spec()`` recreates the agent: only the parameters given are written, so the
game's tuned defaults still apply to a recreated agent (writing every declared default
overrode them: a recreated mcts searched 2-player Forma with rollout=random instead of
the tuned sampled rollouts)."""
import pytest

from forumlab.agents.params import show_value
from forumlab.agents.registry import agent_names, agent_params, create_agent
from forumlab.core.registry import create_game, game_names, get_game_class


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


def _another_value(param):
    """An allowed value of ``param`` other than its default."""
    if param.choices is not None:
        return next(c for c in param.choices if c != param.default)
    if param.kind is bool:
        return not param.default
    if param.kind is str:
        return param.default + "x"
    step = 1 if param.kind is int else 0.5
    if param.high is None or param.default + step <= param.high:
        return param.default + step
    return param.low


def _spec_of(name, values):
    """A spec string giving ``values`` (written as a spec writes them)."""
    args = ", ".join(f"{k}={show_value(v) if not isinstance(v, str) else v}" for k, v in values.items())
    return f"{name}({args})"


# human asks a person and cmd starts a process: their specs are checked where they are tested.
@pytest.mark.parametrize("name", [n for n in agent_names() if n not in ("human", "cmd")])
def test_every_parameter_given_survives_the_spec(name):
    """Each declared parameter set to another value than its default, one at a time and all
    at once: the recreated agent has the same given parameters and the same options."""
    params = agent_params(name)
    specs = [_spec_of(name, {key: _another_value(p)}) for key, p in params.items()]
    specs.append(_spec_of(name, {key: _another_value(p) for key, p in params.items()}))
    for spec in specs:
        agent = create_agent(spec, seed=3)
        again = create_agent(agent.spec(), seed=3)
        assert again.given == agent.given and again.options == agent.options, spec


@pytest.mark.parametrize("game_name", game_names())
def test_a_recreated_mcts_searches_every_game_with_the_same_settings(game_name):
    """In every game at every player count, the agent recreated from its spec searches with
    the settings of the original: the given ones, else the game's tuned ones."""
    cls = get_game_class(game_name)
    for spec in ("mcts", "mcts(iterations=40)", "mcts(c=0.5, rollout=none, tree_depth=3)"):
        agent = create_agent(spec, seed=1)
        again = create_agent(agent.spec(), seed=1)
        for players in range(cls.min_players, cls.max_players + 1):
            game = create_game(game_name, {"players": players})
            assert again.settings_for(game) == agent.settings_for(game), (spec, players)
