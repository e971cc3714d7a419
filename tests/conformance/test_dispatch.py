"""Per-game dispatch of the generic numba kernels (forumlab.core.dispatch).

A process that plays one game must compile only that game's kernels, and a second
process must load them from numba's disk cache without compiling anything. Both
are checked in fresh interpreters with their own, initially empty, cache directory.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from forumlab.core import dispatch
from forumlab.core.game import Kernels
from forumlab.core.registry import create_game
from forumlab.engines.forum_romanum import kernels as fr_kernels

ROOT = Path(__file__).resolve().parents[2]

# Plays Forum Romanum through two generic kernels (greedy agent, random playouts) and
# reports what this process compiled and which engine modules it imported.
PROBE = """
import json, sys
from numba.core import event
from forumlab.agents.registry import create_agent
from forumlab.core.playout import random_playouts
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.search.greedy import greedy_move

compiled = []
class Count(event.Listener):
    def on_start(self, e): pass
    def on_end(self, e): compiled.append(e.data["dispatcher"].py_func.__qualname__)

with event.install_listener("numba:compile", Count()):
    game = create_game("forum-romanum", players=3)
    state = game.new_state(4)
    for _ in range(3):
        state.play(create_agent("greedy", seed=1).act(state))
    plies = random_playouts(game.kernels.tag, state.array, 2, make_rng(1))
print(json.dumps({
    "compiled": compiled,
    "engines": sorted(m for m in sys.modules if m.startswith("forumlab.engines.")),
    "greedy_tags": sorted({str(sig[0]) for sig in greedy_move.signatures}),
    "plies": plies,
}))
"""


def _run(args, cache: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=cache.parent, timeout=timeout)


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("dispatch") / "numba-cache"


def _probe(cache: Path) -> dict:
    done = _run(["-c", PROBE], cache)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_one_game_compiles_only_its_own_kernels_and_caches_them(cache):
    first = _probe(cache)
    # Forma's kernels are never even imported, let alone compiled.
    assert not any(m.startswith("forumlab.engines.forma") for m in first["engines"])
    assert first["greedy_tags"] == ["GameTag(forumlab.engines.forum_romanum.kernels)"]
    assert "greedy_move" in first["compiled"] and "random_playouts" in first["compiled"]
    # A second process loads every kernel from the disk cache: nothing is compiled.
    second = _probe(cache)
    assert second["compiled"] == []
    assert second["plies"] == first["plies"]


def test_play_says_once_that_it_compiles_and_where_the_cache_is(cache):
    args = ["-m", "forumlab.cli", "play", "forum-romanum", "-p", "3", "-a", "random,greedy,random",
            "-o", "max_rounds=3"]
    first = _run(args, cache)
    assert first.returncode == 0, first.stderr
    notice = [line for line in first.stderr.splitlines() if line.startswith("compiling")]
    assert len(notice) == 1
    assert "forum-romanum" in notice[0] and str(cache) in notice[0]
    second = _run(args, cache)
    assert second.returncode == 0, second.stderr
    assert "compiling" not in second.stderr
    assert second.stdout == first.stdout


def test_protocol_functions_forward_to_the_tagged_game_from_python():
    game = create_game("forum-romanum", players=4)
    array = game.new_state(3).array
    tag = game.kernels.tag
    assert tag == dispatch.GameTag("forumlab.engines.forum_romanum.kernels")
    out = np.empty(dispatch.max_moves(tag), dtype=np.int64)
    n = dispatch.legal_moves(tag, array, out)
    assert dispatch.max_moves(tag) == fr_kernels.MAX_MOVES
    assert out[:n].tolist() == game.new_state(3).legal_moves().tolist()
    assert dispatch.current_player(tag, array) == game.kernels.current_player(array)


def test_a_kernel_module_must_state_its_move_bound():
    with pytest.raises(ValueError, match="MAX_MOVES"):
        Kernels.from_module(fr_kernels, fr_kernels.MAX_MOVES + 1)
