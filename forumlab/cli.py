"""The ``forumlab`` command line (click). Thin: parsing and printing only.

Exit codes: 0 success; 2 bad input (one ``error: ...`` line on stderr, no traceback,
nothing created or changed), including click's own usage errors (unknown option, a value
of the wrong type, a missing file); 130 interrupted by Ctrl-C (128 + SIGINT, what shells
report); 1 only for a broken pipe (``forumlab export ... | head``).
"""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import click

from .core.errors import ForumlabError, error_line, exception_line
from .core.options import parse_key_values

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def fail(message: str) -> None:
    """Print ``error: message`` as one line on stderr and exit with code 2."""
    click.echo(error_line(message), err=True)
    sys.exit(EXIT_BAD_INPUT)


def _warning_line(message, category, filename, lineno, line=None) -> str:
    """Warnings on the command line are one ``warning: ...`` line like the CLI's own
    (Python's default names a source file and line, which says nothing to a user)."""
    return f"warning: {message}\n"


class _Group(click.Group):
    """Turns forumlab and click errors into one-line messages with exit code 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ForumlabError as exc:
            fail(str(exc))

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        warnings.formatwarning = _warning_line
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:  # bare `forumlab`: the help
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.ClickException as exc:  # usage errors: bad option, value or file
            hint = ""
            if isinstance(exc, click.UsageError) and exc.ctx is not None:
                hint = f" (see '{exc.ctx.command_path} --help')"
            fail(exc.format_message() + hint)
        except click.Abort:  # Ctrl-C (click turns KeyboardInterrupt into Abort)
            click.echo("interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        sys.exit(code if isinstance(code, int) else 0)  # an int is click's --help/--version exit


@click.group(cls=_Group)
@click.version_option(package_name="forumlab")
def main():
    """forumlab: engines, agents and tournaments for Forum Romanum and friends."""


@main.command()
@click.option("--options", "options_of", metavar="GAME", default=None,
              help="List GAME's options instead (for -o KEY=VALUE): name=default, allowed values, help.")
def games(options_of):
    """List the games and their player counts; with --options GAME, that game's options."""
    from .core.registry import game_names, get_game_class

    if options_of is not None:
        from .core.options import option_rows

        cls = get_game_class(options_of)  # an unknown name: one error line, exit 2
        rows = [(f"{name}={default}", allowed, text) for name, default, allowed, text in option_rows(cls)]
        width = max(len(row[0]) for row in rows) + 2
        click.echo(f"{cls.name} options (forumlab play {cls.name} -o KEY=VALUE):")
        for pair, allowed, text in rows:
            if len(allowed) > 30:  # a long list of values: the help on a line of its own
                click.echo(f"    {pair:<{width}}{allowed}\n    {'':<{width + 32}}{text}")
            else:
                click.echo(f"    {pair:<{width}}{allowed:<32}{text}")
        return
    for name in game_names():
        cls = get_game_class(name)
        info = "perfect information" if cls.perfect_information else "hidden information"
        click.echo(f"{name:<22} {cls.min_players}-{cls.max_players} players   {info}")


@main.command()
@click.argument("game")
def rules(game):
    """Print a short version of GAME's rules and where the full rules are."""
    from .core.registry import create_game

    g = create_game(game, {})  # default options; an unknown name: one error line, exit 2
    text = g.rules_text().rstrip("\n")
    click.echo(text)
    page = f"docs/games/{g.name}.md"
    if page not in text:
        click.echo(f"Full rules, notation and this project's decisions: {page}")
    local = Path(__file__).resolve().parent.parent / page  # in a checkout of the repository
    if local.is_file():
        click.echo(f"  ({local})")


@main.command()
@click.option("--markdown", is_flag=True,
              help="Print docs/agents.md instead (the built-in agents and each game's tuned defaults).")
