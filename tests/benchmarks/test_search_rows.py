"""The rows of benchmarks.search do what their labels say."""
import json

from benchmarks import search
from forumlab.core.registry import create_game


def test_full_random_rollout_row_rolls_out_to_the_end_in_three_player_forum_romanum():
    # The game's tuned 3-player cutoff (3) must not leak into the row meant to roll out to the end.
    state = create_game("forum-romanum", players=3).new_state(0)
    settings = search.mcts_settings("mcts(iterations={n}, rollout=random, cutoff=0)", state)
    assert settings["rollout"] == "random" and settings["cutoff"] == 0
    full_row = [s for s in search.MCTS_SPECS if "rollout=random" in s and "cutoff=20" not in s]
    assert [search.mcts_settings(s, state)["cutoff"] for s in full_row] == [0]


def test_every_row_prints_its_full_settings_without_the_budget():
    state = create_game("forum-romanum", players=3).new_state(0)
    settings = search.mcts_settings(search.MCTS_SPECS[0], state)
    assert settings["rollout"] == "sample" and settings["cutoff"] == 3 and settings["reward"] == "rank"
    assert "iterations" not in settings and "c" in settings
    json.dumps(settings)
