"""Declared parameters: each one's default, help, type and allowed values, in one place.

Agents declare their parameters and games their options the same way, as ``Param``s:
``{"c": Param(0.7, "UCB1 exploration", kind=float, low=0.0)}``. Everything else reads
the declarations: one code path checks every given value (:meth:`Param.check`), the
CLI lists them (``forumlab agents``, ``forumlab games --options GAME``) and the docs
and tuners read them as a schema.

A value is a bool, an int, a float, a text, or a list of such values (``items``: the
declaration of one element). A check that the type and range cannot express (a square
name that must exist on the board, prices that must not decrease, a count that depends
on another option) is a ``validate`` function named in the declaration, never hand code
in a constructor.

A bad value gets one line naming the owner, the parameter, what is allowed and the
value, e.g. ``forma: option obstacles must be one of random, none or a list of up to
25 squares (got 'many')``. Agents word it their way (:mod:`forumlab.agents.params`).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import ConfigError, ForumlabError

# The value types a spec string or a KEY=VALUE option can express.
_KINDS = (bool, int, float, str)
_NOUNS = {bool: "true or false", int: "an integer", float: "a number", str: "text"}
_PLURALS = {bool: "booleans", int: "integers", float: "numbers", str: "texts"}
_SHORT = {bool: "bool", int: "int", float: "float", str: "str"}


def show_value(value: Any) -> str:
    """A parameter value as a spec string would write it (``true``, ``none``, ``'x'``, ``0.5``).

    Args:
        value: any parameter value.

    Returns:
        Its text: booleans in lower case, None as ``none``, strings quoted, lists with
        their elements written the same way.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    return repr(value)


def _number(x: float) -> str:
    if isinstance(x, float):
        return f"{x:g}"
    if x >= 1 << 20 and (x & (x - 1)) == 0:  # a large power of two reads better as one
        return f"2**{x.bit_length() - 1}"
    return str(x)


def _choice_text(choices: tuple, sep: str) -> str:
    return sep.join(c if isinstance(c, str) else show_value(c) for c in choices)


