"""``forumlab balance``: seat balance of one rule setup, or a comparison of several
(``--variant``), and ``forumlab balance report DB...`` to report (pool) stored studies.

Only click is imported at the top: the numeric modules load when a command runs.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

import click

from ..core.errors import ConfigError

DEFAULT_GAMES = 300


class _BalanceGroup(click.Group):
    """``balance GAME ...`` runs a study; ``balance report DB...`` reports stored ones."""

    def parse_args(self, ctx, args):
        if not args or args[0] not in self.commands:
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_BalanceGroup)
def balance():
    """Seat balance in self-play: seat effects with simultaneous intervals, the first-player
    advantage, a joint test; compare rule variants on the same seeds (--variant)."""


@balance.command("run")
@click.argument("game")
@click.option("--players", "-p", type=int, required=True)
@click.option("--agent", "spec", default="random", show_default=True, help="Agent spec for every seat.")
@click.option("--games", type=int, default=None,
              help="Rotation groups (game seeds), as in `tournament`; in self-play every seating "
                   f"of the design is the same, so each is one game (per variant). Default {DEFAULT_GAMES}, "
                   "or what the --db file holds.")
@click.option("--variant", "variants", multiple=True, metavar="NAME=KEY=V[,KEY=V...]",
              help="A rule setup to compare (repeat; the first is the baseline the others are compared "
                   "to; NAME= alone is the default rules). Every variant plays the same game seeds.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Game option (of every variant).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", "-w", type=int, default=None)
@click.option("--db", default=None, type=click.Path(dir_okay=False),
              help="Keep the games here (default: discarded). A file of the same study is continued, "
                   "and extended by a larger --games (or, with --variant, by more variants listed last).")
@click.option("--json", "as_json", is_flag=True, help="Every statistic as one JSON object.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: only when stderr is a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="Same as --no-progress.")
@click.option("--report", "report_path", type=click.Path(), default=None,
              help="Also write an HTML report of the games to this file (needs 'forumlab[report]'; "
                   "one setup only).")
@click.option("--html", "html_path", type=click.Path(), default=None,
              help="With --variant: also write the study's HTML page to this file "
                   "(needs 'forumlab[report]').")
def run(game, players, spec, games, variants, options, seed, workers, db, as_json, progress, quiet,
        report_path, html_path):
    """Seat balance of GAME in self-play (see docs/balance.md).

    Each seat's Elo against the average seat, the first-player advantage (seat 0 against
    the average other seat) and a joint test that no seat matters, with intervals corrected
    together for every comparison shown; game length, scores and score sources.

    With --variant NAME=OPTIONS (repeated) every variant plays the same game seeds and
    seatings into one file (--db), and each later variant is compared with the first.
    'forumlab balance report DB...' reports stored studies, pooling files played on
    different --seed values. ('forumlab balance GAME ...' is short for 'forumlab balance
    run GAME ...'.)"""
    from .commands import _check_workers

    _check_workers(workers)
    if games is not None and games < 1:
        raise ConfigError(f"--games must be >= 1, not {games}")
    if variants:
        if report_path is not None:
            raise ConfigError("--report is for one setup; a variant study reports in text or --json")
        _check_html(html_path, [db] if db else [])
        _run_variants(game, players, spec, games, variants, options, seed, workers, db, as_json,
                      _show(progress, quiet), html_path)
    else:
        if html_path is not None:
            raise ConfigError("--html is for a variant study (--variant); one setup writes --report")
        from .balance_single import run_single

        run_single(game, players, spec, games or DEFAULT_GAMES, options, seed, workers, db, as_json,
                   _show(progress, quiet), report_path)


def _show(progress, quiet) -> bool:
    from .commands import _show_progress

    return _show_progress(progress, quiet)


def _check_html(html_path, inputs) -> None:
    """Refuse a bad --html path before any game is played."""
    if html_path is None:
        return
    from ..report import check_output_path, require_matplotlib

    require_matplotlib()
    check_output_path(html_path, inputs)


def _run_variants(game, players, spec, games, variants, options, seed, workers, db, as_json, progress,
                  html_path=None):
    from .balance_run import open_for_study, play_study
    from .balance_study import study_definition
    from .tournament import versions

    if games is None:
        games = _stored_games(db) or DEFAULT_GAMES
    study = study_definition(game, players, spec, seed, games, list(variants), tuple(options))
    tmp = None
    if db is None:
        tmp = tempfile.mkdtemp(prefix="forumlab-balance-")
        db = os.path.join(tmp, "study.db")
    try:
        store, _ = open_for_study(db, study, versions(game))
        try:
            play_study(store, study, workers, progress, lambda text: click.echo(text, err=True))
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: the finished games are in {db}; run the same command to go on",
                       err=True)
            sys.exit(130)
        finally:
            store.close()
        _print_report([db], as_json, html_path)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def _stored_games(db) -> int | None:
    """The games per variant of an existing study file (None if there is none to read)."""
    from ..core.errors import ForumlabError
    from .balance_store import StudyFile, is_study_file

    if db is None or not os.path.isfile(db) or not is_study_file(db):
        return None
    try:
        with StudyFile.open(db) as store:
            return int(store.definition["games"])
    except ForumlabError:
        return None


def _print_report(paths, as_json, html_path=None) -> None:
    from .balance_analysis import analyse_study
    from .balance_run import load_any
    from .balance_text import format_study

    study, variant_games, per_file = load_any(paths)
    report = analyse_study(variant_games)
    if as_json:
        click.echo(json.dumps({"study": study, "files": [{"path": str(p), "games": n}
                                                         for p, n in zip(paths, per_file)], **report},
                              indent=1))
    else:
        click.echo(format_study(study, report))
    if html_path is not None:
        from ..report.balance_page import write_balance_html

        write_balance_html(html_path, study, report, format_study(study, report),
                           [(str(p), n) for p, n in zip(paths, per_file)])
        click.echo(f"balance: HTML page written to {html_path}", err=True)


@balance.command("report")
@click.argument("dbs", metavar="DB...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Every statistic as one JSON object.")
@click.option("--html", "html_path", type=click.Path(), default=None,
              help="Also write the study as one self-contained HTML page (needs 'forumlab[report]').")
def report(dbs, as_json, html_path):
    """Report stored balance studies: one file, or several of the same design played on
    different seeds, pooled (each file's games stay paired among themselves). Also reads the
    results files of one-setup studies (balance --db without --variant)."""
    _check_html(html_path, list(dbs))
    _print_report(list(dbs), as_json, html_path)
