"""The report's figures, drawn with matplotlib and returned as SVG ``data:`` URIs.

matplotlib is the optional extra ``report`` (``pip install 'forumlab[report]'``);
:func:`require_matplotlib` says so in one line when it is missing. Figures are made with
``matplotlib.figure.Figure`` directly (no pyplot: no global state, no GUI backend), saved
as SVG with text kept as text, a fixed id salt and no date, so the same games give the
same bytes. Each SVG goes into the page as a base64 ``data:`` URI of an ``<img>``, which
also keeps the ids inside one SVG from clashing with those of another.
"""
from __future__ import annotations

import base64
import functools
import io
import math
import re
from collections.abc import Callable

import numpy as np

from ..core.errors import ConfigError
from .data import ReportSection

EXTRA = "report"
WIDTH = 7.0  # inches; at matplotlib's 72 points per inch in SVG about 500 px wide
MAX_DOTS = 1000  # score dots per agent; a fixed random sample beyond
MAX_ANNOTATED = 12  # agents up to which the heatmap prints its numbers


def require_matplotlib() -> None:
    """Check that matplotlib can be imported.

    Raises:
        ConfigError: it cannot, naming the extra that installs it.
    """
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise ConfigError("the HTML report draws its figures with matplotlib, which is not installed: "
                          f"pip install 'forumlab[{EXTRA}]'") from None


def literal_text(draw: Callable[..., str | None]) -> Callable[..., str | None]:
    """Draw a figure with every text literal: labels are agents' names, game options and
    fault kinds chosen by users, and a ``$`` in one (``a$x$b``) must print as a dollar
    sign, not start matplotlib's mathtext (which draws it as a formula, or fails on one
    it cannot parse). ``text.parse_math`` is off while the figure is made *and* saved,
    since tick labels are created only when it is drawn."""
    @functools.wraps(draw)
    def drawn(*args, **kwargs):
        import matplotlib

        with matplotlib.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return drawn


def _figure(height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(WIDTH, height), layout="constrained")


