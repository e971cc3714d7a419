"""Where a report goes: the path checked before any work, the file written atomically."""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..core.errors import ConfigError
from ..core.files import check_output_file, write_file_atomically
from .data import ReportSection


def check_output_path(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Refuse, before anything runs, a report path that cannot (or must not) be written.

    Args:
        path: the HTML file to write.
        inputs: results files the report reads; the report must not replace one.

    Raises:
        ConfigError: ``path`` exists and is not a regular file (a directory, a device, a
            pipe), its directory does not exist, or it is one of ``inputs``.
    """
    target = check_output_file(path, "report")
    for db in inputs:
        same = (target.exists() and os.path.exists(db) and os.path.samefile(target, db)
                or target.resolve() == Path(db).resolve())
        if same:
            raise ConfigError(f"the report {path} is the results file itself")


def write_report(path: str | os.PathLike, title: str, sections: list[ReportSection],
                 extras: list[tuple[str, str, str]] = ()) -> None:
    """Render the report and write it to ``path`` (complete or not at all).

    Args:
        path: the HTML file (replaced if it exists).
        title: the page title.
        sections: the report's sections.
        extras: additional figures, each ``(id, data URI, caption)``, shown first.

    Raises:
        ConfigError: matplotlib is missing (the ``report`` extra).
        ConfigError: ``path`` is not a regular file (checked again before it is replaced).
        ForumlabError: the file cannot be written.
    """
    from .figures import require_matplotlib
    from .page import render

    require_matplotlib()
    text = render(title, sections, extras)
    write_file_atomically(path, "report", lambda fh: fh.write(text))
