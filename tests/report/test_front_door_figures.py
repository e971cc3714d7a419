"""Every text of a report's figures reads as a person would write it: tick labels are
plain numbers, never matplotlib's mathtext source (``$\\mathdefault{10^{1}}$``), which a
figure drawn with literal text (so that a ``$`` in an agent's name stays a dollar sign)
prints verbatim on a log axis unless the axis is given its own formatter."""
import base64
import re

from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.arena.store import ResultStore
from forumlab.cli import main

# Three agents whose moves took from 0.1 ms to 2 s: the time figure's log axis spans decades.
SECONDS = {"fast": (0.0001, 0.0002), "middle": (0.02, 0.05), "slow": (0.5, 2.0)}


def _store(path):
    labels = sorted(SECONDS)
    definition = TournamentDefinition(config={"players": 3}, seed=1,
                                      agents=tuple(PoolEntry(a, "random") for a in labels))
    seatings = [("fast", "middle", "slow"), ("middle", "slow", "fast"), ("slow", "fast", "middle")]
    with ResultStore.create(path, definition.to_json(), {}, synchronous="NORMAL") as store:
        for k, seats in enumerate(seatings * 2):
            ranks = [1 + (k + i) % 3 for i in range(3)]
            store.record(GameOutcome(
                key=f"G{k:03d}", group=f"G{k:03d}", lineup=0, rotation=0, seed=1 + k, labels=seats,
                specs=("random",) * 3, agent_seeds=(0, 0, 0), moves=[], scores=[10.0 - r for r in ranks],
                ranks=ranks, plies=30, termination=END_RULES,
                move_seconds=[10 * SECONDS[a][0] for a in seats], moves_made=[10, 10, 10],
                move_cpu_seconds=[10 * SECONDS[a][0] for a in seats],
                move_max_seconds=[SECONDS[a][1] for a in seats],
                move_max_cpu_seconds=[SECONDS[a][1] for a in seats]))
    return path


def _svg_texts(html_text):
    """The text elements of every SVG figure of a report, per figure id."""
    figures = {}
    for fig_id, data in re.findall(r'<figure id="([^"]+)">\s*<img[^>]*src="data:image/svg\+xml;base64,([^"]+)"',
                                   html_text):
        svg = base64.b64decode(data).decode("utf-8")
        figures[fig_id] = [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text\b.*?</text>", svg, re.S)]
    return figures


def test_no_figure_prints_mathtext_source(tmp_path):
    db = _store(tmp_path / "t.db")
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["report", str(db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    figures = _svg_texts(out.read_text(encoding="utf-8"))
    assert "fig-times-1" in figures, sorted(figures)
    for fig_id, texts in figures.items():
        raw = [t for t in texts if "mathdefault" in t or "$" in t]
        assert not raw, (fig_id, raw)
    # The log axis of the time per move reads in plain milliseconds: 0.1, 1, 10, 100, 1000.
    ticks = [t.strip() for t in figures["fig-times-1"]]
    assert {"0.1", "1", "10", "100", "1000"} <= set(ticks), ticks
