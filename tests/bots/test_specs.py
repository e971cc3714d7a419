"""Where a bot is named: ``cmd:`` specs (with a label), ``cmd(...)`` with parameters, a
tournament file's ``command = [...]``, ``forumlab play`` and ``tournament run``; and the
lifetime a bot declares (a session bot is kept across games, restarted after a fault)."""
import json
import os
import subprocess
import sys

import pytest

from forumlab.agents.registry import check_spec, create_agent
from forumlab.agents.spec import AgentSpecError, parse_spec
from forumlab.api import load_game, play
from forumlab.arena.definition import load_toml
from forumlab.arena.store import ResultStore
from forumlab.bots.referee import CommandAgent, split_command
from forumlab.core.errors import ConfigError

from .helpers import PY_BOT, ROOT, SHORT_CONFIGS, broken


def test_cmd_specs():
    assert parse_spec("cmd:./mybot --flag, x") == ("cmd", {"command": "./mybot --flag, x"})
    assert parse_spec("mybot=cmd:./mybot") == ("cmd", {"command": "./mybot", "label": "mybot"})
    assert parse_spec("cmd(command='./b', budget_wall_ms=50)") == ("cmd", {"command": "./b",
                                                                           "budget_wall_ms": 50})
    assert split_command("./mybot 'a b'") == [os.path.abspath("mybot"), "a b"]
    assert split_command("python3 bot.py") == ["python3", "bot.py"]  # a bare name is found on PATH


def test_a_spec_is_checked_without_starting_the_bot(tmp_path):
    marker = tmp_path / "started"
    assert check_spec(f"cmd:touch {marker}") is CommandAgent
    assert not marker.exists()
    with pytest.raises(AgentSpecError, match="empty"):
        check_spec("cmd:")
    with pytest.raises(AgentSpecError, match="budget_depth"):
        check_spec("cmd(command=./bot, budget_depth=-1)")


def test_bad_bots_are_bad_specs(tmp_path):
    with pytest.raises(AgentSpecError, match="cannot start bot"):
        create_agent(f"cmd:{tmp_path}/missing")
    with pytest.raises(AgentSpecError, match="failed its handshake"):
        create_agent(f"cmd:{broken('bad-handshake')}")
    with pytest.raises(AgentSpecError, match="honours only no budget"):
        create_agent(f"cmd(command='{broken('good')}', budget_cpu_ms=10)")
    with pytest.raises(AgentSpecError, match="declares no option 'depth'"):
        create_agent(f"cmd(command='{PY_BOT}', options='depth=3')")
    with pytest.raises(AgentSpecError, match="is not a bool"):
        create_agent(f"cmd(command='{PY_BOT}', options='think=3')")


def test_spec_round_trip(tmp_path):
    agent = create_agent(f"me=cmd:{PY_BOT}")
    try:
        assert agent.spec() == f"me=cmd:{PY_BOT}"
        assert parse_spec(agent.spec()) == parse_spec(f"me=cmd:{PY_BOT}")
    finally:
        agent.close()
    agent = create_agent(f"cmd(command='{PY_BOT}', budget_wall_ms=20, options='think=true')")
    try:
        assert parse_spec(agent.spec())[1] == {"command": PY_BOT, "budget_wall_ms": 20, "options": "think=true"}
    finally:
        agent.close()


def test_a_tournament_file_names_a_bot_by_its_command(tmp_path):
    script = str(ROOT / "examples" / "bots" / "random_bot.py")
    toml = tmp_path / "t.toml"
    toml.write_text(f'game = "forum-romanum"\n[config]\nplayers = 2\nmax_rounds = 2\n'
                    f'[[agents]]\nname = "pybot"\ncommand = ["{sys.executable}", "{script}"]\n'
                    f'options = {{ think = true }}\nbudget_wall_ms = 10\n'
                    f'[[agents]]\nspec = "random"\n')
    definition = load_toml(toml)
    assert definition.agents[0].label == "pybot"
    assert parse_spec(definition.agents[0].spec)[1] == {
        "command": f"{sys.executable} {script}", "options": "think=true", "budget_wall_ms": 10}
    db = tmp_path / "r.db"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("FORUMLAB_BOT_LOG_DIR", None)
    done = subprocess.run([sys.executable, "-m", "forumlab", "tournament", "run", "--config", str(toml), "--db", str(db),
                           "-w", "1", "-q"], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    assert outcomes and all(not o.faults for o in outcomes)
    logs = os.listdir(f"{db}.bot-logs")  # beside the results file
    assert any(name.endswith(".moves.jsonl") for name in logs)
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "forum-romanum"\n[[agents]]\ncommand = "./bot"\n[[agents]]\nspec = "random"\n')
    with pytest.raises(ConfigError, match="must be a list"):
        load_toml(bad)


def test_play_seats_a_bot_and_reports_its_faults(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), FORUMLAB_BOT_LOG_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "forumlab", "play", "forum-romanum", "-o", "max_rounds=3",
                           "-a", f"mine=cmd:{PY_BOT},cmd:{broken('illegal')}", "--json"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [f["kind"] for f in result["faults"]] == ["illegal"] and result["faults"][0]["seat"] == 1
    assert result["ranks"] == [1, 2]
    assert "played 'no-such-move'" in done.stderr


def test_a_session_bot_is_kept_across_games_and_restarted_after_a_fault(tmp_path):
    game = load_game("forum-romanum", **SHORT_CONFIGS["forum-romanum"])
    spec = dict(command=broken("session"), log_dir=str(tmp_path))
    first = CommandAgent(seed=1, **spec)
    play(game, [first, "random"], seed=1)
    second = CommandAgent(seed=2, **spec)
    play(game, [second, "random"], seed=2)
    assert second.move_log[0]["info"]["games"] == 2  # the same process, its second game
    third = CommandAgent(seed=3, **spec)
    third.game_over({"scores": [0, 0], "ranks": [1, 1]}, faulted=True)  # as after a fault
    fourth = CommandAgent(seed=4, **spec)
    play(game, [fourth, "random"], seed=4)
    assert fourth.move_log[0]["info"]["games"] == 1  # a new process
    fourth.close()


def test_balance_plays_a_bot_in_every_seat():
    # balance without --db plays into a temporary directory, which the bot's logs share:
    # removing it removed files only, and failed on the logs' directory
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("FORUMLAB_BOT_LOG_DIR", None)
    done = subprocess.run([sys.executable, "-m", "forumlab", "balance", "forum-romanum", "-p", "2", "-o",
                           "max_rounds=2", "--agent", f"cmd:{PY_BOT}", "--games", "2", "-w", "1", "-q", "--json"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


def test_the_drivers_hard_limit_cuts_off_a_hanging_bot(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), FORUMLAB_BOT_LOG_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "forumlab", "play", "forum-romanum", "-o", "max_rounds=2",
                           "-a", f"random,cmd:{broken('hang')}", "--hard-limit", "1", "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    faults = json.loads(done.stdout)["faults"]
    assert [(f["seat"], f["kind"]) for f in faults] == [(1, "hang")]
    assert "hard limit of 1 s" in faults[0]["message"]
