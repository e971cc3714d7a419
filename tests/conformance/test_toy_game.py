"""A game from outside forumlab (the toy Goofspiel of tests/toy_goofspiel: its own
package, registered through the registry's API, never named in forumlab's code) plays
tournaments like a built-in game: in worker processes, and from the CLI. Its
conformance (the kit, every agent finishing a game) is in tests/conformance/test_conformance.py."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES
from forumlab.arena.schedule import plan
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import run_tournament
from forumlab.core import registry
from forumlab.core.errors import UnknownGameError
from forumlab.testing.conformance import QUICK_AGENT_SPECS
from tests import toy_goofspiel

ROOT = Path(__file__).resolve().parents[2]


def test_every_agent_plays_a_tournament_of_the_registered_toy_game_in_worker_processes(tmp_path):
    specs = list(QUICK_AGENT_SPECS.values())
    with toy_goofspiel.registered():
        definition = TournamentDefinition(game=toy_goofspiel.NAME, config={"players": 3, "cards": 4},
                                          agents=tuple(PoolEntry(s, s) for s in specs), seed=5)
        # 'spawn': fresh workers that learn the game from the environment, as they
        # would from a fork server started after the registration.
        played = run_tournament(definition, tmp_path / "toy.db", workers=2, progress=False,
                                executor_options={"start_method": "spawn"})
        assert played == len(plan(definition)) > 0
        with ResultStore.open(tmp_path / "toy.db", readonly=True) as store:  # checked against the game
            outcomes = store.outcomes()
    assert len(outcomes) == played
    assert not [f for o in outcomes for f in o.faults]
    assert {label for o in outcomes for label in o.labels} == set(specs)
    assert all(o.termination == END_RULES and o.plies == len(o.moves) == 3 * 4 for o in outcomes)


def test_forumlab_tournament_run_plays_a_game_named_in_forumlab_games(tmp_path):
    env = dict(os.environ)
    env[registry.ENV_VAR] = f"{toy_goofspiel.NAME}={toy_goofspiel.TARGET}"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    db = tmp_path / "cli.db"
    run = subprocess.run(
        [sys.executable, "-m", "forumlab", "tournament", "run", "--game", toy_goofspiel.NAME, "-p", "2",
         "-o", "cards=5", "-a", "random", "-a", "greedy", "-a", "mcts(iterations=20)", "--games", "2",
         "--workers", "1", "--db", str(db), "-q"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert run.returncode == 0, run.stderr
    assert "greedy" in run.stdout and "mcts(iterations=20)" in run.stdout
    with toy_goofspiel.registered(), ResultStore.open(db, readonly=True) as store:
        stored = json.loads(json.dumps(store.definition))
        outcomes = store.outcomes()
    assert stored["game"] == toy_goofspiel.NAME and stored["config"] == {"players": 2, "cards": 5}
    assert outcomes and all(o.termination == END_RULES and o.plies == 2 * 5 for o in outcomes)


def test_a_results_file_of_an_unregistered_game_is_refused_as_such_not_as_damaged(tmp_path):
    with toy_goofspiel.registered():
        definition = TournamentDefinition(game=toy_goofspiel.NAME, config={"players": 2, "cards": 3},
                                          agents=(PoolEntry("random", "random"), PoolEntry("greedy", "greedy")),
                                          seed=5)
        run_tournament(definition, tmp_path / "toy.db", workers=1, progress=False,
                       executor_options={"start_method": "spawn"})  # workers that see the registration
    with pytest.raises(UnknownGameError, match="must be registered") as caught:
        ResultStore.open(tmp_path / "toy.db", readonly=True)
    assert "damaged" not in str(caught.value)
