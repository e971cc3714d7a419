"""Bad input on every command: one ``error:`` line, exit code 2, no traceback, and no file
created or changed.

Each case runs the command line in-process (click's CliRunner) inside a fresh workspace
holding a finished results file, tournament files, records and a directory; afterwards
the workspace must hold exactly the same files with exactly the same bytes. Further tests
run real subprocesses: the store's durability after a SIGKILL, Ctrl-C, ``python -m
forumlab`` and reading a results file in a read-only directory.
"""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.arena.store import ResultStore
from forumlab.cli import main

from .test_records_cli import assert_bad_input  # one definition of a clean CLI error

ROOT = Path(__file__).resolve().parents[2]
TINY = ["-o", "max_rounds=3", "--workers", "1", "--no-progress"]  # a fast tournament
RECORD = {"format": "forumlab-record/1", "game": "forum-romanum", "config": {"players": 3},
          "seed": 1, "moves": []}
POOL = '[[agents]]\nspec = "random"\n[[agents]]\nspec = "greedy"\n'


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and directory (None) under root, by relative path."""
    tree = {}
    for path in sorted(root.rglob("*")):
        tree[str(path.relative_to(root))] = None if path.is_dir() else path.read_bytes()
    return tree


def damage_games_page(db: Path) -> None:
    """Overwrite the games table's root page past its header, as a bad sector would."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with open(db, "r+b") as f:
        f.seek((root - 1) * page_size + 8)
        f.write(b"\xab" * 200)


@pytest.fixture(scope="module")
def finished_db(tmp_path_factory):
    """A finished tournament: random against greedy, 3 players, a few plies per game."""
    db = tmp_path_factory.mktemp("finished") / "results.db"
    result = run("tournament", "run", "-a", "random", "-a", "greedy", "-p", "3", "--games", "1",
                 "--db", db, *TINY)
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture
def ws(tmp_path, finished_db):
    """The workspace every case runs in (also its working directory)."""
    shutil.copy(finished_db, tmp_path / "results.db")
    shutil.copy(finished_db, tmp_path / "damaged.db")
    damage_games_page(tmp_path / "damaged.db")
    (tmp_path / "dir").mkdir()
    files = {
        "good.toml": 'game = "forum-romanum"\n[config]\nplayers = 3\nmax_rounds = 3\n' + POOL,
        "no_agents.toml": 'game = "forum-romanum"\ngames_per_lineup = 1\n',
        "config3.toml": "config = 3\n" + POOL,
        "move_time_nan.toml": "move_time = nan\n" + POOL,
        "hard_limit_inf.toml": "hard_limit = inf\n" + POOL,
        "seed_2_63.toml": f"seed = {2**63}\n" + POOL,
        "seed_neg.toml": f"seed = {-2**63 - 1}\n" + POOL,
        "huge_schedule.toml": "games_per_lineup = 1000000000\n" + POOL,
        "agent_seed_abc.toml": '[[agents]]\nspec = "random(seed=abc)"\n[[agents]]\nspec = "greedy"\n',
        "deep.toml": "x = " + "[" * 5000 + "]" * 5000 + "\n" + POOL,
        "agents_text.toml": 'agents = "random"\n',
        "date.toml": "[config]\nplayers = 3\nwhen = 1979-05-27\n" + POOL,
        "unknown_key.toml": "colour = 3\n" + POOL,
        "bad_syntax.toml": "game = \n",
        "record.json": json.dumps(RECORD),
        "deep.json": "[" * 100000 + "]" * 100000,
        "empty.json": "",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "latin1.toml").write_bytes('game = "forum-romanum"  # café\n'.encode("latin-1")
                                           + POOL.encode())
    (tmp_path / "latin1.json").write_bytes(json.dumps(RECORD)[:-1].encode()
                                           + ', "note": "caf\xe9"}'.encode("latin-1"))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(cwd)


