"""HTML layout of a report: one page, inline style, every figure a ``data:`` URI.

Element ids are stable so that readers (and tests) can link to a part: the k-th section
(from 1) has ``<section id="tournament-k">`` holding ``<section id="NAME-k">`` for each
NAME of :data:`PARTS`, and each figure is ``<figure id="fig-NAME-k">``. A tournament with
a sequential test adds ``sprt-k``; extra figures (the ladder's curve) come first, each
with the id it is given.
"""
from __future__ import annotations

from html import escape

from .. import __version__
from ..arena.ratings import COMPARISON_LOS, ms_text, scale_note, separation_note
from . import figures
from .data import ReportSection

# Every section's parts, in page order: (id stem, heading).
PARTS = (
    ("ratings", "Ratings"),
    ("superiority", "Likelihood of superiority"),
    ("h2h", "Head to head"),
    ("times", "Time per move"),
    ("seats", "Seats"),
    ("scores", "Score distributions"),
    ("lengths", "Game lengths"),
    ("faults", "Faults"),
    ("definition", "Definition and versions"),
)
# Drawn whenever two or more agents are rated (with one agent, a self-play study, the
# comparisons have nothing to show, and the seats part carries the figures instead).
FIGURE_PARTS = ("ratings", "superiority", "seats", "scores", "lengths")
# A self-play section (one agent in every seat) leads with its seats and leaves out the
# parts that compare agents.
SELF_PLAY_PARTS = ("seats", "ratings", "times", "lengths", "faults", "definition")
# A cooperative game's section: the team's results against the automaton take the place
# of the ratings, and nothing that ranks the seats against each other is shown.
TEAM_PARTS = ("ratings", "times", "scores", "lengths", "faults", "definition")
MAX_FAULT_ROWS = 200  # a listing beyond that says how many more there are

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #ccc; margin-top: 2em; } h3 { margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child, th.text, td.text { text-align: left; }
figure { margin: 0.5em 0; } figure img { max-width: 100%; height: auto; }
figcaption, .note { color: #555; font-size: 0.9em; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
"""


def _signed(value: float) -> str:
    return f"{int(round(value)):+d}"


def _table(header: list[str], rows: list[list[object]], left: int = 1) -> str:
    """An HTML table; the first ``left`` columns (text) left-aligned, the rest (numbers) right."""
    def cell(tag, k, c):
        align = ' class="text"' if 0 < k < left else ""
        return f"<{tag}{align}>{escape(str(c))}</{tag}>"

    head = "".join(cell("th", k, h) for k, h in enumerate(header))
    body = "".join("<tr>" + "".join(cell("td", k, c) for k, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(fig_id: str, uri: str, caption: str) -> str:
    return (f'<figure id="{escape(fig_id)}"><img src="{uri}" alt="{escape(caption)}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>")


def _one_agent(s: ReportSection) -> str | None:
    """The note that replaces a comparison when fewer than two agents are rated."""
    if len(s.agents) >= 2:
        return None
    return (f'<p class="note">One agent ({escape(s.agents[0])}) in every seat: a self-play study, so there '
            "are no agents to compare; the Seats part above shows what the games say.</p>")


def _ratings_part(s: ReportSection, k: int) -> str:
    r = s.ratings
    if len(s.agents) < 2:
        st = r.agent_stats[s.agents[0]]
        return _one_agent(s) + _table(["Agent", "Games", "Win rate", "Mean rank", "Mean score"],
                                      [[s.agents[0], st.games, f"{st.win_rate:.3f}", f"{st.mean_rank:.2f}",
                                        f"{st.mean_score:.2f}"]])
    rows = []
    for a in r.ranking():
        st = r.agent_stats[a]
        low, high = r.comparison_interval[a]
        mark = "*" if a in r.separation.position else ""
        los = r.los_next.get(a)
        rows.append([a, _signed(r.fit.elo[a]) + mark, f"[{_signed(low)}, {_signed(high)}]",
                     "-" if los is None else f"{los:.2f}", st.games, f"{st.win_rate:.3f}",
                     f"{st.mean_rank:.2f}", f"{st.mean_score:.2f}"])
    html = _one_agent(s) or _figure(
        f"fig-ratings-{k}", figures.ratings_figure(s),
        f"Plackett-Luce Elo with seat effects, {r.fit.anchor} = 0. Bars are comparison intervals "
        f"(quasi-variances, Firth & de Menezes 2004): two bars that do not overlap belong to agents "
        f"whose likelihood of superiority is about {COMPARISON_LOS} or more. At the right, between two "
        "rows: the likelihood of superiority of the upper agent over the lower.")
    html += _table(["Agent", "Elo", "Interval", "LOS next", "Games", "Win rate", "Mean rank", "Mean score"],
                   rows)
    note = separation_note(r)
    if note:
        html += f'<p class="note">* {escape(note)}</p>'
    if len(s.agents) >= 2:
        html += f'<p class="note">{escape(scale_note(r))}</p>'
    return html


def _team_part(s: ReportSection, k: int) -> str:
    """A cooperative game's results: the team's win rate against the automaton, per agent
    and per lineup (the figures of ``forumlab ratings``)."""
    t = s.team

    def row(name: str, r: dict) -> list[object]:
        low, high = r["win_rate_95"]
        return [name, r["games"], r["team_wins"], f"{r['win_rate']:.3f}", f"[{low:.3f}, {high:.3f}]",
                f"{r['mean_value']:.2f}"]

    rows = [row("all games", t["team"])] + [row(a, r) for a, r in t["agents"].items()]
    if len(t["lineups"]) > 1:
        rows += [row(name, r) for name, r in t["lineups"].items()]
    return ('<p class="note">A cooperative game: the seats win or lose together against the '
            "automaton, so the team's win rate (95% Wilson interval) is shown, not competitive "
            "ratings.</p>"
            + _table(["Agent / lineup", "Games", "Team wins", "Team win rate", "95% interval", "Mean value"],
                     rows))


def _superiority_part(s: ReportSection, k: int) -> str:
    return _one_agent(s) or _figure(
        f"fig-superiority-{k}", figures.superiority_figure(s),
        "Posterior probability that the row agent is stronger than the column agent.")


def _h2h_part(s: ReportSection, k: int) -> str:
    pairs = s.pair_counts()
    if not pairs:
        return _one_agent(s) or "<p>No two agents met.</p>"
    rows = [[a, b, games, f"{a_ahead:g}", f"{b_ahead:g}", f"{a_wins:g}", f"{b_wins:g}"]
            for a, b, games, a_ahead, b_ahead, a_wins, b_wins in pairs]
    return (_table(["Agent A", "Agent B", "Games together", "A ahead of B", "B ahead of A", "A won",
                    "B won"], rows, left=2)
            + '<p class="note">Agent A is the higher rated. "Ahead": finished ahead of the other; a shared '
              'rank counts 1/2 to each, and an agent in two seats of a game (merged copies) counts each '
              'seat. "Won": games won outright, a win shared by k seats counting 1/k.</p>')


def _times_part(s: ReportSection, k: int) -> str:
    times = s.ratings.move_times or {}
    if not times:
        return "<p>These games carry no move timings.</p>"
    rows = []
    approximate = partial = False
    for a in s.agents:
        t = times.get(a)
        if t is None:
            continue
        if not t.complete:
            approximate = True
            partial = partial or t.detailed_games > 0
        rows.append([a, t.moves, ms_text(t.mean), t.wall_max_ms(), ms_text(t.cpu_mean),
                     ms_text(t.cpu_max_move), f"{t.seconds:.1f}"])
    html = ""
    uri = figures.times_figure(s) if len(s.agents) >= 2 else None  # one bar compares nothing
    if uri is not None:
        html += _figure(f"fig-times-{k}", uri, "Milliseconds per move, wall clock, log scale: the mean "
                                               "(bar) and the longest move (dot).")
    html += _table(["Agent", "Moves", "Wall mean ms", "Wall max ms", "CPU mean ms", "CPU max ms",
                    "Total wall s"], rows)
    note = ("Wall clock and CPU time (of the thread that ran the agent's act()) per move; the wall mean is "
            "exact from the totals every results file keeps.")
    if approximate:
        note += (" ~: some games kept only their total time (written before single-move times were kept), so "
                 "the maximum is the largest of the known longest moves and the slowest game's mean, a lower "
                 "bound; CPU time " + ("is over the games that kept it." if partial else "was not recorded."))
    return html + f'<p class="note">{escape(note)}</p>'


def _seats_part(s: ReportSection, k: int) -> str:
    r = s.ratings
    rows = []
    for n in sorted(r.fit.seat_elo):
        for seat, st in enumerate(r.seat_stats[n]):
            low, high = r.seat_elo_interval[n][seat]
            rows.append([f"{n} players, seat {seat}", _signed(r.fit.seat_elo[n][seat]),
                         f"[{_signed(low)}, {_signed(high)}]", st.games, f"{st.win_rate:.3f}",
                         f"{st.mean_rank:.2f}", f"{st.mean_score:.2f}"])
    html = (_figure(f"fig-seats-{k}", figures.seats_figure(s),
                    "Seat advantage over seat 0 (Elo, 95% interval) and each seat's win rate.")
            + _table(["Seat", "Elo vs seat 0", "95% interval", "Games", "Win rate", "Mean rank",
                      "Mean score"], rows))
    html += _figure(f"fig-seat-scores-{k}", figures.seat_scores_figure(s),
                    "Final scores per seat: quartiles, and every game as a dot.")
    uri = figures.score_sources_figure(s)
    if uri is not None:
        html += _figure(f"fig-score-sources-{k}", uri,
                        "Mean points per game by scoring source and seat (games replayed from their moves).")
        for n, seats in sorted(s.score_sources.items()):
            sources = list(seats[0])
            html += _table([f"{n} players", *[src.replace("_", " ") for src in sources], "total"],
                           [[f"seat {i}", *(f"{seat.get(src, 0.0):.2f}" for src in sources),
                             f"{sum(seat.values()):.2f}"] for i, seat in enumerate(seats)])
    return html


def _scores_part(s: ReportSection, k: int) -> str:
    if len(s.agents) < 2:
        return '<p class="note">One agent: its scores per seat are in the Seats part.</p>'
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


def _value(value) -> str:
    """A definition value as text: mappings as ``key=value`` pairs, None as a dash."""
    if value is None:
        return "-"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_value(v)}" for k, v in sorted(value.items())) or "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value) or "-"
    return str(value)


def _definition_part(s: ReportSection, k: int) -> str:
    html = ""
    if s.sources:
        html += f"<p>Games from {escape(', '.join(s.sources))}.</p>"
    if s.merges:
        html += f"<p>Labels rated as one agent: {escape('; '.join(s.merges))}.</p>"
    for i, d in enumerate(s.definitions):
        if len(s.definitions) > 1:
            where = f" ({s.sources[i]})" if i < len(s.sources) else ""
            html += f"<h4>Tournament {i + 1}{escape(where)}</h4>"
        rows = [[key, _value(d[key])] for key in sorted(d) if key != "agents"]
        html += _table(["Setting", "Value"], rows, left=2)
        agents = d.get("agents") or []
        if agents:
            html += _table(["Label", "Agent spec"],
                           [[a.get("label", ""), a.get("spec", "")] if isinstance(a, dict) else [a, a]
                            for a in agents], left=2)
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


_RENDER = {"ratings": _ratings_part, "superiority": _superiority_part, "h2h": _h2h_part,
           "times": _times_part, "seats": _seats_part,
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
    # One section under the page's own title needs neither a table of contents nor the
    # title a second time.
    single = len(sections) == 1 and sections[0].title == title
    if not single:
        toc = "".join(f'<li><a href="#tournament-{k}">{escape(s.title)}</a></li>'
                      for k, s in enumerate(sections, start=1))
        body.append(f"<nav><ul>{toc}</ul></nav>")
    for k, s in enumerate(sections, start=1):
        games = len(s.outcomes)
        heading = "Results" if single else s.title
        origin = f" from {', '.join(s.sources)}" if s.sources else ""
        parts = [f'<section id="tournament-{k}"><h2>{escape(heading)}</h2>',
                 f'<p class="note">{games} games{escape(origin)}, {s.fault_count} faults.</p>']
        if s.sprt:
            parts.append(_part(f"sprt-{k}", "Sequential test (SPRT)", _sprt_part(s, k)))
        headings = dict(PARTS)
        if s.team is not None:  # (one agent's scores per seat are a Seats figure, not shown here)
            stems = [stem for stem in TEAM_PARTS if stem != "scores" or len(s.agents) >= 2]
        else:
            stems = SELF_PLAY_PARTS if len(s.agents) < 2 else [stem for stem, _ in PARTS]
        for stem in stems:
            heading = "Agent" if stem == "ratings" and len(s.agents) < 2 else headings[stem]
            render_part = _RENDER[stem]
            if s.team is not None and stem == "ratings":
                heading, render_part = "Team results", _team_part
            parts.append(_part(f"{stem}-{k}", heading, render_part(s, k)))
        parts.append("</section>")
        body.append("".join(parts))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")
