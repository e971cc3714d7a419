"""``forumlab tune`` (an agent's parameters, or game options toward a design target) and
``forumlab design`` (game options only): NTBEA over a grid, then a confirmation on fresh
seeds. Heavy modules are imported inside the functions so ``forumlab --help`` stays light."""
from __future__ import annotations

import json
import os
import tempfile

import click

_COMMON = [
    click.option("-p", "--players", type=int, required=True, help="Number of players."),
    click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE",
                 help="A fixed game option (repeatable)."),
    click.option("--option-param", "option_params", multiple=True, metavar="KEY=LOW..HIGH[:STEPS]",
                 help="A game option to search (KEY[i] for one element of a list option given with -o); "
                      "repeatable."),
    click.option("--target", default=None, help="Design target: seat-fair or length=N (plies)."),
    click.option("--games-per-evaluation", type=click.IntRange(1, 1000), default=4, show_default=True,
                 help="Self-play games per design evaluation."),
    click.option("--evaluations", type=click.IntRange(1, 100_000), default=100, show_default=True,
                 help="NTBEA evaluations (the budget)."),
    click.option("--repeats", type=click.IntRange(1, 100), default=1, show_default=True,
                 help="Independent NTBEA runs sharing the budget and one model."),
    click.option("--k", "k", type=click.FloatRange(0, None), default=0.6, show_default=True,
                 help="Exploration constant (objective units)."),
    click.option("--neighbours", type=click.IntRange(1, 10_000), default=50, show_default=True,
                 help="Mutants drawn per NTBEA step."),
    click.option("--seed", type=int, default=1, show_default=True, help="Seeds the search and its games."),
    click.option("-w", "--workers", type=click.IntRange(0, None), default=None,
                 help="Worker processes (default: one per core; 0: in this process)."),
    click.option("--db", default=None, help="Tuning log (JSON lines); rerun to continue a killed run."),
    click.option("--confirm-games", type=click.IntRange(0, None), default=60, show_default=True,
                 help="Games of the confirmation on fresh seeds (0: none)."),
    click.option("--out", default=None, help="Write the result as JSON here."),
    click.option("--progress/--no-progress", default=True, help="Report evaluations on stderr."),
]


def _with_common(func):
    for option in reversed(_COMMON):
        func = option(func)
    return func


@click.command()
@click.argument("spec")
@click.option("--game", "-g", required=True, help="Game to play.")
@click.option("--param", "params", multiple=True, metavar="NAME=LOW..HIGH[:STEPS]|NAME=V1,V2,...",
              help="An agent parameter to search (repeatable).")
@click.option("--field", "fields", multiple=True, metavar="SPEC",
              help="Opponent spec (repeatable, cycled over the other seats; default: SPEC untuned).")
@_with_common
def tune(spec, game, params, fields, **kw):
    """Tune SPEC's parameters (--param) against a field, or game options (--option-param)
    toward a --target in self-play of SPEC, with NTBEA; then confirm on fresh seeds."""
    from .run import run_command

    run_command("tune", spec, game, params, fields, kw)


@click.command()
@click.argument("game")
@click.option("--agent", "spec", default="greedy", show_default=True, help="The self-play agent.")
@_with_common
def design(game, spec, **kw):
    """Search GAME's options (--option-param) toward a --target (seat-fair or length=N) in
    self-play, with NTBEA; then confirm the best setting's seat balance on fresh seeds."""
    from .run import run_command

    run_command("design", spec, game, (), (), kw)


def confirm_path(db: str | None, tmp: list[str]) -> str:
    """Where the confirmation's results file goes: beside the log, or in a temporary folder."""
    if db is not None:
        return db + ".confirm.db"
    tmp.append(tempfile.mkdtemp(prefix="forumlab-tune-"))
    return os.path.join(tmp[0], "confirm.db")


def write_out(path: str | None, result: dict) -> None:
    """The result as JSON at ``path`` (if given)."""
    if path is not None:
        from ..core.files import write_file_atomically

        write_file_atomically(path, "result", lambda f: f.write(json.dumps(result, indent=1) + "\n"))