def agents(markdown):
    """List the agents with their parameters: default, allowed values, help."""
    if markdown:
        from .agents.docs import agents_markdown

        click.echo(agents_markdown(), nl=False)
        return
    from .agents.params import show_value
    from .agents.registry import agent_class, agent_names, agent_params

    for name in agent_names():
        click.echo(f"{name}: {agent_class(name).description}")
        for key, param in agent_params(name).items():
            former = f" (formerly {', '.join(param.aliases)})" if param.aliases else ""
            click.echo(f"    {key + '=' + show_value(param.default):<24} {param.type_text():<22} "
                       f"{param.help}{former}")
    from .core.registry import game_names, get_game_class

    for game in game_names():
        cls = get_game_class(game)
        if cls.mcts_defaults:
            pairs = ", ".join(f"{k}={v!r}" for k, v in cls.mcts_defaults.items())
            click.echo(f"\nmcts defaults tuned for {game} (explicit values win): {pairs}")
        for players, tuned in sorted(cls.mcts_defaults_by_players.items()):
            pairs = ", ".join(f"{k}={v!r}" for k, v in tuned.items())
            click.echo(f"  with {players} players also: {pairs}")
    from .agents.weights import weights_listing

    click.echo("\n" + "\n".join(weights_listing()))
    click.echo("\nEvery agent also takes seed=N. Third-party agents: 'package.module:Class(k=v)'.")


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C


@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: one per agent given with -a, else the game's default).")
@click.option("--seed", type=int, default=0, show_default=True, help="Game seed.")
@click.option("--agents", "-a", default=None,
              help="Comma-separated agent specs, one per seat (default: random).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Game option, e.g. max_rounds=50.")
@click.option("--show", is_flag=True, help="Show the board after every move (with a human seat: "
                                            "at its prompt, which shows it anyway).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game record here (also what was played if the game is interrupted).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--hard-limit", type=click.FloatRange(min=0, max=86400), default=60.0, show_default=True,
              help="A bot's move taking longer (wall seconds) is cut off as a hang fault; 0 = "
                   "no limit. A human seat has none.")
def play(game, players, seed, agents, options, show, record_path, as_json, hard_limit):
    """Play one game of GAME between agents.

    An agent that cannot be loaded or created (a missing module or class, a module that
    fails to import, a constructor that raises) is one error line, exit code 2, before
    anything is played or written. An agent that fails during the game does not stop it:
    as in a tournament, anything it raises (SystemExit included), or a move that is not
    legal, is a fault reported on stderr, that seat's moves from then on are played by a
    seeded random agent, the seat ranks below every seat without a fault, and the
    record's result lists the faults. A third-party agent plays from a process of its
    own, as in a tournament's worker, so ending that process (os._exit, a crash) is a
    fault too, and so is a move not made within --hard-limit seconds (as in a
    tournament: a Python-level hang is interrupted; an agent in its own process is
    ended). Ctrl-C stops the game (exit 130); --record then still writes the moves
    played so far.

    A 'human' seat is a person at the terminal ('help' at its prompt lists the commands:
    moves, undo, quit, ...). With one, every move is announced, the record is always
    written (to a new forumlab-GAME-seedN-TIME.json in this directory unless --record is
    given; the path is printed), and 'quit' or the end of input stops the game with exit
    code 0. In a hidden-information game the person sees only their seat's view, and at
    most one human seat is allowed."""
    from .arena.runner import CtrlC
    from .core.rng import derive_seed

    if record_path:
        _check_output_path(record_path, "record")
    g, specs = _game_and_seat_specs(game, players, agents, options)
    if record_path:
        _refuse_record_over_an_input(record_path, specs)
    seat_info = [{"label": spec, "spec": spec, "seed": derive_seed(seed, "agent", i)}
                 for i, spec in enumerate(specs)]
    ctrl_c = CtrlC()
    with ctrl_c.watching():
        seats = [_create_seat_agent(info["spec"], info["seed"], ctrl_c) for info in seat_info]
    from .agents.weights import check_weights_for_game

    for agent in seats:  # heuristic weights naming a term the game lacks: one line, exit 2
        check_weights_for_game(agent, g)
    humans = [i for i, agent in enumerate(seats) if agent.interactive]
    if len(humans) > 1 and not g.perfect_information:
        raise ForumlabError(f"{g.name} hides information, so it takes at most one human seat "
                            "(people sharing one terminal would see each other's secrets)")
    default_record = bool(humans) and not record_path
    if default_record:  # a person's game is never lost: it is always recorded
        record_path = _new_record_path(g.name, seed)
    for i in humans:  # a person's board is drawn at their prompt, by their agent
        seats[i].show_board = True
    state = g.new_state(seed)
    from .agents.human import QuitRequest
    from .agents.process import ProcessAgent
    from .arena.warmup import warm_up

    # with a notice on stderr when it must compile; an agent in its own process is not
    # imported here (its module's code runs in its process only)
    warm_up(g.name, g.config, [s for s, a in zip(specs, seats) if not isinstance(a, ProcessAgent)], seed)
    faults: list[dict] = []
    try:
        with ctrl_c.watching():
            _play_out(state, seats, specs, show, faults, humans[0] if humans else None, ctrl_c,
                      hard_limit)
    except KeyboardInterrupt:
        _stop_early(state, record_path, seat_info, {"cause": "interrupted (Ctrl-C)"},
                    "interrupted", EXIT_INTERRUPTED)
    except QuitRequest as stop:
        _stop_early(state, record_path, seat_info,
                    {"cause": f"{stop.reason} (seat {stop.seat}, {specs[stop.seat]})"},
                    f"stopped by seat {stop.seat} ({stop.reason})", 0)
    finally:
        for agent in seats:
            if isinstance(agent, ProcessAgent) or hasattr(agent, "game_over"):
                agent.close()  # (a bot program's too: ended unless its game ended cleanly)
    _report_played_game(state, seat_info, faults, as_json, record_path, default_record)


