"""HTML reports (forumlab.report): `forumlab report`, `balance --report`, bad input.

Each report must be one self-contained HTML file: it parses with the standard library,
holds every part and figure of a report (ratings with intervals, likelihood of
superiority, seat advantage, score and game-length distributions, faults, definition and
versions), and every image is an embedded SVG, with nothing fetched from elsewhere.
"""
import base64
import html
import os
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.tournament import run_tournament
from forumlab.cli import main
from forumlab.report.page import FIGURE_PARTS, PARTS

SVG_PREFIX = "data:image/svg+xml;base64,"


class _Collector(HTMLParser):
    """Every tag with its attributes, and whether the tags nest properly."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__()
        self.tags, self.stack, self.errors = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def parse_report(path):
    """Parse ``path``; check it is well nested and self-contained; return (tags, ids)."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    parser = _Collector()
    parser.feed(text)
    parser.close()
    assert not parser.errors and not parser.stack, (parser.errors, parser.stack)
    ids = [attrs["id"] for _, attrs in parser.tags if "id" in attrs]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for tag, attrs in parser.tags:
        assert tag not in {"script", "link", "iframe", "object", "embed"}, tag
        if "href" in attrs:
            assert attrs["href"].startswith("#"), attrs["href"]  # only links inside the page
        if tag == "img":
            src = attrs["src"]
            assert src.startswith(SVG_PREFIX), src[:40]
            svg = base64.b64decode(src[len(SVG_PREFIX):])
            root = ET.fromstring(svg)  # a well-formed SVG document
            assert root.tag.endswith("svg")
            # Nothing inside an SVG points outside it either: #fragment references, and
            # the heatmap's raster embedded as a data: URI.
            for element in root.iter():
                for key, value in element.attrib.items():
                    if key.endswith("href"):
                        assert value.startswith(("#", "data:image/png;base64,")), value[:40]
    return parser.tags, set(ids)


def figure_ids(tags):
    """Ids of figures that hold an embedded image."""
    out, current = set(), None
    for tag, attrs in tags:
        if tag == "figure":
            current = attrs.get("id")
        elif tag == "img" and current:
            out.add(current)
    return out


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_line_error(result):
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    message = result.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    return message


@pytest.fixture(scope="module")
def tournament_db(tmp_path_factory):
    """A few real games: random, greedy and an agent that raises on its third move."""
    db = tmp_path_factory.mktemp("report") / "t.db"
    d = TournamentDefinition(
        config={"players": 3, "max_rounds": 6}, games_per_lineup=1,
        agents=(PoolEntry("random", "random"), PoolEntry("greedy", "greedy"),
                PoolEntry("raiser", "tests.fault_agents:RaisingAgent(after=2)")))
    run_tournament(d, db, workers=0, progress=False)
    return db


def test_report_holds_every_part_and_figure_embedded(tournament_db, tmp_path):
    out = tmp_path / "report.html"
    result = run("report", tournament_db, "-o", out)
    assert result.exit_code == 0, result.output
    tags, ids = parse_report(out)
    figs = figure_ids(tags)
    assert "tournament-1" in ids
    for stem, _ in PARTS:
        assert f"{stem}-1" in ids, stem
    for stem in FIGURE_PARTS + ("faults",):  # the raiser's faults are drawn too
        assert f"fig-{stem}-1" in figs, stem
    text = html.unescape(out.read_text(encoding="utf-8"))
    # The rating table, the faults listing, the definition and the versions are there.
    for needle in ("95% interval", "raiser", "exception", "RuntimeError: boom", "games_per_lineup",
                   "numba", "forum-romanum/"):
        assert needle in text, needle
    # The same games give the same bytes.
    again = tmp_path / "again.html"
    assert run("report", tournament_db, "-o", again).exit_code == 0
    assert again.read_bytes() == out.read_bytes()


def test_report_without_faults_says_so(tmp_path):
    db = tmp_path / "clean.db"
    d = TournamentDefinition(config={"players": 2, "max_rounds": 4}, games_per_lineup=1,
                             agents=(PoolEntry("random", "random"), PoolEntry("greedy", "greedy")))
    run_tournament(d, db, workers=0, progress=False)
    out = tmp_path / "r.html"
    assert run("report", db, "-o", out).exit_code == 0
    tags, ids = parse_report(out)
    assert "faults-1" in ids and "fig-faults-1" not in figure_ids(tags)
    assert "No faults in 2 games" in out.read_text(encoding="utf-8")


def test_balance_writes_the_same_kind_of_report(tmp_path):
    out = tmp_path / "balance.html"
    result = run("balance", "forum-romanum", "--players", "3", "--agent", "random", "--games", "4",
                 "-o", "max_rounds=4", "-q", "--workers", "1", "--report", out)
    assert result.exit_code == 0, result.output
    tags, ids = parse_report(out)
    # One agent: the seats carry the figures; nothing compares the agent with itself.
    for stem in ("seats", "seat-scores", "lengths"):
        assert f"fig-{stem}-1" in figure_ids(tags)
    for stem in ("ratings", "superiority", "scores"):
        assert f"fig-{stem}-1" not in figure_ids(tags)
    assert "self-play of random" in out.read_text(encoding="utf-8")


def test_report_bad_input_is_one_line_and_creates_nothing(tournament_db, tmp_path):
    before = tournament_db.read_bytes()
    out = tmp_path / "r.html"
    assert_one_line_error(run("report", tmp_path / "missing.db", "-o", out))
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(os.urandom(3000))
    assert "not a forumlab results file" in assert_one_line_error(run("report", garbage, "-o", out))
    foreign = tmp_path / "foreign.db"
    import sqlite3

    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    assert_one_line_error(run("report", foreign, "-o", out))
    assert "is a directory" in assert_one_line_error(run("report", tournament_db, "-o", tmp_path))
    assert_one_line_error(run("report", tournament_db, "-o", tmp_path / "no" / "r.html"))
    assert "results file itself" in assert_one_line_error(run("report", tournament_db, "-o", tournament_db))
    assert_one_line_error(run("report", tournament_db))  # -o is required
    assert not out.exists()
    assert tournament_db.read_bytes() == before
    # --report of balance: checked before any game is played.
    assert_one_line_error(run("balance", "forum-romanum", "-p", "3", "--games", "1", "--report", tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["foreign.db", "garbage.db"]


def test_without_matplotlib_the_error_names_the_extra(tournament_db, tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    out = tmp_path / "r.html"
    message = assert_one_line_error(run("report", tournament_db, "-o", out))
    assert "pip install 'forumlab[report]'" in message
    assert "forumlab[report]" in assert_one_line_error(
        run("balance", "forum-romanum", "-p", "3", "--games", "1", "--report", out))
    assert not out.exists()
