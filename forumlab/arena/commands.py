"""Click commands of the arena: tournament run/resume, ratings, export.

Kept apart from forumlab/cli.py so that the top-level CLI stays a thin index.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import sys
from dataclasses import replace

import click

from ..core.errors import ConfigError, ForumlabError
from ..core.options import parse_key_values

DEFAULT_DB = "forumlab-results.db"
MAX_WORKERS = 1024  # local processes; a cluster (--scheduler) for more
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C


def _definition_from_options(config_file, game, players, options, agents, fmt, candidate, games,
                             rotations, seed, move_time, hard_limit, sprt=None):
    from .definition import TournamentDefinition, load_toml, parse_agent_option

    # A file must name its pool unless -a does: never run the built-in pool by surprise.
    base = load_toml(config_file, agents_required=not agents) if config_file else TournamentDefinition()
    changes = {}
    if game is not None:
        changes["game"] = game
        if game != base.game and not options and players is None:
            changes["config"] = {}
    config = dict(changes.get("config", base.config))
    config.update(parse_key_values(options))
    if players is not None:
        config["players"] = players
    changes["config"] = config
    if agents:
        changes["agents"] = tuple(parse_agent_option(a) for a in agents)
    for key, value in (("format", fmt), ("candidate", candidate), ("games_per_lineup", games),
                       ("rotations", rotations), ("seed", seed), ("move_time", move_time),
                       ("hard_limit", hard_limit)):
        if value is not None:
            changes[key] = value
    if sprt is not None:
        from .sprt import parse_sprt

        changes["sprt"] = parse_sprt(sprt).to_json()
    return replace(base, **changes)


def _print_ratings(db, as_json=False, as_csv=False, anchor=None, matrix=False, out=None, merges=()):
    """Print the ratings of ``db``: one results file, or a list of compatible ones rated as one."""
    from .cooperative import format_team_report, team_results
    from .definition import game_title
    from .pool import load_results, results_json
    from .ratings import format_matrices, format_ratings_table, rate_outcomes

    pooled = load_results(db, merges)
    outcomes, definition, sprt = pooled.outcomes, pooled.definition, pooled.sprt
    echo = out or click.echo
    if as_json:  # the same dict as forumlab.ratings() (one code path, cooperative or not)
        echo(json.dumps(results_json(pooled, anchor), indent=1))
        return None
    report = team_results(definition, outcomes)
    if report is not None:
        # One team against an automaton: team win rates, not competitive ratings.
        if as_csv:
            echo("row,games,team_wins,win_rate,win_low,win_high,mean_value")
            for kind in ("agents", "lineups"):
                for name, r in report[kind].items():
                    echo(f"{kind[:-1]}:{name},{r['games']},{r['team_wins']},{r['win_rate']:.4f},"
                         f"{r['win_rate_95'][0]:.4f},{r['win_rate_95'][1]:.4f},{r['mean_value']:.4f}")
        else:
            echo(f"{game_title(definition)}: {len(outcomes)} games")
            echo(format_team_report(report))
        return None
    r = rate_outcomes(outcomes, anchor=anchor)
    if as_csv:
        _ratings_csv(r, echo)
    else:
        faults = sum(len(o.faults) for o in outcomes)
        pooled_from = f" (pooled from {len(pooled.paths)} files)" if len(pooled.paths) > 1 else ""
        echo(f"{game_title(definition)}: {len(outcomes)} games{pooled_from}, "
             f"{faults} faults")
        echo(format_ratings_table(r))
        if sprt is not None or definition.get("sprt"):
            from .sequential import format_sprt

            echo("")
            echo(format_sprt(sprt, definition))
        if matrix:
            echo("")
            echo(format_matrices(r))
    return r


def _ratings_csv(r, echo):
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["agent", "elo", "elo_low", "elo_high", "games", "win_rate", "mean_rank", "mean_score",
                "comparison_low", "comparison_high", "los_next", "ms_per_move", "max_game_ms_per_move",
                "max_ms_per_move", "cpu_ms_per_move", "cpu_max_ms_per_move", "separated"])
    for a in r.ranking():
        st = r.agent_stats[a]
        low, high = r.elo_interval[a]
        c_low, c_high = r.comparison_interval[a]
        los = r.los_next.get(a)
        t = (r.move_times or {}).get(a)
        w.writerow([a, f"{r.fit.elo[a]:.1f}", f"{low:.1f}", f"{high:.1f}", st.games, f"{st.win_rate:.4f}",
                    f"{st.mean_rank:.4f}", f"{st.mean_score:.4f}", f"{c_low:.1f}", f"{c_high:.1f}",
                    "" if los is None else f"{los:.4f}", "" if t is None else f"{t.mean * 1e3:.4g}",
                    "" if t is None else f"{t.slowest_game_mean * 1e3:.4g}",
                    # single-move figures only when every game of the agent kept them
                    "" if t is None or not t.complete else f"{t.max_move * 1e3:.4g}",
                    "" if t is None or not t.complete else f"{t.cpu_mean * 1e3:.4g}",
                    "" if t is None or not t.complete else f"{t.cpu_max_move * 1e3:.4g}",
                    int(a in r.separation.position)])
    echo(buf.getvalue().rstrip("\n"))


_tournament_options = [
    click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Tournament TOML file."),
    click.option("--game", default=None, help="Game name (default forum-romanum)."),
    click.option("--players", "-p", type=int, default=None, help="Players per game."),
    click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="Game option."),
    click.option("--agent", "-a", "agents", multiple=True, metavar="[LABEL=]SPEC",
                 help="Pool agent (repeat); default: the built-in agents at short budgets."),
    click.option("--format", "fmt", type=click.Choice(["round-robin", "gauntlet"]), default=None),
    click.option("--candidate", default=None, help="Gauntlet candidate label."),
    click.option("--sprt", default=None, metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
                 help="Gauntlet only: stop once a sequential probability ratio test decides whether "
                      "the candidate is at least elo1 (H1) or at most elo0 (H0) stronger than the field, "
                      "testing after whole rotation groups; alpha and beta default to 0.05. --games "
                      "is then the most rotation groups per lineup."),
    click.option("--games", type=int, default=None,
                 help="Rotation groups (game seeds) per lineup. More than an existing results file of "
                      "the same tournament holds extends it: only the new groups are played."),
    click.option("--rotations", type=click.Choice(["balanced", "cyclic", "all"]), default=None,
                 help="Seating design of each rotation group. balanced (default): every agent sits in "
                      "every seat and directly after every other agent equally often, in n(n-1) games "
                      "for n seats. cyclic: the n rotations; seats balanced, but each agent always "
                      "follows the same opponent, which biases multi-player ratings. all: every "
                      "permutation (n! games)."),
    click.option("--seed", type=int, default=None, help="Master seed."),
    click.option("--move-time", type=float, default=None,
                 help="Per-move time limit for the fault policy (s)."),
    click.option("--hard-limit", type=float, default=None, help="A move taking longer is cut off (s)."),
    click.option("--workers", "-w", type=int, default=None, help="Worker processes (default: cores)."),
    click.option("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786."),
    click.option("--db", default=DEFAULT_DB, show_default=True, type=click.Path(dir_okay=False),
                 help="Results file."),
    click.option("--progress/--no-progress", default=None,
                 help="Progress bar on stderr (default: only when stderr is a terminal)."),
    click.option("--quiet", "-q", is_flag=True, help="Same as --no-progress."),
]


def _with_options(func):
    for option in reversed(_tournament_options):
        func = option(func)
    return func


def _check_workers(workers, scheduler=None):
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
    if scheduler is not None:
        _check_scheduler(scheduler)


# [scheme://]host:port, as Dask's comm layer reads it (an IPv6 host in brackets).
_SCHEDULER = re.compile(r"^(?:(?:tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def _check_scheduler(address: str) -> None:
    """Refuse a malformed --scheduler address before anything is created (Dask itself
    fails on one only after a long timeout, with a traceback)."""
    match = _SCHEDULER.match(address)
    host = match.group(1) if match else ""
    quad = host.split(".")
    bad_ip = len(quad) == 4 and all(q.isdigit() for q in quad) and any(int(q) > 255 for q in quad)
    if match is None or not 1 <= int(match.group(2)) <= 65535 or bad_ip:
        raise ConfigError(f"--scheduler {address!r} is not a scheduler address "
                          "(expected [tcp://]HOST:PORT, e.g. tcp://10.0.0.5:8786)")


def _show_progress(progress: bool | None, quiet: bool) -> bool:
    """--progress/--no-progress if given, else a bar only for a person watching a
    terminal (not in logs, pipes or CI output)."""
    if quiet:
        return False
    if progress is not None:
        return progress
    return sys.stderr.isatty()


def _interrupted(db) -> None:
    """After Ctrl-C: say what is kept and how to go on, exit 130."""
    from .store import ResultStore

    kept = ""
    try:
        with ResultStore.open(db, readonly=True, timeout=2.0) as store:
            kept = f"{len(store)} finished games are in {db}; "
    except ForumlabError:
        pass
    click.echo(f"\ninterrupted: {kept}continue with: forumlab tournament resume {shlex.quote(str(db))}",
               err=True)
    sys.exit(EXIT_INTERRUPTED)


@click.group(invoke_without_command=True)
@click.pass_context
def tournament(ctx):
    """Run tournaments. Without a subcommand: a short round robin of the built-in agents
    on Forum Romanum (results in forumlab-results.db), then the rating table."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(run)


