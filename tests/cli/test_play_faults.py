"""``forumlab play`` loads agents and judges them as tournaments do.

An agent that cannot be loaded or created is one ``error:`` line with exit code 2 before
anything is written. An agent that fails during the game (an exception, SystemExit, its
own KeyboardInterrupt, an illegal or garbage move, or, since a third-party agent plays
from a process of its own, os._exit and a segfault) is a fault under the tournaments'
policy (forumlab.arena.runner.ask_agent, one code for both): the game goes on with the
seeded random fallback in that seat, the record is written and lists the fault, and the
moves are those a tournament game with the same seeds plays. A real Ctrl-C still stops
the game (exit 130), and a human seat whose standard input is closed ends the game as
the end of input does.
"""
import json
import multiprocessing
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.arena.jobs import FAULT_CRASH, FAULT_EXCEPTION, FAULT_EXIT, FAULT_ILLEGAL, GameJob
from forumlab.arena.runner import run_job
from forumlab.cli import main
from forumlab.core.registry import create_game
from forumlab.core.rng import derive_seed

from .test_records_cli import assert_bad_input

ROOT = Path(__file__).resolve().parents[2]
GAME = ["forum-romanum", "-o", "max_rounds=3"]  # a short game

AGENT_HEAD = "import sys\nfrom forumlab.agents.base import Agent\n"
BROKEN_MODULES = {
    "syntax error": ("class Bot(Agent:\n    pass\n", "SyntaxError"),
    "import-time exception": ("raise RuntimeError('boom at import')\n", "RuntimeError: boom at import"),
    "sys.exit at import": ("sys.exit(3)\n", "SystemExit: 3"),
    "missing class": ("class Other(Agent):\n    name = 'other'\n    def choose(self, s):\n        return 0\n",
                      "has no attribute 'Bot'"),
    "constructor raises": ("class Bot(Agent):\n    name = 'bot'\n"
                           "    def __init__(self, seed=0, **options):\n"
                           "        raise RuntimeError('cannot start')\n"
                           "    def choose(self, s):\n        return 0\n", "RuntimeError: cannot start"),
    "constructor exits": ("class Bot(Agent):\n    name = 'bot'\n"
                          "    def __init__(self, seed=0, **options):\n        sys.exit(5)\n"
                          "    def choose(self, s):\n        return 0\n", "SystemExit: 5"),
    "constructor's own KeyboardInterrupt": ("class Bot(Agent):\n    name = 'bot'\n"
                                            "    def __init__(self, seed=0, **options):\n"
                                            "        raise KeyboardInterrupt\n"
                                            "    def choose(self, s):\n        return 0\n", "KeyboardInterrupt"),
    "not an agent": ("class Bot:\n    pass\n", "not a forumlab Agent subclass"),
}


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", sorted(BROKEN_MODULES))
def test_an_agent_that_cannot_be_loaded_is_one_line_exit_2_and_nothing_written(case, tmp_path, monkeypatch):
    body, words = BROKEN_MODULES[case]
    module = f"broken_{uuid.uuid4().hex[:12]}"  # a fresh name: nothing cached from another case
    (tmp_path / f"{module}.py").write_text(AGENT_HEAD + body)
    monkeypatch.chdir(tmp_path)
    before = _files(tmp_path)
    result = CliRunner().invoke(main, ["play", *GAME, "-a", f"{module}:Bot,random", "--record", "game.json"])
    assert_bad_input(result, f"{module}:Bot", words)
    assert _files(tmp_path) == before  # no record, nothing else


def test_a_module_that_is_not_there_is_one_line_with_a_human_seat_too(tmp_path, monkeypatch):
    # with a person at the table a record is written by default: not when nothing was played
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", *GAME, "-a", "human(input=-),nosuchbot_x:Bot"], input="")
    assert_bad_input(result, "nosuchbot_x")
    assert list(tmp_path.iterdir()) == []


def _play(tmp_path, specs: str, seed: int = 3):
    record = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", *GAME, "--seed", str(seed), "-a", specs,
                                       "--record", str(record)])
    return result, json.loads(record.read_text()) if record.exists() else None


