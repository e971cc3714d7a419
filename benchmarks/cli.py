"""Running a benchmark's click command the way the forumlab CLI runs its own."""
from __future__ import annotations

import sys

import click

from forumlab.cli import fail


def run_command(command: click.Command) -> None:
    """Run ``command`` with usage errors as one ``error:`` line and exit code 2, and
    Ctrl-C as ``interrupted`` with exit code 130 (no traceback either way)."""
    try:
        command.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        fail(exc.format_message())
