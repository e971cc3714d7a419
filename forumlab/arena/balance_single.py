"""``forumlab balance`` of one rule setup: a self-play tournament in a results file (so
``ratings``, ``export`` and ``report`` read it), then the study's statistics; a cooperative
game gives the team's win rate instead."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import replace

import click


def run_single(game, players, spec, games, options, seed, workers, db, as_json, progress, report_path):
    """Play (or continue) the self-play study of one setup and print its report."""
    from .commands import _definition_from_options
    from .definition import PoolEntry
    from .tournament import run_tournament

    if report_path is not None:
        from ..report import check_output_path, require_matplotlib

        require_matplotlib()
        check_output_path(report_path, [db] if db else [])
    # Validate game, players and agent before anything is created, with the one agent
    # as the pool: validated with the built-in pool, the size check counted that pool's
    # lineups and refused --games above ~1,100 at 4 players.
    definition = _definition_from_options(None, game, players, options, (), None, None,
                                          1, "balanced", seed, None, None)
    definition = replace(definition, agents=(PoolEntry(spec, spec),), games_per_lineup=games)
    tmp = None
    if db is None:
        tmp = tempfile.mkdtemp(prefix="forumlab-balance-")
        db = os.path.join(tmp, "balance.db")
    try:
        run_tournament(definition, db, workers, None, progress=progress)
        text, report = _report(db)
        if report_path is not None:
            _write_html(report_path, definition, spec, games, db, tmp is not None)
    finally:
        if tmp is not None:  # (a bot's logs beside the games' file go with it)
            shutil.rmtree(tmp, ignore_errors=True)
    click.echo(json.dumps(report, indent=1) if as_json else text)


def _report(db) -> tuple[str, dict]:
    """The text and the JSON of a one-setup study's results file."""
    from .balance import balance_report
    from .balance_analysis import analyse_study
    from .balance_run import results_file_variant
    from .balance_text import format_study
    from .cooperative import cooperative_balance_report, format_cooperative_balance, is_cooperative
    from .store import ResultStore

    with ResultStore.open(db, readonly=True) as store:
        definition = store.definition
    if is_cooperative({"game": definition["game"], "config": dict(definition["config"])}):
        report = cooperative_balance_report(db)
        return format_cooperative_balance(report), report
    study, variants, _ = results_file_variant([db])
    analysis = analyse_study(variants)
    return format_study(study, analysis), {**balance_report(db), **analysis, "study": study}


def _write_html(report_path, definition, spec, games, db, temporary) -> None:
    from ..report import section_from_store, write_report
    from ..report.data import game_title

    # One agent in every seat: the seats part is the study, with the points per
    # scoring source of every seat when the game reports them.
    title = (f"Seat balance: {game_title(definition.to_json())} \u2014 self-play of {spec}, "
             f"{games} games")
    section = section_from_store(db, title=title, breakdown=True)
    if temporary:  # the games' file is about to go: do not name it
        section = replace(section, sources=())
    write_report(report_path, title, [section])