@tournament.command()
@_with_options
def run(config_file=None, game=None, players=None, options=(), agents=(), fmt=None, candidate=None,
        sprt=None, games=None, rotations=None, seed=None, move_time=None, hard_limit=None, workers=None,
        scheduler=None, db=DEFAULT_DB, progress=None, quiet=False):
    """Run (or continue, or extend with a larger --games) a tournament and print the ratings.

    Ctrl-C stops it (exit code 130); the finished games stay in the results file and
    'forumlab tournament resume DB' plays the rest."""
    from .definition import game_title, planned_games
    from .store import ResultStore
    from .tournament import play_missing, versions

    _check_workers(workers, scheduler)
    # The whole definition is validated here, before the results file is created.
    definition = _definition_from_options(config_file, game, players, options, agents, fmt, candidate,
                                          games, rotations, seed, move_time, hard_limit, sprt)
    if games is None and config_file is None:
        # No --games: continue the file's study at the size it has (it may have been
        # extended), instead of refusing it for holding more groups than the default.
        definition = _at_stored_size(db, definition)
    from ..bots.referee import keep_bot_logs_beside

    keep_bot_logs_beside(os.path.abspath(db), [a.spec for a in definition.agents])  # a bad one: nothing made
    new_file = not os.path.lexists(db)
    try:
        with ResultStore.create(db, definition.to_json(), versions(definition.game), extend=True) as store:
            upto = "at most " if definition.sprt else ""  # the sequential test may stop it sooner
            click.echo(f"tournament: {game_title(definition.to_json())}, {len(definition.agents)} agents, "
                       f"{upto}{planned_games(definition)} games ({len(store)} already in {db})", err=True)
            if not new_file:
                _say_reused(db, store, definition)
            play_missing(store, definition, workers, scheduler, progress=_show_progress(progress, quiet))
    except KeyboardInterrupt:
        _interrupted(db)
    except ForumlabError:
        if new_file:  # e.g. an unreachable --scheduler: leave no file behind
            _remove_if_empty(db)
        raise
    _print_ratings(db)


