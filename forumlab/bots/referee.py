"""The referee: :class:`CommandAgent`, the agent that plays a bot process.

Spec: ``cmd:./mybot --flag`` (the text after ``cmd:`` split as a shell would, with
:func:`shlex.split`; a relative program path is resolved against the current directory),
or ``cmd(command='./mybot --flag', budget_cpu_ms=100, options='depth=3;fast=true')`` for
the parameters below. It plays wherever an agent plays (``play``, ``tournament``,
``balance``, the Python API), since to every driver it is an ordinary agent: it answers
``act(view)`` with a move code. What it sends the bot is only what the seat may see:
the seat's view (:func:`forumlab.bots.view.bot_view`) and the moves since the seat's last
turn as the game tells that seat (``Game.move_seen_by``), which every driver passes on
with :func:`forumlab.bots.news.tell_ply`; :func:`~forumlab.bots.news.tell_game_over`
ends the bot's game.

Everything a bot can do wrong is an :class:`~forumlab.agents.process.AgentProcessFault`
of the arena's kinds (``forumlab.arena.jobs``): malformed output is ``exception``, a move
that is not the game's notation or not legal is ``illegal``, no answer within
``timeout`` seconds is ``hang`` (the driver's hard limit may cut it off first, also a
``hang``), a bot that dies by a signal is ``crash``, one that exits is ``exit``. After a
fault the bot is ended; the driver plays the seat on with its random fallback, and the
next game starts a new bot. A handshake that fails is a bad spec (``AgentSpecError``):
``play`` reports it before the game, a tournament records the seat's ``init`` fault.

Per move the referee writes one line to ``<log>.moves.jsonl``: the wall time from
sending the request to reading the answer, the thinking time the bot reported
(``info.wall_ms``, else ``info.cpu_ms``) and their difference, the protocol overhead.
"""
from __future__ import annotations

import atexit
import json
import os
import re
import shlex
import tempfile
import time
from typing import Any

from ..agents.base import Agent, Param
from ..agents.process import AgentProcessFault
from ..agents.spec import AgentSpecError, parse_value
from ..arena.jobs import FAULT_EXCEPTION, FAULT_HANG, FAULT_ILLEGAL
from ..core.errors import ConfigError
from ..core.game import State
from . import protocol
from .connection import BotConnection, BotGone, BotSilent
from .view import bot_view

LOG_DIR_ENV = "FORUMLAB_BOT_LOG_DIR"
HANDSHAKE_SECONDS = 10.0  # a bot that has not said hello by then is not one
_SESSIONS: dict[tuple, list[tuple[BotConnection, protocol.Hello]]] = {}  # idle "session" bots
_COUNTER = [0]
_SET_HERE = [""]  # the log directory a tournament of this process put in the environment


def split_command(text: str) -> list[str]:
    """The argv of a ``cmd:`` spec: shell-like splitting, a relative program path made
    absolute against the current directory (a bare name is looked up on PATH).

    Raises:
        AgentSpecError: an empty command or unbalanced quotes.
    """
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise AgentSpecError(f"bot command {text!r}: {exc}") from None
    if not argv:
        raise AgentSpecError("a bot command is empty (expected e.g. cmd:./mybot --flag)")
    if os.sep in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.abspath(argv[0])
    return argv


def default_label(argv: list[str]) -> str:
    """A bot's log name from its command: the program, or the script an interpreter runs."""
    if len(argv) > 1 and os.path.isfile(argv[1]):
        return os.path.basename(argv[1])
    return os.path.basename(argv[0])


def parse_bot_options(text: str) -> dict[str, Any]:
    """``name=value;name=value`` as a dict (values read as in agent specs).

    Raises:
        AgentSpecError: a part without ``=``.
    """
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise AgentSpecError(f"bot option {part!r} is not name=value")
        options[name.strip()] = parse_value(value.strip())
    return options


