"""What a search written in Python reads from a State: legality without a move list
(``is_legal``), ``child``, ``heuristic``, views that know their seat, and the warning
an agent gets when it is handed a hidden-information game's true state.

``is_legal`` must answer exactly ``move in state.legal_moves()``: checked for every
legal move and many illegal codes (random ones, codes legal in other positions, their
neighbours) in positions of random games of every game, through the facade and
through the protocol function that numba code calls.
"""
import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import forumlab
from forumlab.agents.base import Agent, HiddenStateWarning
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.match import play_match
from forumlab.arena.runner import run_job
from forumlab.arena.schedule import plan
from forumlab.core import dispatch
from forumlab.core.errors import GameOverError, IllegalMoveError
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng

ROOT = Path(__file__).resolve().parents[2]

GAMES = [("forum-romanum", 3), ("forma", 2), ("forma", 4), ("foundations-of-rome", 2),
         ("foundations-of-rome", 3), ("forum-trajanum", 3)]


def sampled_positions(game, seed, every):
    """Copies of the positions of a random game (moves drawn by Python's random), every
    ``every``-th ply plus the end."""
    state = game.new_state(seed)
    chooser = random.Random(seed)
    positions = []
    while not state.is_terminal:
        if len(state.history) % every == 0:
            positions.append(state.copy())
        legal = state.legal_moves()
        state.play(int(legal[chooser.randrange(len(legal))]))
    positions.append(state.copy())
    return positions


@njit
def _stub_answers(tag, s, codes):
    """``dispatch.is_legal`` as generic numba code calls it, for each code."""
    out = np.zeros(codes.shape[0], dtype=np.bool_)
    for i in range(codes.shape[0]):
        out[i] = dispatch.is_legal(tag, s, codes[i])
    return out


@pytest.mark.parametrize("name,players", GAMES)
def test_is_legal_is_exactly_membership_in_the_legal_moves(name, players):
    game = create_game(name, {"players": players})
    every = 6 if name == "forma" else 3
    positions = [p for seed in (1, 2) for p in sampled_positions(game, seed, every)]
    seen = sorted({int(m) for p in positions for m in p.legal_moves()})
    top = max(seen) + 2
    chooser = random.Random(7)
    for state in positions:
        legal = state.legal_moves()
        members = set(legal.tolist())
        before = state.array.copy()
        assert all(state.is_legal(m) for m in legal)
        assert all(state.is_legal(int(m)) for m in legal)
        others = chooser.sample(seen, min(400, len(seen)))  # codes legal somewhere else
        near = [m + d for m in chooser.sample(sorted(members), min(50, len(members))) for d in (-1, 1)]
        codes = others + near + [chooser.randrange(-5, top) for _ in range(400)] + [-1, top, 2**62]
        for code in codes:
            assert state.is_legal(code) == (code in members), (state, code)
        assert np.array_equal(state.array, before), "is_legal changed the state"
        probe = np.array(list(legal) + codes, dtype=np.int64)
        via_numba = _stub_answers(game.kernels.tag, state.array, probe)
        assert via_numba.tolist() == [int(c) in members for c in probe]


def test_a_game_without_is_legal_gets_the_scanning_stand_ins():
    """The toy game's kernel module has no ``is_legal``: the facade scans its legal
    moves, and numba code gets ``legal_by_scan`` bound to the game's tag."""
    from tests.toy_goofspiel import kernels as toy_kernels
    from tests.toy_goofspiel.game import ToyGoofspiel

    assert not hasattr(toy_kernels, "is_legal")
    game = ToyGoofspiel(players=3, cards=5)
    assert game.kernels.is_legal.__qualname__.startswith("_scan_for")
    for state in sampled_positions(game, 3, 1):
        members = set(state.legal_moves().tolist())
        codes = list(range(-2, 9)) + [2**40]
        assert [state.is_legal(c) for c in codes] == [c in members for c in codes]
        assert [bool(dispatch.is_legal(game.kernels.tag, state.array, c)) for c in codes] == \
            [c in members for c in codes]
        probe = np.array(codes, dtype=np.int64)
        assert _stub_answers(game.kernels.tag, state.array, probe).tolist() == [c in members for c in codes]


