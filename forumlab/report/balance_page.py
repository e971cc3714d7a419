"""A balance study as one self-contained HTML page: the setup, seat effects (forest plot and
table), first-player advantage and joint tests, game length and scores, score sources and the
text report's conclusions. Figures are embedded as ``data:`` URIs, as in the tournament report.

Element ids: ``setup``, ``seats`` (``fig-seats``), ``lengths`` (``fig-lengths``), ``sources``
(``fig-sources`` when the game reports them) and ``text``.
"""
from __future__ import annotations

import os
from html import escape
from typing import Any

from .. import __version__
from .page import _STYLE, _figure, _table

_WIDE = ".wide { overflow-x: auto; } .wide td { white-space: nowrap; }\n"


def _setup_part(study: dict[str, Any], report: dict[str, Any], files: list[tuple[str, int]]) -> str:
    from ..arena.balance_text import _options

    rows = [[v["name"], _options(v["options"]), v["games"]] for v in report["variants"]]
    parts = [f"<p>{escape(study['game'])}, {study['players']} players, self-play of "
             f"<code>{escape(str(study['agent']))}</code>; every variant on the same game seeds.</p>",
             _table(["variant", "rules", "games"], rows, left=2)]
    if files:
        parts.append('<p class="note">From ' + ", ".join(f"{escape(str(p))} ({n} games)" for p, n in files)
                     + ".</p>")
    return "".join(parts)


def _seat_part(report: dict[str, Any]) -> str:
    from ..arena.balance_text import _columns, _elo_cell, _p_cell, _verdict
    from .balance_figures import forest_figure

    fam = report["family"]
    names, items = _columns(report)
    rows = [[f"seat {s}"] + [_elo_cell(it["seats"][s]) for it in items] for s in range(report["players"])]
    rows.append(["first player"] + [_elo_cell(it["first_player_advantage"]) for it in items])
    rows.append(["no seat matters p"] + [_p_cell(it["no_seat_matters"]) for it in items])
    caption = (f"Seat effects with intervals that hold together with 95% confidence (each a "
               f"{100 * fam['coverage']:.2f}% interval, {fam['method']} over {fam['comparisons']} "
               "comparisons); diamonds and thick lines exclude 0.")
    return (_figure("fig-seats", forest_figure(report), caption)
            + _scrolling(_table(["", *names], rows))
            + '<p class="note">first player: seat 0 against the average other seat. no seat matters p: '
              "joint Wald test, adjusted p in brackets (* rejected). * after an interval: it excludes 0.</p>"
            + f"<p><strong>{escape(_verdict(names, items))}</strong></p>")


def _lengths_part(report: dict[str, Any]) -> str:
    from .balance_figures import distributions_figure

    return _figure("fig-lengths", distributions_figure(report),
                   "Per variant: 10-90% of games (band), median (tick), mean with its 95% interval (dot).")


def _sources_part(report: dict[str, Any]) -> str:
    from .balance_figures import sources_figure

    uri = sources_figure(report)
    if uri is None:
        return '<p class="note">This game does not report points per scoring source.</p>'
    return _figure("fig-sources", uri, "Mean points per seat from each scoring source, by variant.")


def _scrolling(table: str) -> str:
    """A table that scrolls sideways on a narrow screen instead of breaking its intervals."""
    return f'<div class="wide">{table}</div>'


def _section(stem: str, heading: str, html: str) -> str:
    return f'<section id="{stem}"><h2>{escape(heading)}</h2>{html}</section>'


def render_balance(study: dict[str, Any], report: dict[str, Any], text: str,
                   files: list[tuple[str, int]] = ()) -> str:
    """The whole page of a balance study.

    Args:
        study: the study definition (game, players, agent).
        report: :func:`forumlab.arena.balance_analysis.analyse_study` of its games.
        text: the text report (:func:`forumlab.arena.balance_text.format_study`), shown last.
        files: (path, games) of each results file read.

    Returns:
        The HTML document.
    """
    title = f"Balance: {study['game']}, {study['players']} players"
    body = [f"<h1>{escape(title)}</h1>",
            f'<p class="note">Written by forumlab {escape(__version__)}.</p>',
            _section("setup", "Setup", _setup_part(study, report, list(files))),
            _section("seats", "Seat effects, first player and joint tests", _seat_part(report)),
            _section("lengths", "Game length and scores", _lengths_part(report)),
            _section("sources", "Score sources", _sources_part(report)),
            _section("text", "The text report", f"<pre>{escape(text)}</pre>")]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{_STYLE}{_WIDE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_balance_html(path: str | os.PathLike, study: dict[str, Any], report: dict[str, Any], text: str,
                       files: list[tuple[str, int]] = ()) -> None:
    """Render the page and write it to ``path`` atomically (complete or not at all).

    Raises:
        ConfigError: matplotlib is missing, or ``path`` is not a regular file.
    """
    from ..core.files import write_file_atomically
    from .figures import require_matplotlib

    require_matplotlib()
    page = render_balance(study, report, text, files)
    write_file_atomically(path, "report", lambda fh: fh.write(page))