def command_pool_entry(item: dict[str, Any]) -> tuple[str, str]:
    """A tournament file's ``[[agents]]`` entry with ``command = [...]`` as (label, spec).

    Fields: ``command`` (the argv, a list of text), ``name`` (or ``label``; default: the
    program's name), ``options`` (a table of the bot's declared options), and any
    parameter of ``cmd`` (``budget_cpu_ms``, ``timeout``, ...).

    Raises:
        ConfigError: a field of the wrong type, an unknown field, or a comma in an
            argument or an option (a spec cannot hold one).
    """
    item = dict(item)
    argv = item.pop("command")
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) and a for a in argv):
        raise ConfigError(f"agent command must be a list of non-empty texts, not {argv!r}")
    label = item.pop("name", None) or item.pop("label", None) or os.path.basename(argv[0])
    options = item.pop("options", {})
    if not isinstance(options, dict):
        raise ConfigError(f"agent {label!r}: options must be a table, not {options!r}")
    words = [shlex.join(argv), *(f"{k}={v}" for k, v in options.items())]
    if any("," in w or ";" in w for w in words):
        raise ConfigError(f"agent {label!r}: a command argument or option with ',' or ';' cannot be "
                          "written in a spec")
    args = [f'command="{shlex.join(argv)}"']
    if options:
        text = ";".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
        args.append(f'options="{text}"')
    for key, value in item.items():
        if key not in CommandAgent.params or key in ("command", "options"):
            raise ConfigError(f"unknown agent field {key!r} (a bot: command, name, options, or a "
                              f"parameter of cmd)")
        args.append(f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}")
    return str(label), f"cmd({', '.join(args)})"


def log_directory(given: str = "") -> str:
    """Where bots' logs go: ``given``, else ``$FORUMLAB_BOT_LOG_DIR`` (a tournament sets it
    beside its results file), else ``<temp dir>/forumlab-bots``; created if missing."""
    from ..core.files import check_output_directory

    path = given or os.environ.get(LOG_DIR_ENV) or os.path.join(tempfile.gettempdir(), "forumlab-bots")
    check_output_directory(path, "bot log directory")  # a file or a device there: one line
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:  # e.g. a parent that is a file, or no permission
        raise ConfigError(f"cannot make the bot log directory {path}: {exc.strerror or exc}") from None
    return path


def keep_bot_logs_beside(results_path, specs) -> None:
    """Send the logs of a tournament's bots to ``<results file>.bot-logs/`` (through
    ``$FORUMLAB_BOT_LOG_DIR``, which local workers inherit), unless the user's environment
    names a directory or no agent is a bot program.

    Raises:
        ConfigError: a directory the bots would log into (that one, the environment's, or a
            bot's ``log_dir``) exists and is not a writable directory; checked here, before
            any game, because a bot started in a worker would only record a fault per game.
    """
    from ..agents.spec import parse_spec
    from ..core.files import check_output_directory

    bots = [params for name, params in map(parse_spec, specs) if name == "cmd"]
    if not bots:
        return
    user_choice = os.environ.get(LOG_DIR_ENV, _SET_HERE[0]) != _SET_HERE[0]
    shared = os.environ[LOG_DIR_ENV] if user_choice else os.path.abspath(f"{results_path}.bot-logs")
    for path in {shared, *(str(p["log_dir"]) for p in bots if p.get("log_dir"))}:
        check_output_directory(path, "bot log directory")
    if not user_choice:
        _SET_HERE[0] = os.environ[LOG_DIR_ENV] = shared


def _budget_param(kind: str) -> Param:
    return Param(0, f"the {kind} budget sent with every move, if the bot declares it (0 = none)",
                 kind=int, low=0, high=10**9)


