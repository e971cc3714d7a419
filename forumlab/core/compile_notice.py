"""The one-line notice when kernels are compiled rather than loaded from numba's cache.

A compile takes seconds and a load a fraction of one, so a user is told when a step is
about to compile (and, after it, how long it took). Whether it will is read from a
marker file beside the cache, touched once the step has run: the cache directory is
keyed by the compiled sources (forumlab._numba_cache), so a changed kernel gets a new
directory without the marker.
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

Notify = Callable[[str], None]


def stderr_notice(message: str) -> None:
    """Print a notice on stderr at once."""
    print(message, file=sys.stderr, flush=True)


def cache_dir() -> Path:
    """numba's cache directory for this process (set by forumlab._numba_cache)."""
    import numba

    return Path(numba.config.CACHE_DIR)


def shown_path(path: Path) -> str:
    """``path`` as a notice shows it: the home directory as ``~``."""
    home = str(Path.home())
    text = str(path)
    return "~" + text[len(home):] if text.startswith(home + os.sep) else text


def warm_marker(name: str) -> Path:
    """The marker file saying the step ``name`` has run on this cache."""
    return cache_dir() / "forumlab-warm" / name


def touch_marker(path: Path) -> None:
    """Create a marker file; a read-only cache only costs the notice next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        pass


@contextmanager
def announced_compile(name: str, what: str, notify: Notify | None = stderr_notice) -> Iterator[None]:
    """Run the block, announcing first that ``what`` is compiled when the step ``name``
    has not run on this cache yet (and how long it took after it)."""
    marker = warm_marker(name)
    if marker.exists() or notify is None:
        yield
        return
    started = time.perf_counter()
    notify(f"compiling {what} once (cached in {shown_path(cache_dir())}); later runs start at once")
    yield
    touch_marker(marker)
    notify(f"compiled in {time.perf_counter() - started:.1f} s")
