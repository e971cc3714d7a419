"""The ``forumlab`` command line (click). Thin: parsing and printing only."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .core.errors import ForumlabError
from .core.options import parse_key_values

EXIT_BAD_INPUT = 2


class _Group(click.Group):
    """Turns forumlab errors into one-line messages with exit code 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ForumlabError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)


@click.group(cls=_Group)
@click.version_option(package_name="forumlab")
def main():
    """forumlab: engines, agents and tournaments for Forum Romanum and friends."""


@main.command()
def games():
    """List the games and their player counts."""
    from .core.registry import game_names, get_game_class

    for name in game_names():
        cls = get_game_class(name)
        info = "perfect information" if cls.perfect_information else "hidden information"
        click.echo(f"{name:<22} {cls.min_players}-{cls.max_players} players   {info}")


@main.command()
def agents():
    """List the agents with their parameters and defaults."""
    from .agents.registry import agent_class, agent_names

    for name in agent_names():
        cls = agent_class(name)
        click.echo(f"{name}: {cls.description}")
        for key, param in cls.params.items():
            click.echo(f"    {key + '=' + repr(param.default):<24} {param.help}")
    from .core.registry import game_names, get_game_class

    for game in game_names():
        tuned = get_game_class(game).mcts_defaults
        if tuned:
            pairs = ", ".join(f"{k}={v!r}" for k, v in tuned.items())
            click.echo(f"\nmcts defaults tuned for {game} (explicit values win): {pairs}")
    click.echo("\nEvery agent also takes seed=N. Third-party agents: 'package.module:Class(k=v)'.")


@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None, help="Number of players.")
@click.option("--seed", type=int, default=0, show_default=True, help="Game seed.")
@click.option("--agents", "-a", default=None, help="Comma-separated agent specs, one per seat (default: random).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="Game option, e.g. max_rounds=50.")
@click.option("--show", is_flag=True, help="Show the board after every move.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None, help="Write the game record here.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def play(game, players, seed, agents, options, show, record_path, as_json):
    """Play one game of GAME between agents."""
    from .agents.registry import create_agent
    from .agents.spec import split_specs
    from .core.rng import derive_seed
    from .core.registry import create_game
    from .core.record import Record

    if record_path and not Path(record_path).resolve().parent.is_dir():
        raise ForumlabError(f"cannot write record {record_path}: its directory does not exist")
    config = parse_key_values(options)
    if players is not None:
        config["players"] = players
    g = create_game(game, config)
    specs = split_specs(agents) if agents else ["random"] * g.players
    if len(specs) != g.players:
        raise ForumlabError(f"{len(specs)} agents given for {g.players} players")
    seats = [create_agent(spec, seed=derive_seed(seed, "agent", i)) for i, spec in enumerate(specs)]
    state = g.new_state(seed)
    from .arena.warmup import warm_up

    warm_up(g.name, g.config, specs, seed)  # with a notice on stderr when it must compile
    color = sys.stdout.isatty()
    if show:
        click.echo(state.render(color))
    while not state.is_terminal:
        seat = state.current_player
        move = seats[seat].act(state.copy())
        text = g.format_move(state.array, move)
        state.play(move)
        if show:
            click.echo(f"\nply {len(state.history)}: seat {seat} ({specs[seat]}) plays {text}")
            click.echo(state.render(color))
    result = state.result()
    result["agents"] = specs
    if as_json:
        click.echo(json.dumps(result))
    else:
        _print_result(result)
    if record_path:  # after printing, so a bad path cannot cost the user the result
        Record.from_state(state).save(record_path)


def _print_result(result: dict) -> None:
    status = "truncated by the turn cap" if result["truncated"] else (
        "finished" if result["terminal"] else "in progress")
    click.echo(f"game {status} after {result['plies']} plies")
    for seat, (score, rank) in enumerate(zip(result["scores"], result["ranks"])):
        who = f" {result['agents'][seat]}" if "agents" in result else ""
        click.echo(f"  seat {seat}{who}: score {score:>4}  rank {rank}")
    if result["winners"]:
        click.echo("winner(s): " + ", ".join(f"seat {w}" for w in result["winners"]))


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def replay(path, as_json):
    """Replay a game record and print the final position and scores."""
    from .core.record import load_record, replay as replay_record

    state = replay_record(load_record(path))
    result = state.result()
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(state.render(sys.stdout.isatty()))
        _print_result(result)


def _register_arena():
    from .arena.commands import register

    register(main)


_register_arena()

if __name__ == "__main__":
    main()