class CommandAgent(Agent):
    """A bot in another process speaking ``forumlab-bot/1`` (module docstring)."""

    name = "cmd"
    external = True  # constructing it starts outside code: tournaments check its spec without it
    description = "a bot program speaking the forumlab-bot/1 protocol (docs/bot-protocol.md)"
    params = {
        "command": Param("", "the bot's command line (cmd:COMMAND is short for cmd(command=COMMAND))",
                         kind=str),
        "label": Param("", "the name its log files start with (default: the bot's name)", kind=str),
        "options": Param("", "bot options sent in new_game, as name=value;name=value", kind=str),
        **{f"budget_{kind}": _budget_param(kind) for kind in protocol.BUDGET_KINDS},
        "timeout": Param(60.0, "seconds the bot may take to answer (0 = no limit but the driver's)",
                         kind=float, low=0.0, high=1e6),
        "log_dir": Param("", "directory of the bot's logs (default: $FORUMLAB_BOT_LOG_DIR, else a temp "
                         "dir)", kind=str),
    }

    def __init__(self, seed: int = 0, **options: Any):
        """Start the bot (or take an idle session bot of the same command) and check its
        handshake against the spec: the budgets given are ones it declares, the options
        given are ones it declares, with values of their declared types.

        Raises:
            AgentSpecError: no command, a command that cannot start, a failed handshake,
                a budget or option the bot does not declare.
        """
        super().__init__(seed, **options)
        self.argv = split_command(self.options["command"])
        self.budget = {kind: self.options[f"budget_{kind}"] for kind in protocol.BUDGET_KINDS
                       if self.options[f"budget_{kind}"] > 0}
        try:
            self._key = (tuple(self.argv), os.getcwd(), log_directory(self.options["log_dir"]))
        except ConfigError as exc:
            raise AgentSpecError(f"agent {self.name!r}: {exc}") from None
        self.conn, self.hello = self._connect()
        try:
            undeclared = sorted(set(self.budget) - set(self.hello.budgets))
            if undeclared:
                raise protocol.ProtocolError(f"budget {undeclared[0]} given, but the bot honours only "
                                             f"{', '.join(self.hello.budgets) or 'no budget'}")
            self.bot_options = protocol.check_options(self.hello, parse_bot_options(self.options["options"]))
        except protocol.ProtocolError as exc:
            self.conn.kill()
            raise AgentSpecError(f"bot {self.options['command']!r}: {exc}") from None
        self.seat: int | None = None  # known from the first move request
        self._seen: list[dict[str, Any]] = []
        self.move_log: list[dict[str, Any]] = []  # one entry per move: times and the bot's info
        self.request_bytes = 0  # the size of the last move request

    @classmethod
    def check_given(cls, given: dict[str, Any]) -> None:
        """Check a spec's parameters without starting the bot (a tournament's check).

        Raises:
            AgentSpecError: no command, unbalanced quotes, or malformed options.
        """
        split_command(str(given.get("command", "")))
        parse_bot_options(str(given.get("options", "")))

    def spec(self) -> str:
        """``cmd:COMMAND`` (with ``label=`` before it) when only those were given, else
        the long form ``cmd(command='...', ...)``."""
        given = dict(self.given)
        command, label = given.pop("command", ""), given.pop("label", "")
        if not given:
            return f"{label + '=' if label else ''}cmd:{command}"
        args = ", ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}"
                         for k, v in {"command": command, **({"label": label} if label else {}),
                                      **given}.items())
        return f"cmd({args})"

    # ---- starting ------------------------------------------------------------------------
    def _connect(self) -> tuple[BotConnection, protocol.Hello]:
        idle = _SESSIONS.get(self._key, [])
        while idle:
            conn, hello = idle.pop()
            if conn.alive:
                self._log_stem = conn.stderr_path[:-len(".stderr.log")]
                return conn, hello
        _COUNTER[0] += 1
        label = re.sub(r"[^\w.-]+", "_", self.options["label"] or default_label(self.argv))[:40]
        self._log_stem = os.path.join(self._key[2], f"{label}.{os.getpid()}.{_COUNTER[0]}")
        try:
            conn = BotConnection(self.argv, self._log_stem + ".stderr.log")
        except OSError as exc:
            raise AgentSpecError(f"cannot start bot {self.options['command']!r}: "
                                 f"{exc.strerror or exc}") from None
        try:
            conn.send(protocol.encode(protocol.hello_request()))
            hello = protocol.check_hello(protocol.decode(conn.read_line(HANDSHAKE_SECONDS), "hello"))
        except (protocol.ProtocolError, BotGone, BotSilent) as exc:
            conn.kill()
            raise AgentSpecError(f"bot {self.options['command']!r} failed its handshake: {exc} "
                                 f"(its stderr: {conn.stderr_path})") from None
        return conn, hello

    # ---- a game --------------------------------------------------------------------------
    def choose(self, state: State) -> int:
        """Ask the bot for its move in ``state`` (the seat's view); see the module docstring.

        Raises:
            AgentProcessFault: the bot broke the protocol, played no legal notation, took
                too long or ended; the bot is ended first.
        """
        try:
            return self._ask(state)
        except AgentProcessFault:
            self._drop()
            raise
        except protocol.ProtocolError as exc:
            self._drop()
            raise AgentProcessFault(FAULT_EXCEPTION, f"malformed answer: {exc}") from None
        except BotGone as exc:
            self._drop()
            raise AgentProcessFault(exc.fault_kind, str(exc)) from None
        except BotSilent as exc:
            self._drop()
            raise AgentProcessFault(FAULT_HANG, str(exc)) from None
        except BaseException:
            self._drop()  # cut off by the driver: a late answer must never be read as a later move's
            raise

    def _ask(self, state: State) -> int:
        game = state.game
        seat = state.current_player
        if self.conn is None:  # a new game of an agent whose bot was ended or handed back
            self.conn, self.hello = self._connect()
        if self.seat is None:
            self._new_game(state, seat)
        request: dict[str, Any] = {"type": "move", "ply": state._ply(), "view": bot_view(state, seat),
                                   "seen": self._seen}
        if self.hello.legal_moves:
            request["legal_moves"] = state.legal_move_texts()
        if self.budget:
            request["budget"] = dict(self.budget)
        data = protocol.encode(request)
        self.request_bytes = len(data)
        self._seen = []
        started = time.perf_counter()
        self.conn.send(data)
        line = self.conn.read_line(self.options["timeout"])
        wall_ms = (time.perf_counter() - started) * 1000.0
        text, info = protocol.check_move(protocol.decode(line, "move"))
        self._record(request["ply"], wall_ms, info)
        try:
            move = game.parse_move(state.array, text)
        except Exception as exc:  # noqa: BLE001 - any parser complaint means "not a move"
            raise AgentProcessFault(FAULT_ILLEGAL, f"played {text!r}, which is not a move here: "
                                    f"{exc}") from None
        if not state.is_legal(move):
            raise AgentProcessFault(FAULT_ILLEGAL, f"played {text!r}, which is not legal here")
        return move

    def _new_game(self, state: State, seat: int) -> None:
        game = state.game
        if game.name not in self.hello.games:
            raise AgentProcessFault(FAULT_EXCEPTION, f"the bot plays {', '.join(self.hello.games)}, "
                                    f"not {game.name}")
        self.seat = seat
        self.conn.send(protocol.encode({"type": "new_game", "game": game.name, "config": game.config,
                                        "players": game.players, "seat": seat, "seed": self.seed,
                                        "options": self.bot_options}))
        protocol.decode(self.conn.read_line(self.options["timeout"]), "ready")

    def _record(self, ply: int, wall_ms: float, info: dict[str, Any]) -> None:
        thinking = protocol.reported_thinking_ms(info)
        entry = {"ply": ply, "wall_ms": round(wall_ms, 4), "thinking_ms": thinking,
                 "overhead_ms": round(max(0.0, wall_ms - thinking), 4)}
        if info:
            entry["info"] = info
        self.move_log.append(entry)
        try:
            with open(self._log_stem + ".moves.jsonl", "a", encoding="utf-8") as out:
                out.write(json.dumps(entry) + "\n")
        except OSError:
            pass  # a full disk costs the log, never the game

    # ---- news from the driver --------------------------------------------------------------
    def observe_ply(self, mover: int, seen: str | None) -> None:
        """A ply was played; ``seen`` is what this seat may know of it (None: hidden)."""
        if mover != self.seat:
            self._seen.append({"seat": mover, "move": seen})

    def game_over(self, result: dict[str, Any], faulted: bool = False) -> None:
        """The game ended: tell the bot (if it is in it), then end it or keep it for the
        next game (a ``session`` bot without a fault)."""
        if faulted:
            self._drop()
        if self.conn is None or faulted:
            self.seat, self._seen = None, []
            return
        try:
            if self.seat is not None:
                self.conn.send(protocol.encode({"type": "game_over", "result": result, "seen": self._seen}))
        except BotGone:
            self._drop()
            return
        if self.hello.lifetime == "session" and self.conn.alive:
            _SESSIONS.setdefault(self._key, []).append((self.conn, self.hello))
            self.conn = None
        else:
            self.close()
        self.seat, self._seen = None, []  # played again, this agent starts a new bot

    def close(self) -> None:
        """Send ``quit`` and end the bot (idempotent)."""
        if self.conn is not None:
            conn, self.conn = self.conn, None
            conn.finish(protocol.encode({"type": "quit"}))

    def _drop(self) -> None:
        if self.conn is not None:
            conn, self.conn = self.conn, None
            conn.kill()

    def __del__(self):
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.kill()


@atexit.register
def _end_sessions() -> None:
    for idle in _SESSIONS.values():
        for conn, _ in idle:
            conn.finish(protocol.encode({"type": "quit"}), grace=0.5)
    _SESSIONS.clear()
