"""``forumlab games --options GAME`` lists a game's declared options, and each game's page
(docs/games/<game>.md) documents the same options in its Options table."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from forumlab.cli import main
from forumlab.core.options import game_options, option_rows
from forumlab.core.registry import game_names, get_game_class

GAMES = ["forma", "forum-romanum", "forum-trajanum", "foundations-of-rome"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def listed_options(game: str) -> dict[str, str]:
    """name -> the rest of its line(s), as ``games --options`` prints them."""
    result = CliRunner().invoke(main, ["games", "--options", game])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{game} options (forumlab play {game} -o KEY=VALUE):"
    options, last = {}, None
    for line in lines[1:]:
        match = re.match(r"^    (\w+)=(.*)$", line)
        if match:
            last = match.group(1)
            options[last] = match.group(2)
        else:  # a help text on a line of its own
            options[last] += " " + line.strip()
    return options


def documented_options(game: str) -> list[str]:
    """The option names in the first column of the Options table of the game's page."""
    text = (DOCS / f"{game}.md").read_text()
    section = text.split("\n## Options\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", section, flags=re.M)


@pytest.mark.parametrize("game", GAMES)
def test_the_listing_shows_every_declared_option_with_default_allowed_values_and_help(game):
    listed = listed_options(game)
    cls = get_game_class(game)
    assert list(listed) == list(game_options(cls))
    for name, default, allowed, help_text in option_rows(cls):
        assert listed[name].startswith(default + " ")
        assert allowed in listed[name] and help_text in listed[name]


def test_the_listing_says_ranges_and_choices():
    forma = listed_options("forma")
    assert "int in 2..4" in forma["players"]
    assert "random|none|list of up to 25 str" in forma["obstacles"]
    assert "choose|fixed" in listed_options("forum-trajanum")["setup"]
    assert "int in 0..1000000000" in listed_options("forum-romanum")["max_rounds"]


@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_documents_the_options_the_listing_shows(game):
    assert documented_options(game) == list(listed_options(game))


def test_an_unknown_game_is_one_error_line_and_exit_2():
    result = CliRunner().invoke(main, ["games", "--options", "chess"])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown game 'chess' (known: forma, forum-romanum")


def test_games_alone_lists_the_games_as_before():
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "forma                  2-4 players   perfect information"
    assert len(result.output.splitlines()) == len(game_names())


def test_a_bad_option_on_the_command_line_is_one_line_naming_it():
    result = CliRunner().invoke(main, ["play", "forma", "-o", "obstacles=many"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: forma: option obstacles must be one of random, none or a list of up to 25 squares (got 'many')"]