def _game_and_seat_specs(game: str, players: int | None, agents: str | None,
                         options: tuple[str, ...]) -> tuple:
    """The game ``play`` sets up and one agent spec per seat (random ones if none given)."""
    from .agents.spec import split_specs
    from .core.registry import create_game

    config = parse_key_values(options)
    specs = split_specs(agents) if agents else None
    if players is not None:
        config["players"] = players
    elif specs is not None and "players" not in config:
        config["players"] = len(specs)  # one seat per agent given
    g = create_game(game, config)
    specs = specs or ["random"] * g.players
    if len(specs) != g.players:
        raise ForumlabError(f"{len(specs)} agents given for {g.players} players")
    return g, specs


def _report_played_game(state, seat_info: list[dict], faults: list[dict], as_json: bool,
                        record_path: str | None, default_record: bool) -> None:
    """Print the result of a finished ``play`` (faulty seats ranked last), then save its record."""
    from .core.ranks import fault_ranks
    from .core.record import Record

    result = state.result()
    if faults:
        result["ranks"] = fault_ranks(result["scores"], {f["seat"] for f in faults})
        result["winners"] = [s for s, rank in enumerate(result["ranks"]) if rank == 1]
        result["faults"] = faults
    record = Record.from_state(state, agents=seat_info)
    record.result = dict(result)
    result["agents"] = [info["spec"] for info in seat_info]
    if as_json:
        click.echo(json.dumps(result))
    else:
        _print_result(result)
    if record_path:  # after printing, so a bad path cannot cost the user the result
        record.save(record_path)
        if default_record:
            click.echo(f"the record is in {record_path}", err=True)


def _new_record_path(game: str, seed: int) -> str:
    """A file name for a human game's record that no file has yet (in this directory)."""
    import time

    stem = f"forumlab-{game}-seed{seed}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, n = Path(stem + ".json"), 1
    while path.exists():
        n += 1
        path = Path(f"{stem}-{n}.json")
    return str(path)


def _create_seat_agent(spec: str, seed: int, ctrl_c):
    """The agent of a seat, or one error line: whatever stops an agent from being created
    (its module failing to import, its constructor raising, calling sys.exit or ending
    its process) is bad input of ``play``, reported before anything is played or
    written. (A tournament, which creates agents in its workers, records the same
    failure as the seat's ``init`` fault.) An agent that does not ship with forumlab
    plays from a process of its own, as in a tournament's worker
    (:mod:`forumlab.agents.process`), so that ending it costs the seat, not the game."""
    from .agents.process import ProcessAgent, is_third_party
    from .agents.registry import create_agent
    from .agents.spec import AgentSpecError

    try:
        if is_third_party(spec):
            return ProcessAgent(spec, seed)
        return create_agent(spec, seed=seed)
    except ForumlabError:
        raise
    except BaseException as exc:  # noqa: BLE001 - the agent's code failed, not play
        ctrl_c.is_agent_exit(exc)  # re-raises a real Ctrl-C, which stops play (exit 130)
        raise AgentSpecError(f"cannot create agent {spec!r}: {exception_line(exc)}") from None


