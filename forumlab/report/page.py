"""HTML layout of a report: one page, inline style, every figure a ``data:`` URI.

Element ids are stable so that readers (and tests) can link to a part: the k-th section
(from 1) has ``<section id="tournament-k">`` holding ``<section id="NAME-k">`` for each
NAME of :data:`PARTS`, and each figure is ``<figure id="fig-NAME-k">``. A tournament with
a sequential test adds ``sprt-k``; extra figures (the ladder's curve) come first, each
with the id it is given.
"""
from __future__ import annotations

import json
from html import escape

from .. import __version__
from ..arena.ratings import separation_note
from . import figures
from .data import ReportSection

# Every section's parts, in page order: (id stem, heading).
PARTS = (
    ("ratings", "Ratings"),
    ("superiority", "Likelihood of superiority"),
    ("seats", "Seat advantage"),
    ("scores", "Score distributions"),
    ("lengths", "Game lengths"),
    ("faults", "Faults"),
    ("definition", "Definition and versions"),
)
FIGURE_PARTS = ("ratings", "superiority", "seats", "scores", "lengths")  # always drawn
MAX_FAULT_ROWS = 200  # a listing beyond that says how many more there are

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #ccc; margin-top: 2em; } h3 { margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 0.5em 0; } figure img { max-width: 100%; height: auto; }
figcaption, .note { color: #555; font-size: 0.9em; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
"""


def _signed(value: float) -> str:
    return f"{int(round(value)):+d}"


def _table(header: list[str], rows: list[list[object]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(fig_id: str, uri: str, caption: str) -> str:
    return (f'<figure id="{escape(fig_id)}"><img src="{uri}" alt="{escape(caption)}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>")


def _ratings_part(s: ReportSection, k: int) -> str:
    r = s.ratings
    rows = []
    for a in r.ranking():
        st = r.agent_stats[a]
        low, high = r.elo_interval[a]
        mark = "*" if a in r.separation.position else ""
        rows.append([a, _signed(r.fit.elo[a]) + mark, f"[{_signed(low)}, {_signed(high)}]", st.games,
                     f"{st.win_rate:.3f}", f"{st.mean_rank:.2f}", f"{st.mean_score:.2f}"])
    html = _figure(f"fig-ratings-{k}", figures.ratings_figure(s),
                   f"Plackett-Luce Elo with seat effects, anchor {r.fit.anchor} = 0; bars are 95% "
                   "intervals (Laplace approximation of the posterior).")
    html += _table(["Agent", "Elo", "95% interval", "Games", "Win rate", "Mean rank", "Mean score"], rows)
    note = separation_note(r)
    if note:
        html += f'<p class="note">* {escape(note)}</p>'
    return html


def _superiority_part(s: ReportSection, k: int) -> str:
    return _figure(f"fig-superiority-{k}", figures.superiority_figure(s),
                   "Posterior probability that the row agent is stronger than the column agent.")


def _seats_part(s: ReportSection, k: int) -> str:
    r = s.ratings
    rows = []
    for n in sorted(r.fit.seat_elo):
        for seat, st in enumerate(r.seat_stats[n]):
            low, high = r.seat_elo_interval[n][seat]
            rows.append([f"{n} players, seat {seat}", _signed(r.fit.seat_elo[n][seat]),
                         f"[{_signed(low)}, {_signed(high)}]", st.games, f"{st.win_rate:.3f}",
                         f"{st.mean_rank:.2f}", f"{st.mean_score:.2f}"])
    return (_figure(f"fig-seats-{k}", figures.seats_figure(s),
                    "Seat advantage over seat 0 (Elo, 95% interval) and each seat's win rate.")
            + _table(["Seat", "Elo vs seat 0", "95% interval", "Games", "Win rate", "Mean rank",
                      "Mean score"], rows))


def _scores_part(s: ReportSection, k: int) -> str:
    return _figure(f"fig-scores-{k}", figures.scores_figure(s),
                   f"Final scores per agent: quartiles, and every seat it played as a dot (a fixed "
                   f"random sample of {figures.MAX_DOTS} when there are more).")


def _lengths_part(s: ReportSection, k: int) -> str:
    import numpy as np

    rows = []
    for kind, plies in sorted(s.lengths().items()):
        rows.append([kind, len(plies), min(plies), f"{np.median(plies):g}", f"{np.mean(plies):.1f}",
                     max(plies)])
    return (_figure(f"fig-lengths-{k}", figures.lengths_figure(s), "Plies per game.")
            + _table(["Ended by", "Games", "Min", "Median", "Mean", "Max"], rows))


def _faults_part(s: ReportSection, k: int) -> str:
    uri = figures.faults_figure(s)
    if uri is None:
        return f"<p>No faults in {len(s.outcomes)} games.</p>"
    rows = s.fault_rows()
    caption = f"{len(rows)} faults in {len(s.outcomes)} games, by agent and kind."
    html = _figure(f"fig-faults-{k}", uri, caption)
    html += _table(["Game", "Agent", "Seat", "Ply", "Kind", "Message"],
                   [list(r) for r in rows[:MAX_FAULT_ROWS]])
    if len(rows) > MAX_FAULT_ROWS:
        more = len(rows) - MAX_FAULT_ROWS
        html += f'<p class="note">... and {more} more (forumlab export lists them all).</p>'
    return html


def _definition_part(s: ReportSection, k: int) -> str:
    html = "".join(f"<pre>{escape(json.dumps(d, indent=1, sort_keys=True))}</pre>" for d in s.definitions)
    keys = sorted({key for v in s.versions for key in v})
    if keys:
        html += "<h4>Versions (at creation and of every session that recorded games)</h4>"
        html += _table(["", *keys], [[f"set {i + 1}", *(v.get(key, "") for key in keys)]
                                     for i, v in enumerate(s.versions)])
    return html


def _sprt_part(s: ReportSection, k: int) -> str:
    sprt = s.sprt or {}
    decision = sprt.get("decision")
    what = {"H1": "accepted H1: the candidate is stronger by elo1 or more",
            "H0": "accepted H0: the candidate is not stronger by elo1 (at most elo0)"}.get(
        decision, "undecided so far")
    rows = [[key, f"{sprt[key]:.4g}" if isinstance(sprt[key], float) else sprt[key]]
            for key in sorted(sprt) if key != "trace"]
    html = f"<p>{escape(str(sprt.get('candidate', 'the candidate')))}: {escape(what)}.</p>"
    html += _table(["Field", "Value"], rows)
    uri = figures.sprt_figure(s)
    if uri is not None:
        html += _figure(f"fig-sprt-{k}", uri, "Log-likelihood ratio after each whole rotation group.")
    return html


def _part(part_id: str, heading: str, content: str) -> str:
    return f'<section id="{part_id}"><h3>{escape(heading)}</h3>{content}</section>'


_RENDER = {"ratings": _ratings_part, "superiority": _superiority_part, "seats": _seats_part,
           "scores": _scores_part, "lengths": _lengths_part, "faults": _faults_part,
           "definition": _definition_part}


def render(title: str, sections: list[ReportSection],
           extras: list[tuple[str, str, str]] = ()) -> str:
    """The whole page.

    Args:
        title: the page title.
        sections: the report's sections, in order.
        extras: additional figures shown first, each ``(id, data URI, caption)``.

    Returns:
        The HTML document as text.
    """
    body = [f"<h1>{escape(title)}</h1>",
            f'<p class="note">Written by forumlab {escape(__version__)}; '
            f"{sum(len(s.outcomes) for s in sections)} games in {len(sections)} part(s).</p>"]
    body += [_figure(fig_id, uri, caption) for fig_id, uri, caption in extras]
    toc = "".join(f'<li><a href="#tournament-{k}">{escape(s.title)}</a></li>'
                  for k, s in enumerate(sections, start=1))
    body.append(f"<nav><ul>{toc}</ul></nav>")
    for k, s in enumerate(sections, start=1):
        games = len(s.outcomes)
        parts = [f'<section id="tournament-{k}"><h2>{escape(s.title)}</h2>',
                 f'<p class="note">{games} games, {s.fault_count} faults.</p>']
        if s.sprt:
            parts.append(_part(f"sprt-{k}", "Sequential test (SPRT)", _sprt_part(s, k)))
        for stem, heading in PARTS:
            parts.append(_part(f"{stem}-{k}", heading, _RENDER[stem](s, k)))
        parts.append("</section>")
        body.append("".join(parts))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")
