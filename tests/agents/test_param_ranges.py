"""Every numeric agent parameter has bounds the search kernels can handle.

Each bound is allowed and runs one search on a small position (a game a few plies from
its end) without error; a value beyond it is refused when the agent is created, with one
line naming the parameter, and on the command line with one ``error:`` line and exit 2.
"""
import math

import pytest
from click.testing import CliRunner

from forumlab.agents.random_agent import RandomAgent
from forumlab.agents.registry import agent_names, agent_params, check_spec, create_agent
from forumlab.agents.spec import AgentSpecError
from forumlab.cli import main
from forumlab.core.registry import create_game
from tests.cli.test_records_cli import assert_bad_input

NUMERIC = [(name, key, param) for name in agent_names() for key, param in agent_params(name).items()
           if param.kind in (int, float)]

# Memory, not arithmetic, limits these at their top (the kernels index them fine):
# tt_bits=28 is a transposition table of 8 GiB (max^n: 22 GiB), allocated and written at
# once, more than a shared test machine may take. Its top is checked by the minimax
# buffers themselves (Workspace refuses more than 28), and a table larger than the
# machine's memory is refused (the test below).
MEMORY_BOUND = {"tt_bits"}


def _ident(case):
    name, key, _ = case
    return f"{name}.{key}"


def _spec_value(value) -> str:
    return repr(value) if isinstance(value, float) else str(value)


@pytest.fixture(scope="module")
def near_end():
    """A two-player Forum Romanum position six plies before the end of a random game."""
    game = create_game("forum-romanum", {"players": 2})
    state = game.new_state(5)
    agent = RandomAgent(seed=5)
    while not state.is_terminal:
        state.play(agent.act(state))
    moves = list(state.history)
    position = game.new_state(5)
    for move in moves[:-6]:
        position.play(move)
    assert not position.is_terminal
    return position


def _budget(name: str, key: str) -> dict:
    """Other parameters that keep a search with ``key`` at a bound short: a small
    budget that does not override the parameter under test, so that the bound is
    really used (``time`` overrides ``iterations``, the first clock spent ends a
    search, an explicit depth caps deepening)."""
    if name == "mcts":
        extra = {"iterations": 6, "cutoff": 1}
        if key == "iterations":
            extra = {"time": 0.05, "cutoff": 1}
        elif key == "time":
            extra["cpu_time"] = 0.05
        elif key == "cpu_time":
            extra["time"] = 0.05
        elif key in ("samples", "proposals", "long_proposals"):
            extra["rollout"] = "sample"
        elif key in ("widen", "replies"):  # used by best-first nodes only
            extra.update(order_depth=2, tree_depth=1, deepen=1)
        elif key == "deepen":
            extra["tree_depth"] = 1
        extra.pop(key, None)
        return extra
    if name in ("paranoid", "maxn", "brs"):
        extra = {"depth": 2, "tt_bits": 10}
        if key == "depth":
            extra = {"nodes": 3000, "tt_bits": 10}
        extra.pop(key, None)
        return extra
    return {}


@pytest.mark.parametrize("case", NUMERIC, ids=_ident)
def test_every_numeric_parameter_is_bounded_on_both_sides(case):
    name, key, param = case
    assert param.low is not None and param.high is not None, f"{name}.{key} needs low and high"
    assert param.low < param.high
    assert math.isfinite(param.high)


# Every bound of every numeric parameter, but the tops that memory bounds (MEMORY_BOUND).
BOUNDS = [(case, end) for case in NUMERIC for end in ("low", "high")
          if not (end == "high" and case[1] in MEMORY_BOUND)]


@pytest.mark.parametrize("case, end", BOUNDS, ids=lambda v: _ident(v) if isinstance(v, tuple) else v)
def test_each_bound_is_allowed_and_searches_without_error(case, end, near_end):
    name, key, param = case
    value = getattr(param, end)
    if end == "low" and param.low_open:
        value = param.low + 1e-3
    if name == "human":  # asks a person: its parameters only shape what it prints
        create_agent(f"human(input=-, {key}={_spec_value(value)})")
        return
    if name == "cmd":  # a bot program: checked without starting one (tests/bots plays bots)
        check_spec(f"cmd(command=./bot, {key}={_spec_value(value)})")
        return
    options = {**_budget(name, key), key: value}
    spec = f"{name}(" + ", ".join(f"{k}={_spec_value(v)}" for k, v in options.items()) + ")"
    agent = create_agent(spec, seed=1)
    view = near_end.view_for(near_end.current_player)
    move = agent.act(view)
    assert move in near_end.legal_moves().tolist(), spec


def _beyond(param, end):
    if end == "high":
        return param.high + 1 if param.kind is int else param.high * 10
    if param.kind is int:
        return param.low - 1
    return -1.0 if param.low >= 0 else param.low * 10


@pytest.mark.parametrize("case", NUMERIC, ids=_ident)
@pytest.mark.parametrize("end", ["low", "high"])
def test_a_value_beyond_a_bound_is_refused_with_one_line(case, end):
    name, key, param = case
    value = _beyond(param, end)
    prefix = "input=-, " if name == "human" else ""
    with pytest.raises(AgentSpecError) as info:
        create_agent(f"{name}({prefix}{key}={_spec_value(value)})")
    message = str(info.value)
    assert "\n" not in message and key in message and f"agent {name!r}" in message


def test_widen_beyond_its_bound_is_refused_by_play_before_anything_runs(tmp_path, monkeypatch):
    # widen=1e19 used to pass, and every search then failed (1e19 * sqrt(visits) does not
    # fit the kernel's int64).
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "forma", "-a", "mcts(widen=1e19),random",
                                       "--record", "game.json"])
    assert_bad_input(result, "widen", "1e+19")
    assert list(tmp_path.iterdir()) == []


def test_minimax_time_beyond_its_bound_is_refused():
    # as int64 nanoseconds a budget of 1e10 s and more overflows the kernels' deadline
    with pytest.raises(AgentSpecError, match="time must be a number in"):
        create_agent("paranoid(time=1e12)")


def test_a_tree_too_large_for_memory_is_one_line_naming_what_to_lower(near_end):
    agent = create_agent(f"mcts(iterations={1 << 40}, max_nodes={1 << 40})")
    with pytest.raises(Exception) as info:
        agent.act(near_end.view_for(near_end.current_player))
    assert "lower max_nodes or iterations" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_transposition_table_larger_than_the_machines_memory_is_refused(monkeypatch):
    # the table is written in full when the agent is made: one beyond the memory would
    # have the process killed by the system instead of a message
    from forumlab.agents import minimax

    monkeypatch.setattr(minimax, "physical_memory", lambda: 1 << 30)  # a machine of 1 GiB
    with pytest.raises(AgentSpecError, match=r"tt_bits=26 needs a table of 2 GiB, more than this machine's 1 GiB"):
        create_agent("paranoid(tt_bits=26)")
    with pytest.raises(AgentSpecError, match=r"tt_bits=24 needs a table of 1.38 GiB"):
        create_agent("maxn(tt_bits=24)")  # 88 bytes an entry: a value per player
    assert create_agent("paranoid(tt_bits=24)").workspace.tt_bits == 24  # 512 MiB fits
    monkeypatch.setattr(minimax, "physical_memory", lambda: None)  # a system that does not say
    assert create_agent("brs(tt_bits=10)").workspace.tt_bits == 10
