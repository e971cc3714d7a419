"""Self-contained HTML reports of tournaments.

One report is one HTML file with every figure embedded (SVG as ``data:`` URIs, no
external reference), so it can be mailed, archived or opened offline. A report holds one
or more *sections*, each a set of games rated together: a tournament (``forumlab report
DB``), a seat-balance study (``forumlab balance --report``), or the parts of the strength
ladder (``python -m benchmarks.ladder --report``).

Modules, one job each:

* :mod:`.data` gathers a section from a results file or from outcomes (ratings through
  :mod:`forumlab.arena.ratings`, distributions, faults, definition, versions);
* :mod:`.figures` draws each figure with matplotlib (the optional extra ``report``);
* :mod:`.page` lays the sections out as HTML;
* :mod:`.output` checks the output path and writes the file atomically;
* :mod:`.command` is the ``forumlab report`` command.
"""
from __future__ import annotations

from .data import ReportSection, section_from_outcomes, section_from_store
from .figures import require_matplotlib
from .output import check_output_path, write_report

__all__ = [
    "ReportSection",
    "check_output_path",
    "require_matplotlib",
    "section_from_outcomes",
    "section_from_store",
    "write_report",
]
