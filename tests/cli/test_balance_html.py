"""HTML pages of a variant study (forumlab balance ... --html, balance report DB... --html) and
of the strategies meta-game (forumlab strategies ... --html): written with their figures,
self-contained, and a bad output path refused in one line before anything is played."""
import base64
import os
import re
import sys

import pytest

from tests.cli_helpers import one_line_error, run

pytest.importorskip("matplotlib", reason="the HTML pages draw their figures with matplotlib "
                                         "(the optional 'report' extra)")

FAST = ["forum-romanum", "-p", "3", "--agent", "random", "-q", "--workers", "1"]
VARIANTS = ["--variant", "base=max_rounds=3", "--variant", "short=max_rounds=2"]
STRATEGIES = ["forum-romanum", "-p", "3", "-s", "r1=random", "-s", "g=greedy", "-s", "r2=random(seed=5)",
              "--games", "1", "--bootstrap", "20", "-q", "--workers", "1"]






def figure_ids(page: str) -> list[str]:
    return re.findall(r'<figure id="([^"]+)"><img src="data:image/svg\+xml;base64,', page)


@pytest.fixture(scope="module")
def study_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("study") / "s.db"
    result = run("balance", *FAST, *VARIANTS, "--games", "3", "--db", db)
    assert result.exit_code == 0, result.output
    return db


def test_balance_report_writes_one_self_contained_page(study_db, tmp_path):
    page_path = tmp_path / "study.html"
    result = run("balance", "report", study_db, "--html", page_path)
    assert result.exit_code == 0, result.output
    assert "Seat effects" in result.stdout  # the text report is still printed
    page = page_path.read_text()
    # Forum Romanum's points per kind of region (score sources) are the third figure.
    assert figure_ids(page) == ["fig-seats", "fig-lengths", "fig-sources"]
    for label in ("Setup", "max_rounds=3", "first player", "no seat matters p", "short - base", "Flagged"):
        assert label in page, label
    assert 'src="http' not in page and "href=\"http" not in page
    forest = base64.b64decode(re.search(r'id="fig-seats"><img src="data:image/svg\+xml;base64,([^"]+)"',
                                        page).group(1)).decode()
    assert "seat 2, short" in forest and "Differences to the first variant" in forest


def test_a_variant_run_writes_the_page_too(tmp_path):
    page_path = tmp_path / "run.html"
    result = run("balance", *FAST, *VARIANTS, "--games", "2", "--html", page_path)
    assert result.exit_code == 0, result.output
    assert figure_ids(page_path.read_text()) == ["fig-seats", "fig-lengths", "fig-sources"]


@pytest.mark.parametrize("where", ["directory", "missing_dir", "the_db"])
def test_bad_balance_html_paths_are_refused_and_leave_nothing(study_db, tmp_path, where):
    target = {"directory": tmp_path, "missing_dir": tmp_path / "no" / "x.html", "the_db": study_db}[where]
    before = study_db.read_bytes()
    one_line_error(run("balance", "report", study_db, "--html", target))
    assert study_db.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == []


def test_a_variant_run_refuses_a_bad_page_before_playing(tmp_path):
    db = tmp_path / "s.db"
    one_line_error(run("balance", *FAST, *VARIANTS, "--games", "2", "--db", db, "--html", tmp_path / "no" / "x"))
    assert not db.exists()


def test_html_without_variants_points_to_report(tmp_path):
    message = one_line_error(run("balance", *FAST, "--games", "2", "--html", tmp_path / "x.html"))
    assert "--report" in message
    assert os.listdir(tmp_path) == []


def test_strategies_page_has_ratings_heatmap_equilibrium_and_verdict(tmp_path):
    page_path = tmp_path / "meta.html"
    result = run("strategies", *STRATEGIES, "--db", tmp_path / "m.db", "--html", page_path)
    assert result.exit_code == 0, result.output
    page = page_path.read_text()
    assert figure_ids(page) == ["fig-h2h", "fig-equilibrium"]
    for label in ("Verdict", "Ratings", "comparison interval", "Head to head", "Equilibrium mass", "r2"):
        assert label in page, label


def test_strategies_refuses_a_bad_page_before_playing(tmp_path):
    db = tmp_path / "m.db"
    one_line_error(run("strategies", *STRATEGIES, "--db", db, "--html", tmp_path))
    assert not db.exists()


def test_without_matplotlib_the_error_names_the_extra(study_db, tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    out = tmp_path / "p.html"
    assert "forumlab[report]" in one_line_error(run("balance", "report", study_db, "--html", out))
    assert "forumlab[report]" in one_line_error(
        run("strategies", *STRATEGIES, "--db", tmp_path / "m.db", "--html", out))
    assert os.listdir(tmp_path) == []
