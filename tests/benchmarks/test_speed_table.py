"""benchmarks.speed_table runs end to end at tiny budgets and rewrites only the marked
section of a results page (a temp copy of docs/results.md). No timing is asserted."""
import json
from pathlib import Path

from click.testing import CliRunner

from benchmarks import speed_table

RESULTS = Path(__file__).resolve().parents[2] / "docs" / "results.md"


def test_quick_run_writes_only_between_the_markers(tmp_path):
    page = tmp_path / "results.md"
    original = RESULTS.read_text()
    page.write_text(original)
    done = CliRunner().invoke(speed_table.main, ["--quick", "--games", "forum-romanum", "--json",
                                                 "--write", str(page)])
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    row = report["games"][0]
    assert row["game"] == "forum-romanum" and row["players"] == 3
    assert row["playouts"]["ratio_numba_over_reference"]["median"] > 0
    assert [m["settings"]["rollout"] for m in row["mcts"]][0] == "none"
    assert "cold_cpu_s" in row["start"] and "cpu_s_median" in report["warm_games"]
    assert "vs_c" in report  # measured, or skipped with the reason
    written = page.read_text()
    before, after = original.split(speed_table.BEGIN)[0], original.split(speed_table.END)[1]
    assert written.startswith(before + speed_table.BEGIN) and written.endswith(speed_table.END + after)
    section = written[len(before):len(written) - len(after)]
    assert "| forum-romanum, 3 players |" in section and "--quick --games forum-romanum" in section


def test_replace_section_keeps_everything_outside_the_markers():
    text = f"head\n{speed_table.BEGIN}\nold table\n{speed_table.END}\ntail\n"
    new = speed_table.replace_section(text, "new table")
    assert new == f"head\n{speed_table.BEGIN}\nnew table\n{speed_table.END}\ntail\n"


def test_a_page_without_markers_is_a_one_line_error(tmp_path):
    page = tmp_path / "plain.md"
    page.write_text("no markers here\n")
    done = CliRunner().invoke(speed_table.main, ["--quick", "--write", str(page)])
    assert done.exit_code == 2 and "speed-table:begin" in done.output
    assert page.read_text() == "no markers here\n"


def test_an_unknown_game_exits_2():
    done = CliRunner().invoke(speed_table.main, ["--quick", "--games", "chess"])
    assert done.exit_code == 2 and "unknown game 'chess'" in done.output
