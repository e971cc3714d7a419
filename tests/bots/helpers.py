"""Shared pieces of the bot tests: the example bots' commands and short game configs."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY_BOT = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
BROKEN = ROOT / "tests" / "bots" / "broken_bot.py"

# Short games of every game (as the compliance check plays them).
from forumlab.bots.check import SHORT_CONFIGS  # noqa: E402


def broken(mode: str, *args: str) -> str:
    """The command of tests/bots/broken_bot.py in ``mode``."""
    return " ".join([sys.executable, str(BROKEN), mode, *args])


@pytest.fixture(scope="session")
def c_bot(tmp_path_factory) -> str:
    """The C example bot, compiled with ``cc`` into a temporary directory (the test is
    skipped, with the reason, when no C compiler exists)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:  # C is built only where a compiler exists; elsewhere the skip says why
        pytest.skip("no C compiler (cc, gcc or clang) on PATH to build examples/bots/random_bot.c")
    out = tmp_path_factory.mktemp("cbot") / "random_bot"
    subprocess.run([compiler, "-O2", "-std=c99", "-o", str(out), str(ROOT / "examples" / "bots" / "random_bot.c")],
                   check=True, capture_output=True)
    return str(out)


__all__ = ["PY_BOT", "SHORT_CONFIGS", "broken", "c_bot"]