def _play_out(state, seats, specs, show, faults, observer=None, ctrl_c=None, hard_limit=0.0) -> None:
    """Play ``state`` to the end under the tournaments' fault policy
    (:func:`forumlab.arena.runner.ask_agent`), appending each fault to ``faults``; a
    bot's move is cut off after ``hard_limit`` seconds (0 = never; a person's never).

    ``observer`` is the seat of a person at the table (or None): every move is then
    announced as that seat sees it (``forumlab.agents.human.announce_ply``), the board is
    drawn at its prompt (by its agent) and at the end (not after every ply, even with
    ``show``), and its ``undo`` requests rewind the game."""
    from dataclasses import asdict

    from .agents.human import QuitRequest, UndoRequest, announce_ply, rewind_before_last_move, seat_picture
    from .arena.jobs import Fault
    from .arena.runner import CtrlC, ask_agent, fallback_agent
    from .bots.news import tell_game_over, tell_ply
    from .core.ranks import fault_ranks
    from .core.rng import derive_seed, make_rng

    ctrl_c = ctrl_c or CtrlC()
    color = sys.stdout.isatty()
    view_rng = make_rng(derive_seed(state.seed, "views"))
    display_rng = make_rng(derive_seed(state.seed, "display"))  # apart, so views stay as without a person

    def picture() -> str:
        if observer is None:
            return state.render(color)
        return seat_picture(state.view_for(observer, display_rng), observer, color=color)

    fallbacks = {}
    show = show and observer is None  # with a person, their prompt draws the board
    last_mover = None
    if show:
        click.echo(picture())
    while not state.is_terminal:
        seat = state.current_player
        # Each agent sees only what its seat may see, as in the arena.
        view = state.view_for(seat, view_rng)
        move = None
        if seat not in fallbacks:
            try:
                # undo and quit are a person's requests to this driver, not faults
                limit = 0.0 if seats[seat].interactive else hard_limit
                answer = ask_agent(seats[seat], view, state, ctrl_c, limit,
                                   passthrough=(UndoRequest, QuitRequest))
            except UndoRequest:
                plies = rewind_before_last_move(state, seat)
                click.echo(f"undone: back to ply {plies}, before seat {seat}'s last move")
                if show:
                    click.echo(picture())
                continue
            move = answer.move
            if answer.fault is not None:
                kind, error = answer.fault
                ply = len(state.history) + 1
                faults.append(asdict(Fault(seat, ply, kind, error)))
                click.echo(f"warning: seat {seat} ({specs[seat]}) failed at ply {ply} ({kind}): {error}; "
                           "a random agent plays its moves from here on", err=True)
                fallbacks[seat] = fallback_agent(state.seed, seat)
        if move is None:
            move = fallbacks[seat].act(view)
        before = state.array.copy()
        state.play(move)
        tell_ply(seats, state.game, before, move, seat)  # bots hear each ply as their seat sees it
        if observer is not None:
            lines = announce_ply(state.game, before, move, state.array, seat, specs[seat], observer,
                                 len(state.history))
            click.echo(("\n" if seat != last_mover else "") + "\n".join(lines))
            last_mover = seat
        elif show:
            text = state.game.format_move(before, move)
            click.echo(f"\nply {len(state.history)}: seat {seat} ({specs[seat]}) plays {text}")
            click.echo(picture())
    if observer is not None:
        click.echo("\n" + picture())
    faulty = {f["seat"] for f in faults}
    tell_game_over(seats, state.scores(), fault_ranks(state.rank_keys(), faulty) if faulty
                   else state.result()["ranks"], faulty)


