"""KEY=VALUE game options from the command line."""
from __future__ import annotations

import json

from .errors import ConfigError


def parse_key_values(pairs) -> dict:
    """``("max_rounds=50", "obstacles=none")`` -> ``{"max_rounds": 50, "obstacles": "none"}``.

    Values are read as JSON when they parse (numbers, lists, true/false), else as text;
    dashes in keys become underscores.

    Args:
        pairs: ``KEY=VALUE`` strings (an iterable; a later key overrides an earlier one).

    Returns:
        The options as a dict.

    Raises:
        ConfigError: a pair has no ``=`` or no key, or its value nests lists too deeply.
    """
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"--option expects KEY=VALUE, got {pair!r}")
        try:
            options[key.replace("-", "_")] = json.loads(value)
        except RecursionError:
            raise ConfigError(f"--option {key}: the value nests lists too deeply") from None
        except ValueError:  # not JSON (or an integer of over 4300 digits): keep it as text
            options[key.replace("-", "_")] = value
    return options
