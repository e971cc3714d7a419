"""Agents by name, and creation from spec strings.

Third-party agents: pass ``package.module:Class`` (optionally with parameters) as
the spec (a module in the current directory works too: ``mybot:OnePly`` beside
``mybot.py``, see :func:`import_agent_module`), or register a name through the
``forumlab.agents`` entry-point group in your package metadata, e.g. in
pyproject.toml::

    [project.entry-points."forumlab.agents"]
    mybot = "mypackage.bots:MyBot"

The class must subclass :class:`forumlab.agents.base.Agent`. Its ``params`` are its
schema: :func:`agent_params` hands them to tuners and listings.

Loading a third-party agent never ends the command that loads it: a module that fails
to import (a syntax error, an exception or ``sys.exit`` in its top-level code) is an
:class:`AgentSpecError`, and its first import is tried in a process of its own
(:func:`forumlab.agents.process.check_import_survives`), so that one that calls
``os._exit`` or crashes at import is one too.
"""
from __future__ import annotations

import importlib
import os
import sys
from importlib.metadata import entry_points

from ..core.errors import exception_line
from .base import Agent
from .params import Param, resolve_options
from .spec import AgentSpecError, parse_spec

_BUILTIN: dict[str, str] = {
    "random": "forumlab.agents.random_agent:RandomAgent",
    "greedy": "forumlab.agents.greedy:GreedyAgent",
    "mcts": "forumlab.agents.mcts:MCTSAgent",
    "paranoid": "forumlab.agents.minimax:ParanoidAgent",
    "maxn": "forumlab.agents.minimax:MaxnAgent",
    "brs": "forumlab.agents.minimax:BRSAgent",
    "human": "forumlab.agents.human:HumanAgent",
    "cmd": "forumlab.bots.referee:CommandAgent",  # a bot program (docs/bot-protocol.md)
}


def _all_targets() -> dict[str, str]:
    targets = dict(_BUILTIN)
    for ep in entry_points(group="forumlab.agents"):
        targets.setdefault(ep.name, ep.value)
    return targets


def agent_names() -> list[str]:
    """Names of the built-in and entry-point agents.

    Returns:
        The names, sorted.
    """
    return sorted(_all_targets())


