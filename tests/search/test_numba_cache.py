"""The numba cache directory is keyed by the code numba compiles, not by every module:
editing a front end (the command line, the arena, reports) keeps the compiled kernels,
editing an engine or a search starts a fresh cache. ``import forumlab`` neither imports
numba nor hashes the sources: the directory is set when numba is first imported."""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import forumlab
from forumlab._numba_cache import STALE_DAYS, cache_key, compiled_sources, prune_stale

PACKAGE = Path(forumlab.__file__).resolve().parent


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_key_changes_with_compiled_code_and_not_with_front_ends(tmp_path):
    files = {"__init__.py": "", "cli.py": "import click\n", "arena/store.py": "X = 1\n",
             "engines/g/layout.py": "SLOTS = 3\n",
             "engines/g/kernels.py": "from numba import njit\nfrom .layout import SLOTS\n"
                                     "from forumlab.core import bits\n@njit\ndef k(a):\n    return SLOTS\n",
             "engines/g/game.py": "from . import kernels\nfrom .layout import SLOTS\n",
             "core/bits.py": "B = 1\n", "core/errors.py": "class E(Exception): pass\n",
             "agents/fast.py": "from numba import njit\n@njit\ndef f(x):\n    return x\n",
             "agents/slow.py": "def g(x):  # calls numba kernels, compiles none\n    return x\n"}
    root = _tree(tmp_path / "forumlab", files)
    keyed = {p.relative_to(root).as_posix() for p in compiled_sources(root)}
    assert keyed == {"engines/g/kernels.py", "engines/g/layout.py", "core/bits.py", "agents/fast.py"}
    key = cache_key(root)
    for name in ("cli.py", "arena/store.py", "agents/slow.py", "engines/g/game.py", "core/errors.py"):
        (root / name).write_text((root / name).read_text() + "# a comment\n")
    assert cache_key(root) == key
    for name in ("engines/g/layout.py", "engines/g/kernels.py", "core/bits.py", "agents/fast.py"):
        before = cache_key(root)
        (root / name).write_text((root / name).read_text() + "# changed\n")
        assert cache_key(root) != before, name


def test_the_real_package_keys_its_kernels_and_their_constants_but_not_its_front_ends():
    keyed = {p.relative_to(PACKAGE).as_posix() for p in compiled_sources(PACKAGE)}
    compiling = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
                 if "@njit" in p.read_text() and p.name != "_numba_cache.py"}
    assert compiling and compiling <= keyed
    assert {"engines/forma/layout.py", "core/dispatch.py"} <= keyed
    facades = {f"engines/{g}/game.py" for g in ("forma", "forum_romanum", "forum_trajanum",
                                                 "foundations_of_rome")}
    assert not ({"cli.py", "api.py", "report/page.py", "arena/store.py", "agents/docs.py",
                 "_numba_cache.py", "core/errors.py"} | facades) & keyed


def _cache_dirs_seen(tmp_path, code: str) -> dict:
    """Run ``code`` in a fresh process without NUMBA_CACHE_DIR; it prints a JSON object."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_import_forumlab_sets_the_cache_directory_when_numba_is_first_imported(tmp_path):
    seen = _cache_dirs_seen(tmp_path, (
        "import json, os, sys, forumlab\n"
        "before = ['numba' in sys.modules, os.environ.get('NUMBA_CACHE_DIR')]\n"
        "import forumlab.core.rng, numba\n"  # any module that imports numba
        "print(json.dumps({'before': before, 'env': os.environ['NUMBA_CACHE_DIR'],\n"
        "                  'numba': numba.config.CACHE_DIR}))"))
    assert seen["before"] == [False, None]  # nothing hashed while numba is not needed
    expected = str(tmp_path / "forumlab" / "numba" / cache_key(PACKAGE))
    assert seen["env"] == seen["numba"] == expected


def test_numba_imported_before_forumlab_gets_the_cache_directory_too(tmp_path):
    seen = _cache_dirs_seen(tmp_path, "import json, numba, forumlab; print(json.dumps(numba.config.CACHE_DIR))")
    assert seen == str(tmp_path / "forumlab" / "numba" / cache_key(PACKAGE))


def test_stale_cache_directories_are_removed_and_recent_ones_kept(tmp_path):
    old = time.time() - (STALE_DAYS + 1) * 86400
    stale, recent, current = (tmp_path / n for n in ("aaaa", "bbbb", "cccc"))
    for d in (stale, recent, current):
        (d / "sub").mkdir(parents=True)
        (d / "sub" / "kernel.nbi").write_bytes(b"x")
    for path in (stale, stale / "sub", stale / "sub" / "kernel.nbi", current, current / "sub",
                 current / "sub" / "kernel.nbi"):
        os.utime(path, (old, old))
    removed = prune_stale(tmp_path, keep=current)
    assert removed == [stale]
    assert not stale.exists() and recent.exists() and current.exists()  # the one in use stays


def test_a_new_cache_directory_prunes_stale_ones_when_numba_is_imported(tmp_path):
    root = tmp_path / "forumlab" / "numba"
    stale = root / "0123456789abcdef"
    stale.mkdir(parents=True)
    old = time.time() - (STALE_DAYS + 1) * 86400
    os.utime(stale, (old, old))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    run = subprocess.run([sys.executable, "-c", "import forumlab, numba"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert not stale.exists()


def _play(src: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(cache), PYTHONPATH=str(src), NUMBA_DEBUG_CACHE="1")
    run = subprocess.run([sys.executable, "-m", "forumlab", "play", "forum-romanum", "-a", "mcts,greedy,greedy"],
                         capture_output=True, text=True, env=env, timeout=1800, cwd=src)
    assert run.returncode == 0, run.stderr[-2000:]
    return run


@pytest.mark.slow
def test_after_an_edit_to_the_command_line_a_second_play_compiles_nothing(tmp_path):
    # A copy of the package with a cold cache of its own (numba's cache is per source
    # path): the first game compiles, the edit keeps the key, the second game only loads.
    # NUMBA_DEBUG_CACHE makes numba print "[cache] data saved to ..." for what it compiles.
    src = tmp_path / "src"
    shutil.copytree(PACKAGE, src / "forumlab", ignore=shutil.ignore_patterns("__pycache__"))
    first = _play(src, tmp_path / "cache")
    assert "data saved to" in first.stdout
    cli = src / "forumlab" / "cli.py"
    cli.write_text(cli.read_text() + "# a one-line edit\n")
    second = _play(src, tmp_path / "cache")
    assert "data loaded from" in second.stdout
    assert "saved to" not in second.stdout
    assert "compiling" not in second.stderr
    assert len(list((tmp_path / "cache" / "forumlab" / "numba").iterdir())) == 1
