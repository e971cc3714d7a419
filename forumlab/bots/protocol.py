"""The ``forumlab-bot/1`` messages: encoding and the checks of what a bot sends.

One UTF-8 JSON object per line, each with a ``"type"``. The referee's messages are built
here (so their shape is written down once) and every message a bot sends is checked
here; a check that fails raises :class:`ProtocolError` with one line saying what is
wrong, which the referee turns into a fault and ``forumlab bot check`` into a FAIL line.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

PROTOCOL = "forumlab-bot/1"
BUDGET_KINDS = ("cpu_ms", "wall_ms", "iterations", "depth")
LIFETIMES = ("game", "session")
OPTION_TYPES = ("int", "float", "bool", "string")
MAX_LINE_BYTES = 1 << 20  # a longer line is malformed output, not something to buffer forever


class ProtocolError(Exception):
    """A bot sent something the protocol does not allow (the message says what)."""


@dataclass(frozen=True)
class Hello:
    """What a bot declared in its handshake."""

    name: str
    version: str
    games: tuple[str, ...]
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    budgets: tuple[str, ...] = ()
    lifetime: str = "game"
    legal_moves: bool = False


def encode(message: dict[str, Any]) -> bytes:
    """One message as the line written to a bot (compact JSON, newline-terminated)."""
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def decode(line: bytes, expected: str) -> dict[str, Any]:
    """A line read from a bot as a message of type ``expected``.

    Raises:
        ProtocolError: not UTF-8, not one JSON object, or not of the expected type.
    """
    text = line.decode("utf-8", errors="strict") if _is_utf8(line) else None
    if text is None:
        raise ProtocolError("the line is not UTF-8 text")
    shown = text.strip()[:80]
    try:
        message = json.loads(text)
    except ValueError:
        raise ProtocolError(f"the line is not JSON: {shown!r}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"the line is not a JSON object: {shown!r}")
    if message.get("type") != expected:
        raise ProtocolError(f"expected a {expected!r} message, got type {message.get('type')!r}")
    return message


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def hello_request() -> dict[str, Any]:
    """The referee's first message."""
    return {"type": "hello", "protocol": PROTOCOL}


def check_hello(message: dict[str, Any]) -> Hello:
    """The bot's handshake answer, checked field by field.

    Raises:
        ProtocolError: a wrong protocol, or a field missing or of the wrong type.
    """
    if message.get("protocol") != PROTOCOL:
        raise ProtocolError(f"the bot speaks protocol {message.get('protocol')!r}; the referee speaks "
                            f"{PROTOCOL!r} (answer hello with \"protocol\":\"{PROTOCOL}\")")
    for key in ("name", "version"):
        if not isinstance(message.get(key), str) or not message[key]:
            raise ProtocolError(f"hello needs a non-empty text {key!r}")
    games = message.get("games")
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise ProtocolError("hello needs \"games\": a non-empty list of game names")
    budgets = message.get("budgets", [])
    if not isinstance(budgets, list) or any(b not in BUDGET_KINDS for b in budgets):
        raise ProtocolError(f"hello \"budgets\" must be a list of {', '.join(BUDGET_KINDS)}")
    lifetime = message.get("lifetime", "game")
    if lifetime not in LIFETIMES:
        raise ProtocolError(f"hello \"lifetime\" must be \"game\" or \"session\", not {lifetime!r}")
    legal = message.get("legal_moves", False)
    if not isinstance(legal, bool):
        raise ProtocolError("hello \"legal_moves\" must be true or false")
    options = message.get("options", {})
    if not isinstance(options, dict):
        raise ProtocolError("hello \"options\" must be an object of name -> {type, default, help}")
    for name, decl in options.items():
        _check_option_declaration(name, decl)
    return Hello(message["name"], message["version"], tuple(games), dict(options), tuple(budgets),
                 lifetime, legal)


def _check_option_declaration(name: str, decl: Any) -> None:
    if not isinstance(decl, dict) or decl.get("type") not in OPTION_TYPES or "default" not in decl:
        raise ProtocolError(f"hello option {name!r} must be {{\"type\": one of {', '.join(OPTION_TYPES)}, "
                            "\"default\": ..., \"help\": ...}")
    if not option_value_fits(decl["type"], decl["default"]):
        raise ProtocolError(f"hello option {name!r}: default {decl['default']!r} is not a {decl['type']}")


def option_value_fits(kind: str, value: Any) -> bool:
    """Whether ``value`` is of the declared option type (``int``, ``float``, ``bool``, ``string``)."""
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, str)


def check_options(hello: Hello, given: dict[str, Any]) -> dict[str, Any]:
    """The options sent in ``new_game``: every declared option, given values checked.

    Raises:
        ProtocolError: an option the bot did not declare, or a value of the wrong type.
    """
    for name, value in given.items():
        if name not in hello.options:
            known = ", ".join(sorted(hello.options)) or "none"
            raise ProtocolError(f"bot {hello.name!r} declares no option {name!r} (declared: {known})")
        if not option_value_fits(hello.options[name]["type"], value):
            raise ProtocolError(f"bot option {name}={value!r} is not a {hello.options[name]['type']}")
    return {name: given.get(name, decl["default"]) for name, decl in hello.options.items()}


def check_move(message: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A ``move`` answer: its notation and its ``info`` object (empty when absent).

    Raises:
        ProtocolError: ``move`` missing or not text, or ``info`` not an object.
    """
    move = message.get("move")
    if not isinstance(move, str) or not move:
        raise ProtocolError(f"a move answer needs \"move\": the move in the game's notation, got {move!r}")
    info = message.get("info", {})
    if not isinstance(info, dict):
        raise ProtocolError("a move answer's \"info\" must be an object")
    return move, info


def reported_thinking_ms(info: dict[str, Any]) -> float:
    """The bot's own thinking time from its ``info`` (``wall_ms``, else ``cpu_ms``; 0 if none)."""
    for key in ("wall_ms", "cpu_ms"):
        value = info.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e9:
            return float(value)
    return 0.0
