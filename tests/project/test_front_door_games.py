"""Each game's page for players, docs/games/<game>.md, is complete (the board with a
diagram, setup, a turn, scoring, the end, the notation with examples, the options and the
decisions where the rules are silent) and is linked from the engine: its package, its
facade module and the Game class (what ``help(game)`` shows) name the page."""
import importlib
import re
from pathlib import Path

import pytest

from forumlab.core.registry import game_names, get_game_class

ROOT = Path(__file__).resolve().parents[2]
# The shipped engines (tests may register toy games of their own).
GAMES = [n for n in game_names() if get_game_class(n).__module__.startswith("forumlab.engines.")]

# Heading (case-insensitive) that each part of a page starts with.
PARTS = {"board": r"the boards?\b", "setup": r"setup", "turn": r"(a turn|a round)", "scoring": r"scoring",
         "end": r"the end of the game", "notation": r"move notation", "options": r"options",
         "decisions": r"decisions where the rules are silent"}


def _sections(text: str) -> dict[str, str]:
    """Level-2 heading -> its text, up to the next level-2 heading."""
    parts = re.split(r"^## +(.*)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


@pytest.mark.parametrize("name", GAMES)
def test_the_players_page_has_every_part(name):
    page = ROOT / "docs" / "games" / f"{name}.md"
    assert page.exists(), f"{page.relative_to(ROOT)} is missing"
    sections = _sections(page.read_text(encoding="utf-8"))
    for part, pattern in PARTS.items():
        found = [h for h in sections if re.match(pattern, h, re.I)]
        assert found, f"{page.name}: no section on {part} (headings: {list(sections)})"
        if part in ("board", "notation"):
            # A diagram of the board and its scoring regions; examples of the notation.
            assert "```" in sections[found[0]], f"{page.name}: the {part} section has no diagram or example"


@pytest.mark.parametrize("name", GAMES)
def test_the_engine_links_the_players_page(name):
    cls = get_game_class(name)
    link = f"docs/games/{name}.md"
    module = importlib.import_module(cls.__module__)
    package = importlib.import_module(cls.__module__.rsplit(".", 1)[0])
    for what, doc in (("the Game class", cls.__doc__), ("the facade module", module.__doc__),
                      ("the engine package", package.__doc__)):
        assert link in (doc or ""), f"{what} of {name} does not name {link}"


# An Elo figure with its interval ("+167 [+58, +276]"), a win rate or a game count with its seed:
# the marks of an experiment's result, which belong in docs/results.md and docs/notebook/.
EXPERIMENT = re.compile(r"[+-]\d+ \[[+-]?\d+, [+-]?\d+\]|\bElo\b|\bwin rate\b|\d+ games\b|\bseeds? \d+")


@pytest.mark.parametrize("name", GAMES)
def test_the_game_class_holds_no_experiment_history(name):
    """The game's facade (where its tuned ``mcts`` defaults are declared) says where the
    figures are, and holds none of them."""
    path = Path(importlib.import_module(get_game_class(name).__module__).__file__)
    hits = [f"{path.name}:{n}: {line.strip()}" for n, line in enumerate(path.read_text().split("\n"), 1)
            if EXPERIMENT.search(line)]
    assert not hits, "experiment results in the game class (they belong in docs/results.md):\n" + "\n".join(hits)
