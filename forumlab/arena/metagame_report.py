"""The meta-game as text and as JSON (``forumlab strategies``)."""
from __future__ import annotations

import math

import numpy as np

from .metagame import SUPPORT_MASS, MetaGame


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(float(value), 4)


def metagame_json(mg: MetaGame) -> dict:
    """Every figure of the meta-game as plain JSON.

    Args:
        mg: the analysis (:func:`forumlab.arena.metagame.analyse`).

    Returns:
        ``strategies`` (per strategy: ``nash`` and ``nash_95``, ``alpharank`` and
        ``alpharank_95``, ``mean_share``: its mean head-to-head share against the others),
        ``head_to_head`` and ``superiority`` (row over column), ``groups``, ``bootstrap`` and
        ``verdict`` (``kind``, ``strategies``, ``text``).
    """
    names = list(mg.strategies)
    k = len(names)
    rows = []
    for i, name in enumerate(names):
        others = [mg.head_to_head[i, j] for j in range(k) if j != i]
        rows.append({
            "strategy": name,
            "nash": _number(mg.nash[i]),
            "nash_95": [_number(v) for v in mg.nash_interval[i]],
            "alpharank": _number(mg.alpharank[i]),
            "alpharank_95": [_number(v) for v in mg.alpharank_interval[i]],
            "mean_share": _number(float(np.mean(others))),
        })
    return {
        "strategies": rows,
        "head_to_head": {a: {b: _number(mg.head_to_head[i, j]) for j, b in enumerate(names) if j != i}
                         for i, a in enumerate(names)},
        "superiority": {a: {b: _number(mg.superiority[i, j]) for j, b in enumerate(names) if j != i}
                        for i, a in enumerate(names)},
        "groups": mg.groups,
        "bootstrap": mg.bootstrap,
        "verdict": {"kind": mg.verdict.kind, "strategies": list(mg.verdict.strategies),
                    "text": mg.verdict.text},
    }


def _interval(iv: np.ndarray) -> str:
    return "-" if np.isnan(iv[0]) else f"[{iv[0]:.2f}, {iv[1]:.2f}]"


def format_metagame(mg: MetaGame) -> str:
    """The equilibrium table, the pairwise table and the verdict, as the command prints them.

    Args:
        mg: the analysis.

    Returns:
        Text without a trailing newline.
    """
    names = list(mg.strategies)
    width = max(8, *(len(n) for n in names))
    how = (f"95% intervals from {mg.bootstrap} bootstrap resamples of the rotation groups within each lineup"
           if mg.bootstrap else "no bootstrap: no intervals")
    lines = [f"Meta-game: {len(names)} strategies, {mg.groups} rotation groups; {how}",
             f"{'Strategy':<{width}}  Nash mass  95% interval   alpha-rank  95% interval   Mean share"]
    order = sorted(range(len(names)), key=lambda i: (-mg.nash[i], -mg.alpharank[i], names[i]))
    for i in order:
        share = np.mean([mg.head_to_head[i, j] for j in range(len(names)) if j != i])
        lines.append(f"{names[i]:<{width}}  {mg.nash[i]:9.2f}  {_interval(mg.nash_interval[i]):<13}"
                     f"  {mg.alpharank[i]:10.2f}  {_interval(mg.alpharank_interval[i]):<13}  {share:10.3f}")
    lines += ["", "Finishing ahead: share of meetings in which the row finished ahead of the column "
              "(ties half), with the likelihood that it does so more often than not"]
    cell = max(width, 12)
    lines.append(" " * width + "".join(f"  {names[j]:>{cell}}" for j in order))
    for i in order:
        cells = ["-" if i == j else f"{mg.head_to_head[i, j]:.3f} ({mg.superiority[i, j]:.2f})"
                 for j in order]
        lines.append(f"{names[i]:<{width}}" + "".join(f"  {c:>{cell}}" for c in cells))
    lines += ["", f"Verdict: {mg.verdict.text}.",
              f"(Nash: a symmetric equilibrium of the game whose payoff is the share of opponents finished "
              f"ahead of; a strategy may take part when its interval reaches {SUPPORT_MASS:g}. "
              "See docs/strategies.md.)"]
    return "\n".join(lines)