def _at_stored_size(db, definition):
    """``definition`` with the stored ``games_per_lineup`` of ``db`` if the file holds the same
    tournament with more groups per lineup; else ``definition`` (any problem with the file
    is reported when it is opened for writing)."""
    from .store import ResultStore, canonical_json

    if not os.path.isfile(db):
        return definition
    try:
        with ResultStore.open(db, readonly=True) as store:
            stored = store.definition
    except ForumlabError:
        return definition
    held = stored.get("games_per_lineup")
    ours = definition.to_json()
    if (isinstance(held, int) and held > definition.games_per_lineup
            and canonical_json({**ours, "games_per_lineup": held}) == canonical_json(stored)):
        return replace(definition, games_per_lineup=held)
    return definition


def _say_reused(db, store, definition) -> None:
    """A run on an existing results file continues it: say so on stderr, with what was
    there and how to start afresh instead (a re-run of the quick start would otherwise
    just reprint the stored table)."""
    held = len(store)
    if store.extended_from is not None:
        what = (f"extending it from {store.extended_from} to {definition.games_per_lineup} rotation groups "
                "per lineup; only the new groups are played")
    elif store.sprt_record() is not None:
        what = "its sequential test has ended, so nothing is played"
    elif held >= _planned(definition):
        what = "every planned game is there, so nothing is played"
    else:
        what = "only the missing games are played"
    click.echo(f"reusing the existing results file {db}: it already holds {held} games of this tournament; "
               f"{what}. To start afresh, delete {db} or give another file with --db", err=True)


def _planned(definition) -> int:
    from .definition import planned_games

    return planned_games(definition)


