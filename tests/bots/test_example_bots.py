"""The example bots (Python, standard library only; C, built here) play whole games of
every game through the referee, and pass ``forumlab bot check``."""
import json
import os
import subprocess
import sys

import pytest

from forumlab.api import load_game, play
from forumlab.bots.check import run_checks
from forumlab.bots.referee import CommandAgent

from .helpers import PY_BOT, ROOT, SHORT_CONFIGS

GAMES = sorted(SHORT_CONFIGS)


def _play_whole_game(command: str, name: str, tmp_path) -> None:
    game = load_game(name, **SHORT_CONFIGS[name])
    specs = [f"cmd(command='{command}', log_dir='{tmp_path}')"] + ["random"] * (game.players - 1)
    record = play(game, specs, seed=3)
    assert record.result["terminal"]
    assert len(record.moves) == record.result["plies"] > 0
    logs = [p for p in os.listdir(tmp_path) if p.endswith(".moves.jsonl")]
    assert logs, "the referee logs every move"
    entries = [json.loads(line) for p in logs for line in open(tmp_path / p)]
    # Not a speed check: the log's overhead is the wall time minus the bot's own, so it
    # can be neither negative nor more than the whole move, however busy the machine.
    assert entries and all(e["wall_ms"] >= e["overhead_ms"] >= 0 for e in entries)


@pytest.mark.parametrize("name", GAMES)
def test_python_bot_plays_whole_games(name, tmp_path):
    _play_whole_game(PY_BOT, name, tmp_path)


@pytest.mark.parametrize("name", GAMES)
def test_c_bot_plays_whole_games(name, c_bot, tmp_path):
    _play_whole_game(c_bot, name, tmp_path)


def test_python_bot_passes_the_check(tmp_path):
    checks = run_checks(PY_BOT, log_dir=str(tmp_path))
    assert [c.line() for c in checks if not c.ok] == []
    names = {c.name for c in checks}
    assert {"handshake", "protocol", "hello", "games", "long-think", "unknown-message", "quit",
            "stdin-end"} <= names
    assert {f"game {g}" for g in GAMES} <= names


def test_c_bot_passes_the_check_on_the_command_line(c_bot):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "forumlab", "bot", "check", c_bot], capture_output=True,
                          text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("PASS ") for line in lines)
    assert any(line.startswith("PASS game foundations-of-rome") for line in lines)


def test_the_same_seed_plays_the_same_game(c_bot, tmp_path):
    game = load_game("forum-romanum", **SHORT_CONFIGS["forum-romanum"])
    spec = f"cmd(command='{c_bot}', log_dir='{tmp_path}')"
    first = play(game, [spec, spec], seed=5)
    second = play(game, [spec, spec], seed=5)
    assert first.moves == second.moves


def test_a_bot_that_thinks_reports_it_and_the_overhead_is_the_rest(tmp_path):
    game = load_game("forum-romanum", **SHORT_CONFIGS["forum-romanum"])
    state = game.new_state(1)
    agent = CommandAgent(seed=1, command=PY_BOT, options="think=true", budget_wall_ms=400, log_dir=str(tmp_path))
    try:
        move = agent.act(state.view_for(state.current_player))
    finally:
        agent.close()
    assert state.is_legal(move)
    entry = agent.move_log[0]
    # Not a speed check: the bot reports the time it chose to spend (half its budget) and
    # the referee must pass that report through; a busy machine can only lengthen it.
    assert entry["thinking_ms"] >= 190  # half of the wall_ms budget, as the example bot spends it
    assert entry["wall_ms"] >= entry["thinking_ms"]
    assert entry["overhead_ms"] == pytest.approx(entry["wall_ms"] - entry["thinking_ms"], abs=1e-3)
