"""The ``forumlab report`` command."""
from __future__ import annotations

import click


@click.command()
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--output", "-o", required=True, type=click.Path(), help="The HTML file to write.")
@click.option("--anchor", default=None,
              help="Agent at Elo 0 (default: random when it plays, else the first label in sorted order).")
def report(db, output, anchor):
    """Write a self-contained HTML report of the tournament in DB: ratings with intervals,
    likelihood of superiority, seat advantage, score and game-length distributions, faults,
    the definition and versions (figures need the extra: pip install 'forumlab[report]')."""
    from . import check_output_path, require_matplotlib, section_from_store, write_report

    require_matplotlib()  # before any work: the figures are the point
    check_output_path(output, [db])
    section = section_from_store(db, anchor=anchor)
    write_report(output, f"forumlab report: {section.title}", [section])
    click.echo(f"report: {len(section.outcomes)} games written to {output}", err=True)
