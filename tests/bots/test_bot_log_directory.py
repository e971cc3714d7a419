"""A bot's log directory that cannot be one (a file, a device, a path through a file) is
refused with one line before anything is played or created, by ``play`` and by
``tournament run`` alike (a tournament used to record a crash fault per game instead)."""
import pytest

from tests.bots.helpers import PY_BOT
from tests.cli_helpers import one_line_error, run

TINY = ["-o", "max_rounds=3", "-q", "--workers", "1"]


@pytest.mark.parametrize("where", ["file", "device", "under-a-file"])
def test_play_refuses_a_log_dir_that_is_not_a_directory(where, tmp_path):
    (tmp_path / "afile").write_text("kept\n")
    log_dir = {"file": tmp_path / "afile", "device": "/dev/null", "under-a-file": tmp_path / "afile" / "sub"}[where]
    record = tmp_path / "game.json"
    message = one_line_error(run("play", "forum-romanum", "-p", "2", "-a", f"cmd(command='{PY_BOT}',log_dir={log_dir}),random",
                                 "--record", record))
    assert "bot log directory" in message and str(log_dir) in message
    assert (tmp_path / "afile").read_text() == "kept\n" and not record.exists()


def test_a_tournament_refuses_a_file_where_its_bot_logs_go_and_creates_nothing(tmp_path):
    db = tmp_path / "t.db"
    (tmp_path / "t.db.bot-logs").write_text("kept\n")
    message = one_line_error(run("tournament", "run", "-a", f"cmd:{PY_BOT}", "-a", "random", "-p", "2",
                                 "--games", "1", "--db", db, *TINY))
    assert "t.db.bot-logs" in message and "not a directory" in message
    assert not db.exists() and (tmp_path / "t.db.bot-logs").read_text() == "kept\n"


def test_a_tournament_refuses_a_bot_log_dir_that_is_a_device_and_creates_nothing(tmp_path):
    db = tmp_path / "t.db"
    message = one_line_error(run("tournament", "run", "-a", f"cmd(command='{PY_BOT}',log_dir=/dev/null)",
                                 "-a", "random", "-p", "2", "--games", "1", "--db", db, *TINY))
    assert "/dev/null" in message and "device" in message
    assert not db.exists()
