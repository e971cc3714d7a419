"""Declared agent parameters: each one's default, help, type and allowed values, in one place.

An agent class declares its parameters once, as ``params = {"c": Param(0.7, "UCB1
exploration", kind=float, low=0.0), ...}``. Everything else reads those declarations:
the base class validates every value given to an agent (:func:`resolve_options`),
``forumlab agents`` lists them, and tuners read them as a schema
(:func:`forumlab.agents.registry.agent_params`).

A bad value gets one line naming the agent, the parameter, the value and what is
allowed, e.g. ``agent 'mcts': c must be a number >= 0, not -1``. The declaration and
its checks are :mod:`forumlab.core.params`, which games' options share.
"""
from __future__ import annotations

import os
import sys
import warnings
from typing import Any

from ..core.params import Param as CoreParam
from ..core.params import show_value
from .spec import AgentSpecError

__all__ = ["DeprecatedParameterWarning", "Param", "WARNED_ENV", "resolve_options", "show_value"]


class DeprecatedParameterWarning(FutureWarning):
    """An agent parameter was given under a former name that still works.

    A FutureWarning, so Python shows it to the user running a script (a
    DeprecationWarning would be hidden outside ``__main__``).
    """


class Param(CoreParam):
    """One tunable agent parameter: :class:`forumlab.core.params.Param` (games declare
    their options with it too), refused with an AgentSpecError worded for agent specs.

    Args: as :class:`forumlab.core.params.Param`.

    Raises:
        ValueError: the declaration contradicts itself (e.g. a default it refuses).
    """

    error = AgentSpecError

    def refusal(self, value: Any, owner: str = "", name: str = "") -> str:
        """``agent 'A': NAME must be ALLOWED, not VALUE``.

        Args:
            value: the refused value.
            owner: the agent's name.
            name: the parameter's name as the user gave it.

        Returns:
            The one-line message.
        """
        who = f"agent {owner!r}: " if owner else ""
        return f"{who}{name or 'value'} must be {self.allowed()}, not {show_value(value)}"


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
