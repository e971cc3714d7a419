"""forumlab.interop.pettingzoo: every registered game as a PettingZoo AEC environment."""
import contextlib
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed (pip install '.[pettingzoo]')")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from forumlab.core.errors import ConfigError, IllegalMoveError  # noqa: E402
from forumlab.core.registry import create_game, game_names  # noqa: E402
from forumlab.interop.pettingzoo import env  # noqa: E402
from tests import toy_goofspiel  # noqa: E402


@pytest.mark.parametrize("name", [*game_names(), toy_goofspiel.NAME])
def test_api_test_passes(name):
    with toy_goofspiel.registered() if name == toy_goofspiel.NAME else contextlib.nullcontext():
        with warnings.catch_warnings():
            # PettingZoo warns about every dict observation (action masks need one)
            warnings.simplefilter("ignore", UserWarning)
            api_test(env(name, players=2, render_mode="ansi"), num_cycles=1000)


def test_seed_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda: env("forum-romanum", players=3), num_cycles=20)


def _play_out(e, seed):
    """Play masked uniform random actions to the end; the observations seen and the rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen, rewards = [], {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        rewards[agent] += reward
        seen.append(obs["observation"].copy())
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen, rewards


def test_a_seeded_reset_replays_the_game_and_the_rewards_are_the_returns():
    e = env("foundations-of-rome", players=3)
    first, rewards = _play_out(e, 5)
    again, _ = _play_out(e, 5)
    assert len(first) == len(again) and all(np.array_equal(a, b) for a, b in zip(first, again))
    assert list(rewards.values()) == e.unwrapped.state.returns()
    assert sorted(rewards.values()) in ([-1.0, 0.0, 1.0], [-1.0, 0.5, 0.5], [-0.5, -0.5, 1.0], [0.0, 0.0, 0.0])
    other, _ = _play_out(e, 6)
    assert not (len(other) == len(first) and all(np.array_equal(a, b) for a, b in zip(first, other)))


def test_observations_are_the_seats_view_and_the_mask_is_the_movers():
    e = env("forum-trajanum", players=3)
    e.reset(seed=2)
    state = e.unwrapped.state
    mover = state.current_player
    for seat, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], state.observation(seat))
        assert obs["action_mask"].sum() == (len(state.legal_moves()) if seat == mover else 0)


def test_render_ansi_is_the_board_and_an_illegal_action_is_refused():
    e = env(create_game("forum-romanum", players=2), render_mode="ansi")
    e.reset(seed=0)
    assert e.render() == e.unwrapped.state.render()
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match="not legal"):
        e.step(illegal)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    for wrong in (None, legal + 0.5):  # not an action: refused, not truncated to one
        with pytest.raises(IllegalMoveError, match="is not in 0"):
            e.step(wrong)
    assert e.unwrapped.state.history == []
    e.step(np.int64(legal))
    assert len(e.unwrapped.state.history) == 1
    with pytest.raises(ConfigError, match="render_mode"):
        env("forma", render_mode="rgb_array")
