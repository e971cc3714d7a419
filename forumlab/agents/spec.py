"""Agent spec strings: ``name`` or ``name(key=value, ...)``.

Names are registered agents (``random``, ``mcts``) or ``package.module:Class`` for
third-party agents; ``cmd:COMMAND`` (or ``label=cmd:COMMAND``) is a bot program, short
for ``cmd(command='COMMAND')`` (docs/bot-protocol.md). Values are ints, floats,
``true``/``false``, or bare/quoted words. A key is a Python identifier, or ``w.NAME`` for
the weight of a heuristic term (:mod:`forumlab.agents.weights`).
Integers must fit in 64 bits (agents hand them to numba kernels), and ``seed``, which
every agent takes, must be an integer: both are checked here, for every agent.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..core.errors import ForumlabError


class AgentSpecError(ForumlabError):
    """A malformed or unknown agent spec."""


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

_COMMAND_SPEC = re.compile(r"^\s*(?:([A-Za-z_]\w*)=)?cmd:(.*)$", re.S)
_SPEC = re.compile(r"^\s*([A-Za-z_][\w.-]*(?::[A-Za-z_]\w*)?)\s*(?:\((.*)\))?\s*$", re.S)


def parse_value(text: str) -> Any:
    """A parameter value as a spec writes it.

    Args:
        text: the text after ``=`` (already stripped).

    Returns:
        ``true``/``false`` (any case) as a bool, else an int, else a float, else the
        text without surrounding quotes.
    """
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec into its agent name and parameters.

    Args:
        spec: ``name`` or ``name(key=value, ...)``.

    Returns:
        (name, {key: value}) with values as :func:`parse_value` reads them.

    Raises:
        AgentSpecError: a malformed spec, a parameter given twice, an integer beyond
            64 bits or a seed that is not an integer.
    """
    command = _COMMAND_SPEC.match(spec) if isinstance(spec, str) else None
    if command:  # a bot program: the rest of the text is its command line, commas included
        label, text = command.group(1), command.group(2).strip()
        return "cmd", {"command": text, **({"label": label} if label else {})}
    match = _SPEC.match(spec) if isinstance(spec, str) else None
    if not match:
        raise AgentSpecError(f"malformed agent spec {spec!r} (expected e.g. 'mcts(iterations=1000)')")
    name, arg_text = match.group(1), match.group(2)
    params: dict[str, Any] = {}
    if arg_text and arg_text.strip():
        for part in arg_text.split(","):
            key, sep, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not _is_key(key) or not value:
                raise AgentSpecError(f"malformed parameter {part.strip()!r} in agent spec {spec!r}")
            if key in params:
                raise AgentSpecError(f"parameter {key!r} given twice in agent spec {spec!r}")
            params[key] = parse_value(value)
            _check_value(spec, key, params[key])
    return name, params


def _is_key(key: str) -> bool:
    """A parameter name: an identifier, or ``w.`` and one (a heuristic term's weight)."""
    return key.isidentifier() or (key.startswith("w.") and key[2:].isidentifier())


def check_seed(seed: Any, what: str = "seed") -> int:
    """An agent's seed as an ``int``, if it is one that fits in 64 bits.

    Args:
        seed: the given seed (a Python or numpy integer).
        what: how to name it in the message.

    Returns:
        ``int(seed)``.

    Raises:
        AgentSpecError: not an integer (a float is refused, not truncated; ``True`` is
            not a seed), or beyond 64 bits.
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise AgentSpecError(f"{what} must be an integer, not {seed!r}")
    if not INT64_MIN <= int(seed) <= INT64_MAX:
        raise AgentSpecError(f"{what} {int(seed)} does not fit in 64 bits (-2**63 .. 2**63-1)")
    return int(seed)


def _check_value(spec: str, key: str, value: Any) -> None:
    if key == "seed" and (not isinstance(value, int) or isinstance(value, bool)):
        raise AgentSpecError(f"seed must be an integer, not {value!r}, in agent spec {spec!r}")
    if isinstance(value, int) and not isinstance(value, bool) and not INT64_MIN <= value <= INT64_MAX:
        raise AgentSpecError(f"{key}={value} does not fit in 64 bits in agent spec {spec!r}")


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs, respecting parentheses.

    Args:
        text: e.g. ``"random,mcts(iterations=100, c=1)"``.

    Returns:
        The specs, stripped.

    Raises:
        AgentSpecError: an empty spec or unbalanced parentheses.
    """
    specs, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            specs.append(text[start:i].strip())
            start = i + 1
    specs.append(text[start:].strip())
    if any(not s for s in specs) or depth != 0:
        raise AgentSpecError(f"malformed agent list {text!r}")
    return specs
