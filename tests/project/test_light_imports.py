"""Commands that compile nothing import no numba: ``import forumlab``, listing the games
and their options, every command's ``--help`` and rating a results file.

Importing numba costs most of a second of CPU, more than everything else such a
command does. Each check runs in a fresh process and reads ``sys.modules`` after the
command has finished (numba is loaded only by the engines' kernel modules, the
search kernels and the agents that use them).
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click

from forumlab.cli import main
from forumlab.core.registry import game_names

ROOT = Path(__file__).resolve().parents[2]

# Runs each command line of argv[1] (a JSON list) through the CLI in this process and
# prints, for each, whether numba was imported by then, its exit code and its output.
RUNNER = """
import contextlib, io, json, sys
from forumlab.cli import main
seen = []
for args in json.loads(sys.argv[1]):
    out, code = io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main.main(args, prog_name="forumlab")
        except SystemExit as exc:
            code = exc.code
    seen.append({"args": args, "numba": "numba" in sys.modules, "code": code, "out": out.getvalue()})
print(json.dumps(seen))
"""


def _run(command_lines: list[list[str]], cwd: Path = ROOT) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    run = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(command_lines)], capture_output=True,
                         text=True, cwd=cwd, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def _assert_light(seen: list[dict]) -> None:
    for entry in seen:
        assert entry["code"] == 0, entry
        assert not entry["numba"], f"forumlab {' '.join(entry['args'])} imported numba"


def _command_paths(command: click.Command, path: tuple[str, ...] = ()):
    yield path
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _command_paths(sub, (*path, name))


def test_import_forumlab_imports_no_numba_and_hashes_nothing():
    code = ("import os, sys, forumlab, forumlab.cli, forumlab.api, forumlab.core.registry; "
            "print(int('numba' in sys.modules), int(bool(os.environ.get('NUMBA_CACHE_DIR'))))")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["0", "0"]  # the cache directory is set when numba is imported


def test_listing_games_and_their_options_imports_no_numba():
    seen = _run([["games"], *(["games", "--options", name] for name in game_names())])
    _assert_light(seen)
    assert all(name in seen[0]["out"] for name in game_names())
    assert "players" in seen[1]["out"]


def test_every_commands_help_imports_no_numba():
    paths = [list(p) for p in _command_paths(main)]
    assert ["tournament", "run"] in paths
    _assert_light(_run([[*p, "--help"] for p in paths]))


def test_rating_a_results_file_imports_no_numba(tmp_path):
    db = tmp_path / "results.db"
    shutil.copy(ROOT / "tests" / "data" / "results-plain-terminations.db", db)
    seen = _run([["ratings", str(db)], ["ratings", "--json", str(db)]], cwd=tmp_path)
    _assert_light(seen)
    assert json.loads(seen[1]["out"])


def test_a_game_class_loads_its_kernels_on_first_use():
    code = ("import sys; from forumlab.core.registry import get_game_class\n"
            "cls = get_game_class('forum-romanum')\n"
            "before = 'numba' in sys.modules\n"
            "moves = cls().new_state(1).legal_moves()\n"
            "print(int(before), int('numba' in sys.modules), int(len(moves) > 0))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["0", "1", "1"]


def test_forum_trajanum_names_itself_as_its_rng_seeds_it():
    from forumlab.engines.forum_trajanum.game import ForumTrajanum
    from forumlab.engines.forum_trajanum.setup import GAME_NAME

    assert ForumTrajanum.name == GAME_NAME


def test_kernels_loaded_on_first_use_are_checked_against_the_limits(monkeypatch):
    import pytest

    from forumlab.core.errors import GameRegistrationError
    from forumlab.core.game import LazyKernels
    from forumlab.core.layout import HEADER_SIZE
    from forumlab.core.limits import check_game_class
    from tests.toy_goofspiel import kernels as toy_kernels
    from tests.toy_goofspiel.game import ToyGoofspiel

    def lazy_toy():
        return type("LazyToy", (ToyGoofspiel,), {"kernels": LazyKernels(toy_kernels.__name__)})

    check_game_class("toy-lazy", lazy_toy())  # nothing loaded, nothing to refuse yet
    good = lazy_toy()
    assert good.kernels.max_moves == toy_kernels.MAX_MOVES and good().kernels is good.kernels
    monkeypatch.setattr(toy_kernels, "STATE_SIZE", HEADER_SIZE - 1)
    bad = lazy_toy()
    check_game_class("toy-lazy", bad)
    with pytest.raises(GameRegistrationError, match=r"'toy-goofspiel' cannot register: STATE_SIZE = "):
        _ = bad.kernels
