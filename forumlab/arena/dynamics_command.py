"""``forumlab dynamics``: game dynamics of fresh self-play games or of results files."""
from __future__ import annotations

import json
import os
import shutil
import tempfile

import click

from ..core.errors import ConfigError


def _is_game_name(text: str) -> bool:
    from ..core.registry import game_names

    return text in game_names() and not os.path.exists(text)


def _self_play(game, players, spec, games, options, seed, workers, db, progress):
    """Play ``games`` self-play games of ``spec`` through the arena into ``db``."""
    from dataclasses import replace

    from .commands import _check_workers, _definition_from_options
    from .definition import PoolEntry
    from .tournament import run_tournament

    _check_workers(workers)
    if games < 1:
        raise ConfigError(f"--games must be >= 1, not {games}")
    definition = _definition_from_options(None, game, players, options, (), None, None, 1, "balanced", seed,
                                          None, None)
    definition = replace(definition, agents=(PoolEntry(spec, spec),), games_per_lineup=games)
    from ..core.registry import create_game
    from .dynamics_replay import check_competitive

    check_competitive(create_game(definition.game, definition.config))
    run_tournament(definition, db, workers, None, progress=progress)


@click.command()
@click.argument("targets", metavar="GAME | DB...", nargs=-1, required=True)
@click.option("--players", "-p", type=int, default=None, help="Players (with GAME).")
@click.option("--agent", "spec", default=None, help="Agent spec in every seat (with GAME; default greedy).")
@click.option("--games", type=int, default=None, help="Self-play games (with GAME; default 20).")
@click.option("--seed", type=int, default=None, help="Seed of the self-play games (with GAME; default 1).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Game option (with GAME).")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes (with GAME).")
@click.option("--db", default=None, type=click.Path(dir_okay=False),
              help="Keep the self-play games in this results file (default: discarded).")
@click.option("--lead", type=click.Choice(["score", "heuristic"]), default="score", show_default=True,
              help="Who leads: by current score, or by the game's heuristic estimate (docs/dynamics.md).")
@click.option("--json", "as_json", is_flag=True, help="Every figure as one JSON object.")
@click.option("--per-game", is_flag=True, help="With --json: every game's figures too.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: only when stderr is a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="Same as --no-progress.")
def dynamics(targets, players, spec, games, seed, options, workers, db, lead, as_json, per_game, progress,
             quiet):
    """Game dynamics: length, branching over the game, lead changes, decisiveness, drama and
    score trajectories, with 95% intervals.

    'forumlab dynamics GAME -p N [--agent SPEC] [--games K] [--seed S]' plays self-play games
    first; 'forumlab dynamics DB...' replays the games of results files (of one game and
    config). Definitions: docs/dynamics.md."""
    from .commands import _show_progress
    from .dynamics_replay import store_trajectories
    from .dynamics_report import dynamics_report, format_dynamics

    self_play = _is_game_name(targets[0])
    if self_play and len(targets) > 1:
        raise ConfigError("give one GAME, or results files only")
    if not self_play:
        given = [name for name, v in (("--players", players), ("--agent", spec), ("--games", games),
                                      ("--seed", seed), ("--option", options), ("--workers", workers),
                                      ("--db", db)) if v]
        if given:
            raise ConfigError(f"{given[0]} is for self-play (GAME); results files are replayed as they are")
        for path in targets:
            if not os.path.isfile(path):
                raise ConfigError(f"{path!r} is neither a game name nor a results file")
    tmp = None
    try:
        if self_play:
            spec = spec or "greedy"
            if db is None:
                tmp = tempfile.mkdtemp(prefix="forumlab-dynamics-")
                db = os.path.join(tmp, "dynamics.db")
            _self_play(targets[0], players, spec, 20 if games is None else games, options,
                       1 if seed is None else seed, workers, db, _show_progress(progress, quiet))
            paths, source = [db], f"self-play of {spec}"
        else:
            paths = list(targets)
            source = "from " + ", ".join(paths)
        definition, trajectories = store_trajectories(paths, lead)
        report = dynamics_report(definition, trajectories, lead, source, per_game=per_game)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    click.echo(json.dumps(report, indent=1) if as_json else format_dynamics(report))
