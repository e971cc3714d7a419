"""Agent parameters declared once: the schema, its checks, former names, the listing."""
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.agents.minimax import ParanoidAgent
from forumlab.agents.params import WARNED_ENV, DeprecatedParameterWarning, Param, resolve_options, show_value
from forumlab.agents.registry import agent_names, agent_params, check_spec, create_agent
from forumlab.agents.spec import AgentSpecError
from forumlab.cli import main
from forumlab.core.registry import game_names, get_game_class

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- the schema
@pytest.mark.parametrize("name", agent_names())
def test_schema_lists_every_parameter_of_every_agent(name):
    schema = agent_params(name)
    # human wants a terminal on standard input unless told to read it anyway; cmd, a bot program
    agent = create_agent({"human": "human(input=-)", "cmd": f"cmd:{sys.executable} {ROOT}/examples/bots/random_bot.py"}
                         .get(name, name))
    if name == "cmd":
        agent.close()
    assert list(schema) == list(agent.options)  # every parameter the agent has, in order
    for key, param in schema.items():
        assert param.help and param.accepts(param.default), key
        # a declared type or set of choices, not "any value"
        assert param.kind is not None or param.choices is not None, key
    schema.clear()  # a copy: the agent class keeps its parameters
    assert list(agent_params(name)) == list(agent.options)


def test_every_game_tunes_mcts_with_declared_values():
    schema = agent_params("mcts")
    for game in game_names():
        cls = get_game_class(game)
        for tuned in [cls.mcts_defaults, *cls.mcts_defaults_by_players.values()]:
            assert resolve_options("mcts", schema, tuned) == tuned, game


