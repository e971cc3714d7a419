"""What a person sees in an HTML report: a readable title, head-to-head counts, time per
move, the definition as tables, several files and ``--merge``, and a balance report whose
figures all show something (per-seat scores and score sources, no one-agent ratings plot
and no 1x1 heatmap).
"""
import html
import re

import pytest
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.arena.store import ResultStore
from forumlab.cli import main
from forumlab.report import section_from_store
from forumlab.report.data import game_title

from .test_report import figure_ids, parse_report


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def store(path, games, seed=1, specs=None, config=None):
    """A results file of hand-made 3-player games ``(labels, ranks)`` (no engine runs)."""
    labels = sorted({a for seat_labels, _ in games for a in seat_labels})
    specs = specs or {a: "random" for a in labels}
    definition = TournamentDefinition(config=config or {"players": 3}, seed=seed,
                                      agents=tuple(PoolEntry(a, specs[a]) for a in labels))
    with ResultStore.create(path, definition.to_json(), {}, synchronous="NORMAL") as s:
        for k, (seat_labels, ranks) in enumerate(games):
            s.record(GameOutcome(key=f"G{k:03d}", group=f"G{k:03d}", lineup=0, rotation=0, seed=seed + k,
                                 labels=tuple(seat_labels), specs=tuple(specs[a] for a in seat_labels),
                                 agent_seeds=(0, 0, 0), moves=[], scores=[10.0 - r for r in ranks],
                                 ranks=list(ranks), plies=30, termination=END_RULES,
                                 move_seconds=[0.3, 0.6, 0.9], moves_made=[10, 10, 10]))
    return path


# A ahead of B and C in the first game; B and C share the win of the second.
HAND = [(("A", "B", "C"), (1, 2, 3)), (("B", "C", "A"), (1, 1, 3))]


def text_of(path):
    return html.unescape(path.read_text(encoding="utf-8"))


def test_title_is_readable(tmp_path):
    db = store(tmp_path / "t.db", HAND * 3)
    out = tmp_path / "r.html"
    result = run("report", db, "-o", out)
    assert result.exit_code == 0, result.output
    text = text_of(out)
    title = "Forum Romanum, 3 players \u2014 6 games, 3 agents"
    assert f"<title>{title}</title>" in text and f"<h1>{title}</h1>" in text
    assert "{'players'" not in text
    assert game_title({"game": "foundations-of-rome", "config": {"players": 4, "max_rounds": 5}}) \
        == "Foundations of Rome, 4 players, max rounds 5"


def test_head_to_head_counts_by_hand(tmp_path):
    db = store(tmp_path / "t.db", HAND)
    section = section_from_store(str(db))
    counts = {frozenset((a, b)): (a, games, a_ahead, b_ahead, a_wins, b_wins)
              for a, b, games, a_ahead, b_ahead, a_wins, b_wins in section.pair_counts()}

    def seen_from(x, y):
        first, games, fa, fb, wa, wb = counts[frozenset((x, y))]
        return (games, fa, fb, wa, wb) if first == x else (games, fb, fa, wb, wa)

    assert seen_from("A", "B") == (2, 1.0, 1.0, 1.0, 0.5)
    assert seen_from("A", "C") == (2, 1.0, 1.0, 1.0, 0.5)
    assert seen_from("B", "C") == (2, 1.5, 0.5, 0.5, 0.5)  # level in the second game: 1/2 each
    out = tmp_path / "r.html"
    assert run("report", db, "-o", out).exit_code == 0
    text = text_of(out)
    assert 'id="h2h-1"' in text and "Games together" in text
    b_c = re.search(r"<tr><td>B</td><td class=\"text\">C</td>(.*?)</tr>", text) \
        or re.search(r"<tr><td>C</td><td class=\"text\">B</td>(.*?)</tr>", text)
    assert b_c is not None


def test_time_per_move_and_definition_tables(tmp_path):
    db = store(tmp_path / "t.db", HAND * 2)
    out = tmp_path / "r.html"
    assert run("report", db, "-o", out).exit_code == 0
    text = text_of(out)
    # Seats 0, 1, 2 took 30, 60, 90 ms a move. A sat in seats 0 and 2: 60 ms on average, 90
    # in its slower game; B in seats 1 and 0: 45 and 60.
    assert 'id="times-1"' in text and "Wall mean ms" in text and "CPU time was not recorded" in text
    times = text[text.index('id="times-1"'):text.index('id="seats-1"')]
    assert "<tr><td>A</td><td>40</td><td>60</td><td>~90</td><td>-</td><td>-</td>" in times
    assert "<tr><td>B</td><td>40</td><td>45</td><td>~60</td><td>-</td><td>-</td>" in times
    assert "<pre>" not in text  # the definition is a table, not raw JSON
    assert "<td>games_per_lineup</td>" in text and ">Agent spec</th>" in text


