"""Figures of a balance study (:func:`forumlab.arena.balance_analysis.analyse_study`): seat
effects as a forest plot, game length and scores by variant, score sources stacked.

They read the study's JSON report only, so a page can be drawn from any stored study.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .figures import WIDTH, literal_text, svg_uri

_VARIANT_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")


def _colour(k: int) -> str:
    return _VARIANT_COLOURS[k % len(_VARIANT_COLOURS)]


def _forest_rows(items: list[dict[str, Any]], players: int) -> list[tuple[str, int, dict[str, Any]]]:
    """(label, column index, effect) for every seat and the first player, seat-major."""
    rows = []
    for s in range(players):
        rows += [(f"seat {s}", k, it["seats"][s]) for k, it in enumerate(items)]
    rows += [("first player", k, it["first_player_advantage"]) for k, it in enumerate(items)]
    return rows


def _forest_panel(ax, rows, names: list[str], colour_of) -> None:
    """One row per (seat, column): the estimate and its family-adjusted interval."""
    y = np.arange(len(rows))[::-1]
    for yy, (_, k, eff) in zip(y, rows):
        iv = eff["interval"]
        colour = colour_of(k)
        if iv is not None:
            ax.plot(iv, [yy, yy], color=colour, linewidth=2 if eff["flagged"] else 1.2)
        ax.plot([eff["elo"]], [yy], marker="D" if eff["flagged"] else "o", color=colour, markersize=5)
    ax.axvline(0, color="#888", linewidth=0.8, linestyle="--")
    ax.set_yticks(y, [f"{label}, {names[k]}" for label, k, _ in rows], fontsize=8)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.grid(axis="x", alpha=0.3)


@literal_text
def forest_figure(report: dict[str, Any]) -> str:
    """Seat effects (Elo against the average seat) and the first-player advantage, one row
    per seat and variant, with the intervals adjusted for the whole family; a second panel
    holds each variant's difference to the first. Flagged effects (interval excludes 0) are
    drawn as diamonds with a thicker line."""
    from matplotlib.figure import Figure

    variants, diffs = report["variants"], report["differences"]
    players = report["players"]
    names = [v["name"] for v in variants]
    rows = _forest_rows(variants, players)
    diff_rows = _forest_rows(diffs, players)
    height = 1.0 + 0.22 * (len(rows) + len(diff_rows))
    fig = Figure(figsize=(WIDTH, max(height, 2.5)), layout="constrained")
    if diffs:
        ax, bx = fig.subplots(2, 1, height_ratios=[len(rows), max(len(diff_rows), 1)])
    else:
        ax, bx = fig.subplots(1, 1), None
    _forest_panel(ax, rows, names, _colour)
    ax.set_title("Seat effects by variant (Elo against the average seat)", fontsize=10)
    if bx is not None:
        diff_names = [f"{d['variant']} - {d['against']}" for d in diffs]
        _forest_panel(bx, diff_rows, diff_names, lambda k: _colour(k + 1))
        bx.set_title("Differences to the first variant (paired by game seed)", fontsize=10)
        bx.set_xlabel("Elo")
    else:
        ax.set_xlabel("Elo")
    return svg_uri(fig)


def _summary_panel(ax, variants: list[dict[str, Any]], pick, label: str) -> None:
    """Per variant: the 10-90% range as a bar, the median as a tick, the mean with its 95%
    interval as a dot (the study keeps summaries, not every game)."""
    for k, v in enumerate(variants):
        d = pick(v)
        if d.get("mean") is None:
            continue
        q = d["quantiles"]
        ax.plot([q["q10"], q["q90"]], [k, k], color=_colour(k), linewidth=8, alpha=0.3,
                solid_capstyle="butt")
        ax.plot([q["q50"]], [k], marker="|", color=_colour(k), markersize=14)
        lo, hi = d["mean_95"] or (d["mean"], d["mean"])
        ax.plot([lo, hi], [k, k], color="black", linewidth=1.2)
        ax.plot([d["mean"]], [k], marker="o", color="black", markersize=4)
    ax.set_yticks(range(len(variants)), [v["name"] for v in variants], fontsize=8)
    ax.set_ylim(len(variants) - 0.5, -0.5)
    ax.set_title(label, fontsize=9)
    ax.grid(axis="x", alpha=0.3)


@literal_text
def distributions_figure(report: dict[str, Any]) -> str:
    """Game length, the winner's and the other seats' score and the margin by variant:
    10-90% band, median tick, mean and its 95% interval."""
    from matplotlib.figure import Figure

    variants = report["variants"]
    fig = Figure(figsize=(WIDTH, 1.6 + 0.9 * len(variants)), layout="constrained")
    axes = fig.subplots(2, 2).ravel()
    parts = (("game length (plies)", lambda v: v["length"]),
             ("winner's score", lambda v: v["scores"]["winner"]),
             ("other seats' score", lambda v: v["scores"]["loser"]),
             ("margin (1st - 2nd)", lambda v: v["scores"]["margin"]))
    for ax, (label, pick) in zip(axes, parts):
        _summary_panel(ax, variants, pick, label)
    return svg_uri(fig)


@literal_text
def sources_figure(report: dict[str, Any]) -> str | None:
    """Mean points per seat from each scoring source, one stacked bar per variant; None when
    the game does not report its sources."""
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    variants = report["variants"]
    if any(v["sources"] is None for v in variants):
        return None
    sources = list(dict.fromkeys(s for v in variants for s in v["sources"]))
    fig = Figure(figsize=(WIDTH, 1.6 + 0.45 * len(variants) + 0.2 * len(sources)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(variants))
    left_pos, left_neg = np.zeros(len(variants)), np.zeros(len(variants))
    cmap = colormaps["tab20"]
    for k, source in enumerate(sources):
        values = np.array([(v["sources"].get(source) or {}).get("per_seat", {}).get("mean") or 0.0
                           for v in variants])
        left = np.where(values >= 0, left_pos, left_neg)
        ax.barh(y, values, left=left, label=source.replace("_", " "), color=cmap(k % 20))
        left_pos += np.where(values >= 0, values, 0)
        left_neg += np.where(values < 0, values, 0)
    ax.set_yticks(y, [v["name"] for v in variants])
    ax.set_ylim(len(variants) - 0.5, -0.5)
    ax.set_xlabel("mean points per seat and game")
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    return svg_uri(fig)