@dataclass(frozen=True)
class Param:
    """One declared parameter (of an agent) or option (of a game).

    Args:
        default: the value when none is given.
        help: one line for listings. For the element declaration of a list (``items``),
            a singular noun naming one element (``"module"``, ``"square"``), which the
            messages use.
        kind: ``bool``, ``int``, ``float`` (ints accepted too) or ``str``; by default the
            type of ``default`` (so a third-party ``Param(0, "...")`` takes integers),
            none at all when the default is of another type or ``choices`` or ``items``
            are given.
        low, high: inclusive bounds of an int or float (None = unbounded).
        low_open: ``low`` itself is not allowed (``x > low``).
        choices: the allowed values, compared with their types (``1`` is not ``true``).
        optional: None is allowed too (``name=none`` in a spec).
        aliases: former names that still work (agents: with a warning).
        items: a list (or tuple) of values is allowed, each one checked by this
            declaration (together with ``choices``: either one of them or a list).
        min_len, max_len: bounds on such a list's length (``max_len`` None = unbounded).
        unique: no element may be listed twice.
        validate: a deep check run after the declared ones (games: after every option
            passed them), ``validate(value, options) -> value``: ``options`` holds every
            option's checked value, the returned value is the one used (normalised);
            raises ValueError (a message the caller prefixes with the option's name) or
            ConfigError (a message used as it is).

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
    items: Param | None = None
    min_len: int = 0
    max_len: int | None = None
    unique: bool = False
    validate: Callable[[Any, dict], Any] | None = None

    # What a refused value raises; agents' declarations raise their own error.
    error: ClassVar[type[ForumlabError]] = ConfigError

    def __post_init__(self):
        if (self.kind is None and self.choices is None and self.items is None
                and type(self.default) in _KINDS):
            object.__setattr__(self, "kind", type(self.default))
        if self.kind is not None and self.kind not in _KINDS:
            raise ValueError(f"Param kind must be one of bool, int, float, str, not {self.kind!r}")
        if self.choices is not None:
            object.__setattr__(self, "choices", tuple(self.choices))
        try:
            self.check(self.default)
        except ForumlabError as exc:
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

    def _count(self) -> str:
        if self.max_len is None:
            return f"at least {self.min_len} " if self.min_len else ""
        if self.min_len == self.max_len:
            return f"{self.max_len} "
        return f"up to {self.max_len} " if not self.min_len else f"{self.min_len} to {self.max_len} "

    def _list_text(self) -> str:
        item = self.items
        distinct = "distinct " if self.unique else ""
        if item.choices is not None:
            return f"a list of {self._count()}{distinct}{item.help}s from {_choice_text(item.choices, ', ')}"
        what = "" if item.kind is str else f" ({item._describe(_PLURALS, ', ')})"
        return f"a list of {self._count()}{distinct}{item.help}s{what}"

    def _list_type(self) -> str:
        return f"list of {self._count()}{self.items.type_text()}"

    def _describe(self, nouns: dict, sep: str) -> str:
        short = sep == "|"
        parts = []
        if self.choices is not None:
            text = _choice_text(self.choices, sep)
            parts.append(text if short or self.items is not None else f"one of {text}")
        if self.items is not None:
            parts.append(self._list_type() if short else self._list_text())
        if not parts:
            if self.kind is None:
                parts.append("any" if short else "any value")
            else:
                parts.append(" ".join(filter(None, (nouns[self.kind], self._range()))))
        if self.optional:
            parts.append("none")
        if short:
            return "|".join(parts) if self.choices is not None else " or ".join(parts)
        if self.choices is not None and self.items is not None:
            parts[0] = f"one of {parts[0]}"
        return " or ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " or " + parts[-1]

    def allowed(self) -> str:
        """What the parameter accepts, as words for an error message.

        Returns:
            E.g. ``"an integer in 1..64"``, ``"a number > 0"``, ``"one of win, rank, score"``,
            ``"a list of 6 prices (integers in 0..1000000)"``.
        """
        return self._describe(_NOUNS, ", ")

    def type_text(self) -> str:
        """What the parameter accepts, compactly, for listings.

        Returns:
            E.g. ``"int in 1..64"``, ``"float > 0"``, ``"random|heuristic|none"``, ``"bool"``,
            ``"list of 6 int in 0..1000000"``.
        """
        return self._describe(_SHORT, "|")

    # ---- checking --------------------------------------------------------------------
    def _scalar_ok(self, value: Any) -> bool:
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

    def list_problem(self, value: Any) -> str | None:
        """What is wrong with one element of a list value, in words, or None.

        Args:
            value: a list (or tuple) of the right length.

        Returns:
            E.g. ``"unknown module 'castles' (known: monuments, ...)"``, ``"module
            'roles' listed twice"``, ``"bad price -1 (must be an integer in 0..10)"``.
        """
        item = self.items
        for k, element in enumerate(value):
            if not item.accepts(element):
                if item.choices is not None:
                    return (f"unknown {item.help} {show_value(element)} "
                            f"(known: {_choice_text(item.choices, ', ')})")
                return f"bad {item.help} {show_value(element)} (must be {item.allowed()})"
            if self.unique and element in value[:k]:
                return f"{item.help} {show_value(element)} listed twice"
        return None

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is allowed (None counts only for optional parameters)."""
        if value is None and self.optional:
            return True
        if self.choices is not None and any(type(value) is type(c) and value == c for c in self.choices):
            return True
        if self.items is not None and isinstance(value, (list, tuple)):
            return (self.min_len <= len(value) <= (len(value) if self.max_len is None else self.max_len)
                    and self.list_problem(value) is None)
        if self.choices is not None or self.items is not None or self.kind is None:
            return self.choices is None and self.items is None
        return self._scalar_ok(value)

    def refusal(self, value: Any, owner: str = "", name: str = "") -> str:
        """The one-line message for a refused value.

        Args:
            value: the refused value.
            owner: who declared the parameter (a game's name), for the message.
            name: the parameter's name, for the message.

        Returns:
            ``OWNER: option NAME must be ALLOWED (got VALUE)``, or for a list of the right
            length with one bad element, ``OWNER: option NAME: WHAT IS WRONG``.
        """
        who = f"{owner}: " if owner else ""
        label = f"option {name}" if name else "value"
        if self.items is not None and isinstance(value, (list, tuple)) and (
                self.min_len <= len(value) <= (len(value) if self.max_len is None else self.max_len)):
            problem = self.list_problem(value)
            if problem:
                return f"{who}{label}: {problem}"
        return f"{who}{label} must be {self.allowed()} (got {show_value(value)})"

    def check(self, value: Any, agent: str = "", name: str = "") -> Any:
        """``value`` if allowed (the word ``none`` read as None for an optional parameter).

        Args:
            value: the given value (as parsed from a spec or an option, or from Python).
            agent: who declared the parameter (an agent's or a game's name), for the message.
            name: the parameter's name as the user gave it, for the message.

        Returns:
            The value to use.

        Raises:
            ForumlabError: ``error`` (ConfigError here) with :meth:`refusal`'s line.
        """
        if self.optional and isinstance(value, str) and value.lower() == "none":
            value = None
        if not self.accepts(value):
            raise self.error(self.refusal(value, agent, name))
        return value