@pytest.mark.parametrize("agent, kind, words", [
    ("tests.fault_agents:SysExitAgent", FAULT_EXIT, "SystemExit: 4"),
    ("tests.fault_agents:InterruptingAgent", FAULT_EXIT, "KeyboardInterrupt"),
    ("tests.fault_agents:BaseExceptionAgent", FAULT_EXCEPTION, "GeneratorExit"),
    ("tests.fault_agents:RaisingAgent", FAULT_EXCEPTION, "RuntimeError: boom"),
    ("tests.fault_agents:IllegalAgent", FAULT_ILLEGAL, "999999"),
])
def test_a_faulty_agent_is_recorded_and_replaced_and_the_game_finishes(tmp_path, agent, kind, words):
    # sys.exit(4) in act used to end play with exit code 4 and no record
    result, record = _play(tmp_path, f"{agent},greedy")
    assert result.exit_code == 0, (result.output, result.exception)
    assert record is not None and record["result"]["terminal"]
    (fault,) = record["result"]["faults"]
    assert fault["seat"] == 0 and fault["kind"] == kind and words in fault["message"]
    assert "\n" not in fault["message"]
    assert record["result"]["ranks"][0] == 2  # below the clean seat, whatever the scores
    assert f"warning: seat 0 ({agent}) failed at ply {fault['ply']} ({kind})" in result.stderr


def test_a_garbage_move_is_a_fault(tmp_path, monkeypatch):
    module = f"garbage_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{module}.py").write_text(
        AGENT_HEAD + "class Bot(Agent):\n    name = 'garbage'\n"
                     "    def choose(self, state):\n        return float(state.legal_moves()[0]) + 0.9\n")
    monkeypatch.chdir(tmp_path)
    result, record = _play(tmp_path, f"random,{module}:Bot")
    assert result.exit_code == 0, result.output
    (fault,) = record["result"]["faults"]
    assert fault["seat"] == 1 and fault["kind"] == FAULT_EXCEPTION and "not a move code" in fault["message"]


def test_play_after_a_fault_plays_the_moves_a_tournament_game_plays(tmp_path):
    """One fault policy: the same fallback stream, views and fault as the runner's."""
    specs = ["tests.fault_agents:RaisingAgent", "greedy"]
    seed = 11
    result, record = _play(tmp_path, ",".join(specs), seed=seed)
    assert result.exit_code == 0, result.output
    game = create_game("forum-romanum", {"players": 2, "max_rounds": 3})
    job = GameJob(key="k", group="g", lineup=0, rotation=0, game=game.name, config=game.config, seed=seed,
                  labels=tuple(specs), specs=tuple(specs),
                  agent_seeds=tuple(derive_seed(seed, "agent", i) for i in range(2)), hard_limit=0)
    outcome = run_job(job)
    assert record["moves"] == outcome.moves
    assert [(f.seat, f.ply, f.kind, f.message) for f in outcome.faults] == [
        (f["seat"], f["ply"], f["kind"], f["message"]) for f in record["result"]["faults"]]
    assert record["result"]["ranks"] == outcome.ranks


@pytest.mark.parametrize("agent, kind, words", [
    ("tests.fault_agents:ExitingAgent", FAULT_EXIT, "the agent's process ended (exit code 3)"),
    ("tests.fault_agents:SegfaultAgent", FAULT_CRASH, "killed by signal 11 (SIGSEGV)"),
])
def test_an_agent_that_ends_its_process_costs_its_seat_not_the_game(tmp_path, agent, kind, words):
    # a third-party agent plays from a process of its own, as in a tournament's worker:
    # os._exit(3) used to end play itself, with exit code 3 and no record
    result, record = _play(tmp_path, f"greedy,{agent}")
    assert result.exit_code == 0, (result.output, result.exception)
    assert record["result"]["terminal"]
    (fault,) = record["result"]["faults"]
    assert (fault["seat"], fault["kind"]) == (1, kind) and fault["ply"] > 2  # on its third move
    assert words in fault["message"]


def test_a_module_that_ends_the_process_at_import_is_one_line(tmp_path, monkeypatch):
    module = f"exits_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{module}.py").write_text("import os\nos._exit(7)\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", *GAME, "-a", f"{module}:Bot,random", "--record", "game.json"])
    assert_bad_input(result, f"{module}:Bot", "exit code 7")
    assert [p.name for p in tmp_path.iterdir()] == [f"{module}.py"]


