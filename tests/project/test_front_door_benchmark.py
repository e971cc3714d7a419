"""The benchmark behind the claim that the example agent of docs/writing-an-agent.md plays
a whole 2-player Forma game through ``forumlab play`` in seconds measures this checkout's
``forumlab play``, whatever ``forumlab`` script the PATH holds (one of another checkout, or
of a removed install), and fails loudly instead of timing a command that failed."""
import os

import pytest

from benchmarks import python_agent


def test_the_cli_timing_runs_this_checkout_and_the_game_finishes(tmp_path, monkeypatch):
    # A `forumlab` on PATH that is not this checkout's: the benchmark must not run it.
    fake = tmp_path / "forumlab"
    fake.write_text("#!/bin/sh\necho 'not this checkout' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    result = python_agent.forma_cli(1)
    assert result["exit_code"] == 0, result
    assert "winner" in result["last_line"], result
    # The field is filled from a real run (the failed fake command gave none): a shape
    # check, not a speed claim.
    assert result["wall_seconds"] > 0


def test_a_failed_command_is_an_error_not_a_time(monkeypatch):
    monkeypatch.setattr(python_agent, "EXAMPLE", python_agent.ROOT / "README.md")  # not an agent module
    with pytest.raises(Exception, match="forumlab play"):
        python_agent.forma_cli(1)