def test_the_listing_shows_default_allowed_values_and_help_of_every_parameter():
    result = CliRunner().invoke(main, ["agents"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    for name in agent_names():
        for key, param in agent_params(name).items():
            assert any(line.split()[:2] == [f"{key}={show_value(param.default)}", param.type_text().split()[0]]
                       and param.help in line for line in lines), (name, key)
    assert "    c=0.7                    float in [0, 1e+06]    UCB1 exploration" in result.output
    assert "int in 1..65" in result.output and "(formerly order)" in result.output


# ---------------------------------------------------------------- each kind of bad value
@pytest.mark.parametrize("spec, message", [
    # wrong type
    ("mcts(iterations=1.5)", "agent 'mcts': iterations must be an integer in 1..2**62, not 1.5"),
    ("mcts(c=true)", "agent 'mcts': c must be a number in [0, 1e+06], not true"),
    ("mcts(reuse=1)", "agent 'mcts': reuse must be true or false, not 1"),
    ("paranoid(time=fast)", "agent 'paranoid': time must be a number in [0, 1e+06], not 'fast'"),
    # out of range
    ("mcts(epsilon=1.5)", "agent 'mcts': epsilon must be a number in [0, 1], not 1.5"),
    ("mcts(hscale=0)", "agent 'mcts': hscale must be a number in (0, 1e+09], not 0"),
    ("mcts(time=inf)", "agent 'mcts': time must be a number in [0, 1e+06], not inf"),
    ("maxn(depth=65)", "agent 'maxn': depth must be an integer in 0..64, not 65"),
    ("brs(nodes=-1)", "agent 'brs': nodes must be an integer in 0..2**62, not -1"),
    ("paranoid(order_depth=0)", "agent 'paranoid': order_depth must be an integer in 1..65, not 0"),
    # unknown choice (typed: 1 is not true)
    ("mcts(rollout=smart)", "agent 'mcts': rollout must be one of random, heuristic, none, sample, not 'smart'"),
    ("mcts(ismcts=1)", "agent 'mcts': ismcts must be one of auto, true, false, not 1"),
    ("brs(default_move=pass)", "agent 'brs': default_move must be one of greedy, history, not 'pass'"),
    # unknown parameter
    ("greedy(depth=2)", "agent 'greedy' has no parameter 'depth' (parameters: archetype, eval)"),
    # a parameter under its name and its former name
    ("maxn(order=2, order_depth=3)", "agent 'maxn': order and order_depth name the same parameter; "
                                     "give order_depth only"),
])
def test_each_kind_of_bad_value_is_refused_with_one_line(spec, message):
    with pytest.raises(AgentSpecError) as info:
        create_agent(spec)
    assert str(info.value) == message
    with pytest.raises(AgentSpecError):
        check_spec(spec)


def test_a_third_party_agent_is_checked_against_its_declarations_without_being_built():
    # FirstMoveAgent declares Param(0, ...): an integer, inferred from the default.
    assert check_spec("tests.plugin_agent:FirstMoveAgent(offset=2)").name == "first-move"
    with pytest.raises(AgentSpecError, match=r"offset must be an integer, not 'x'$"):
        check_spec("tests.plugin_agent:FirstMoveAgent(offset=x)")
    # A constructor that ends the process at seed 0 is never run by the check.
    assert check_spec("tests.fault_agents:ExitingInitAgent(every=2)").name == "exiting-init"
    with pytest.raises(AgentSpecError, match="every must be an integer, not 0.5$"):
        check_spec("tests.fault_agents:ExitingInitAgent(every=0.5)")


def test_relative_leaves_combine_with_every_reward():
    for reward in ("win", "rank", "score"):
        assert create_agent(f"mcts(reward={reward}, hrelative=true)").options["hrelative"] is True


# ---------------------------------------------------------------- the declarations
def test_param_kinds_are_inferred_from_the_default_and_checked_strictly():
    assert Param(0, "n").kind is int and Param(0.5, "x").kind is float and Param(True, "b").kind is bool
    assert Param("a", "s").kind is str and Param(None, "anything").kind is None
    assert Param(0.5, "x").accepts(2)  # an int where a number is due
    assert not Param(0, "n").accepts(2.0) and not Param(0, "n").accepts(True)
    assert not Param(0.5, "x").accepts(float("nan"))
    assert Param(None, "anything").accepts(None) and Param(None, "anything").accepts("x")


def test_optional_parameters_take_none():
    p = Param(None, "cap", kind=int, low=1, optional=True)
    assert p.allowed() == "an integer >= 1 or none" and p.type_text() == "int >= 1 or none"
    assert p.check("none") is None and p.check("None") is None and p.check(3) == 3
    with pytest.raises(AgentSpecError, match=r"^agent 'x': cap must be an integer >= 1 or none, not 0$"):
        p.check(0, "x", "cap")
    with pytest.raises(AgentSpecError, match="must be an integer >= 1, not none"):
        Param(1, "cap", low=1).check(None)


def test_a_declaration_that_refuses_its_own_default_is_an_error():
    with pytest.raises(ValueError, match="default"):
        Param(0, "n", low=1)
    with pytest.raises(ValueError, match="default"):
        Param("x", "c", choices=("a", "b"))
    with pytest.raises(ValueError, match="kind"):
        Param([], "l", kind=list)


# ---------------------------------------------------------------- one name per idea
def test_order_is_a_former_name_of_order_depth_that_still_works(monkeypatch):
    monkeypatch.setenv(WARNED_ENV, "")  # nothing warned yet (and restored afterwards)
    with pytest.warns(DeprecatedParameterWarning, match="'order' is now called 'order_depth'"):
        old = ParanoidAgent(order=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once: a second use says nothing
        again = create_agent("paranoid(order=2)")
    new = create_agent("paranoid(order_depth=2)")
    assert old.options == again.options == new.options and old.options["order_depth"] == 2
    assert old.spec() == new.spec() and "order=" not in old.spec()
    assert old.given == {"order_depth": 2}
    # MCTS and minimax share the name now
    assert "order_depth" in agent_params("mcts") and "order_depth" in agent_params("maxn")


def test_a_former_name_warns_once_per_command():
    env = {key: value for key, value in os.environ.items() if key != WARNED_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "forumlab.cli", "play", "forum-romanum", "-p", "3", "-o", "max_rounds=4", "--seed", "1",
                           "-a", "random,maxn(order=2, depth=1),paranoid(order=1, depth=1)"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    warned = [line for line in proc.stderr.splitlines() if "parameter 'order'" in line]
    assert len(warned) == 2, proc.stderr  # one per agent, one line each
    assert all(line.startswith("warning: agent '") for line in warned), proc.stderr
    assert proc.stderr.count("'maxn': parameter 'order'") == 1
    assert proc.stderr.count("'paranoid': parameter 'order'") == 1
    assert "DeprecatedParameterWarning" not in proc.stderr and ".py:" not in proc.stderr

