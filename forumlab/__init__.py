"""forumlab: AI research framework for Forum Romanum, Forma, Foundations of Rome and Forum Trajanum."""

from . import _numba_cache

__version__ = "0.1.0"

_numba_cache.configure()
