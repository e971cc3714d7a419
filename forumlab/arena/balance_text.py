"""The text a designer reads: a balance study's report (:mod:`forumlab.arena.balance_analysis`)
as tables, one column per variant and one per difference to the first variant."""
from __future__ import annotations

from typing import Any

from .definition import game_title


def _elo_cell(item: dict[str, Any]) -> str:
    iv = item["interval"]
    if iv is None:
        return f"{item['elo']:+.0f} [-, -]"
    return f"{item['elo']:+.0f} [{iv[0]:+.0f}, {iv[1]:+.0f}]{'*' if item['flagged'] else ''}"


def _mean_cell(d: dict[str, Any] | None, digits: int = 1) -> str:
    if d is None or d.get("mean") is None:
        return "-"
    iv = d["mean_95"]
    rng = f" [{iv[0]:.{digits}f}, {iv[1]:.{digits}f}]" if iv else ""
    return f"{d['mean']:.{digits}f}{rng}"


def _diff_cell(d: dict[str, Any] | None, digits: int = 1) -> str:
    if d is None or d.get("difference") is None:
        return "-"
    iv = d["interval"]
    rng = f" [{iv[0]:+.{digits}f}, {iv[1]:+.{digits}f}]" if iv else ""
    return f"{d['difference']:+.{digits}f}{rng}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in [header, *rows]]


def _options(options: dict[str, Any]) -> str:
    from ..core.options import option_text

    return ", ".join(f"{k}={option_text(v)}" for k, v in options.items()) or "the default rules"


def _head(study: dict[str, Any], report: dict[str, Any]) -> list[str]:
    title = game_title({"game": study["game"], "config": {"players": study["players"]}})
    games = sorted({v["games"] for v in report["variants"]})
    count = f"{games[0]}" if len(games) == 1 else f"{games[0]}-{games[-1]}"
    if len(report["variants"]) == 1:
        return [f"{title}, self-play of {study['agent']}: {count} games",
                f"  rules: {_options(report['variants'][0]['options'])}"]
    lines = [f"{title}, self-play of {study['agent']}: {len(report['variants'])} variants, {count} games "
             "each, on the same seeds"]
    lines += [f"  {v['name']}: {_options(v['options'])}" for v in report["variants"]]
    return lines