def _remove_if_empty(db) -> None:
    """Remove a results file this command created if it holds no game (best effort)."""
    from .store import ResultStore

    try:
        with ResultStore.open(db, readonly=True) as store:
            empty = len(store) == 0
        if empty:
            os.unlink(db)
    except (ForumlabError, OSError):
        pass  # not ours to judge, or already gone: leave it


@tournament.command()
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--workers", "-w", type=int, default=None, help="Worker processes (default: cores).")
@click.option("--scheduler", default=None, help="Dask scheduler address.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: only when stderr is a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="Same as --no-progress.")
def resume(db, workers, scheduler, progress, quiet):
    """Play only the games of DB that are still missing, then print the ratings."""
    from .tournament import resume_tournament

    _check_workers(workers, scheduler)
    try:
        played = resume_tournament(db, workers, scheduler, progress=_show_progress(progress, quiet))
    except KeyboardInterrupt:
        _interrupted(db)
    click.echo(f"resumed: {played} games played", err=True)
    _print_ratings(db)


@click.command()
@click.argument("dbs", metavar="DB...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON object with every statistic.")
@click.option("--csv", "as_csv", is_flag=True, help="The rating table as CSV.")
@click.option("--matrix", is_flag=True,
              help="Also print the head-to-head and likelihood-of-superiority matrices.")
@click.option("--anchor", default=None,
              help="Agent at Elo 0 (default: the reference, of the agents the games connect the one whose "
                   "distances they measure most precisely; never one marked *).")
@click.option("--merge", "merges", multiple=True, metavar="NAME=LABEL,LABEL[,...]",
              help="Rate these labels as one agent called NAME (repeatable): copies of one spec, e.g. a "
                   "gauntlet field's fast1, fast2, fast3; the labels must have played the same spec.")
def ratings(dbs, as_json, as_csv, matrix, anchor, merges):
    """Elo ratings (Plackett-Luce with seat effects), time per move and seat statistics of DB.

    Several results files of the same game and config, in which each label names the same
    agent spec, are rated as one pool.

    Each interval is Elo +- 1.39 quasi-sd: two agents whose intervals do not overlap differ
    with a likelihood of superiority of about 0.975 or more; LOS next is that probability
    for each agent over the next row's. An Elo marked * belongs to an agent that never
    finished behind (or never ahead of) the others, so the prior, not the games, sets its
    distance to them. See docs/ratings.md.
    """
    if as_json and as_csv:
        raise ConfigError("choose one of --json and --csv")
    if matrix and (as_json or as_csv):
        raise ConfigError("--matrix is for the text table; --json already holds both matrices")
    _print_ratings(list(dbs), as_json, as_csv, anchor, matrix, merges=merges)


@click.command()
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default=None,
              help="jsonl: one game record per line; csv: one row per game and seat.")
@click.option("--game", "game_key", default=None, metavar="KEY",
              help="Write only this game (its key, e.g. L0001-G000-R00) as one game record file.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="File (default stdout), replaced only once the export is complete.")
def export(db, fmt, game_key, output):
    """Export every game of DB as JSONL (one game record per line, each one replayable with
    'forumlab replay') or CSV (one row per seat); or, with --game KEY, one game's record."""
    from .export import EXPORTERS, find_game_record
    from .store import ResultStore

    if game_key is None and fmt is None:
        raise ConfigError("choose --format jsonl or --format csv (or --game KEY for one game)")
    if game_key is not None and fmt is not None:
        raise ConfigError("--game writes one game record (a JSON file); leave out --format")
    if output is not None:
        from ..core.files import check_output_file

        check_output_file(output, "export")  # before any work: never a device or a pipe
        if os.path.exists(output) and os.path.exists(db) and os.path.samefile(output, db):
            raise ConfigError(f"--output {output} is the results file itself")
    with ResultStore.open(db, readonly=True) as store:
        if game_key is not None:
            from ..core.record import Record

            record = find_game_record(store, game_key)
            if output is not None:
                Record.from_json(record).save(output)
            else:
                click.echo(json.dumps(record, indent=1))
        elif output is None:
            EXPORTERS[fmt](store, sys.stdout)
        else:
            from ..core.files import write_file_atomically

            # Complete or not at all: a damaged row met half-way leaves an existing file as it was.
            write_file_atomically(output, "export", lambda fh: EXPORTERS[fmt](store, fh), newline="")


def register(main: click.Group) -> None:
    """Attach the arena commands to the top-level CLI."""
    for command in (tournament, ratings, export):
        main.add_command(command)
