"""The text a tuning run prints."""
from __future__ import annotations

from typing import Any


def _setting(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def agent_text(out: dict[str, Any]) -> str:
    """The recommendation of an agent tuning run and its confirmation against the defaults."""
    lines = [f"tuned {out['default']} in {out['game']}, {out['players']} players: "
             f"{out['evaluations']} evaluations ({out['games']} games) against {', '.join(out['field'])}",
             f"recommended: {_setting(out['values'])} (estimated pairwise score {out['estimate']:.3f})",
             f"spec: {out['spec']}"]
    c = out.get("confirmation")
    if c:
        low, high = c["interval"]
        verdict = ("better than the defaults" if low > 0 else "worse than the defaults" if high < 0
                   else "not separated from the defaults")
        lines.append(f"confirmation on fresh seeds, {c['games']} games against the defaults: "
                     f"Elo {c['elo']:+.0f} [{low:+.0f}, {high:+.0f}] (95%), pairwise score "
                     f"{c['pairwise_score']:.3f} over {c['pairs']} pairs, likelihood of superiority "
                     f"{c['superiority']:.2f}: {verdict}")
    return "\n".join(lines)


def design_text(out: dict[str, Any], confirmation: str | None) -> str:
    """The recommendation of a design search and the balance report of its confirmation."""
    games = f" ({out['games']} games)" if out["games"] else ""
    lines = [f"design search in {out['game']}, {out['players']} players, self-play of {out['spec']}, "
             f"target {out['target']}: {out['evaluations']} evaluations{games}",
             f"recommended: {_setting(out['values'])} (estimated value {out['estimate']:.3f})",
             "options: " + " ".join(f"-o {k}={_plain(v)}" for k, v in out["options"].items()
                                    if k != "players")]
    if confirmation:
        lines += ["", "confirmation on fresh seeds:", confirmation]
    return "\n".join(lines)


def _plain(value: Any) -> str:
    import json

    return json.dumps(value).replace(" ", "")