NEW = "new.db"  # a results file that must never appear
BIG = str(2**63)
CASES = {
    # ---- games, agents
    "games: extra argument": (["games", "extra"], ["unexpected extra argument"]),
    "games: unknown option": (["games", "--bogus"], ["--bogus"]),
    "agents: unknown option": (["agents", "-x"], ["-x"]),
    "unknown command": (["plya"], ["plya"]),
    # ---- play
    "play: seed=abc in a spec": (["play", "forum-romanum", "-a", "random(seed=abc),random,random"],
                                 ["seed must be an integer"]),
    "play: seed=1.5 in a spec": (["play", "forum-romanum", "-a", "random(seed=1.5),random"], ["seed"]),
    "play: 2^63 in a spec": (["play", "forum-romanum", "-a", f"mcts(iterations={BIG}),random"], ["64 bits"]),
    # agent parameters, checked against their declarations (one case per kind of bad value)
    "play: agent parameter of the wrong type": (["play", "forum-romanum", "-a", "mcts(iterations=many),random"],
                                                ["agent 'mcts': iterations must be an integer in 1..2**62, not 'many'"]),
    "play: agent parameter out of range": (["play", "forum-romanum", "-a", "paranoid(depth=65),random"],
                                           ["agent 'paranoid': depth must be an integer in 0..64, not 65"]),
    "play: agent parameter not a choice": (["play", "forma", "-a", "mcts(rollout=smart),random"],
                                           ["agent 'mcts': rollout must be one of random, heuristic, none, "
                                            "sample, not 'smart'"]),
    "play: unknown agent parameter": (["play", "forum-romanum", "-a", "brs(width=3),random"],
                                      ["agent 'brs' has no parameter 'width' (parameters: "]),
    "run: third-party agent parameter of the wrong type": (
        ["tournament", "run", "-a", "tests.plugin_agent:FirstMoveAgent(offset=x)", "-a", "random", "--db", NEW],
        ["offset must be an integer, not 'x'"]),
    "run: agent parameter out of range": (["tournament", "run", "-a", "mcts(epsilon=2)", "-a", "random",
                                           "--db", NEW], ["agent 'mcts': epsilon must be a number in [0, 1], not 2"]),
    "play: players not a number": (["play", "forum-romanum", "-p", "three"], ["three"]),
    "play: seed not a number": (["play", "forum-romanum", "--seed", "x"], ["--seed"]),
    "play: -a and -p disagree": (["play", "forum-romanum", "-p", "4", "-a", "random,random"],
                                 ["2 agents given for 4 players"]),
    "play: one agent": (["play", "forum-romanum", "-a", "random"], ["players"]),
    "play: --option without =": (["play", "forum-romanum", "-o", "max_rounds"], ["KEY=VALUE"]),
    "play: --option max_rounds=nan": (["play", "forum-romanum", "-o", "max_rounds=nan"], ["max_rounds"]),
    "play: --option nested deep": (["play", "forum-romanum", "-o", "players=" + "[" * 5000 + "]" * 5000],
                                   ["players"]),
    "play: --record is a directory": (["play", "forum-romanum", "-o", "max_rounds=1", "--record", "dir"],
                                      ["dir"]),
    "play: --record in a missing directory": (["play", "forum-romanum", "-o", "max_rounds=1",
                                               "--record", "no/such/g.json"], ["g.json"]),
    "play: unknown game": (["play", "chess"], ["unknown game"]),
    # ---- replay
    "replay: not UTF-8": (["replay", "latin1.json"], ["UTF-8"]),
    "replay: nested 100000 deep": (["replay", "deep.json"], ["deep.json"]),
    "replay: empty file": (["replay", "empty.json"], ["empty.json"]),
    "replay: missing file": (["replay", "missing.json"], ["missing.json"]),
    "replay: a directory": (["replay", "dir"], ["dir"]),
    "replay: a results file": (["replay", "results.db"], ["results.db"]),
    # ---- tournament run: definitions
    "run: seed=abc in an agent": (["tournament", "run", "-a", "random(seed=abc)", "-a", "greedy",
                                   "--db", NEW], ["seed must be an integer"]),
    "run: seed=abc in the TOML": (["tournament", "run", "--config", "agent_seed_abc.toml", "--db", NEW],
                                  ["seed must be an integer"]),
    "run: TOML not UTF-8": (["tournament", "run", "--config", "latin1.toml", "--db", NEW], ["UTF-8"]),
    "run: config = 3": (["tournament", "run", "--config", "config3.toml", "--db", NEW], ["config"]),
    "run: move_time = nan": (["tournament", "run", "--config", "move_time_nan.toml", "--db", NEW],
                             ["move_time"]),
    "run: hard_limit = inf": (["tournament", "run", "--config", "hard_limit_inf.toml", "--db", NEW],
                              ["hard_limit"]),
    "run: TOML seed 2^63": (["tournament", "run", "--config", "seed_2_63.toml", "--db", NEW], ["seed"]),
    "run: TOML seed below -2^63": (["tournament", "run", "--config", "seed_neg.toml", "--db", NEW], ["seed"]),
    "run: TOML nested 5000 deep": (["tournament", "run", "--config", "deep.toml", "--db", NEW], ["deep"]),
    "run: TOML without [[agents]]": (["tournament", "run", "--config", "no_agents.toml", "--db", NEW],
                                     ["[[agents]]"]),
    "run: agents = text": (["tournament", "run", "--config", "agents_text.toml", "--db", NEW], ["agents"]),
    "run: a date in the config": (["tournament", "run", "--config", "date.toml", "--db", NEW], ["when"]),
    "run: unknown TOML key": (["tournament", "run", "--config", "unknown_key.toml", "--db", NEW], ["colour"]),
    "run: TOML syntax": (["tournament", "run", "--config", "bad_syntax.toml", "--db", NEW],
                         ["not valid TOML"]),
    "run: TOML missing": (["tournament", "run", "--config", "missing.toml", "--db", NEW], ["missing.toml"]),
    "run: TOML is a directory": (["tournament", "run", "--config", "dir", "--db", NEW], ["dir"]),
    "run: games_per_lineup = 1e9": (["tournament", "run", "--config", "huge_schedule.toml", "--db", NEW],
                                    ["games"]),
    # ---- tournament run: options
    "run: --move-time nan": (["tournament", "run", "-a", "random", "--move-time", "nan", "--db", NEW],
                             ["move_time"]),
    "run: --move-time inf": (["tournament", "run", "-a", "random", "--move-time", "inf", "--db", NEW],
                             ["move_time"]),
    "run: --move-time -1": (["tournament", "run", "-a", "random", "--move-time", "-1", "--db", NEW],
                            ["move_time"]),
    "run: --hard-limit 0": (["tournament", "run", "-a", "random", "--hard-limit", "0", "--db", NEW],
                            ["hard_limit"]),
    "run: --hard-limit inf": (["tournament", "run", "-a", "random", "--hard-limit", "inf", "--db", NEW],
                              ["hard_limit"]),
    "run: --seed 2^63": (["tournament", "run", "-a", "random", "--seed", BIG, "--db", NEW], ["seed"]),
    "run: --seed abc": (["tournament", "run", "-a", "random", "--seed", "abc", "--db", NEW], ["--seed"]),
    "run: --games 0": (["tournament", "run", "-a", "random", "--games", "0", "--db", NEW], ["games"]),
    "run: --games -3": (["tournament", "run", "-a", "random", "--games", "-3", "--db", NEW], ["games"]),
    "run: --games 1e9": (["tournament", "run", "-a", "random", "-a", "greedy", "--games", "1000000000",
                          "--db", NEW], ["games"]),
    "run: --games 10^30": (["tournament", "run", "-a", "random", "--games", str(10**30), "--db", NEW],
                           ["games"]),
    "run: --workers 0": (["tournament", "run", "-a", "random", "--workers", "0", "--db", NEW], ["--workers"]),
    "run: --workers 10^6": (["tournament", "run", "-a", "random", "--workers", "1000000", "--db", NEW],
                            ["--workers"]),
    "run: --players 9": (["tournament", "run", "-a", "random", "--players", "9", "--db", NEW], ["players"]),
    "run: --players x": (["tournament", "run", "-a", "random", "--players", "x", "--db", NEW], ["--players"]),
    "run: --option not JSON-able": (["tournament", "run", "-a", "random", "-o", "max_rounds=abc",
                                     "--db", NEW], ["max_rounds"]),
    "run: unknown agent": (["tournament", "run", "-a", "alphazero", "--db", NEW], ["alphazero"]),
    "run: label used twice": (["tournament", "run", "-a", "x=random", "-a", "x=greedy", "--db", NEW],
                              ["twice"]),
    "run: --db is a directory": (["tournament", "run", "-a", "random", "--db", "dir"], ["dir"]),
    "run: --db in a missing directory": (["tournament", "run", "-a", "random", "--db", "no/such/r.db", *TINY],
                                         ["r.db"]),
    "run: --db is the TOML file": (["tournament", "run", "--config", "good.toml", "--db", "good.toml", *TINY],
                                   ["good.toml"]),
    "run: --db is a damaged file": (["tournament", "run", "-a", "random", "-a", "greedy", "-p", "3",
                                     "--games", "1", "--db", "damaged.db", *TINY], ["damaged.db"]),
    "run: --db holds another tournament": (["tournament", "run", "-a", "random", "-a", "mcts", "--db",
                                            "results.db", *TINY], ["not this one"]),
    "run: --scheduler of an unknown scheme": (["tournament", "run", "-a", "random", "--scheduler", "bogus://x",
                                               "--db", NEW], ["--scheduler"]),
    "run: --scheduler without a port": (["tournament", "run", "-a", "random", "--scheduler", "tcp://",
                                         "--db", NEW], ["--scheduler"]),
    "run: --scheduler with a bad IP": (["tournament", "run", "-a", "random", "--scheduler",
                                        "tcp://256.1.1.1:5", "--db", NEW], ["--scheduler"]),
    # ---- tournament resume
    "resume: --scheduler port 0": (["tournament", "resume", "results.db", "--scheduler", "host:0"],
                                   ["--scheduler"]),
    "resume: damaged page": (["tournament", "resume", "damaged.db", "--workers", "1"], ["damaged.db"]),
    "resume: missing file": (["tournament", "resume", "missing.db"], ["missing.db"]),
    "resume: a directory": (["tournament", "resume", "dir"], ["dir"]),
    "resume: a TOML file": (["tournament", "resume", "good.toml"], ["good.toml"]),
    "resume: --workers -1": (["tournament", "resume", "results.db", "--workers", "-1"], ["--workers"]),
    # ---- ratings
    "ratings: damaged page": (["ratings", "damaged.db"], ["damaged.db"]),
    "ratings: missing file": (["ratings", "missing.db"], ["missing.db"]),
    "ratings: a directory": (["ratings", "dir"], ["dir"]),
    "ratings: a TOML file": (["ratings", "good.toml"], ["good.toml"]),
    "ratings: unknown anchor": (["ratings", "results.db", "--anchor", "nobody"], ["nobody"]),
    "ratings: --bootstrap x": (["ratings", "results.db", "--bootstrap", "x"], ["--bootstrap"]),
    "ratings: --merge of one label": (["ratings", "results.db", "--merge", "x=random"], ["--merge"]),
    "ratings: --merge of an unknown label": (["ratings", "results.db", "--merge", "x=random,nobody"],
                                             ["nobody"]),
    "ratings: --merge of different agents": (["ratings", "results.db", "--merge", "x=random,greedy"],
                                             ["different specs"]),
    # ---- export
    "export: damaged page": (["export", "damaged.db", "--format", "csv"], ["damaged.db"]),
    "export: missing file": (["export", "missing.db", "--format", "csv"], ["missing.db"]),
    "export: unknown format": (["export", "results.db", "--format", "xml"], ["xml"]),
    "export: output is a directory": (["export", "results.db", "--format", "csv", "-o", "dir"], ["dir"]),
    "export: output in a missing directory": (["export", "results.db", "--format", "csv", "-o",
                                               "no/such/out.csv"], ["out.csv"]),
    "export: output is the results file": (["export", "results.db", "--format", "csv", "-o", "results.db"],
                                           ["results.db"]),
    "export: output is the results file by another name": (
        ["export", "results.db", "--format", "jsonl", "-o", "./dir/../results.db"], ["results.db"]),
    # ---- balance
    "balance: seed=abc in the agent": (["balance", "forum-romanum", "-p", "3", "--agent", "random(seed=abc)",
                                        "--db", NEW], ["seed must be an integer"]),
    "balance: --players 0": (["balance", "forum-romanum", "-p", "0", "--db", NEW], ["players"]),
    "balance: --players 9": (["balance", "forum-romanum", "-p", "9", "--db", NEW], ["players"]),
    "balance: --games 0": (["balance", "forum-romanum", "-p", "3", "--games", "0", "--db", NEW], ["--games"]),
    "balance: --games 10^10": (["balance", "forum-romanum", "-p", "3", "--games", str(10**10), "--db", NEW],
                               ["games"]),
    "balance: --seed 2^63": (["balance", "forum-romanum", "-p", "3", "--seed", BIG, "--db", NEW], ["seed"]),
    "balance: --workers 0": (["balance", "forum-romanum", "-p", "3", "--workers", "0", "--db", NEW],
                             ["--workers"]),
    "balance: --db is a directory": (["balance", "forum-romanum", "-p", "3", "--db", "dir"], ["dir"]),
    "balance: unknown agent": (["balance", "forum-romanum", "-p", "3", "--agent", "nosuch", "--db", NEW],
                               ["nosuch"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_line_exit_2_and_touches_no_file(ws, name):
    argv, fragments = CASES[name]
    before = snapshot(ws)
    assert_bad_input(run(*argv), *fragments)
    assert snapshot(ws) == before  # nothing created, removed or changed (not even side files)


# ---------------------------------------------------------------- what a user trips over


def test_play_takes_the_player_count_from_the_agents():
    result = run("play", "forum-romanum", "-a", "random,greedy,random,greedy", "-o", "max_rounds=1", "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["scores"]) == 4
    # -p still wins, and still has to agree with -a.
    assert_bad_input(run("play", "forum-romanum", "-p", "3", "-a", "random,random"),
                     "2 agents given for 3 players")


def test_anchor_help_states_the_real_default(ws):
    help_text = " ".join(run("ratings", "--help").stdout.split())
    assert re.search(r"default: the reference, .*never one marked \*", help_text)
    table = " ".join(run("ratings", "results.db").stdout.split())
    assert "Elo 0 = " in table and "the reference" in table


def test_progress_bar_only_on_a_terminal_unless_asked(tmp_path):
    """CliRunner's stderr is not a terminal: no bar by default, a bar with --progress."""
    base = ["tournament", "run", "-a", "random", "-a", "greedy", "-p", "3", "--games", "1",
            "-o", "max_rounds=2", "--workers", "1"]
    quiet = run(*base, "--db", tmp_path / "a.db")
    assert quiet.exit_code == 0, quiet.output
    assert "games/s" not in quiet.stderr and "it/s" not in quiet.stderr and "%|" not in quiet.stderr
    shown = run(*base, "--db", tmp_path / "b.db", "--progress")
    assert shown.exit_code == 0, shown.output
    assert "%|" in shown.stderr  # tqdm's bar


# ---------------------------------------------------------------- real processes

def cli_command() -> list[str]:
    return [sys.executable, "-m", "forumlab"]


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            "PYTHONWARNINGS": "ignore"}


def default_sigint() -> None:
    """A background job of a non-interactive shell starts with SIGINT ignored, and Python
    keeps it ignored: give the child the default, as a terminal's foreground job has."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def count_games(db: Path) -> int:
    """Committed games in db as a reader sees them now (0 while the file is not there yet)."""
    if not db.exists():
        return 0
    try:
        with ResultStore.open(db, readonly=True) as store:
            return len(store)
    except Exception:  # noqa: BLE001 - created but not yet initialised, or locked for a moment
        return 0


def start_tournament(db: Path, games: int = 400) -> subprocess.Popen:
    """A long tournament in its own process group (so that signals reach its workers too,
    as a Ctrl-C in a terminal does)."""
    return subprocess.Popen(
        cli_command() + ["tournament", "run", "-a", "random", "-a", "greedy", "-p", "3",
                         "--games", str(games), "--workers", "1", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(),
        start_new_session=True, preexec_fn=default_sigint)


def wait_for_games(proc: subprocess.Popen, db: Path, n: int, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout  # generous: cold compilation on a busy machine
    while count_games(db) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no games committed in time"
        time.sleep(0.2)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()


def test_python_dash_m_forumlab_runs_the_command_line():
    proc = subprocess.run(cli_command() + ["play", "forum-romanum", "--bogus"], capture_output=True,
                          text=True, env=child_env(), timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "error: No such option '--bogus'. (see 'forumlab play --help')"]
    listed = subprocess.run(cli_command() + ["games"], capture_output=True, text=True, env=child_env(),
                            timeout=300)
    assert listed.returncode == 0 and "forum-romanum" in listed.stdout


def test_ctrl_c_exits_130_and_prints_the_resume_command(tmp_path):
    db = tmp_path / "run 1.db"  # a space: the printed command must be quoted for a shell
    proc = start_tournament(db)
    try:
        wait_for_games(proc, db, 2)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends
        out, err = proc.communicate(timeout=300)
    finally:
        stop(proc)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert f"forumlab tournament resume '{db}'" in err
    assert count_games(db) >= 2
    assert sorted(os.listdir(tmp_path)) == ["run 1.db"]  # no lock or journal left behind


def test_a_copy_of_the_db_alone_holds_every_game_committed_before_a_sigkill(tmp_path):
    """The tournament is frozen (SIGSTOP) at a moment when no commit is in progress (no
    -journal), then SIGKILLed: every game it committed must be in the .db file itself."""
    db = tmp_path / "results.db"
    proc = start_tournament(db)
    try:
        wait_for_games(proc, db, 3)
        for _ in range(100):
            os.killpg(proc.pid, signal.SIGSTOP)
            if not Path(f"{db}-journal").exists():
                break
            os.killpg(proc.pid, signal.SIGCONT)  # inside a commit: let it finish, try again
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        stop(proc)
    assert proc.returncode == -signal.SIGKILL
    assert not Path(f"{db}-wal").exists()
    copy = tmp_path / "copy" / "results.db"
    copy.parent.mkdir()
    shutil.copyfile(db, copy)  # the .db alone, none of its side files
    committed = count_games(db)
    assert committed >= 3
    with ResultStore.open(copy, readonly=True) as store:
        assert len(store) == committed
    assert os.listdir(copy.parent) == ["results.db"]


def test_reading_opens_the_file_read_only_and_creates_no_side_file(ws, monkeypatch):
    """What lets ratings and export work in a read-only directory: every SQLite connection
    they open is read-only (mode=ro), and they create, change or remove no file there."""
    connects = []
    real_connect = sqlite3.connect

    def spy(database, *args, **kwargs):
        connects.append(str(database))
        return real_connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", spy)
    before = snapshot(ws)
    assert run("ratings", "results.db").exit_code == 0
    assert run("ratings", "results.db", "--json").exit_code == 0
    assert run("export", "results.db", "--format", "csv").exit_code == 0
    assert snapshot(ws) == before
    assert connects and all(c.startswith("file:") and c.endswith("?mode=ro") for c in connects), connects
    with open(ws / "results.db", "rb") as f:
        assert f.read(20)[18:20] == b"\x01\x01"  # a rollback-journal file: readers need no -shm


def _read_only_view(directory: Path, argv: list[str]) -> list[str]:
    """argv run with ``directory`` read-only: by permissions (0555) for a normal user, by a
    read-only bind mount in a private mount namespace for root (whom permissions do not
    stop)."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        return argv
    # Root ignores permissions, so only a read-only mount proves the point; where the
    # machine offers none, test_reading_opens_the_file_read_only_and_creates_no_side_file (mode=ro, no side
    # files) still covers the behaviour.
    if shutil.which("unshare") is None:
        pytest.skip("running as root without unshare: cannot make a directory read-only")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("running as root where unshare -m is not permitted")
    d = str(directory)
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && '
              'if touch "$1/probe" 2>/dev/null; then echo "still writable" >&2; exit 99; fi; '
              'shift; exec "$@"')
    return ["unshare", "-m", "sh", "-c", script, "sh", d, *argv]


def test_ratings_and_export_work_in_a_read_only_directory(tmp_path, finished_db):
    ro = tmp_path / "ro"
    ro.mkdir()
    shutil.copy(finished_db, ro / "results.db")
    before = snapshot(ro)
    try:
        for args in (["ratings", "results.db"], ["export", "results.db", "--format", "jsonl"]):
            argv = _read_only_view(ro, cli_command() + [args[0], str(ro / args[1]), *args[2:]])
            proc = subprocess.run(argv, capture_output=True, text=True, env=child_env(), timeout=300)
            assert proc.returncode == 0, proc.stderr
            assert proc.stdout.strip()
        # A tournament cannot write there: one line, exit 2.
        argv = _read_only_view(ro, cli_command() + ["tournament", "run", "-a", "random", "--db",
                                                    str(ro / "new.db"), "-o", "max_rounds=1"])
        proc = subprocess.run(argv, capture_output=True, text=True, env=child_env(), timeout=300)
        assert proc.returncode == 2 and proc.stderr.startswith("error: ")
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    finally:
        ro.chmod(0o755)
    assert snapshot(ro) == before


def test_an_unreachable_scheduler_leaves_no_results_file(tmp_path):
    """Nothing listens on port 1: the run fails after Dask's connect timeout (30 s) with
    one error line, and the results file it had created, still empty, is removed."""
    proc = subprocess.run(cli_command() + ["tournament", "run", "-a", "random", "-o", "max_rounds=1",
                                           "--scheduler", "tcp://127.0.0.1:1", "--db", "new.db"],
                          capture_output=True, text=True, env=child_env(), timeout=600, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "Dask scheduler" in errors[0], proc.stderr
    assert os.listdir(tmp_path) == []
