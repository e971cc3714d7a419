"""Test-session set-up shared by every test module."""
import signal


def pytest_configure(config):
    """Give Ctrl-C its default meaning even when the suite was started with SIGINT ignored.

    A shell that starts a command in the background without job control (``cmd &`` in a
    script, ``nohup``) starts it with SIGINT ignored, and Python then installs no
    KeyboardInterrupt handler; the processes the tests start inherit the ignored signal.
    The tests of what Ctrl-C does (a tournament stops, a game's record is saved, exit
    130) would then fail for the way the suite was launched, not for the code. An
    installed handler is reset to the default on exec, so child processes get it too.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_finish(session):
    """Refuse a test module that put a folder of the checkout other than its root on
    ``sys.path`` while being imported: benchmarks/coverage.py then shadows the coverage
    library that numba imports, and every game played in a worker process fails."""
    import sys
    from pathlib import Path

    import pytest

    root = Path(__file__).resolve().parents[1]
    inside = []
    for entry in sys.path:
        try:
            path = Path(entry or ".").resolve()
        except OSError:
            continue
        if path != root and root in path.parents and path.name in ("benchmarks", "forumlab"):
            inside.append(str(path))
    if inside:
        raise pytest.UsageError(f"a test module put {', '.join(inside)} on sys.path; import through the "
                                "checkout root's packages instead (e.g. benchmarks.NAME)")
