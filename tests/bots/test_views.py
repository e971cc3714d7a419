"""Each game's bot view (forumlab-bot/1): plain JSON, exactly the keys its page documents
in "Bot view (forumlab-bot/1)", and, in hidden-information games, the same for every
determinization of one true state (so a bot learns nothing its seat cannot see)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forumlab.api import load_game
from forumlab.bots.view import bot_view
from forumlab.core.rng import make_rng

from .helpers import SHORT_CONFIGS

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Bot view (forumlab-bot/1)"
# A schema row: | `key` | type | meaning |, nested keys written `outer.inner` or `outer[].inner`.
ROW = re.compile(r"^\|\s*`([A-Za-z_][\w.\[\]]*)`\s*\|")

GAMES = ["forum-romanum", "forma", "foundations-of-rome", "forum-trajanum"]
# Configs played besides the short game of each: every module with hidden parts.
MORE_CONFIGS = {
    "foundations-of-rome": [{"players": 3, "draft": True, "max_turns": 12,
                             "modules": ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]},
                            {"players": 2, "consul": True, "draft": True, "max_turns": 12}],
    "forum-trajanum": [{"players": 3}],
}
HIDDEN = [name for name in GAMES if name in ("foundations-of-rome", "forum-trajanum")]


def documented_keys(name: str) -> dict[str, list[str]]:
    """The schema table of a game's page: top-level keys under "", nested ones under their
    parent path (``colours[]`` for the items of a list, ``score`` for a dict)."""
    text = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    assert SECTION in text, f"docs/games/{name}.md has no '{SECTION}' section"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    keys: dict[str, list[str]] = {}
    for line in section.split("\n"):
        m = ROW.match(line)
        if m:
            parent, _, leaf = m.group(1).rpartition(".")
            keys.setdefault(parent, []).append(leaf)
    return keys


def _nested(view: dict, path: str) -> list[dict]:
    """The dicts found at a documented parent path (``a[].b`` walks every item of list ``a``)."""
    found = [view]
    for part in path.split("."):
        items = []
        for obj in found:
            value = obj[part.removesuffix("[]")]
            items.extend(value if part.endswith("[]") else [value])
        found = items
    return found


def check_against_docs(view: dict, schema: dict[str, list[str]]) -> None:
    """``view`` has exactly the documented keys, in the documented order, at every level."""
    assert list(view) == schema[""]
    for path, keys in schema.items():
        if path:
            for obj in _nested(view, path):
                assert list(obj) == keys, path


def _views_along_random_games(name: str, seeds=(1, 2), max_plies: int = 60):
    """(state, seat) for every seat at every ply of random games of each config."""
    for config in [SHORT_CONFIGS[name], *MORE_CONFIGS.get(name, [])]:
        yield from _views_along(load_game(name, **config), seeds, max_plies)


def _views_along(game, seeds, max_plies):
    for seed in seeds:
        state, rng = game.new_state(seed), make_rng(seed + 100)
        while True:
            for seat in range(game.players):
                yield state, seat
            if state.is_terminal or state._ply() >= max_plies:
                break
            state.play(int(game.kernels.random_move(state.array, rng)))


@pytest.mark.parametrize("name", GAMES)
def test_views_are_plain_json_with_the_documented_keys(name):
    schema = documented_keys(name)
    for state, seat in _views_along_random_games(name):
        view = bot_view(state.view_for(seat), seat)
        assert json.loads(json.dumps(view)) == view
        check_against_docs(view, schema)
        assert view["to_move"] == state.current_player


# The position of each page's example: (config, seed, plies, seat), as the page says.
EXAMPLES = {
    "forum-romanum": ({"players": 2}, 1, ["0:d4", "d5", "2:c3", "e5", "1:a1"], 0),
    "forma": ({"players": 2}, 1, ["I1/0@a1", "I1/0@b1", "I1/0@c1"], 1),
    "foundations-of-rome": ({"players": 2, "modules": ["objectives"], "draft": True}, 1,
                            ["K:e2", "K:b5", "K:g4"], 1),
    "forum-trajanum": ({"players": 2, "intro": True, "setup": "fixed"}, 1,
                       ["take a1 e1", "keep a1", "take a1 e1"], 1),
}


@pytest.mark.parametrize("name", GAMES)
def test_the_documented_example_is_what_the_code_sends(name):
    text = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    example = re.search(r"```json\n(.*?)\n```", section, re.S)
    assert example, "the section shows one example view"
    config, seed, plies, seat = EXAMPLES[name]
    state = load_game(name, **config).new_state(seed)
    for ply in plies:
        state.play(ply)
    assert json.loads(example.group(1)) == bot_view(state.view_for(seat), seat)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seat_is_shown_the_same_view_whatever_the_hidden_truth(name):
    differs = 0
    for state, seat in _views_along_random_games(name, seeds=(3,)):
        one, other = state.view_for(seat, make_rng(1)), state.view_for(seat, make_rng(2))
        differs += int((one.array != other.array).any())
        assert json.dumps(bot_view(one, seat)) == json.dumps(bot_view(other, seat))
        # another truth the seat cannot tell from this one: its view is the same too
        alt = state.copy()
        state.game.kernels.determinize(alt.array, seat, make_rng(3))
        assert json.dumps(bot_view(alt.view_for(seat), seat)) == json.dumps(bot_view(one, seat))
    assert differs, "the views compared must differ in their hidden parts"
