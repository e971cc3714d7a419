"""KEY=VALUE game options from the command line."""
from __future__ import annotations

import json

from .errors import ConfigError


def option_key(key: str) -> str:
    """The name a ``KEY=VALUE`` pair gives: stripped of surrounding spaces, dashes as
    underscores (so ``max-rounds``, `` max_rounds`` and ``max_rounds`` are one key)."""
    return key.strip().replace("-", "_")


def parse_key_values(pairs) -> dict:
    """``("max_rounds=50", "obstacles=none")`` -> ``{"max_rounds": 50, "obstacles": "none"}``.

    Values are read as JSON when they parse (numbers, lists, true/false), else as text;
    keys are stripped and their dashes become underscores.

    Args:
        pairs: ``KEY=VALUE`` strings (an iterable).

    Returns:
        The options as a dict.

    Raises:
        ConfigError: a pair has no ``=`` or no key, a key is given twice (after the
            spelling is normalised: ``max-rounds`` and ``max_rounds`` are one key, so
            neither silently wins), or a value nests lists too deeply.
    """
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        name = option_key(key)
        if not sep or not name:
            raise ConfigError(f"--option expects KEY=VALUE, got {pair!r}")
        if name in options:
            raise ConfigError(f"option {name} given twice")
        try:
            options[name] = json.loads(value)
        except RecursionError:
            raise ConfigError(f"--option {name}: the value nests lists too deeply") from None
        except ValueError:  # not JSON (or an integer of over 4300 digits): keep it as text
            options[name] = value
    return options
