"""Declared agent parameters: each one's default, help, type and allowed values, in one place.

An agent class declares its parameters once, as ``params = {"c": Param(0.7, "UCB1
exploration", kind=float, low=0.0), ...}``. Everything else reads those declarations:
the base class validates every value given to an agent (:func:`resolve_options`),
``forumlab agents`` lists them, and tuners read them as a schema
(:func:`forumlab.agents.registry.agent_params`).

A bad value gets one line naming the agent, the parameter, the value and what is
allowed, e.g. ``agent 'mcts': c must be a number >= 0, not -1``.
"""
from __future__ import annotations

import math
import os
import sys
import warnings
from dataclasses import dataclass
from typing import Any

from .spec import AgentSpecError

# The value types a spec string can express (see forumlab.agents.spec).
_KINDS = (bool, int, float, str)
_NOUNS = {bool: "true or false", int: "an integer", float: "a number", str: "text"}
_SHORT = {bool: "bool", int: "int", float: "float", str: "str"}


class DeprecatedParameterWarning(FutureWarning):
    """An agent parameter was given under a former name that still works.

    A FutureWarning, so Python shows it to the user running a script (a
    DeprecationWarning would be hidden outside ``__main__``).
    """


def show_value(value: Any) -> str:
    """A parameter value as a spec string would write it (``true``, ``none``, ``'x'``, ``0.5``).

    Args:
        value: any parameter value.

    Returns:
        Its text: booleans in lower case, None as ``none``, strings quoted.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return repr(value)


def _number(x: float) -> str:
    if isinstance(x, float):
        return f"{x:g}"
    if x >= 1 << 20 and (x & (x - 1)) == 0:  # a large power of two reads better as one
        return f"2**{x.bit_length() - 1}"
    return str(x)


@dataclass(frozen=True)
class Param:
    """One tunable agent parameter.

    Args:
        default: the value when the spec does not give one.
        help: one line for ``forumlab agents``.
        kind: ``bool``, ``int``, ``float`` (ints accepted too) or ``str``; by default the
            type of ``default`` (so a third-party ``Param(0, "...")`` takes integers),
            none at all when the default is of another type or ``choices`` are given.
        low, high: inclusive bounds of an int or float (None = unbounded).
        low_open: ``low`` itself is not allowed (``x > low``).
        choices: the allowed values, compared with their types (``1`` is not ``true``).
        optional: None is allowed too (``name=none`` in a spec).
        aliases: former names that still work, with a DeprecatedParameterWarning (once
            per process and the processes it starts afterwards).

    Raises:
        ValueError: the declaration contradicts itself (e.g. a default it refuses).
    """

    default: Any
    help: str
    kind: type | None = None
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    choices: tuple | None = None
    optional: bool = False
    aliases: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind is None and self.choices is None and type(self.default) in _KINDS:
            object.__setattr__(self, "kind", type(self.default))
        if self.kind is not None and self.kind not in _KINDS:
            raise ValueError(f"Param kind must be one of bool, int, float, str, not {self.kind!r}")
        if self.choices is not None:
            object.__setattr__(self, "choices", tuple(self.choices))
        try:
            self.check(self.default)
        except AgentSpecError as exc:
            raise ValueError(f"Param default refused by its own declaration: {exc}") from None

    # ---- what is allowed -------------------------------------------------------------
    def _range(self) -> str:
        low, high = self.low, self.high
        if low is not None and high is not None:
            if self.kind is int and not self.low_open:
                return f"in {_number(low)}..{_number(high)}"
            return f"in {'(' if self.low_open else '['}{_number(low)}, {_number(high)}]"
        if low is not None:
            return f"{'>' if self.low_open else '>='} {_number(low)}"
        if high is not None:
            return f"<= {_number(high)}"
        return ""

    def _describe(self, nouns: dict, sep: str) -> str:
        if self.choices is not None:
            text = sep.join(show_value(c) if not isinstance(c, str) else c for c in self.choices)
            text = text if sep == "|" else f"one of {text}"
        elif self.kind is None:
            text = "any value" if sep != "|" else "any"
        else:
            text = " ".join(filter(None, (nouns[self.kind], self._range())))
        return f"{text} or none" if self.optional else text

    def allowed(self) -> str:
        """What the parameter accepts, as words for an error message.

        Returns:
            E.g. ``"an integer in 1..64"``, ``"a number > 0"``, ``"one of win, rank, score"``.
        """
        return self._describe(_NOUNS, ", ")

    def type_text(self) -> str:
        """What the parameter accepts, compactly, for listings.

        Returns:
            E.g. ``"int in 1..64"``, ``"float > 0"``, ``"random|heuristic|none"``, ``"bool"``.
        """
        return self._describe(_SHORT, "|")

    # ---- checking --------------------------------------------------------------------
    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is allowed (None counts only for optional parameters)."""
        if value is None and self.optional:
            return True
        if self.choices is not None:
            return any(type(value) is type(c) and value == c for c in self.choices)
        if self.kind is None:
            return True
        if self.kind is float:
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
                  and math.isfinite(value))
        elif self.kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, self.kind)
        if not ok or self.kind in (bool, str):
            return ok
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or value <= self.high

    def check(self, value: Any, agent: str = "", name: str = "") -> Any:
        """``value`` if allowed (the word ``none`` read as None for an optional parameter).

        Args:
            value: the given value (as parsed from a spec, or from Python).
            agent: the agent's name, for the message.
            name: the parameter's name as the user gave it, for the message.

        Returns:
            The value to use.

        Raises:
            AgentSpecError: ``agent 'A': NAME must be ALLOWED, not VALUE``.
        """
        if self.optional and isinstance(value, str) and value.lower() == "none":
            value = None
        if not self.accepts(value):
            who = f"agent {agent!r}: " if agent else ""
            raise AgentSpecError(f"{who}{name or 'value'} must be {self.allowed()}, not {show_value(value)}")
        return value


