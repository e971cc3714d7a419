"""Agents are handed only ``State.view_for(seat)``, never the true state.

Every path that plays games (``play_match``, the arena's runner, ``forumlab play``) must
give the agent to move a view determinized from its own seat, so that in a
hidden-information game nothing hidden from that seat reaches it.
"""
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.agents.base import Agent
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.match import play_match
from forumlab.arena.runner import run_job
from forumlab.arena.schedule import plan
from forumlab.cli import main
from forumlab.core.game import State
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng

VIEWS: list[tuple[int, State]] = []  # (seat, view) for every view handed out
HANDED: list[tuple[int, State]] = []  # (seat to move, state) for every state an agent got


class ViewSpy(Agent):
    """Plays the first legal move and remembers the state object it was handed."""

    name = "viewspy"

    def choose(self, state):
        HANDED.append((state.current_player, state))
        return int(state.legal_moves()[0])


@pytest.fixture
def spy_views(monkeypatch):
    """Record every view ``State.view_for`` returns (kept alive, so ids stay unique)."""
    original = State.view_for

    def recording(self, seat, rng):
        view = original(self, seat, rng)
        VIEWS.append((seat, view))
        return view

    VIEWS.clear()
    HANDED.clear()
    monkeypatch.setattr(State, "view_for", recording)
    yield
    VIEWS.clear()
    HANDED.clear()


def assert_only_own_views_were_handed():
    assert HANDED, "the spy agent never moved"
    views = {id(view): seat for seat, view in VIEWS}
    for seat, state in HANDED:
        assert id(state) in views, "an agent was handed a state that is not a view"
        assert views[id(state)] == seat, "an agent was handed another seat's view"


def test_play_match_hands_each_agent_its_own_view(spy_views):
    game = create_game("forum-romanum", players=3)
    play_match(game, [ViewSpy(seed=s) for s in range(3)], seed=4)
    assert_only_own_views_were_handed()


def test_the_arena_runner_hands_each_agent_its_own_view(spy_views):
    spec = "tests.agents.test_agent_views:ViewSpy"
    d = TournamentDefinition(game="forum-romanum", config={"players": 3},
                             agents=(PoolEntry("a", spec), PoolEntry("b", spec), PoolEntry("c", spec)))
    outcome = run_job(plan(d)[0])
    assert not outcome.faults
    assert_only_own_views_were_handed()


def test_forumlab_play_hands_each_agent_its_own_view(spy_views, monkeypatch):
    # in this process, where the spy's notes can be read (play would run a third-party
    # agent in a process of its own, handing it the same view)
    monkeypatch.setattr("forumlab.agents.process.is_third_party", lambda spec: False)
    spec = "tests.agents.test_agent_views:ViewSpy"
    result = CliRunner().invoke(main, ["play", "forum-romanum", "--seed", "3", "-a", ",".join([spec] * 3)])
    assert result.exit_code == 0, result.output
    assert_only_own_views_were_handed()


def test_view_resamples_from_the_seat_and_hides_history_in_hidden_information_games():
    game = create_game("forum-romanum", players=3)
    calls = []

    def determinize(array, observer, rng):  # stands in for a hidden-information game's kernel
        calls.append(observer)
        array[-1] = 12345

    game.kernels = replace(game.kernels, determinize=determinize)
    game.perfect_information = False
    state = game.new_state(1)
    state.play(int(state.legal_moves()[0]))
    before = state.array.copy()
    view = state.view_for(2, make_rng(0))
    assert calls == [2]
    assert view.array[-1] == 12345 and np.array_equal(state.array, before)
    assert view.history == [] and len(state.history) == 1
