"""The documentation: README.md stays a front door, every relative link resolves,
docs/agents.md is what its generator prints, and no page or comment reads like a work log."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
NOTEBOOK = DOCS / "notebook"

# [text](target) and [text](target "title"); images too (the leading ! is irrelevant).
LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def _markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def _without_code(text: str) -> str:
    """The text with fenced code blocks and inline code spans blanked (links there are not links)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`[^`\n]*`", "``", line))
    return "\n".join(out)


def _links(path: Path) -> list[str]:
    return LINK.findall(_without_code(path.read_text(encoding="utf-8")))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fenced or not m:
            continue
        slug = _slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def test_readme_is_a_front_door():
    lines = README.read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; the details belong in docs/"


def test_readme_keeps_the_quick_start_commands():
    text = README.read_text(encoding="utf-8")
    assert "pip install . && forumlab tournament" in text
    assert "python3 -m pip install -e '.[dev]' && python3 -m pytest" in text


@pytest.mark.parametrize("page", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    broken = []
    for target in _links(page):
        if re.match(r"^(https?:|mailto:)", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.is_relative_to(ROOT):
            broken.append(f"{target} (outside the repository)")
        elif not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target} (no heading with that anchor)")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_agents_page_is_the_generators_output():
    from forumlab.agents.docs import agents_markdown
    from forumlab.cli import main

    result = CliRunner().invoke(main, ["agents", "--markdown"])
    assert result.exit_code == 0, result.output
    assert result.output == agents_markdown()
    page = (DOCS / "agents.md").read_text(encoding="utf-8")
    assert page == result.output, "docs/agents.md is stale: run `forumlab agents --markdown > docs/agents.md`"


def test_agents_page_lists_every_agent_and_every_tuned_default():
    from forumlab.agents.docs import agents_markdown
    from forumlab.agents.registry import _BUILTIN, agent_params
    from forumlab.core.registry import game_names, get_game_class

    page = agents_markdown()
    for name in _BUILTIN:
        assert f"### {name}\n" in page
        for key in agent_params(name):
            assert f"| `{key}` |" in page, (name, key)
    for game in game_names():
        cls = get_game_class(game)
        tuned = [cls.mcts_defaults, *cls.mcts_defaults_by_players.values()]
        for key in {k for d in tuned for k in d}:
            assert f"`{key}=" in page, (game, key)


def _python_block(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert m, f"{path.relative_to(ROOT)} has no python example"
    return m.group(1)


def test_readme_example_prints_what_its_comments_say():
    code = _python_block(README)
    expected = [line.split("#", 1)[1].strip() for line in code.split("\n")
                if line.startswith("print(") and "#" in line]
    assert expected, "the README example's print lines carry their output as comments"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == expected


def test_api_page_shows_the_example_file_verbatim():
    example = (ROOT / "examples" / "api_example.py").read_text(encoding="utf-8")
    assert _python_block(DOCS / "api-and-interop.md") == example


# Work-log references: issue numbers, numbered sessions or rounds of work, "must-holds".
# Game terms stay legal: "round 3" of Forum Romanum, a draft round, a Dask or writing session.
_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
            r"twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|"
            r"nineteenth|twentieth|twenty-\w+|thirtieth|\d+(?:st|nd|rd|th))")
WORK_LOG = re.compile(
    r"\bissue[ -]?#?\d+"                                        # issue 9, issue-9, issue #9
    r"|\bthe issue(?:'s| asks| allows| requires| wants)"        # the must-holds
    r"|\bmust-holds?\b"
    rf"|\b{_ORDINAL}[ -]session\b|\bsession[ -]?#?\d+\b"        # the eighteenth session, session 18
    rf"|\b{_ORDINAL} round of (?:screens?|work|tuning|experiments)\b"
    r"|\bround \d+ (?:screens?|of (?:screens?|work|tuning))\b",  # round 3 screens
    re.IGNORECASE,
)


def _checked_files() -> list[Path]:
    files = [README]
    files += [p for p in sorted(DOCS.rglob("*")) if p.is_file() and NOTEBOOK not in p.parents]
    for top in ("forumlab", "benchmarks", "tests", "examples"):
        files += [p for p in sorted((ROOT / top).rglob("*"))
                  if p.is_file() and p.suffix in (".py", ".md", ".txt", ".toml", ".html")
                  and p != Path(__file__).resolve()]  # this file holds the patterns as data
    return files


def test_work_log_pattern_flags_work_log_and_spares_game_terms():
    for text in ("issue 9's must-holds", "the eighteenth session of the search notebook",
                 "round 3 screens", "(twenty-fifth session)", "see issue #12", "as the issue asks"):
        assert WORK_LOG.search(text), text
    for text in ("ply 12 completes round 3: the cap ends the game", "draft round 0-5",
                 "the versions of the session that recorded it", "numba issues #6061 and #6713",
                 "a Dask session", "after round 12 (no effect)"):
        assert not WORK_LOG.search(text), text


def test_no_work_log_references_outside_the_notebook():
    hits = []
    for path in _checked_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.split("\n"), 1):
            m = WORK_LOG.search(line)
            if m:
                hits.append(f"{path.relative_to(ROOT)}:{number}: {m.group(0)!r}")
    assert not hits, "work-log references (they belong in docs/notebook/):\n" + "\n".join(hits)