def test_a_real_ctrl_c_during_an_agents_move_still_stops_the_game_with_130_and_the_record(
        tmp_path, monkeypatch):
    # SIGINT to play's process while the agent thinks (in its own process, which ignores
    # it): a person's Ctrl-C, not the agent's fault
    module = f"ctrlc_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{module}.py").write_text(
        AGENT_HEAD + "import os, signal, time\n"
                     "class Bot(Agent):\n    name = 'ctrlc'\n"
                     "    def choose(self, state):\n"
                     f"        os.kill({os.getpid()}, signal.SIGINT)\n"
                     "        time.sleep(5)\n"
                     "        return int(state.legal_moves()[0])\n")
    monkeypatch.chdir(tmp_path)
    result, record = _play(tmp_path, f"greedy,{module}:Bot")
    assert result.exit_code == 130, (result.output, result.exception)
    assert "interrupted; the record of the" in result.stderr
    assert record["interrupted"]["cause"] == "interrupted (Ctrl-C)"
    assert "faults" not in record.get("result", {})


def test_a_human_seat_with_standard_input_closed_stops_the_game_as_end_of_input(tmp_path):
    # with fd 0 closed, sys.stdin is None: the seat used to fail and a random agent played on
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = (f"exec {sys.executable} -m forumlab.cli play forum-romanum -o max_rounds=3 "
               "-a 'human(input=-),random' --record game.json 0<&-")
    proc = subprocess.run(["sh", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "stopped by seat 0 (end of input)" in proc.stderr
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["moves"] == [] and record["interrupted"]["cause"].startswith("end of input")
    assert "faults" not in record.get("result", {})


def test_an_agent_in_its_own_process_is_handed_only_its_seats_view(tmp_path, monkeypatch):
    module = f"spy_{uuid.uuid4().hex[:12]}"
    notes = tmp_path / "notes.txt"
    (tmp_path / f"{module}.py").write_text(
        AGENT_HEAD + "class Bot(Agent):\n    name = 'spy'\n"
                     "    def choose(self, state):\n"
                     f"        with open({str(notes)!r}, 'a') as f:\n"
                     "            f.write(f'{state.viewer} {state.current_player} {len(state.history)}\\n')\n"
                     "        return int(state.legal_moves()[0])\n")
    monkeypatch.chdir(tmp_path)
    result, record = _play(tmp_path, f"{module}:Bot,greedy,{module}:Bot")
    assert result.exit_code == 0, result.output
    seen = [line.split() for line in notes.read_text().splitlines()]
    assert seen and all(viewer == seat for viewer, seat, _ in seen)
    assert {int(seat) for _, seat, _ in seen} == {0, 2}
    assert "faults" not in record["result"]


@pytest.mark.parametrize("body, words", [
    ("import os\nos._exit(7)\n", "(exit code 7)"),
    ("import ctypes\nctypes.string_at(0)\n", "(killed by signal 11 (SIGSEGV))"),
])
def test_a_module_that_ends_the_process_at_import_is_one_line_for_tournaments_and_the_api(
        body, words, tmp_path, monkeypatch):
    # its first import is tried in a process of its own: the command used to end silently
    module = f"dies_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{module}.py").write_text(body)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["tournament", "run", "--game", "forma", "-p", "2", "-a", f"{module}:Bot",
                                       "-a", "random", "--games", "1", "--db", "t.db", "--no-progress"])
    assert_bad_input(result, f"cannot load agent module {module!r}: importing it ended the process", words)
    assert [p.name for p in tmp_path.iterdir()] == [f"{module}.py"]
    from forumlab.agents.spec import AgentSpecError

    with pytest.raises(AgentSpecError, match="importing it ended the process"):
        import forumlab

        forumlab.make_agent(f"{module}:Bot")


def test_a_bot_that_hangs_is_cut_off_at_the_hard_limit_and_its_process_ended(tmp_path):
    # play had no time limit: a hanging bot stopped the game for good
    result = CliRunner().invoke(main, ["play", *GAME, "--seed", "3", "--hard-limit", "1", "-a",
                                       "tests.fault_agents:SleepyAgent(seconds=600),random",
                                       "--record", str(tmp_path / "game.json")])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "game.json").read_text())
    faults = record["result"]["faults"]
    assert [(f["seat"], f["kind"]) for f in faults] == [(0, "hang")]
    assert "hard limit of 1 s" in faults[0]["message"]
    assert record["result"]["terminal"] or record["result"]["truncated"]
    assert not [c for c in multiprocessing.active_children() if c.name.startswith("forumlab-agent-")]