def test_forma_is_legal_checks_every_placement_code():
    """Every code that names a placement, in several positions of a 4-player game:
    including shapes the mover has used up and placements that overlap the board."""
    from forumlab.engines.forma import kernels
    from forumlab.engines.forma.data import PASS, PL_CODE

    game = create_game("forma", {"players": 4})
    codes = np.concatenate([PL_CODE, [PASS, PASS + 1, -PASS]])
    for state in sampled_positions(game, 5, 12):
        members = set(state.legal_moves().tolist())
        answers = [bool(kernels.is_legal(state.array, c)) for c in codes]
        assert answers == [int(c) in members for c in codes]


GARBAGE = [-1, 2**63, 2**70, -(2**70), 1.0, 0.5, True, False, None, "", [0], np.float64(0.0)]


@pytest.mark.parametrize("name", ["forum-romanum", "forma"])
def test_garbage_codes_are_refused_not_truncated(name):
    game = create_game(name, {"players": 2})
    state = game.new_state(3)
    code = int(state.legal_moves()[0])
    before = state.array.copy()
    for move in [*GARBAGE, code + 0.9, float(code), np.float64(code) + 0.9]:
        assert not state.is_legal(move), move
        if isinstance(move, str):
            continue  # text is notation; play('') is the notation check's business
        with pytest.raises(IllegalMoveError):
            state.play(move)
        with pytest.raises(IllegalMoveError):
            state.child(move)
    assert np.array_equal(state.array, before) and state.history == []
    assert state.is_legal(np.int32(code)) and state.is_legal(np.int64(code))


def test_is_legal_after_the_end_and_play_of_a_finished_game():
    game = create_game("forma", {"players": 2})
    state = sampled_positions(game, 4, 1000)[-1]
    assert state.is_terminal
    for code in range(0, 67201, 400):
        assert not state.is_legal(code)
    with pytest.raises(GameOverError):
        state.play(0)


@pytest.mark.parametrize("name,players", GAMES)
def test_child_is_copy_and_play_and_leaves_the_state_alone(name, players):
    game = create_game(name, {"players": players})
    state = game.new_state(2)
    state.play(int(state.legal_moves()[0]))
    before, history = state.array.copy(), list(state.history)
    move = state.legal_moves()[-1]
    child = state.child(move)
    expected = state.copy().play(int(move))
    assert np.array_equal(child.array, expected.array) and child.history == expected.history
    assert np.array_equal(state.array, before) and state.history == history
    assert child.history[-1] == int(move) and type(child.history[-1]) is int
    child.undo()
    assert np.array_equal(child.array, before)
    text = game.format_move(state.array, int(move))
    assert np.array_equal(state.child(text).array, child.child(text).array)


@pytest.mark.parametrize("name,players", GAMES)
def test_heuristic_is_the_games_kernel(name, players):
    game = create_game(name, {"players": players})
    state = game.new_state(6)
    for _ in range(3):
        state.play(int(state.legal_moves()[-1]))
    for seat in range(players):
        value = state.heuristic(seat)
        assert type(value) is float
        assert value == float(game.kernels.heuristic(state.array, seat))
        assert state.heuristic(np.int64(seat)) == value
    for bad in (-1, players, True, 0.0, "0", None):
        with pytest.raises(ValueError):
            state.heuristic(bad)


@pytest.mark.parametrize("name,players", GAMES)
def test_view_for_without_rng_is_reproducible_and_knows_its_seat(name, players):
    game = create_game(name, {"players": players})
    state = game.new_state(8)
    for _ in range(4):
        state.play(int(state.legal_moves()[0]))
    assert state.viewer is None
    for seat in range(players):
        view = state.view_for(seat)
        again = state.view_for(seat)
        assert view.viewer == seat and again.viewer == seat
        assert np.array_equal(view.array, again.array)
        assert view.copy().viewer == seat and view.clone().viewer == seat
        assert view.child(int(view.legal_moves()[0])).viewer == seat
        assert game.observation(view.array, seat).tolist() == game.observation(state.array, seat).tolist()
        # An explicit stream still draws different determinizations on demand.
        assert state.view_for(seat, make_rng(1)).viewer == seat
    for bad in (-1, players, True, 1.0, None):
        with pytest.raises(ValueError):
            state.view_for(bad)