def test_report_merge_and_several_files(tmp_path):
    a = store(tmp_path / "a.db", HAND * 2, seed=1)
    b = store(tmp_path / "b.db", HAND * 2, seed=2)
    out = tmp_path / "r.html"
    result = run("report", a, b, "-o", out, "--merge", "BC=B,C")
    assert result.exit_code == 0, result.output
    text = text_of(out)
    assert "8 games, 2 agents" in text and "Labels rated as one agent: BC=B,C" in text
    assert "a.db" in text and "b.db" in text
    # Bad merges and incompatible files: one line, exit 2, no report.
    bad = run("report", a, "-o", out.with_name("x.html"), "--merge", "BC=B,Z")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1
    other = store(tmp_path / "c.db", HAND, seed=3, specs={"A": "greedy", "B": "random", "C": "random"})
    bad = run("report", a, other, "-o", out.with_name("y.html"))
    assert bad.exit_code == 2 and "same agent spec" in bad.stderr
    assert not out.with_name("x.html").exists() and not out.with_name("y.html").exists()


def test_ratings_figure_caption_tells_how_to_read_the_bars(tmp_path):
    db = store(tmp_path / "t.db", HAND * 3)
    out = tmp_path / "r.html"
    assert run("report", db, "-o", out).exit_code == 0
    tags, ids = parse_report(out)
    assert "fig-ratings-1" in figure_ids(tags)
    text = text_of(out)
    assert "comparison intervals" in text and "Firth & de Menezes 2004" in text and "LOS next" in text


@pytest.mark.parametrize("game, sources", [("forum-romanum", True), ("forum-trajanum", False)])
def test_a_tournament_report_shows_score_sources_where_they_replay_in_a_batch(tmp_path, game, sources):
    # Forum Romanum's sources replay in one compiled batch, so `forumlab report` shows them
    # for any results file; other games replay move by move, only when a balance run asks.
    db = tmp_path / "t.db"
    played = run("balance", game, "-p", "3", "--agent", "random", "--games", "3", "-q", "--workers", "1",
                 "--db", db)
    assert played.exit_code == 0, played.output
    out = tmp_path / "r.html"
    assert run("report", db, "-o", out).exit_code == 0
    tags, _ = parse_report(out)
    assert ("fig-score-sources-1" in figure_ids(tags)) == sources
    if sources:
        table = text_of(out).split('id="fig-score-sources-1"', 1)[1]
        assert all(f"<th>{source}</th>" in table for source in
                   ("rows", "columns", "diagonals", "sections", "deadlocks", "total"))


def test_a_tournament_whose_moves_do_not_replay_is_reported_without_score_sources(tmp_path):
    db = tmp_path / "t.db"
    with ResultStore.create(db, TournamentDefinition(config={"players": 3}, seed=1, agents=(
            PoolEntry("A", "random"),)).to_json(), {}) as s:
        s.record(GameOutcome(key="G0", group="G0", lineup=0, rotation=0, seed=1, labels=("A",) * 3,
                             specs=("random",) * 3, agent_seeds=(0, 0, 0), moves=["a1", "a1"],
                             scores=[0, 0, 0], ranks=[1, 1, 1], plies=2, termination=END_RULES))
    out = tmp_path / "r.html"
    result = run("report", db, "-o", out)
    assert result.exit_code == 0, result.output
    assert "fig-score-sources-1" not in figure_ids(parse_report(out)[0])


@pytest.mark.parametrize("game", ["forum-romanum", "forum-trajanum"])
def test_balance_report_has_per_seat_figures_and_no_empty_ones(tmp_path, game):
    out = tmp_path / "b.html"
    result = run("balance", game, "-p", "2", "--agent", "random", "--games", "2", "-q", "--workers", "1",
                 "--report", out)
    assert result.exit_code == 0, result.output
    tags, ids = parse_report(out)
    figs = figure_ids(tags)
    assert {"fig-seats-1", "fig-seat-scores-1", "fig-lengths-1"} <= figs
    # Nothing compares the one agent with itself: no ratings plot, no 1x1 heatmap, no lone box.
    assert not figs & {"fig-ratings-1", "fig-superiority-1", "fig-scores-1", "fig-times-1"}
    assert "fig-score-sources-1" in figs
    text = text_of(out)
    assert "self-play of random" in text and "forumlab-balance-" not in text  # no deleted temp file named
    # The seats come first.
    assert text.index('id="seats-1"') < text.index('id="ratings-1"')
    # Every figure holds an image.
    figure_tags = [attrs["id"] for tag, attrs in tags if tag == "figure"]
    assert set(figure_tags) == figs
