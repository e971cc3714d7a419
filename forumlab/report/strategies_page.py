"""The strategies meta-game (``forumlab strategies``) as one self-contained HTML page: the
rating table, the head-to-head matrix as a heatmap, the equilibrium mass with its bootstrap
intervals, and the verdict. Figures are embedded as ``data:`` URIs, as in the tournament report.

Element ids: ``verdict``, ``ratings``, ``h2h`` (``fig-h2h``), ``equilibrium`` (``fig-equilibrium``)
and ``text``.
"""
from __future__ import annotations

import os
from html import escape
from typing import Any

import numpy as np

from .. import __version__
from .figures import MAX_ANNOTATED, WIDTH, literal_text, svg_uri
from .page import _STYLE, _figure, _table

_WIDE = ".wide { overflow-x: auto; } .wide td { white-space: nowrap; }\n"


def _share_matrix(metagame: dict[str, Any]) -> tuple[list[str], np.ndarray]:
    names = [row["strategy"] for row in metagame["strategies"]]
    h2h = metagame["head_to_head"]
    m = np.full((len(names), len(names)), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j and h2h[a].get(b) is not None:
                m[i, j] = h2h[a][b]
    return names, m


@literal_text
def head_to_head_figure(metagame: dict[str, Any]) -> str:
    """Heatmap: the share of the column strategy's seats the row strategy finished ahead of."""
    from matplotlib.figure import Figure

    names, m = _share_matrix(metagame)
    k = len(names)
    side = min(WIDTH, 2.2 + 0.55 * k)
    fig = Figure(figsize=(side + 1.2, side), layout="constrained")
    ax = fig.subplots()
    ax.set_facecolor("#eeeeee")  # the diagonal (a strategy against itself) has no value
    image = ax.imshow(np.ma.masked_invalid(m), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(k), names, rotation=45, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    if k <= MAX_ANNOTATED:
        for i in range(k):
            for j in range(k):
                if not np.isnan(m[i, j]):
                    ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8,
                            color="white" if abs(m[i, j] - 0.5) > 0.3 else "black")
    fig.colorbar(image, ax=ax, label="share of opponents finished ahead of")
    return svg_uri(fig)


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


@literal_text
def equilibrium_figure(metagame: dict[str, Any]) -> str:
    """Bars: each strategy's mass in the symmetric equilibrium and in alpha-rank, with the
    bootstrap 95% intervals as error bars."""
    from matplotlib.figure import Figure

    rows = metagame["strategies"]
    k = len(rows)
    fig = Figure(figsize=(WIDTH, 2.4 + 0.1 * k), layout="constrained")
    ax = fig.subplots()
    x = np.arange(k)
    for offset, key, label, colour in ((-0.2, "nash", "equilibrium (Nash)", "tab:blue"),
                                       (0.2, "alpharank", "alpha-rank", "tab:gray")):
        values = np.array([r[key] or 0.0 for r in rows])
        # No bootstrap (--bootstrap 0) leaves the intervals empty: no error bar then.
        lows = np.array([_or(r[f"{key}_95"][0], v) for r, v in zip(rows, values)])
        highs = np.array([_or(r[f"{key}_95"][1], v) for r, v in zip(rows, values)])
        err = np.vstack([np.clip(values - lows, 0, None), np.clip(highs - values, 0, None)])
        ax.bar(x + offset, values, width=0.4, yerr=err, capsize=3, label=label, color=colour)
    tilt = k > 5  # long lists of names overlap when level
    ax.set_xticks(x, [r["strategy"] for r in rows], rotation=30 if tilt else 0,
                  ha="right" if tilt else "center")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("probability mass")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return svg_uri(fig)


def _ratings_table(ratings: dict[str, Any]) -> str:
    # Comparison intervals (as the text table prints): the anchor's own 95% interval is
    # [0, 0] by construction and would read as certainty.
    rows = [[a["agent"], f"{a['elo']:+.0f}", f"[{a['comparison_low']:+.0f}, {a['comparison_high']:+.0f}]",
             f"{a['win_rate']:.3f}", f"{a['mean_rank']:.2f}", a["games"]] for a in ratings["agents"]]
    anchor = ratings["model"].get("anchor")
    note = (f'<p class="note">Elo ({escape(str(anchor))} at 0) with comparison intervals: two strategies '
            "whose intervals do not overlap differ with a likelihood of superiority of at least 0.975.</p>")
    header = ["strategy", "Elo", "comparison interval", "win rate", "mean rank", "games"]
    return _scrolling(_table(header, rows)) + note


def _scrolling(table: str) -> str:
    """A table that scrolls sideways on a narrow screen instead of breaking its intervals."""
    return f'<div class="wide">{table}</div>'


def _section(stem: str, heading: str, html: str) -> str:
    return f'<section id="{stem}"><h2>{escape(heading)}</h2>{html}</section>'


def render_strategies(report: dict[str, Any], text: str) -> str:
    """The whole page of a strategies study.

    Args:
        report: :func:`forumlab.arena.strategies_command.strategies_report` (without ``text``).
        text: the text the command prints, shown last.

    Returns:
        The HTML document.
    """
    mg = report["metagame"]
    title = f"Strategies: {report['game']}, {report['config'].get('players')} players"
    verdict = mg["verdict"]
    body = [f"<h1>{escape(title)}</h1>",
            f'<p class="note">Written by forumlab {escape(__version__)}; {report["games"]} games, '
            f"{mg['groups']} rotation groups, {mg['bootstrap']} bootstrap resamples.</p>",
            _section("verdict", "Verdict", f"<p><strong>{escape(verdict['text'])}</strong></p>"),
            _section("ratings", "Ratings", _ratings_table(report["ratings"])),
            _section("h2h", "Head to head", _figure("fig-h2h", head_to_head_figure(mg),
                     "Share of the opponent's seats that the row strategy finished ahead of (0.5: even).")),
            _section("equilibrium", "Equilibrium mass", _figure("fig-equilibrium", equilibrium_figure(mg),
                     "Mass of each strategy in the symmetric equilibrium and in alpha-rank, with bootstrap "
                     "95% intervals over the rotation groups.")),
            _section("text", "The text report", f"<pre>{escape(text)}</pre>")]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{_STYLE}{_WIDE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_strategies_html(path: str | os.PathLike, report: dict[str, Any], text: str) -> None:
    """Render the page and write it to ``path`` atomically (complete or not at all).

    Raises:
        ConfigError: matplotlib is missing, or ``path`` is not a regular file.
    """
    from ..core.files import write_file_atomically
    from .figures import require_matplotlib

    require_matplotlib()
    page = render_strategies(report, text)
    write_file_atomically(path, "report", lambda fh: fh.write(page))
