"""The ``forumlab report`` command."""
from __future__ import annotations

import click


@click.command()
@click.argument("dbs", metavar="DB...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--output", "-o", required=True, type=click.Path(), help="The HTML file to write.")
@click.option("--anchor", default=None,
              help="Agent at Elo 0 (default: the reference, of the agents the games connect the one whose "
                   "distances they measure most precisely; never one marked *).")
@click.option("--merge", "merges", multiple=True, metavar="NAME=LABEL,LABEL[,...]",
              help="Rate these labels as one agent called NAME (repeatable), as in 'forumlab ratings'.")
def report(dbs, output, anchor, merges):
    """Write a self-contained HTML report of the tournament in DB (or of several compatible
    results files rated as one): ratings with comparison intervals, likelihood of superiority,
    head to head, time per move, seats, score and game-length distributions, faults, the
    definition and versions (figures need the extra: pip install 'forumlab[report]')."""
    from . import check_output_path, require_matplotlib, section_from_store, write_report

    require_matplotlib()  # before any work: the figures are the point
    check_output_path(output, list(dbs))
    section = section_from_store(list(dbs), anchor=anchor, merges=merges)
    write_report(output, section.title, [section])
    click.echo(f"report: {len(section.outcomes)} games written to {output}", err=True)
