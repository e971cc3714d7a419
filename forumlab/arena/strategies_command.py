"""``forumlab strategies GAME``: a balanced round robin of strategies and its meta-game.

The strategies are the game's named archetypes (:mod:`forumlab.agents.archetypes`: heuristic
weights) applied to one search level (``--level greedy``, ``--level 'mcts(iterations=200)'``),
and/or agent specs given with ``--strategy LABEL=SPEC``. The games are a round robin of the
arena (balanced seating, every game committed to the results file as it ends), so a study
is continued by running the same command on the same file, and extended with a larger
``--games``. Heavy modules are imported inside the command, so ``forumlab --help`` stays light.
"""
from __future__ import annotations

import json

import click

from ..core.errors import ConfigError

BOOTSTRAP_MAX = 100_000


def _archetype_entries(game: str, level: str, names: tuple[str, ...]) -> list:
    """Pool entries of the archetypes ``names`` of ``game`` (all of them if none is named)
    at the search ``level``."""
    from ..agents.spec import parse_spec
    from .definition import PoolEntry

    try:
        from ..agents.archetypes import archetype_spec, archetypes
    except ImportError:
        raise ConfigError("this forumlab has no archetypes (forumlab.agents.archetypes); "
                          "name the strategies with --strategy LABEL=SPEC") from None
    try:
        known = archetypes(game)
    except (KeyError, ValueError) as exc:
        raise ConfigError(f"{game} has no archetypes ({exc}); name the strategies with --strategy "
                          "LABEL=SPEC") from None
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ConfigError(f"{game} has no archetype {unknown[0]!r} (archetypes: {', '.join(known)})")
    base, params = parse_spec(level)
    entries = []
    for name in names or tuple(known):
        try:
            entries.append(PoolEntry(name, archetype_spec(game, name, base=base, **params)))
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"archetype {name!r} at level {level!r}: {exc}") from None
    return entries


def strategy_pool(game: str, level: str, archetype_names: tuple[str, ...],
                  strategy_texts: tuple[str, ...]) -> tuple:
    """The round robin's pool: the named (or all) archetypes at ``level``, then each
    ``--strategy``; archetypes are used when no ``--strategy`` is given or some are named.

    Args:
        game: the game's registry name.
        level: the agent spec the archetypes' weights are applied to.
        archetype_names: ``--archetype`` values.
        strategy_texts: ``--strategy`` values, ``LABEL=SPEC`` or a bare spec.

    Returns:
        A tuple of :class:`forumlab.arena.definition.PoolEntry`.

    Raises:
        ConfigError: fewer than two strategies, an unknown archetype, a label used twice.
    """
    from .definition import parse_agent_option

    entries = []
    if archetype_names or not strategy_texts:
        entries += _archetype_entries(game, level, archetype_names)
    entries += [parse_agent_option(text) for text in strategy_texts]
    if len(entries) < 2:
        raise ConfigError(f"a meta-game needs at least two strategies, not {len(entries)}")
    return tuple(entries)


def _check_competitive(game: str, config: dict) -> None:
    """A cooperative game (every seat against an automaton, one shared result) has no
    finishing order among the strategies to read a meta-game from."""
    from .cooperative import is_cooperative

    if is_cooperative({"game": game, "config": config}):
        raise ConfigError(f"{game} with these options is cooperative (the seats share one result); "
                          "the meta-game needs seats that compete")


def _check_numbers(games: int, bootstrap: int, workers: int | None) -> None:
    if games < 1:
        raise ConfigError(f"--games must be >= 1, not {games}")
    if not 0 <= bootstrap <= BOOTSTRAP_MAX:
        raise ConfigError(f"--bootstrap must be from 0 to {BOOTSTRAP_MAX:,}, not {bootstrap}")
    from .commands import _check_workers

    _check_workers(workers)


@click.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help="Players per game.")
@click.option("--level", default="greedy", show_default=True,
              help="The agent the archetypes' weights are applied to, e.g. greedy or 'mcts(iterations=200)'.")
@click.option("--archetype", "archetype_names", multiple=True, metavar="NAME",
              help="An archetype of the game (repeat; default: every archetype, unless --strategy is given).")