_HERE = os.path.dirname(__file__)
# "agent:former" pairs already warned about, in the environment so that the processes
# this one starts afterwards (a warm-up child, a tournament's workers, which build the
# same agents again) stay quiet: one warning per command, not one per process.
WARNED_ENV = "FORUMLAB_WARNED_PARAMETERS"


def _warn_former_name(agent: str, former: str, name: str) -> None:
    pair = f"{agent}:{former}"
    warned = [p for p in os.environ.get(WARNED_ENV, "").split(",") if p]
    if pair in warned:
        return
    os.environ[WARNED_ENV] = ",".join(warned + [pair])
    # Attributed to the first caller outside this package (a user's script, the CLI,
    # the arena), which is where the old name was written.
    frame, level = sys._getframe(0), 1
    while frame is not None and os.path.dirname(frame.f_code.co_filename) == _HERE:
        frame, level = frame.f_back, level + 1
    warnings.warn(f"agent {agent!r}: parameter {former!r} is now called {name!r}; "
                  f"the old name still works but will go", DeprecatedParameterWarning, stacklevel=level)


def resolve_options(agent: str, params: dict[str, Param], given: dict[str, Any]) -> dict[str, Any]:
    """Check the parameters given to an agent against its declarations.

    Args:
        agent: the agent's name, for messages.
        params: the agent's declared parameters (``Agent.params``).
        given: the values given, by name (former names allowed, with a warning).

    Returns:
        The given values only, under their current names, as :meth:`Param.check`
        returns them; defaults are not filled in.

    Raises:
        AgentSpecError: an unknown name, a parameter given twice (under its name and a
            former one), or a value its declaration refuses.
    """
    current = {old: name for name, p in params.items() for old in p.aliases}
    current.update({name: name for name in params})
    options: dict[str, Any] = {}
    keys: dict[str, str] = {}  # current name -> the name it was given under
    for key, value in given.items():
        name = current.get(key)
        if name is None:
            known = ", ".join(sorted(params)) or "none"
            raise AgentSpecError(f"agent {agent!r} has no parameter {key!r} (parameters: {known})")
        if name in options:
            raise AgentSpecError(f"agent {agent!r}: {keys[name]} and {key} name the same parameter; "
                                 f"give {name} only")
        keys[name] = key
        options[name] = params[name].check(value, agent, key)
    for name, key in keys.items():  # only once every value passed: an error says it all
        if key != name:
            _warn_former_name(agent, key, name)
    return options