def import_agent_module(module: str):
    """Import the module of a ``module:Class`` agent spec, from the current directory
    if it is found nowhere else.

    ``python -m forumlab`` puts the current directory on ``sys.path`` but the
    ``forumlab`` script does not, so ``-a mybot:MyBot`` beside ``mybot.py`` would work
    one way and not the other. When the module's top-level name is found neither on
    ``sys.path`` nor among installed packages, the current directory is appended to
    ``sys.path`` (last, so it never shadows an installed module) and the import is
    retried. Tournament workers load agents by spec in their own processes, which
    start in the same directory, so they find the module the same way.

    Args:
        module: a dotted module name, e.g. ``mybot`` or ``bots.fast``.

    Returns:
        The imported module.

    Raises:
        ImportError: the module cannot be imported (from the current directory either).
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.partition(".")[0]
        here = os.getcwd()
        if exc.name != top or here in sys.path:
            raise  # a module that the agent's own module imports is missing, or cwd was searched
        if not (os.path.isfile(os.path.join(here, top + ".py")) or os.path.isdir(os.path.join(here, top))):
            raise
    sys.path.append(here)
    importlib.invalidate_caches()
    return importlib.import_module(module)


def _load(target: str) -> type[Agent]:
    module, _, cls_name = target.partition(":")
    from .process import check_import_survives

    check_import_survives(module)  # an os._exit at import must not end this command
    try:
        cls = getattr(import_agent_module(module), cls_name)
    except (ImportError, AttributeError) as exc:
        raise AgentSpecError(f"cannot load agent {target!r}: {exc}") from None
    except KeyboardInterrupt:
        raise  # a person's Ctrl-C during a slow import stops the command
    except BaseException as exc:  # noqa: BLE001 - a syntax error, or any failure of its top-level code
        # (sys.exit at import time included): the module is broken, which is a bad spec,
        # never a traceback of the loading machinery or the end of the command.
        raise AgentSpecError(f"cannot load agent {target!r}: its module failed to import: "
                             f"{exception_line(exc)}") from None
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise AgentSpecError(f"{target!r} is not a forumlab Agent subclass")
    return cls


def agent_class(name: str) -> type[Agent]:
    """The Agent class for a name.

    Args:
        name: a registered agent name (``mcts``) or a ``package.module:Class`` path.

    Returns:
        The Agent subclass.

    Raises:
        AgentSpecError: an unknown name, a class that cannot be loaded, or one that is
            not an Agent subclass.
    """
    if ":" in name:
        return _load(name)
    targets = _all_targets()
    if name not in targets:
        raise AgentSpecError(f"unknown agent {name!r} (known: {', '.join(sorted(targets))})")
    return _load(targets[name])


def agent_params(name: str) -> dict[str, Param]:
    """The declared parameters of an agent: the schema a tuner builds specs from.

    Args:
        name: a registered agent name or a ``package.module:Class`` path.

    Returns:
        Parameter name -> :class:`~forumlab.agents.params.Param` (default, help,
        ``type_text()``, ``allowed()``, ``check(value)``), in declaration order; a copy,
        so changing it changes no agent. ``seed``, which every agent takes, is not in it.

    Raises:
        AgentSpecError: an unknown name or a class that cannot be loaded.
    """
    return dict(agent_class(name).params)


def create_agent(spec: str, seed: int = 0) -> Agent:
    """An agent from a spec string.

    Args:
        spec: ``name`` or ``name(key=value, ...)``, e.g. ``mcts(iterations=2000, c=0.7)``;
            a ``seed=`` inside the spec wins over ``seed``.
        seed: the agent's seed.

    Returns:
        The new agent.

    Raises:
        AgentSpecError: a malformed spec, an unknown agent or parameter, or a value the
            parameter's declaration refuses.
    """
    name, params = parse_spec(spec)
    if "seed" in params:
        seed = params.pop("seed")
    return agent_class(name)(seed=seed, **params)


def is_builtin(cls: type[Agent]) -> bool:
    """Whether an agent ships with forumlab (then its constructor is trusted).

    Args:
        cls: an Agent subclass.

    Returns:
        True for classes defined in the ``forumlab`` package, except those that run
        outside code when constructed (``external``: ``cmd``, which starts a bot program).
    """
    return cls.__module__.startswith("forumlab.") and not getattr(cls, "external", False)


def check_spec(spec: str) -> type[Agent]:
    """Validate ``spec`` without running untrusted code; return the agent class.

    Built-in agents are constructed once (seed 0), which runs all their parameter
    checks, those that tie several parameters together included. A third-party agent
    is not constructed (its constructor may hang, raise or end the process: that is a
    fault of its games, recorded by the arena); its parameters are checked against its
    declared ``params`` only.

    Args:
        spec: an agent spec string.

    Returns:
        The agent class.

    Raises:
        AgentSpecError: unknown agent, malformed spec, or a bad parameter.
    """
    name, params = parse_spec(spec)
    cls = agent_class(name)
    if is_builtin(cls):
        create_agent(spec, seed=0)
        return cls
    params.pop("seed", None)  # every agent takes it; parse_spec checked it
    resolve_options(name, cls.params, params)
    check_given = getattr(cls, "check_given", None)  # checks that run no outside code (cmd)
    if check_given is not None and is_builtin_module(cls):
        check_given(params)
    return cls


def is_builtin_module(cls: type[Agent]) -> bool:
    """Whether ``cls`` is defined in the ``forumlab`` package (its class methods are trusted)."""
    return cls.__module__.startswith("forumlab.")
