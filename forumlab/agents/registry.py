"""Agents by name, and creation from spec strings.

Third-party agents: pass ``package.module:Class`` (optionally with parameters) as
the spec, or register a name through the ``forumlab.agents`` entry-point group in
your package metadata, e.g. in pyproject.toml::

    [project.entry-points."forumlab.agents"]
    mybot = "mypackage.bots:MyBot"

The class must subclass :class:`forumlab.agents.base.Agent`.
"""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from .base import Agent
from .spec import AgentSpecError, parse_spec

_BUILTIN: dict[str, str] = {
    "random": "forumlab.agents.random_agent:RandomAgent",
    "greedy": "forumlab.agents.greedy:GreedyAgent",
    "mcts": "forumlab.agents.mcts:MCTSAgent",
    "paranoid": "forumlab.agents.minimax:ParanoidAgent",
    "maxn": "forumlab.agents.minimax:MaxnAgent",
    "brs": "forumlab.agents.minimax:BRSAgent",
}


def _all_targets() -> dict[str, str]:
    targets = dict(_BUILTIN)
    for ep in entry_points(group="forumlab.agents"):
        targets.setdefault(ep.name, ep.value)
    return targets


def agent_names() -> list[str]:
    """Names of the built-in and entry-point agents."""
    return sorted(_all_targets())


def _load(target: str) -> type[Agent]:
    module, _, cls_name = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module), cls_name)
    except (ImportError, AttributeError) as exc:
        raise AgentSpecError(f"cannot load agent {target!r}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise AgentSpecError(f"{target!r} is not a forumlab Agent subclass")
    return cls


def agent_class(name: str) -> type[Agent]:
    """The Agent class for a registered name or a ``module:Class`` path."""
    if ":" in name:
        return _load(name)
    targets = _all_targets()
    if name not in targets:
        raise AgentSpecError(f"unknown agent {name!r} (known: {', '.join(sorted(targets))})")
    return _load(targets[name])


def create_agent(spec: str, seed: int = 0) -> Agent:
    """An agent from a spec string such as ``mcts(iterations=2000, c=0.7)``."""
    name, params = parse_spec(spec)
    if "seed" in params:
        seed = params.pop("seed")
    return agent_class(name)(seed=seed, **params)


def is_builtin(cls: type[Agent]) -> bool:
    """True for agents that ship with forumlab (their constructors are trusted)."""
    return cls.__module__.startswith("forumlab.")


def check_spec(spec: str) -> type[Agent]:
    """Validate ``spec`` without running untrusted code; return the agent class.

    Built-in agents are constructed once (seed 0), which runs all their parameter
    checks. A third-party agent is not constructed (its constructor may hang, raise or
    end the process: that is a fault of its games, recorded by the arena); only its
    parameter names are checked against its declared ``params``.

    Raises:
        AgentSpecError: unknown agent, malformed spec, or a bad parameter.
    """
    name, params = parse_spec(spec)
    cls = agent_class(name)
    if is_builtin(cls):
        create_agent(spec, seed=0)
        return cls
    unknown = set(params) - set(cls.params) - {"seed"}
    if unknown:
        known = ", ".join(sorted(cls.params)) or "none"
        raise AgentSpecError(f"agent {name!r} has no parameter {sorted(unknown)[0]!r} (parameters: {known})")
    return cls
