"""``forumlab bot check`` fails a bot that breaks a rule with the right check and message
(one test per rule), and exits 0 / 1 / 2 as documented."""
import os
import subprocess
import sys

import pytest

from forumlab.agents.spec import AgentSpecError
from forumlab.bots.check import run_checks
from forumlab.core.errors import UnknownGameError

from .helpers import ROOT, broken

RULES = [
    # mode, the check that fails, words its message must contain
    ("bad-handshake", "handshake", "not JSON"),
    ("wrong-protocol", "protocol", "forumlab-bot/0"),
    ("unknown-game", "games", "'chess', which is not a forumlab game"),
    ("malformed", "game forum-romanum", "'exception' fault"),
    ("illegal", "game forum-romanum", "'illegal' fault"),
    ("flood", "game forum-romanum", "longer than 1048576 bytes"),
    ("latin1", "game forum-romanum", "not UTF-8"),
    ("hang", "game forum-romanum", "'hang' fault"),
    ("crash", "game forum-romanum", "'crash' fault"),
    ("early-exit", "game forum-romanum", "'exit' fault"),
    ("chatty", "unknown-message", "message types it does not know"),
    ("deaf", "quit", "still running 1 s after quit"),
    ("immortal", "quit", "still running 1 s after quit"),
]


@pytest.mark.parametrize("mode, check, words", RULES)
def test_a_bot_that_breaks_a_rule_fails_its_check(mode, check, words, tmp_path):
    game = None if mode == "unknown-game" else "forum-romanum"
    checks = run_checks(broken(mode), game, timeout=1.0, log_dir=str(tmp_path))
    failed = [c for c in checks if not c.ok]
    assert failed, [c.line() for c in checks]
    assert failed[0].name == check, [c.line() for c in checks]
    assert words in failed[0].message
    assert "fix" in failed[0].message  # every failure says how to fix it
    assert failed[0].line().startswith(f"FAIL {check}: ")


def test_a_bot_must_exit_when_its_stdin_ends(tmp_path):
    checks = {c.name: c for c in run_checks(broken("immortal"), "forum-romanum", 2.0, str(tmp_path))}
    assert not checks["stdin-end"].ok and "still running 1 s after its stdin ended" in checks["stdin-end"].message
    assert checks["quit"].ok is False
    deaf = {c.name: c for c in run_checks(broken("deaf"), "forum-romanum", 2.0, str(tmp_path))}
    assert deaf["stdin-end"].ok  # it ignores quit, but not the end of its input


def test_the_fault_messages_say_what_the_bot_did(tmp_path):
    checks = {c.name: c for c in run_checks(broken("illegal"), "forum-romanum", 2.0, str(tmp_path))}
    assert "'no-such-move', which is not a move here" in checks["game forum-romanum"].message
    crash = {c.name: c for c in run_checks(broken("crash"), "forum-romanum", 2.0, str(tmp_path))}
    assert "signal 11 (SIGSEGV)" in crash["game forum-romanum"].message


def test_bad_input_is_refused_before_anything_runs():
    with pytest.raises(AgentSpecError, match="empty"):
        run_checks("   ")
    with pytest.raises(UnknownGameError):
        run_checks(broken("good"), "chess")
    with pytest.raises(AgentSpecError, match="cannot run"):
        run_checks("/nonexistent/bot")


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "forumlab", "bot", "check", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def test_exit_codes():
    bad = _cli(broken("wrong-protocol"))
    assert bad.returncode == 1
    assert "FAIL protocol: " in bad.stdout
    missing = _cli("/nonexistent/bot")
    assert missing.returncode == 2 and missing.stderr.startswith("error: cannot run '/nonexistent/bot'")
    unbalanced = _cli("./bot 'unclosed")
    assert unbalanced.returncode == 2
    assert unbalanced.stderr.startswith("error: ") and len(unbalanced.stderr.splitlines()) == 1