def _stop_early(state, record_path, seat_info, interrupted, message, code) -> None:
    """Report a game stopped before its end, write the moves played so far as a record
    (with an ``interrupted`` field saying why), and exit with ``code``."""
    from .core.record import Record

    played = state.game.new_state(state.seed)
    for move in state.history:  # replayed, in case the stop came between a move and its bookkeeping
        played.play(move)
    plies = len(played.history)
    if record_path:
        record = Record.from_state(played, agents=seat_info)
        record.extra["interrupted"] = dict(interrupted, after_plies=plies)
        record.save(record_path)
        message += f"; the record of the {plies} plies played is in {record_path}"
    else:
        message += f" after {plies} plies"
    click.echo(message, err=True)
    sys.exit(code)


def _refuse_record_over_an_input(record_path: str, specs: list[str]) -> None:
    """The record must not replace a file an agent reads (a human's command file, an
    evaluation file): it would be lost once the game is written."""
    import os

    from .agents.spec import AgentSpecError, parse_spec

    if not os.path.exists(record_path):
        return
    for spec in specs:
        try:
            _, given = parse_spec(spec)
        except AgentSpecError:
            continue  # refused with its own message when the agent is made
        for key, value in given.items():
            if isinstance(value, str) and os.path.isfile(value) and os.path.samefile(value, record_path):
                raise ForumlabError(f"--record {record_path} is the file {key}={value} that agent {spec!r} "
                                    "reads; give the record another path")


def _check_output_path(path: str, what: str) -> None:
    """Refuse, before any work, an output path that cannot be written as a file: one
    that is not a regular file (a directory, a device, a pipe), or in no directory."""
    from .core.files import check_output_file

    check_output_file(path, what)


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
    """Replay a game record (a file from 'play --record', 'export --game', or one line of
    'export --format jsonl') and print the final position and scores. Warns on stderr when
    the record's stored result or setup disagrees with the replay."""
    from .core.record import load_record, replay_checked

    record = load_record(path)
    state, warnings = replay_checked(record)
    for warning in warnings:  # the replay stands; the record's stored facts are suspect
        click.echo(f"warning: {warning}", err=True)
    result = state.result()
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(state.render(sys.stdout.isatty()))
        if record.agents is not None and len(record.agents) == len(result["scores"]):
            result["agents"] = [str(a.get("label", a.get("spec", "?"))) for a in record.agents]
        _print_result(result)


@main.group()
def bot():
    """Bot programs speaking the forumlab-bot/1 protocol (docs/bot-protocol.md)."""


@bot.command("check")
@click.argument("command")
@click.option("--game", default=None, help="Check this game only (default: every game the bot claims).")
@click.option("--timeout", type=click.FloatRange(min=0.1, max=3600), default=10.0, show_default=True,
              help="Seconds the bot may take per answer.")
def bot_check(command, game, timeout):
    """Check that COMMAND (a bot's command line, quoted) follows the protocol: one line per
    check, PASS or FAIL with what is wrong and how to fix it. Exit code 0 when every check
    passes, 1 when one fails, 2 for bad input."""
    from .bots.check import run_checks

    checks = run_checks(command, game, timeout)
    for check in checks:
        click.echo(check.line())
    sys.exit(0 if all(c.ok for c in checks) else 1)


def _register_arena():
    from .arena.commands import register
    from .report.command import report

    register(main)
    main.add_command(report)
    main.add_command(__import__("forumlab.arena.balance_command", fromlist=["*"]).balance)
    main.add_command(__import__("forumlab.arena.strategies_command", fromlist=["*"]).strategies)
    main.add_command(__import__("forumlab.arena.dynamics_command", fromlist=["*"]).dynamics)
    main.add_command(__import__("forumlab.arena.skill_command", fromlist=["*"]).skill)
    main.add_command(__import__("forumlab.arena.rate_command", fromlist=["*"]).rate)
    main.add_command(__import__("forumlab.tuning.command", fromlist=["*"]).tune)
    main.add_command(__import__("forumlab.tuning.command", fromlist=["*"]).design)
    main.add_command(__import__("forumlab.learning.command", fromlist=["*"]).learn)


_register_arena()

if __name__ == "__main__":
    main()
