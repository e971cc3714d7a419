"""The rules for players: ``Game.rules_text``, ``forumlab rules GAME`` and the pages
``docs/games/<game>.md``.

Every page has the sections a first-time player needs, and every move example in its
``notation-examples`` blocks is replayed by the engine: a block line reads
``SEED PLAYERS [KEY=VALUE ...] | MOVE | MOVE ...`` and means that from ``new_state(SEED)``
of the game with that many players (and those options, values read as by ``-o``) the
moves are legal one after the other, and each is written as the engine writes it.
"""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.cli import main
from forumlab.core.errors import IllegalMoveError
from forumlab.core.options import parse_key_values
from forumlab.core.registry import create_game, game_names, get_game_class
from tests.cli.test_records_cli import assert_bad_input

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "games"
BUILT_IN = ["forum-romanum", "forma", "foundations-of-rome", "forum-trajanum"]
# Words every page's "## " headings must contain between them (case-insensitive).
SECTIONS = ["board", "setup", "turn", "scoring", "end", "notation", "options", "decisions"]
BLOCK = re.compile(r"^```notation-examples\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def example_lines(text: str) -> list[str]:
    """The example lines of a page's ``notation-examples`` blocks (comments and blanks out)."""
    lines = []
    for block in BLOCK.findall(text):
        lines += [ln.strip() for ln in block.splitlines()
                  if ln.strip() and not ln.strip().startswith("#")]
    return lines


def replay_example(game: str, line: str) -> None:
    """Replay one example line; raise (IllegalMoveError, AssertionError, ...) if it is wrong."""
    head, *moves = (part.strip() for part in line.split("|"))
    seed, players, *options = head.split()
    config = {**parse_key_values(options), "players": int(players)}
    state = create_game(game, config).new_state(int(seed))
    assert moves and all(moves), f"no moves, or an empty one, in {line!r}"
    for ply, text in enumerate(moves, start=1):
        move = state.parse(text)  # IllegalMoveError if malformed or not legal here
        written = state.game.format_move(state.array, move)
        assert written == text, f"ply {ply}: the engine writes {text!r} as {written!r}"
        state.play(move)


def page(game: str) -> str:
    path = DOCS / f"{game}.md"
    assert path.is_file(), f"{path} is missing"
    return path.read_text(encoding="utf-8")


# ---------------------------------------------------------------- short rules
@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_has_short_rules_naming_it(name):
    game = create_game(name, {})
    text = game.rules_text()
    assert text.strip()
    assert name in text
    if name in BUILT_IN:  # the bundled texts fit a terminal
        lines = text.splitlines()
        assert len(lines) <= 45, len(lines)
        assert max(map(len, lines)) <= 80
        assert f"docs/games/{name}.md" in text
        assert f"forumlab play {name}" in text


def test_a_game_without_a_rules_module_points_to_its_docs():
    cls = get_game_class("forma")
    stranger = type("Stranger", (cls,), {"__module__": "no_such_package.game", "name": "stranger"})
    text = stranger(players=2).rules_text()
    assert len(text.strip().splitlines()) == 1
    assert "stranger" in text and "docs/games/stranger.md" in text


# ---------------------------------------------------------------- the command
def test_rules_command_prints_the_short_rules_and_the_page():
    result = CliRunner().invoke(main, ["rules", "forma"])
    assert result.exit_code == 0, (result.output, result.exception)
    assert create_game("forma", {}).rules_text().strip() in result.output
    assert "docs/games/forma.md" in result.output


def test_rules_command_rejects_an_unknown_game():
    result = CliRunner().invoke(main, ["rules", "no-such-game"])
    assert_bad_input(result, "no-such-game")


# ---------------------------------------------------------------- the pages
@pytest.mark.parametrize("game", BUILT_IN)
def test_page_has_every_section(game):
    headings = " ".join(re.findall(r"^## (.+)$", page(game), re.M)).lower()
    missing = [word for word in SECTIONS if word not in headings]
    assert not missing, f"docs/games/{game}.md lacks sections on {missing}"
    assert "decisions where the rules are silent" in headings
    text = page(game)
    assert f"forumlab rules {game}" in text and f"forumlab play {game}" in text


@pytest.mark.parametrize("game", BUILT_IN)
def test_page_links_resolve_inside_the_repository(game):
    for target in LINK.findall(page(game)):
        if "://" in target:
            continue
        resolved = (DOCS / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), target


@pytest.mark.parametrize("game", BUILT_IN)
def test_page_notation_examples_replay(game):
    lines = example_lines(page(game))
    assert len(lines) >= 2, f"docs/games/{game}.md has too few notation examples"
    for line in lines:
        replay_example(game, line)


def test_a_wrong_example_fails():
    replay_example("forum-romanum", "0 3 | d4 | e5")
    with pytest.raises(IllegalMoveError):  # d4 is taken
        replay_example("forum-romanum", "0 3 | d4 | d4")
    with pytest.raises(AssertionError):  # legal, but the engine writes 1:e5
        replay_example("forum-romanum", "0 2 | 0:d4 | e5")
    text = "```notation-examples\n# a comment\n0 3 | d4\n\n1 3 | a1 | b2\n```\n"
    assert example_lines(text) == ["0 3 | d4", "1 3 | a1 | b2"]
