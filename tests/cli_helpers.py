"""Helpers shared by the command-line tests: invoke the CLI in-process, check a one-line error."""
from __future__ import annotations

from click.testing import CliRunner

from forumlab.cli import main


def run(*args):
    """Invoke ``forumlab ARGS...`` in-process; every argument is passed as text."""
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(result) -> str:
    """Assert that ``result`` is a bad-input exit: status 2 and one ``error:`` line on stderr."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    message = result.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    return message
