"""House style: `ruff check` (configured in pyproject.toml) is clean on the whole tree.

Part of the test command, so CI fails on a lint finding like on any other test.
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _ruff():
    try:
        import ruff  # noqa: F401  (the dev extra installs it)
    except ImportError:
        return shutil.which("ruff")
    return sys.executable


def test_ruff_check_is_clean():
    ruff = _ruff()
    if ruff is None:
        # Only a bare `pip install -e .` lacks ruff; the test command (and CI) installs the
        # dev extra, where ruff is a dependency, so there this test always runs.
        pytest.skip("ruff is not installed (it comes with pip install -e '.[dev]')")
    cmd = [ruff, "-m", "ruff"] if ruff == sys.executable else [ruff]
    proc = subprocess.run([*cmd, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