def _columns(report: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    items = [*report["variants"], *report["differences"]]
    names = [v["name"] for v in report["variants"]] + [f"{d['variant']} - {d['against']}"
                                                       for d in report["differences"]]
    return names, items


def _seat_lines(report: dict[str, Any]) -> list[str]:
    fam = report["family"]
    names, items = _columns(report)
    lines = ["", "Seat effects: Elo against the average seat, with intervals that hold together with 95% "
             "confidence",
             f"(each a {100 * fam['coverage']:.2f}% interval: Bonferroni over the {fam['comparisons']} "
             "comparisons shown, every seat of every column and each joint test); * excludes 0."]
    rows = [[str(s)] + [_elo_cell(it["seats"][s]) for it in items] for s in range(report["players"])]
    rows.append(["first player"] + [_elo_cell(it["first_player_advantage"]) for it in items])
    rows.append(["no seat matters p"] + [_p_cell(it["no_seat_matters"]) for it in items])
    lines += _table(["seat", *names], rows)
    lines.append("first player: seat 0 against the average other seat. no seat matters p: joint Wald test, "
                 "adjusted p in brackets (* rejected).")
    return lines + [_verdict(names, items)]


def _verdict(names: list[str], items: list[dict[str, Any]]) -> str:
    """One line naming everything flagged, or saying that nothing is."""
    flagged = []
    for name, it in zip(names, items):
        seats = [str(s["seat"]) for s in it["seats"] if s["flagged"]]
        if seats:
            flagged.append(f"{name}: seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}")
        elif it["no_seat_matters"]["rejected"]:
            flagged.append(f"{name}: the joint test")
    if not flagged:
        return ("Flagged: nothing. No seat effect and no change between variants is shown at this size; "
                "the intervals bound what there could be.")
    return "Flagged (95% for the whole family): " + "; ".join(flagged) + "."


def _p_cell(test: dict[str, Any]) -> str:
    return f"{test['p']:.3f} ({test['p_adjusted']:.2f}){'*' if test['rejected'] else ''}"


def _win_lines(report: dict[str, Any]) -> list[str]:
    variants = report["variants"]
    rows = [[str(s)] + [f"{v['seats'][s]['win_rate']:.3f}  {v['seats'][s]['mean_score']:.1f}"
                        for v in variants] for s in range(report["players"])]
    return ["", "Win rate (a shared win split) and mean score by seat, descriptive "
            "(the test is the Elo above)",
            *_table(["seat", *[v["name"] for v in variants]], rows)]


def _length_score_lines(report: dict[str, Any]) -> list[str]:
    names, items = _columns(report)
    nv = len(report["variants"])
    rows = []
    for label, pick in (("length (plies)", lambda it: it["length"]),
                        ("winner's score", lambda it: it["scores"]["winner"]),
                        ("other seats' score", lambda it: it["scores"]["loser"]),
                        ("margin (1st - 2nd)", lambda it: it["scores"]["margin"])):
        rows.append([label] + [_mean_cell(pick(it)) if i < nv else _diff_cell(pick(it))
                               for i, it in enumerate(items)])
        rows.append(["  sd; 10/50/90%"] + [_spread(pick(v)) for v in report["variants"]]
                    + [""] * (len(items) - nv))
    lines = ["", "Game length and scores: mean [95% interval], differences paired by game seed",
             *_table(["", *names], rows)]
    for d in report["differences"]:
        seats, length = d["pairing"]["seat_variance_vs_independent"], d["length"]["variance_vs_independent"]
        lines.append(f"pairing, {d['variant']} - {d['against']}: the variance of a paired difference was "
                     f"{_ratio(seats)} (seat effects) and {_ratio(length)} (length) of that of independent "
                     "runs, measured")
    return lines


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _spread(d: dict[str, Any]) -> str:
    if d.get("sd") is None:
        return "-"
    q = d["quantiles"]
    return f"{d['sd']:.1f}; " + "/".join(_number(q[k]) for k in ("q10", "q50", "q90"))


def _number(x: float) -> str:
    """A quantile as printed: whole numbers without decimals."""
    return f"{x:.0f}" if abs(x - round(x)) < 1e-9 else f"{x:.1f}"


def _source_lines(report: dict[str, Any]) -> list[str]:
    variants = report["variants"]
    if any(v["sources"] is None for v in variants):
        return ["", "Score sources: this game does not report points per scoring source."]
    names, items = _columns(report)
    nv = len(variants)
    sources = list(dict.fromkeys(s for v in variants for s in v["sources"]))
    rows = []
    for s in sources:
        cells = []
        for i, it in enumerate(items):
            part = it["sources"].get(s) if it["sources"] else None
            if i < nv:
                cells.append(_mean_cell(part["per_seat"] if part else None)
                             + (f" lead {part['winner_lead']['mean']:+.1f}" if part and
                                part["winner_lead"]["mean"] is not None else ""))
            else:
                cells.append(_diff_cell(part["per_seat"] if part else None))
        rows.append([s, *cells])
    return ["", "Score sources: mean points per seat [95%] and the sole winner's lead over the others' mean",
            *_table(["source", *names], rows)]


def format_study(study: dict[str, Any], report: dict[str, Any]) -> str:
    """The whole report as text (no trailing newline).

    Args:
        study: the study definition (game, players, agent).
        report: :func:`forumlab.arena.balance_analysis.analyse_study` of its games.
    """
    lines = _head(study, report) + _seat_lines(report) + _win_lines(report)
    lines += _length_score_lines(report) + _source_lines(report)
    return "\n".join(lines)
