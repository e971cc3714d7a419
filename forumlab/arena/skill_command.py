"""``forumlab skill``: the restricted-play battery and skill trace of a game."""
from __future__ import annotations

import json
import os
import shutil
import tempfile

import click

from ..core.errors import ConfigError
from .skill import DEFAULT_BUDGETS


def _signed(v: float) -> str:
    return f"{v:+.0f}"


def _interval(low: float, high: float) -> str:
    return f"[{low:+.0f}, {high:+.0f}]"


def format_skill(report: dict) -> str:
    """The battery's report as text: the levels, the steps up the ladder, the skill trace."""
    from .definition import game_title

    lines = [f"Skill battery: {game_title(report)}: {report['games']} games in {report['windows']} windows "
             f"of consecutive levels, {report['groups']} game seeds each (seed {report['seed']})",
             "level            Elo vs greedy  95% interval   win rate  games"]
    for lv in report["levels"]:
        note = "  (separated: interval set by the prior)" if lv["separated"] else ""
        lines.append(f"{lv['label']:<16} {_signed(lv['elo']):>13}  {_interval(*lv['elo_95']):<14} "
                     f"{lv['win_rate']:8.3f}  {lv['games']:5d}{note}")
    lines.append("steps up the ladder: gain over the level below (Elo, 95% interval), likelihood of "
                 "superiority, share of meetings finished ahead")
    for st in report["steps"]:
        score = "-" if st["score"] is None else f"{st['score']:.3f} of {st['meetings']}"
        flag = "  (separated)" if st["separated"] else ""
        lines.append(f"  {st['to']:>12} over {st['from']:<12} {_signed(st['elo']):>6} "
                     f"{_interval(st['low'], st['high']):<14} LOS {st['los']:.3f}  ahead {score}{flag}")
    if report["trace"]:
        lines.append("skill trace: Elo gain per doubling of the search budget")
        for t in report["trace"]:
            lines.append(f"  {t['from']:>12} -> {t['to']:<12} {_signed(t['per_doubling']):>6} "
                         f"{_interval(t['per_doubling_low'], t['per_doubling_high'])}")
        slope = report["slope"]
        lines.append(f"  least-squares gain per doubling over all budgets: {_signed(slope['elo'])} "
                     f"{_interval(slope['low'], slope['high'])}")
    paid = report["pays_up_to"]
    lines.append("more thinking keeps paying (every doubling's interval above 0) up to budget "
                 f"{paid}" if paid else "more thinking does not measurably pay even at the first doubling")
    span = report["skill_span"]
    lines.append(f"skill span, {span['to']} over {span['from']}: {_signed(span['elo'])} "
                 f"{_interval(span['low'], span['high'])}")
    return "\n".join(lines)


@click.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None, help="Players (default: the game's default).")
@click.option("--games", "groups", type=int, default=2, show_default=True,
              help="Rotation groups (game seeds) per window; each is n(n-1) games at n players.")
@click.option("--budgets", default=",".join(map(str, DEFAULT_BUDGETS)), show_default=True,
              help="Search budgets of the ladder, increasing (iterations for mcts, nodes for minimax).")
@click.option("--search", default="mcts", show_default=True, help="The search: mcts, paranoid, maxn or brs.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="Game option.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", "-w", type=int, default=None, help="Worker processes (default: cores).")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Keep one results file per window here; the same command continues it, a larger "
                   "--games extends it (default: discarded).")
@click.option("--json", "as_json", is_flag=True, help="Every figure as one JSON object.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: only when stderr is a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="Same as --no-progress.")
def skill(game, players, groups, budgets, search, options, seed, workers, out_dir, as_json, progress, quiet):
    """Restricted play: how much skill moves outcomes in GAME. A ladder of random, greedy and
    a search at increasing budgets plays in windows of consecutive levels (balanced seating);
    reports each step's Elo gain with its 95% interval and the skill trace (gain per doubling
    of the budget). Definitions: docs/dynamics.md."""
    from ..core.options import parse_key_values
    from ..core.registry import create_game
    from .commands import _check_workers, _show_progress
    from .skill import ladder_levels, parse_budgets, window_definitions

    _check_workers(workers)
    config = parse_key_values(options)
    if players is not None:
        config["players"] = players
    config = create_game(game, config).config  # unknown game, bad option: one line, now
    if create_game(game, config).cooperative:
        raise ConfigError("the skill battery rates competing seats; a cooperative game has none")
    levels = ladder_levels(parse_budgets(budgets), search)
    definitions = window_definitions(game, config, levels, groups, seed)
    if out_dir is not None:
        from ..core.files import check_output_directory

        check_output_directory(out_dir, "results directory")  # before any game: never a device or a pipe
    tmp = None
    if out_dir is None:
        out_dir = tmp = tempfile.mkdtemp(prefix="forumlab-skill-")
    try:
        report = _play_and_rate(definitions, levels, out_dir, workers, _show_progress(progress, quiet))
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    report.update(game=game, config=config, windows=len(definitions), groups=groups, seed=seed)
    click.echo(json.dumps(report, indent=1) if as_json else format_skill(report))


def _play_and_rate(definitions, levels, out_dir, workers, progress) -> dict:
    """Play every window into ``out_dir`` (continuing files already there), then rate them all."""
    from .skill import skill_report
    from .store import ResultStore
    from .tournament import run_tournament

    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot make the directory {out_dir}: {exc.strerror or exc}") from None
    outcomes = []
    for i, definition in enumerate(definitions):
        path = os.path.join(out_dir, f"window-{i:02d}.db")
        names = ", ".join(a.label for a in definition.agents)
        click.echo(f"window {i + 1} of {len(definitions)}: {names}", err=True)
        run_tournament(definition, path, workers, None, progress=progress)
        with ResultStore.open(path, readonly=True) as store:
            outcomes += store.outcomes()
    return skill_report(outcomes, levels)
