"""Paths that are not regular files, as inputs and outputs of every command.

An input that is a named pipe or a device is refused before it is opened (a pipe would
block the command until a writer came, ``/dev/zero`` would fill memory): one ``error:``
line, exit code 2, at once. An output that exists and is not a regular file is refused
before any work and is still what it was afterwards (writing to a temporary file and
renaming it over the target would replace a device such as ``/dev/null`` by a regular
file). An output is written completely or not at all: a damaged row met half-way through
an export leaves the old file's bytes as they were.

Every command runs in-process under an alarm, so a command that blocks fails the test
instead of hanging the suite.
"""
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import forumlab
from forumlab.cli import main
from forumlab.core.errors import ConfigError, ForumlabError, RecordError
from forumlab.core.files import (
    check_input_file,
    check_output_file,
    read_bytes_file,
    read_text_file,
    write_file_atomically,
)
from forumlab.core.record import Record, load_record
from tests.deadline import deadline

from .test_records_cli import assert_bad_input

TINY = ["-o", "max_rounds=3", "--workers", "1", "--no-progress"]
RECORD = {"format": "forumlab-record/1", "game": "forum-romanum", "config": {"players": 3},
          "seed": 1, "moves": []}
POOL = '[[agents]]\nspec = "random"\n[[agents]]\nspec = "greedy"\n'
LIMIT = 60  # seconds: generous on a busy machine, but a blocked command fails instead of hanging


def prompt(seconds: int = LIMIT):
    """Fail (instead of hanging) if the body takes longer than ``seconds``."""
    return deadline(seconds)


def run(*args):
    with prompt():
        return CliRunner().invoke(main, [str(a) for a in args])


def device_or_skip(path: Path) -> Path:
    """A character device node like /dev/null at ``path`` (needs root)."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        # Only root may make a device node; CI runs as root, so there these cases always
        # run. Elsewhere the fifo cases still check that a non-regular target is refused.
        pytest.skip("making a device node needs root")
    return path


def is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


def is_device(path: Path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


def stray_temporaries(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]


@pytest.fixture(scope="module")
def finished_db(tmp_path_factory):
    """A finished tournament: random against greedy, 3 players, a few plies per game."""
    db = tmp_path_factory.mktemp("finished") / "results.db"
    result = CliRunner().invoke(main, ["tournament", "run", "-a", "random", "-a", "greedy", "-p", "3",
                                       "--games", "1", "--db", str(db), *TINY])
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture
def ws(tmp_path, monkeypatch, finished_db):
    """A working directory with a results file, a record, a tournament file and a pipe."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(finished_db, tmp_path / "results.db")
    (tmp_path / "game.json").write_text(json.dumps(RECORD))
    (tmp_path / "t.toml").write_text('game = "forum-romanum"\n[config]\nplayers = 3\nmax_rounds = 3\n' + POOL)
    os.mkfifo(tmp_path / "pipe")
    return tmp_path


# ------------------------------------------------------------------ inputs
@pytest.mark.parametrize("args", [
    ["replay", "pipe"],
    ["ratings", "pipe"],
    ["report", "pipe", "-o", "out.html"],
    ["export", "pipe", "--format", "jsonl"],
    ["tournament", "resume", "pipe", "--no-progress"],
    ["tournament", "run", "--config", "pipe", "--db", "new.db", "--no-progress"],
], ids=lambda args: " ".join(args[:2]))
def test_a_named_pipe_as_input_is_refused_at_once(ws, args):
    before = sorted(p.name for p in ws.iterdir())
    assert_bad_input(run(*args), "pipe")
    assert sorted(p.name for p in ws.iterdir()) == before  # nothing created (no new.db, no out.html)
    assert is_fifo(ws / "pipe")


