"""forumlab: AI research framework for Forum Romanum, Forma, Foundations of Rome and Forum Trajanum.

The public API (:mod:`forumlab.api`) is loaded on first use, so ``import forumlab``
stays cheap and compiles nothing: ``load_game``, ``make_agent``, ``play``, ``replay``,
``run_tournament``, ``ratings``, and ``game_names`` / ``agent_names`` to list what is
registered.
"""

from . import _numba_cache

__version__ = "0.1.0"

_numba_cache.configure_before_numba()  # numba's cache directory, set when numba is imported

_API = {
    "load_game": "forumlab.api",
    "make_agent": "forumlab.api",
    "play": "forumlab.api",
    "replay": "forumlab.api",
    "run_tournament": "forumlab.api",
    "ratings": "forumlab.api",
    "game_names": "forumlab.core.registry",
    "agent_names": "forumlab.agents.registry",
}
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    """Load a public API function on first use (PEP 562)."""
    if name in _API:
        import importlib

        value = getattr(importlib.import_module(_API[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'forumlab' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_API])