def test_the_default_view_rng_is_seeded_by_seed_seat_and_ply():
    from forumlab.core.rng import derive_seed

    game = create_game("foundations-of-rome", {"players": 3})
    state = game.new_state(8)
    for _ in range(5):
        state.play(int(state.legal_moves()[0]))
    ply = game.plies(state.array)
    for seat in range(3):
        expected = state.view_for(seat, make_rng(derive_seed(8, "view", seat, ply)))
        assert np.array_equal(state.view_for(seat).array, expected.array)
    assert not np.array_equal(state.view_for(0).array, state.view_for(0, make_rng(12345)).array)


class RandomPick(Agent):
    """Plays a random legal move (Python's random, from the agent's seed)."""

    name = "random-pick"

    def choose(self, state):
        legal = state.legal_moves()
        return legal[self.random.randrange(len(legal))]


class Floaty(Agent):
    """Returns a legal move code as a float that is a little too big."""

    name = "floaty"

    def choose(self, state):
        return float(state.legal_moves()[0]) + 0.9


def test_an_agent_handed_a_hidden_games_true_state_is_warned():
    game = create_game("foundations-of-rome", {"players": 2})
    state = game.new_state(1)
    with pytest.warns(HiddenStateWarning, match="view_for"):
        RandomPick().act(state)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RandomPick().act(state.view_for(state.current_player))
        RandomPick().act(create_game("forma", {"players": 2}).new_state(1))  # nothing hidden


def test_an_agent_returning_a_float_is_refused():
    state = create_game("forum-romanum", {"players": 2}).new_state(1)
    with pytest.raises(IllegalMoveError, match="not a move code"):
        Floaty().act(state)
    assert isinstance(RandomPick().act(state), int)


@pytest.mark.parametrize("name", ["foundations-of-rome", "forum-trajanum"])
def test_no_built_in_path_hands_an_agent_the_true_state(name, tmp_path):
    from click.testing import CliRunner

    from forumlab.cli import main

    game = create_game(name, {"players": 2})
    with warnings.catch_warnings():
        warnings.simplefilter("error", HiddenStateWarning)
        play_match(game, [RandomPick(), RandomPick()], seed=2)
        forumlab.play(game, ["random", "greedy"], seed=3)
        spec = "tests.conformance.test_fast_paths:RandomPick"
        d = TournamentDefinition(game=name, config={"players": 2},
                                 agents=(PoolEntry("a", spec), PoolEntry("b", "greedy")))
        outcome = run_job(plan(d)[0])
        assert not outcome.faults
        result = CliRunner().invoke(main, ["play", name, "-p", "2", "--seed", "3", "-a", f"{spec},random"])
        assert result.exit_code == 0 and "failed" not in result.output, result.output
        from forumlab.arena.warmup import _first_moves

        _first_moves(name, {"players": 2}, 0, ["greedy", "random"])


# ---- the example agent of docs/writing-an-agent.md -----------------------------------
def doc_example() -> str:
    """The Python code block of the agent-writing page that defines ``OnePly``."""
    text = (ROOT / "docs" / "writing-an-agent.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "class OnePly(Agent)" in b]
    assert len(blocks) == 1, "the page must show the example agent once"
    return blocks[0]


def load_example():
    namespace: dict = {"__name__": "one_ply_example"}
    exec(compile((ROOT / "examples" / "one_ply.py").read_text(), "one_ply.py", "exec"), namespace)
    return namespace["OnePly"]


def test_the_docs_example_is_examples_one_ply():
    assert doc_example() == (ROOT / "examples" / "one_ply.py").read_text()


def test_the_example_agent_plays_a_legal_game():
    one_ply = load_example()
    game = create_game("forum-romanum", {"players": 2})
    record = forumlab.play(game, [one_ply(seed=1), "random"], seed=5)
    assert record.result["terminal"] and len(record.moves) > 10
    replayed = forumlab.replay(record)  # every move is replayed through the legality check
    assert replayed.is_terminal
    # In Forma, a few moves of its 2-player opening (about 22,900 legal moves each).
    state = create_game("forma", {"players": 2}).new_state(2)
    agent = one_ply(seed=2)
    for _ in range(2):
        move = agent.act(state.view_for(state.current_player))
        assert state.is_legal(move)
        best = max(state.child(m).heuristic(state.current_player) for m in state.legal_moves())
        assert state.child(move).heuristic(state.current_player) == best
        state.play(move)


def test_the_example_agent_is_reproducible():
    one_ply = load_example()
    state = create_game("forum-romanum", {"players": 3}).new_state(4)
    assert one_ply(seed=3).act(state) == one_ply(seed=3).act(state)