@click.option("--strategy", "-s", "strategy_texts", multiple=True, metavar="[LABEL=]SPEC",
              help="A strategy given as an agent spec (repeat), beside or instead of the archetypes.")
@click.option("--games", type=int, default=10, show_default=True,
              help="Rotation groups (game seeds) per lineup. A larger value on an existing file extends it.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="Game option.")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed.")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes (default: cores).")
@click.option("--db", default=None, type=click.Path(dir_okay=False),
              help="Results file (default strategies-GAME-Np.db). The same command on the same file "
                   "plays only what is missing.")
@click.option("--bootstrap", type=int, default=500, show_default=True,
              help="Bootstrap resamples of the rotation groups for the equilibrium intervals (0: none).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object with ratings and meta-game.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: only when stderr is a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="Same as --no-progress.")
@click.option("--html", "html_path", type=click.Path(), default=None,
              help="Also write one self-contained HTML page (ratings, head to head, equilibrium, verdict; "
                   "needs 'forumlab[report]').")
def strategies(game, players, level, archetype_names, strategy_texts, games, options, seed, workers, db,
               bootstrap, as_json, progress, quiet, html_path):
    """Round robin of GAME's strategies (archetypes at a search level), then the meta-game:
    ratings, a symmetric equilibrium and alpha-rank with bootstrap intervals, the pairwise
    likelihood of superiority and a verdict (one strategy dominates, several coexist, or the
    meta-game cycles). See docs/strategies.md."""
    from ..core.options import parse_key_values
    from .commands import _interrupted, _show_progress
    from .definition import TournamentDefinition
    from .tournament import run_tournament

    _check_numbers(games, bootstrap, workers)
    config = {**parse_key_values(options), "players": players}
    _check_competitive(game, config)
    pool = strategy_pool(game, level, archetype_names, strategy_texts)
    definition = TournamentDefinition(game=game, config=config, agents=pool, games_per_lineup=games,
                                      seed=seed)
    db = db or f"strategies-{game}-{players}p.db"
    if html_path is not None:  # refused before any game is played
        from ..report import check_output_path, require_matplotlib

        require_matplotlib()
        check_output_path(html_path, [db])
    try:
        run_tournament(definition, db, workers, None, progress=_show_progress(progress, quiet))
    except KeyboardInterrupt:
        _interrupted(db)
    report = strategies_report(db, bootstrap, seed)
    report["level"] = level
    text = report.pop("text")
    click.echo(json.dumps(report, indent=1) if as_json else text)
    if html_path is not None:
        from ..report.strategies_page import write_strategies_html

        write_strategies_html(html_path, report, text)
        click.echo(f"strategies: HTML page written to {html_path}", err=True)


def strategies_report(db: str, bootstrap: int, seed: int) -> dict:
    """Ratings and meta-game of a finished (or partly played) round robin in ``db``.

    Args:
        db: the results file.
        bootstrap: bootstrap resamples for the intervals.
        seed: seed of the resampling.

    Returns:
        ``game``, ``config``, ``games``, ``strategies`` (label and spec), ``ratings`` (as
        ``forumlab ratings --json``), ``metagame`` (:func:`forumlab.arena.metagame_report.metagame_json`)
        and ``text`` (what the command prints).
    """
    from .definition import game_title
    from .empirical_game import empirical_game
    from .metagame import analyse
    from .metagame_report import format_metagame, metagame_json
    from .ratings import format_ratings_table, rate_outcomes, rated_games, ratings_report
    from .store import ResultStore

    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
        definition = store.definition
    labels = [a["label"] for a in definition["agents"]]
    ratings = rate_outcomes(outcomes)
    mg = analyse(empirical_game(rated_games(outcomes), labels), bootstrap=bootstrap, seed=seed)
    faults = sum(len(o.faults) for o in outcomes)
    text = "\n".join([f"{game_title(definition)}: {len(outcomes)} games, {faults} faults",
                      format_ratings_table(ratings), "", format_metagame(mg)])
    return {"game": definition["game"], "config": definition["config"], "games": len(outcomes),
            "strategies": [{"label": a["label"], "spec": a["spec"]} for a in definition["agents"]],
            "ratings": ratings_report(ratings), "metagame": metagame_json(mg), "text": text}