def _limit_memory():
    """In the child: at most 2 GiB of address space, so that a regression (reading
    /dev/zero until memory runs out) fails this test instead of the whole machine."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_dev_zero_as_a_record_is_refused_at_once(ws):
    # First in a child process with bounded memory and time: only once that passed is
    # it safe to try in this process.
    child = subprocess.run([sys.executable, "-m", "forumlab", "replay", "/dev/zero"], capture_output=True,
                           text=True, timeout=LIMIT, preexec_fn=_limit_memory)
    assert child.returncode == 2, child.stderr
    assert child.stderr.startswith("error: ") and child.stderr.count("\n") == 1, child.stderr
    assert "/dev/zero" in child.stderr and "device" in child.stderr
    assert_bad_input(run("replay", "/dev/zero"), "/dev/zero", "device")
    with prompt(), pytest.raises(RecordError, match="device"):
        load_record("/dev/zero")


def test_the_api_refuses_a_pipe_as_a_record(ws):
    with prompt(), pytest.raises(RecordError, match="named pipe"):
        forumlab.replay(ws / "pipe")
    with prompt(), pytest.raises(RecordError, match="named pipe"):
        load_record(str(ws / "pipe"))


def test_a_directory_and_a_missing_file_as_a_record(ws):
    with pytest.raises(RecordError, match="directory"):
        load_record(ws)
    assert_bad_input(run("replay", "nope.json"), "cannot read", "nope.json", "no such file")


def test_a_record_larger_than_the_bound_is_refused(ws, monkeypatch):
    import forumlab.core.record as record_module

    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 150)
    (ws / "big.json").write_text(json.dumps({**RECORD, "pad": "x" * 200}))
    assert_bad_input(run("replay", "big.json"), "big.json", "more than the 150")
    assert run("replay", "game.json").exit_code == 0


def test_a_tournament_file_or_command_file_larger_than_its_bound_is_refused(ws, monkeypatch):
    import forumlab.core.files as files

    monkeypatch.setattr(files, "MAX_TOML_BYTES", 20)
    monkeypatch.setattr(files, "MAX_COMMAND_BYTES", 3)
    assert_bad_input(run("tournament", "run", "--config", "t.toml", "--db", "new.db"),
                     "tournament file", "more than the 20")
    assert not (ws / "new.db").exists()
    (ws / "cmds.txt").write_text("1\nquit\n")
    assert_bad_input(run("play", "forum-romanum", "-p", "2", "-a", "human(input=cmds.txt),random"),
                     "command file", "more than the 3")


def test_the_human_command_file_must_be_a_regular_file(ws):
    assert_bad_input(run("play", "forum-romanum", "-p", "2", "-a", "human(input=pipe),random"),
                     "pipe", "named pipe")
    assert_bad_input(run("play", "forum-romanum", "-p", "2", "-a", "human(input=/dev/zero),random"),
                     "device")
    assert sorted(p.name for p in ws.iterdir() if p.name.startswith("forumlab-")) == []


# ------------------------------------------------------------------ outputs
def _output_cases():
    return {
        "report -o": ["report", "results.db", "-o", "{target}"],
        "play --record": ["play", "forum-romanum", "-p", "3", "-o", "max_rounds=2", "--record", "{target}"],
        "export -o jsonl": ["export", "results.db", "--format", "jsonl", "-o", "{target}"],
        "export -o csv": ["export", "results.db", "--format", "csv", "-o", "{target}"],
        "export --game -o": ["export", "results.db", "--game", "L0000-G000-R00", "-o", "{target}"],
        "balance --report": ["balance", "forum-romanum", "-p", "3", "--games", "1", "-o", "max_rounds=2",
                             "--no-progress", "--report", "{target}"],
    }


@pytest.mark.parametrize("name", list(_output_cases()))
@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_an_output_that_is_not_a_regular_file_is_refused_and_kept(ws, name, kind):
    target = ws / "pipe" if kind == "pipe" else device_or_skip(ws / "null")
    args = [a.replace("{target}", str(target)) for a in _output_cases()[name]]
    before = sorted(p.name for p in ws.iterdir())
    assert_bad_input(run(*args), "cannot write", "not a regular file")
    assert (is_fifo if kind == "pipe" else is_device)(target)  # still what it was
    assert sorted(p.name for p in ws.iterdir()) == before


def test_an_output_directory_is_refused(ws):
    assert_bad_input(run("export", "results.db", "--format", "csv", "-o", ws / "nodir" / "x.csv"),
                     "directory does not exist")


def damage_last_game(db: Path) -> None:
    """Make the last game's moves unreadable JSON, as a damaged row: the append-only
    triggers are dropped for the change and put back as they were."""
    conn = sqlite3.connect(db)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                            "AND tbl_name = 'games'").fetchall()
    for name, _ in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE games SET moves = 'garbage{' WHERE rowid = (SELECT max(rowid) FROM games)")
    for _, sql in triggers:
        conn.execute(sql)
    conn.commit()
    conn.close()


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_export_onto_an_existing_file_keeps_it_when_a_row_is_damaged(ws, fmt):
    damage_last_game(ws / "results.db")
    old = b"the previous export\n" * 100
    (ws / "out").write_bytes(old)
    before = sorted(p.name for p in ws.iterdir())
    assert_bad_input(run("export", "results.db", "--format", fmt, "-o", "out"), "results.db")
    assert (ws / "out").read_bytes() == old
    assert sorted(p.name for p in ws.iterdir()) == before
    assert stray_temporaries(ws) == []


def test_export_replaces_an_existing_file_when_it_succeeds(ws):
    (ws / "out.jsonl").write_text("old\n")
    os.chmod(ws / "out.jsonl", 0o640)
    assert run("export", "results.db", "--format", "jsonl", "-o", "out.jsonl").exit_code == 0
    lines = (ws / "out.jsonl").read_text().splitlines()
    assert len(lines) == 6 and all(json.loads(line)["game"] == "forum-romanum" for line in lines)
    assert stat.S_IMODE(os.stat(ws / "out.jsonl").st_mode) == 0o640  # the file's permissions kept
    assert stray_temporaries(ws) == []


def test_play_record_through_a_symbolic_link_keeps_the_link(ws):
    (ws / "real.json").write_text("{}")
    os.symlink("real.json", ws / "link.json")
    result = run("play", "forum-romanum", "-p", "3", "-o", "max_rounds=2", "--record", "link.json")
    assert result.exit_code == 0, result.output
    assert os.path.islink(ws / "link.json")
    assert load_record(ws / "real.json").game == "forum-romanum"


def test_record_save_refuses_a_pipe(ws):
    record = Record.from_json(RECORD)
    with prompt(), pytest.raises(RecordError, match="named pipe"):
        record.save(ws / "pipe")
    assert is_fifo(ws / "pipe")


# ------------------------------------------------------------------ core.files itself
def test_write_file_atomically_leaves_the_target_on_an_error(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")

    def half_then_fail(fh):
        fh.write("new " * 1000)
        raise ValueError("met a damaged row")

    with pytest.raises(ValueError, match="damaged"):
        write_file_atomically(target, "export", half_then_fail)
    assert target.read_bytes() == b"old"
    assert stray_temporaries(tmp_path) == []
    write_file_atomically(tmp_path / "new.txt", "export", lambda fh: fh.write("a\nb\n"), newline="")
    assert (tmp_path / "new.txt").read_bytes() == b"a\nb\n"


def test_write_file_atomically_refuses_a_device_made_during_the_write(tmp_path):
    target = tmp_path / "out.txt"

    def meanwhile(fh):
        fh.write("text")
        os.mkfifo(target)  # the target became a pipe while the file was being written

    with pytest.raises(ConfigError, match="named pipe"):
        write_file_atomically(target, "export", meanwhile)
    assert is_fifo(target) and stray_temporaries(tmp_path) == []


def test_input_checks(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"abc")
    (tmp_path / "latin1.txt").write_bytes("café".encode("latin-1"))
    assert check_input_file(tmp_path / "a.txt", "thing", 3) == tmp_path / "a.txt"
    with pytest.raises(ConfigError, match="3 bytes, more than the 2"):
        check_input_file(tmp_path / "a.txt", "thing", 2)
    with pytest.raises(ConfigError, match="directory"):
        read_bytes_file(tmp_path, "thing")
    with pytest.raises(RecordError, match="not a valid path"):
        check_input_file("a\0b", "thing", error=RecordError)
    with pytest.raises(ConfigError, match="not UTF-8 text .byte 3.; hint"):
        read_text_file(tmp_path / "latin1.txt", "thing", hint="; hint")
    assert read_text_file(tmp_path / "latin1.txt", "thing", errors="replace") == "caf\ufffd"
    with pytest.raises(ForumlabError, match="directory does not exist"):
        check_output_file(tmp_path / "no" / "x", "thing")
    with pytest.raises(ConfigError, match="a directory, not a regular file"):
        check_output_file(tmp_path, "thing")
