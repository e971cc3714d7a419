"""``forumlab bot check CMD``: a compliance run of a bot program.

Each check is one line, ``PASS name`` or ``FAIL name: what is wrong (fix: how)``:

- ``start``, ``handshake``, ``protocol``, ``hello``: the command starts (a command that
  cannot, such as a missing program, is bad input), answers the
  referee's hello with one JSON line, speaks ``forumlab-bot/1`` and declares its fields
  correctly; ``games``: every game it claims exists (and ``--game`` is one of them);
- ``game G``: a whole short game of each claimed game with the bot in every seat, so every
  message kind is exchanged (``new_game``, ``move`` with the seat's view, hidden moves as
  hidden in Foundations of Rome and Forum Trajanum, ``game_over``, ``quit``), each answer
  judged as the referee judges it in a tournament (a failing line says what the referee
  would record: the fault kind, and that a random agent plays the seat on);
- ``long-think``: a move with a large budget of each kind the bot declares;
- ``unknown-message``: a message type and a field the bot does not know are ignored (so
  later versions of the protocol can add them);
- ``quit``: after ``quit`` the bot exits by itself within a second;
- ``stdin-end``: so it does when its stdin ends without a ``quit`` (the referee's process
  died): a bot that does not would run on, orphaned.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass

from ..agents.spec import AgentSpecError
from ..arena.runner import CtrlC, ask_agent
from ..core.registry import create_game, game_names
from ..core.rng import derive_seed, make_rng
from . import protocol
from .connection import BotConnection, BotGone, BotSilent
from .news import tell_game_over, tell_ply
from .referee import HANDSHAKE_SECONDS, CommandAgent, split_command

# Short games: every message kind is exchanged, in seconds rather than minutes.
SHORT_CONFIGS = {
    "forma": {"players": 2},
    "forum-romanum": {"players": 2, "max_rounds": 3},
    "forum-trajanum": {"players": 2, "intro": True, "setup": "fixed"},
    "foundations-of-rome": {"players": 2, "max_turns": 12},
}
LONG_BUDGET = {"cpu_ms": 2000, "wall_ms": 2000, "iterations": 1_000_000, "depth": 64}
FIXES = {
    "exception": "answer each request with one JSON line {\"type\":\"move\",\"move\":\"<notation>\"} "
                 "and flush stdout",
    "illegal": "answer one of the position's legal moves in the game's notation (say \"legal_moves\": "
               "true in hello to be sent them)",
    "hang": "answer every request within the time limit, and flush stdout after each line",
    "crash": "the bot died by a signal; its stderr log says where",
    "exit": "keep reading stdin until quit, answering every request",
}


@dataclass
class Check:
    """One line of the report."""

    name: str
    ok: bool
    message: str = ""

    def line(self) -> str:
        """``PASS name`` or ``FAIL name: message``."""
        return f"PASS {self.name}" + (f": {self.message}" if self.ok and self.message else "") \
            if self.ok else f"FAIL {self.name}: {self.message}"


def run_checks(command: str, game: str | None = None, timeout: float = 10.0,
               log_dir: str | None = None) -> list[Check]:
    """Every check of the module docstring, in order; later checks are skipped (not
    listed) when the bot cannot even say hello.

    Args:
        command: the bot's command line (as after ``cmd:``).
        game: check this game only (it must be one the bot claims).
        timeout: seconds the bot may take per answer.
        log_dir: where the bot's logs go (default: a new temporary directory).

    Raises:
        AgentSpecError: an empty command, unbalanced quotes, or a program that cannot be
            run (missing, not executable).
        UnknownGameError: ``game`` is not a game.
    """
    argv = split_command(command)
    if game is not None:
        create_game(game, {})  # an unknown name is bad input, before anything runs
    log_dir = log_dir or tempfile.mkdtemp(prefix="forumlab-bot-check-")
    checks, hello = _handshake_checks(argv, log_dir)
    if hello is None:
        return checks
    games = list(hello.games) if game is None else [game]
    unknown = [g for g in hello.games if g not in game_names()]
    if game is not None and game not in hello.games:
        checks.append(Check("games", False, f"the bot does not claim {game} (it claims "
                            f"{', '.join(hello.games)}) (fix: list it in hello's \"games\")"))
        return checks
    checks.append(Check("games", not unknown, f"the bot claims {unknown[0]!r}, which is not a forumlab "
                        f"game (fix: use names from 'forumlab games': {', '.join(game_names())})"
                        if unknown else ", ".join(hello.games)))
    settings = {"command": command, "timeout": timeout, "log_dir": log_dir}
    for name in [g for g in games if g in game_names()]:
        checks.append(_game_check(name, settings))
    playable = [g for g in games if g in game_names()]
    if playable:
        checks.append(_long_think_check(playable[0], hello, settings))
        checks.append(_unknown_message_check(playable[0], settings))
    checks.append(_quit_check(argv, log_dir))
    checks.append(_stdin_end_check(argv, log_dir))
    return checks


def _handshake_checks(argv: list[str], log_dir: str):
    """``start``, ``handshake``, ``protocol``, ``hello``: the checks and the bot's Hello
    (None when one failed)."""
    try:
        conn = BotConnection(argv, os.path.join(log_dir, "handshake.stderr.log"))
    except OSError as exc:  # a command that names no program is bad input, not a failed check
        raise AgentSpecError(f"cannot run {argv[0]!r}: {exc.strerror or exc} (give the path of an "
                             "executable file, or the interpreter and the script)") from None
    checks = [Check("start", True)]
    try:
        conn.send(protocol.encode(protocol.hello_request()))
        message = protocol.decode(conn.read_line(HANDSHAKE_SECONDS), "hello")
    except (protocol.ProtocolError, BotGone, BotSilent) as exc:
        conn.kill()
        checks.append(Check("handshake", False, f"{exc} (fix: answer {{\"type\":\"hello\",...}} with one "
                            f"JSON line on stdout and flush it; stderr is in {conn.stderr_path})"))
        return checks, None
    checks.append(Check("handshake", True))
    conn.finish(protocol.encode({"type": "quit"}), grace=0.5)
    if message.get("protocol") != protocol.PROTOCOL:
        checks.append(Check("protocol", False, f"the bot speaks {message.get('protocol')!r}, the referee "
                            f"{protocol.PROTOCOL!r} (fix: answer hello with "
                            f"\"protocol\":\"{protocol.PROTOCOL}\")"))
        return checks, None
    checks.append(Check("protocol", True))
    try:
        hello = protocol.check_hello(message)
    except protocol.ProtocolError as exc:
        checks.append(Check("hello", False, f"{exc} (fix: see the hello message in docs/bot-protocol.md)"))
        return checks, None
    checks.append(Check("hello", True, f"{hello.name} {hello.version}, lifetime {hello.lifetime}"))
    return checks, hello


def _fault_check(name: str, kind: str, message: str, ply: int | None = None) -> Check:
    where = f"at ply {ply}: " if ply is not None else ""
    return Check(name, False, f"{where}{message} - in a tournament the referee records a {kind!r} "
                 f"fault, ends the bot and a random agent plays its seat on (fix: "
                 f"{FIXES.get(kind, 'see docs/bot-protocol.md')})")


def _game_check(name: str, settings: dict) -> Check:
    """A whole short game of ``name`` with the bot in every seat."""
    label = f"game {name}"
    game = create_game(name, SHORT_CONFIGS.get(name, {}))
    try:
        agents = [CommandAgent(seed=derive_seed(1, "check", seat), label=f"{name}-seat{seat}", **settings)
                  for seat in range(game.players)]
    except AgentSpecError as exc:
        return Check(label, False, f"{exc} (fix: see docs/bot-protocol.md)")
    state, view_rng, ctrl_c = game.new_state(1), make_rng(derive_seed(1, "views")), CtrlC()
    try:
        while not state.is_terminal:
            seat = state.current_player
            answer = ask_agent(agents[seat], state.view_for(seat, view_rng), state, ctrl_c,
                               hard_limit=settings["timeout"] + 5.0)
            if answer.fault is not None:
                return _fault_check(label, *answer.fault, ply=state._ply() + 1)
            before = state.array.copy()
            state.play(answer.move)
            tell_ply(agents, game, before, answer.move, seat)
        result = state.result()
        tell_game_over(agents, result["scores"], result["ranks"])
    finally:
        for agent in agents:
            agent.close()
    return Check(label, True, f"{state._ply()} plies, {game.players} seats")


def _one_move(name: str, settings: dict, before_move=None, **params) -> Check | None:
    """Ask a fresh bot for one move at the start of ``name``; a failing Check, or None."""
    game = create_game(name, SHORT_CONFIGS.get(name, {}))
    state = game.new_state(2)
    try:
        agent = CommandAgent(seed=7, **settings, **params)
    except AgentSpecError as exc:
        return Check("", False, str(exc))
    try:
        if before_move is not None:
            before_move(agent)
        view = state.view_for(state.current_player, make_rng(3))
        answer = ask_agent(agent, view, state, CtrlC(), hard_limit=settings["timeout"] + 5.0)
    finally:
        agent.close()
    return _fault_check("", *answer.fault) if answer.fault else None


def _long_think_check(name: str, hello: protocol.Hello, settings: dict) -> Check:
    budgets = {f"budget_{k}": LONG_BUDGET[k] for k in hello.budgets}
    if not budgets:
        return Check("long-think", True, "the bot declares no budget: nothing to think about")
    slow = dict(settings, timeout=settings["timeout"] + 3.0)
    failed = _one_move(name, slow, **budgets)
    shown = ", ".join(f"{k[7:]}={v}" for k, v in budgets.items())
    return Check("long-think", True, f"a legal move with budget {shown}") if failed is None \
        else Check("long-think", False, failed.message)


def _unknown_message_check(name: str, settings: dict) -> Check:
    def announce(agent: CommandAgent) -> None:
        agent.conn.send(protocol.encode({"type": "x-future-message", "note": "ignore me"}))

    failed = _one_move(name, settings, before_move=announce)
    return Check("unknown-message", True) if failed is None else Check(
        "unknown-message", False, failed.message + " (a bot must not answer message types it does not "
        "know; after {\"type\":\"x-future-message\"} it gave no proper move)")


def _quit_check(argv: list[str], log_dir: str) -> Check:
    try:
        conn = BotConnection(argv, os.path.join(log_dir, "quit.stderr.log"))
        conn.send(protocol.encode(protocol.hello_request()))
        conn.read_line(HANDSHAKE_SECONDS)
        conn.send(protocol.encode({"type": "quit"}))
        conn.process.wait(1.0)
    except subprocess.TimeoutExpired:
        conn.kill()
        return Check("quit", False, "the bot was still running 1 s after quit (fix: exit when quit is read, "
                     "and when stdin ends)")
    except (OSError, BotGone, BotSilent, protocol.ProtocolError) as exc:
        return Check("quit", False, str(exc))
    conn.kill()
    return Check("quit", True)


def _stdin_end_check(argv: list[str], log_dir: str) -> Check:
    try:
        conn = BotConnection(argv, os.path.join(log_dir, "stdin-end.stderr.log"))
        conn.send(protocol.encode(protocol.hello_request()))
        conn.read_line(HANDSHAKE_SECONDS)
        conn.process.stdin.close()
        conn.process.wait(1.0)
    except subprocess.TimeoutExpired:
        conn.kill()
        return Check("stdin-end", False, "the bot was still running 1 s after its stdin ended (fix: exit "
                     "when a read from stdin finds its end)")
    except (OSError, BotGone, BotSilent, protocol.ProtocolError) as exc:
        return Check("stdin-end", False, str(exc))
    conn.kill()
    return Check("stdin-end", True)
