"""``module:Class`` agent specs find a module in the current directory, with the
``forumlab`` script as with ``python -m forumlab``, in the main process and in the
tournament's worker processes."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from forumlab.agents.registry import agent_class, create_agent
from forumlab.agents.spec import AgentSpecError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "one_ply.py"


@pytest.fixture
def bot_dir(tmp_path, monkeypatch):
    """A current directory holding the example agent as mybot.py; sys.path and
    sys.modules are restored afterwards."""
    shutil.copy(EXAMPLE, tmp_path / "mybot.py")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for name in ("mybot", "needs_missing"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield tmp_path
    for name in ("mybot", "needs_missing"):
        sys.modules.pop(name, None)


def test_a_module_in_the_current_directory_is_loaded(bot_dir):
    cls = agent_class("mybot:OnePly")
    assert cls.__name__ == "OnePly" and cls.__module__ == "mybot"
    assert create_agent("mybot:OnePly", seed=3).seed == 3
    assert sys.path[-1] == str(bot_dir)  # appended last: never shadows an installed module


def test_a_missing_import_inside_the_module_is_reported_as_such(bot_dir):
    (bot_dir / "needs_missing.py").write_text("import no_such_module_here\n")
    with pytest.raises(AgentSpecError, match="no_such_module_here"):
        agent_class("needs_missing:Bot")


def test_an_installed_module_wins_over_a_file_of_the_same_name(bot_dir):
    (bot_dir / "json.py").write_text("raise RuntimeError('the local json.py was imported')\n")
    with pytest.raises(AgentSpecError, match="cannot load agent 'json:Bot'"):
        agent_class("json:Bot")
    assert str(bot_dir) not in sys.path


def test_an_unknown_module_is_still_an_error(bot_dir):
    with pytest.raises(AgentSpecError, match="cannot load agent 'nobot:Bot'"):
        agent_class("nobot:Bot")
    assert str(bot_dir) not in sys.path


def _forumlab() -> str:
    """The installed ``forumlab`` script: unlike ``python -c`` or ``python -m``, it does
    not put the current directory on sys.path, which is the case under test."""
    script = shutil.which("forumlab") or str(Path(sys.executable).parent / "forumlab")
    # The test command installs the package first (.ci/run: pip install -e '.[dev]'), so a
    # missing script is a broken install, not a reason to skip.
    assert Path(script).exists(), f"the forumlab script is not installed ({script})"
    return script


def test_forumlab_play_runs_an_agent_from_the_current_directory(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / "mybot.py")
    done = subprocess.run([_forumlab(), "play", "forma", "-p", "2", "--seed", "1", "-a", "mybot:OnePly,greedy"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert "seat 0 mybot:OnePly" in done.stdout and "failed" not in done.stderr, done.stdout + done.stderr


def test_tournament_workers_load_an_agent_from_the_current_directory(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / "mybot.py")
    run = subprocess.run([_forumlab(), "tournament", "run", "--game", "forum-romanum", "-p", "2",
                          "--format", "gauntlet", "--candidate", "mine", "-a", "mine=mybot:OnePly",
                          "-a", "random", "--games", "1", "--workers", "2", "--db", "t.db"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    assert "2 games, 0 faults" in run.stdout, run.stdout + run.stderr
    ratings = subprocess.run([_forumlab(), "ratings", "t.db"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=300)
    assert ratings.returncode == 0 and "mine" in ratings.stdout, ratings.stdout + ratings.stderr