def svg_uri(fig) -> str:
    """``fig`` as an SVG ``data:`` URI (deterministic bytes for the same figure)."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "forumlab-report"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    # The DOCTYPE names the SVG 1.1 DTD by URL; nothing needs it, so nothing points outside.
    svg = re.sub(rb"<!DOCTYPE[^>]*>\s*", b"", buf.getvalue(), count=1)
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def rating_bars(section: ReportSection) -> dict[str, tuple[float, float]]:
    """The interval :func:`ratings_figure` draws for each agent: its comparison interval."""
    return dict(section.ratings.comparison_interval)


@literal_text
def ratings_figure(section: ReportSection) -> str:
    """Elo of every agent with its comparison interval, best at the top.

    The bars are Elo +- z quasi-sd (see :mod:`forumlab.arena.quasi_variance`), so two bars
    that do not overlap belong to agents the games tell apart; the likelihood of
    superiority of each agent over the next one down is printed at the right, between the
    two rows. Separated agents (placed by the prior) are drawn grey and marked ``*``.
    """
    from matplotlib.transforms import blended_transform_factory

    r = section.ratings
    order = r.ranking()
    fig = _figure(1.1 + 0.42 * len(order))
    ax = fig.add_subplot()
    y = np.arange(len(order))[::-1]
    placed = [a for a in order if a not in r.separation.position]
    # The axis spans the agents the games place; a separated agent, whose distance is the
    # prior's, would otherwise squeeze every bar that matters into a corner. One outside
    # the span is drawn as an arrow head at the edge with its Elo written beside it.
    if placed and len(placed) < len(order):
        span_low = min(r.comparison_interval[a][0] for a in placed)
        span_high = max(r.comparison_interval[a][1] for a in placed)
        pad = 0.12 * max(span_high - span_low, 1.0)
        span_low, span_high = span_low - pad, span_high + pad
    else:
        span_low, span_high = -math.inf, math.inf
    bars = rating_bars(section)
    for yy, a in zip(y, order):
        elo = r.fit.elo[a]
        low, high = bars[a]
        separated = a in r.separation.position
        if separated and not span_low <= elo <= span_high:
            left = elo < span_low
            edge = span_low if left else span_high
            ax.plot([edge], [yy], "<" if left else ">", color="0.5", clip_on=False)
            ax.annotate(f"{elo:+.0f} *", (edge, yy), textcoords="offset points",
                        xytext=(8 if left else -8, 4),
                        ha="left" if left else "right", fontsize=8, color="0.3")
            continue
        ax.errorbar([elo], [yy], xerr=[[elo - low], [high - elo]], fmt="o", capsize=3,
                    color="0.6" if separated else "C0")
        if separated:  # its distance is the prior's: say so on the plot too
            ax.annotate("*", (elo, yy), textcoords="offset points", xytext=(6, 4))
    if math.isfinite(span_low):
        ax.set_xlim(span_low, span_high)
    ax.axvline(r.fit.elo[r.reference], color="grey", linewidth=0.8, linestyle="--")
    side = blended_transform_factory(ax.transAxes, ax.transData)
    ax.text(1.01, len(order) - 0.45, "LOS", transform=side, fontsize=8, va="bottom", color="0.3")
    for k in range(len(order) - 1):
        los = r.los_next.get(order[k])
        if los is not None:
            ax.text(1.01, y[k] - 0.5, f"{los:.2f}", transform=side, fontsize=8, va="center",
                    color="black" if los >= 0.975 else "0.45")
    ax.set_yticks(y, [f"{a} *" if a in r.separation.position else a for a in order])
    ax.set_ylim(-0.7, len(order) - 0.3)
    ax.set_xlabel(f"Elo, {r.fit.anchor} = 0" + ("" if r.reference == r.fit.anchor
                                                 else f" (dashed: the reference, {r.reference})"))
    return svg_uri(fig)


def _plain_log_labels(axis) -> None:
    """Label a log-scale axis with plain numbers (0.1, 1, 10, 100; minor ticks too where the
    axis spans too few decades for its major ones). Its default labels are mathtext
    (``$\\mathdefault{10^{2}}$``), which :func:`literal_text` would print as their source."""
    from matplotlib.ticker import LogFormatter

    class Plain(LogFormatter):
        def _num_to_string(self, x, vmin, vmax):
            return f"{x:g}"

    axis.set_major_formatter(Plain())
    axis.set_minor_formatter(Plain(labelOnlyBase=False))


@literal_text
def times_figure(section: ReportSection) -> str | None:
    """Wall-clock milliseconds per move per agent: the mean (bar) and the longest move (dot;
    the slowest game's mean where single moves were not kept), on a log scale; None when
    the games carry no timings."""
    times = section.ratings.move_times or {}
    order = [a for a in section.ratings.ranking() if a in times]
    if not order:
        return None
    fig = _figure(1.1 + 0.35 * len(order))
    ax = fig.add_subplot()
    y = np.arange(len(order))[::-1]
    mean = np.array([max(times[a].mean, 1e-7) * 1e3 for a in order])
    worst = np.array([max(times[a].max_move if times[a].complete
                          else max(times[a].slowest_game_mean, times[a].max_move or 0.0), 1e-7) * 1e3
                      for a in order])
    complete = all(times[a].complete for a in order)
    ax.barh(y, mean, color="C0", label="mean over all moves")
    ax.plot(worst, y, "o", color="C3",
            label="longest move" if complete else "longest move (or slowest game's mean)")
    ax.set_xscale("log")
    _plain_log_labels(ax.xaxis)
    ax.set_yticks(y, order)
    ax.set_xlabel("milliseconds per move (wall clock)")
    ax.legend(fontsize=8, loc="lower right")
    return svg_uri(fig)


@literal_text
def seat_scores_figure(section: ReportSection) -> str:
    """Distribution of final scores per seat (box plot with every game as a dot), one panel
    per player count."""
    by_seat = section.scores_by_seat()
    counts = list(by_seat)
    fig = _figure(2.8 * len(counts))
    axes = fig.subplots(len(counts), 1, squeeze=False)[:, 0]
    rng = np.random.default_rng(0)  # jitter only: fixed, so the figure is reproducible
    for ax, n in zip(axes, counts):
        data = by_seat[n]
        ax.boxplot(data, widths=0.5, showfliers=False)
        for k, values in enumerate(data, start=1):
            if len(values) > MAX_DOTS:
                values = rng.choice(values, MAX_DOTS, replace=False)
            ax.plot(k + rng.uniform(-0.15, 0.15, len(values)), values, ".", alpha=0.4, markersize=4)
        ax.set_xticks(range(1, n + 1), [f"seat {s}\nmean {np.mean(d):.1f}" for s, d in enumerate(data)])
        ax.set_ylabel("final score")
        ax.set_title(f"{n} players, {len(data[0])} games", fontsize=10)
    return svg_uri(fig)


@literal_text
def score_sources_figure(section: ReportSection) -> str | None:
    """Mean points per scoring source and seat, stacked; None when the game does not
    report its sources."""
    if not section.score_sources:
        return None
    counts = sorted(section.score_sources)
    fig = _figure(0.9 + 2.6 * len(counts))
    axes = fig.subplots(len(counts), 1, squeeze=False)[:, 0]
    for ax, n in zip(axes, counts):
        seats = section.score_sources[n]
        sources = list(seats[0])
        y = np.arange(n)[::-1]
        left_pos = np.zeros(n)
        left_neg = np.zeros(n)
        cmap = __import__("matplotlib").colormaps["tab20"]
        for k, source in enumerate(sources):
            values = np.array([seat.get(source, 0.0) for seat in seats])
            left = np.where(values >= 0, left_pos, left_neg)
            ax.barh(y, values, left=left, label=source.replace("_", " "), color=cmap(k % 20))
            left_pos += np.where(values >= 0, values, 0)
            left_neg += np.where(values < 0, values, 0)
        ax.set_yticks(y, [f"seat {s}" for s in range(n)])
        ax.set_xlabel("mean points per game")
        ax.set_title(f"{n} players", fontsize=10)
        ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.25))
    return svg_uri(fig)


@literal_text
def superiority_figure(section: ReportSection) -> str:
    """Heatmap of the likelihood of superiority, row agent over column agent."""
    r = section.ratings
    order = r.ranking()
    n = len(order)
    grid = np.full((n, n), np.nan)
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if a != b:
                grid[i, j] = r.superiority[a][b]
    side = min(WIDTH, 1.8 + 0.55 * n)
    fig = _figure(side)
    fig.set_figwidth(side + 1.2)
    ax = fig.add_subplot()
    image = ax.imshow(grid, vmin=0.0, vmax=1.0, cmap="RdBu_r")
    for i in range(n if n <= MAX_ANNOTATED else 0):  # beyond that the numbers do not fit
        for j in range(n):
            text = "-" if i == j else f"{grid[i, j]:.2f}"
            dark = i != j and abs(grid[i, j] - 0.5) > 0.3
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(n), order, rotation=45, ha="right")
    ax.set_yticks(range(n), order)
    fig.colorbar(image, ax=ax, label="P(row stronger than column)")
    return svg_uri(fig)


@literal_text
def seats_figure(section: ReportSection) -> str:
    """Seat advantage over seat 0 in Elo with 95% intervals, one panel per player count."""
    r = section.ratings
    counts = sorted(r.fit.seat_elo)
    fig = _figure(2.6 * len(counts))
    axes = fig.subplots(len(counts), 1, squeeze=False)[:, 0]
    for ax, n in zip(axes, counts):
        elo = np.array(r.fit.seat_elo[n])
        low = np.array([iv[0] for iv in r.seat_elo_interval[n]])
        high = np.array([iv[1] for iv in r.seat_elo_interval[n]])
        ax.errorbar(range(n), elo, yerr=[elo - low, high - elo], fmt="o", capsize=3)
        ax.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(n), [f"seat {s}\nwins {st.win_rate:.2f}"
                                 for s, st in enumerate(r.seat_stats[n])])
        ax.set_ylabel("Elo over seat 0")
        ax.set_title(f"{n} players, {r.seat_stats[n][0].games} games", fontsize=10)
    return svg_uri(fig)


@literal_text
def scores_figure(section: ReportSection) -> str:
    """Distribution of final scores per agent (box plot with every entry as a dot)."""
    scores = section.scores_by_agent()
    labels = list(scores)
    fig = _figure(3.2)
    ax = fig.add_subplot()
    data = [scores[a] for a in labels]
    ax.boxplot(data, widths=0.5, showfliers=False)  # vertical: the default in every version
    rng = np.random.default_rng(0)  # jitter only: fixed, so the figure is reproducible
    for k, values in enumerate(data, start=1):
        if len(values) > MAX_DOTS:  # keeps a report of a long tournament small
            values = rng.choice(values, MAX_DOTS, replace=False)
        ax.plot(k + rng.uniform(-0.15, 0.15, len(values)), values, ".", alpha=0.4, markersize=4)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20 if len(labels) > 4 else 0)
    ax.set_ylabel("final score")
    return svg_uri(fig)


@literal_text
def lengths_figure(section: ReportSection) -> str:
    """Histogram of game lengths in plies, stacked by why the game ended."""
    lengths = section.lengths()
    kinds = sorted(lengths)
    everything = [p for k in kinds for p in lengths[k]]
    low, high = min(everything), max(everything)
    bins = max(1, min(40, high - low + 1))
    fig = _figure(3.0)
    ax = fig.add_subplot()
    names = {"end": "ended by the rules", "cap": "truncated by the turn cap"}
    ax.hist([lengths[k] for k in kinds], bins=bins, range=(low - 0.5, high + 0.5), stacked=True,
            label=[f"{names.get(k, k)} ({len(lengths[k])})" for k in kinds])
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.legend()
    return svg_uri(fig)


@literal_text
def faults_figure(section: ReportSection) -> str | None:
    """Faults per agent, stacked by kind; None when no game has a fault."""
    counts = section.fault_counts()
    if not counts:
        return None
    agents = list(counts)
    kinds = sorted({k for c in counts.values() for k in c})
    fig = _figure(1.2 + 0.4 * len(agents))
    ax = fig.add_subplot()
    left = np.zeros(len(agents))
    y = np.arange(len(agents))[::-1]
    for kind in kinds:
        widths = np.array([counts[a][kind] for a in agents], dtype=float)
        ax.barh(y, widths, left=left, label=kind)
        left += widths
    ax.set_yticks(y, agents)
    ax.set_xlabel("faults")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend()
    return svg_uri(fig)


@literal_text
def sprt_figure(section: ReportSection) -> str | None:
    """The log-likelihood ratio after each rotation group, with the two bounds."""
    sprt = section.sprt
    if not sprt or not sprt.get("trace"):
        return None
    trace = sprt["trace"]
    fig = _figure(3.0)
    ax = fig.add_subplot()
    ax.plot(range(1, len(trace) + 1), trace, marker=".")
    for bound, name in ((sprt["lower"], "accept H0"), (sprt["upper"], "accept H1")):
        ax.axhline(bound, color="grey", linestyle="--", linewidth=0.8)
        ax.annotate(name, (1, bound), textcoords="offset points", xytext=(2, 3), fontsize=8)
    ax.set_xlabel("rotation groups")
    ax.set_ylabel("log-likelihood ratio")
    finite = [v for v in trace if math.isfinite(v)]
    if finite:
        ax.set_ylim(min(min(finite), sprt["lower"]) - 0.5, max(max(finite), sprt["upper"]) + 0.5)
    return svg_uri(fig)
