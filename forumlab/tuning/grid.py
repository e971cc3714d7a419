"""The grid a tuner searches: ``NAME=LOW..HIGH[:STEPS]`` or ``NAME=V1,V2,...`` per parameter,
each value checked against the parameter's declaration (an agent's ``Param`` or a game's
option) before any game is played."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..core.errors import ConfigError

# Integer ranges without STEPS take every integer; more than this asks for STEPS.
MAX_VALUES = 25
FLOAT_STEPS = 5  # a float range without STEPS
_RANGE = re.compile(r"^\s*(-?[\d.eE+-]+)\s*\.\.\s*(-?[\d.eE+-]+)\s*(?::\s*(\d+))?\s*$")
_INDEXED = re.compile(r"^([A-Za-z_][\w.-]*)\[(\d+)\]$")


@dataclass(frozen=True)
class Dimension:
    """One searched parameter: its name as given (``c``, ``w.trajan``, ``start_silver[2]``)
    and its values in grid order."""

    name: str
    values: tuple[Any, ...]


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise ConfigError(f"{text!r} is not a number") from None


def _range_values(low: int | float, high: int | float, steps: int | None, what: str) -> list:
    if high < low:
        raise ConfigError(f"{what}: the range ends below its start")
    ints = isinstance(low, int) and isinstance(high, int)
    if steps is None:
        if not ints:
            steps = FLOAT_STEPS
        elif high - low + 1 > MAX_VALUES:
            raise ConfigError(f"{what}: {high - low + 1} integers; give at most {MAX_VALUES} "
                              "or a number of steps (LOW..HIGH:STEPS)")
        else:
            return list(range(low, high + 1))
    if steps < 1 or (steps == 1 and high != low):
        raise ConfigError(f"{what}: a range needs at least 2 steps")
    if steps == 1:
        return [low]
    values = [low + (high - low) * i / (steps - 1) for i in range(steps)]
    if ints:
        return list(dict.fromkeys(round(v) for v in values))
    return [float(f"{v:.6g}") for v in values]


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_dimension(text: str) -> Dimension:
    """``NAME=LOW..HIGH[:STEPS]`` or ``NAME=V1,V2,...`` as a :class:`Dimension`.

    Integer ranges take every integer (at most ``MAX_VALUES``) unless STEPS is given;
    float ranges take ``FLOAT_STEPS`` evenly spaced values unless STEPS is given.

    Raises:
        ConfigError: no ``=``, an empty or reversed range, a repeated value.
    """
    name, sep, rest = text.partition("=")
    name = name.strip()
    if not sep or not name or not rest.strip():
        raise ConfigError(f"--param expects NAME=LOW..HIGH[:STEPS] or NAME=V1,V2,..., got {text!r}")
    match = _RANGE.match(rest)
    if match:
        steps = int(match.group(3)) if match.group(3) else None
        values = _range_values(_number(match.group(1)), _number(match.group(2)), steps, name)
    else:
        values = [_value(v.strip()) for v in rest.split(",")]
        if any(v == "" for v in values):
            raise ConfigError(f"{name}: an empty value in {rest!r}")
        if len({json.dumps(v) for v in values}) != len(values):
            raise ConfigError(f"{name}: a value is listed twice")
    return Dimension(name, tuple(values))


def check_agent_dimensions(spec_name: str, dims: list[Dimension]) -> None:
    """Every value of every dimension must be one the agent's declaration accepts
    (``w.NAME`` weights are checked against the game later, with the spec).

    Raises:
        AgentSpecError: an unknown parameter or a refused value (one line).
    """
    from ..agents.params import resolve_options
    from ..agents.registry import agent_params

    declared = agent_params(spec_name)
    for dim in dims:
        for value in dim.values:
            if not dim.name.startswith("w."):
                resolve_options(spec_name, declared, {dim.name: value})


def apply_options(base: dict[str, Any], dims: list[Dimension], point: tuple[int, ...]) -> dict[str, Any]:
    """The game options of one grid point: ``base`` with each option dimension set
    (``KEY[i]`` sets element ``i`` of a list option given in ``base``).

    Raises:
        ConfigError: ``KEY[i]`` on an option ``base`` does not give as a list long enough.
    """
    options = {k: (list(v) if isinstance(v, list) else v) for k, v in base.items()}
    for dim, index in zip(dims, point):
        match = _INDEXED.match(dim.name)
        if match is None:
            options[dim.name] = dim.values[index]
            continue
        key, i = match.group(1), int(match.group(2))
        held = options.get(key)
        if not isinstance(held, list) or i >= len(held):
            raise ConfigError(f"{dim.name}: give the whole list first, e.g. -o {key}=[...] "
                              f"with at least {i + 1} elements")
        held[i] = dim.values[index]
    return options


def point_values(dims: list[Dimension], point: tuple[int, ...]) -> dict[str, Any]:
    """Parameter name -> value at a grid point."""
    return {dim.name: dim.values[i] for dim, i in zip(dims, point)}


def spec_with(spec: str, values: dict[str, Any]) -> str:
    """``spec`` with ``values`` set (replacing any given there), as one spec string."""
    from ..agents.spec import parse_spec
    from ..core.params import show_value

    name, params = parse_spec(spec)
    params = {**params, **values}
    if not params:
        return name
    return f"{name}(" + ", ".join(f"{k}={show_value(v)}" for k, v in params.items()) + ")"
