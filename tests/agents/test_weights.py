"""The heuristics as weighted named terms: the default weights are the heuristic exactly,
other weights change it linearly, and the search kernels hand the weights through."""
import numpy as np
import pytest

from forumlab.agents.registry import create_agent
from forumlab.agents.weights import term_names, weight_vector
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.search.greedy import greedy_move, one_ply_values

# game, options, heuristic module: one setting per game, modules that have terms included
GAMES = [
    ("forum-romanum", {"players": 2}, "forumlab.engines.forum_romanum.heuristic"),
    ("forum-romanum", {"players": 4}, "forumlab.engines.forum_romanum.heuristic"),
    ("forma", {"players": 2}, "forumlab.engines.forma.heuristic"),
    ("forum-trajanum", {"players": 3}, "forumlab.engines.forum_trajanum.heuristic"),
    ("foundations-of-rome", {"players": 3, "modules": ["monuments", "trading", "invocations", "roles"]},
     "forumlab.engines.foundations_of_rome.heuristic"),
]


def _positions(game, n_plies, seed=1, every=3):
    """Positions of one random game (every ``every``-th ply, terminal included)."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    for ply in range(n_plies):
        if state.is_terminal:
            break
        if ply % every == 0:
            out.append(state.array.copy())
        moves = state.legal_moves()
        state.play(int(moves[rng.integers(len(moves))]))
    out.append(state.array.copy())
    return out


@pytest.mark.parametrize("name, options, module", GAMES)
def test_default_weights_are_the_heuristic_bit_for_bit(name, options, module):
    import importlib

    h = importlib.import_module(module)
    game = create_game(name, options)
    ones = np.ones(len(term_names(game)))
    assert (h.DEFAULT_WEIGHTS == ones).all()
    for s in _positions(game, 150):
        for p in range(game.players):
            assert h.weighted_heuristic(s, p, ones) == h.heuristic(s, p)


# Forum Trajanum included: its held tiles were once priced by the other terms' weights (not
# linear while a seat held tiles); they are now at fixed prices times the held weight.
@pytest.mark.parametrize("name, options, module", GAMES)
def test_seat_values_are_linear_in_the_weights(name, options, module):
    """A seat's value with weights w is the weighted sum of its terms, each term being the
    value with that term's weight alone: a linear evaluation over the terms."""
    import importlib

    h = importlib.import_module(module)
    game = create_game(name, options)
    k = len(term_names(game))
    w = np.linspace(0.5, 2.5, k)
    for s in _positions(game, 120, every=10)[:-1]:  # a finished game is worth its exact score
        terms = np.zeros((game.players, k))
        for j in range(k):
            unit = np.zeros(k)
            unit[j] = 1.0
            h.seat_values(s, unit, terms[:, j])
        values = np.zeros(game.players)
        h.seat_values(s, w, values)
        assert np.allclose(terms @ w, values, rtol=1e-9, atol=1e-9)


def test_a_term_weight_changes_the_heuristic_by_that_term_only():
    """Forum Romanum, 3 players, a worked position: colour 0 leads row 1 with 3 of its 7
    cells filled; its row term is 7 x 0.75 x 3/7 = 2.25, so doubling the rows weight adds
    2.25 to colour 0's value and nothing to the others'."""
    from forumlab.engines.forum_romanum import heuristic as h

    game = create_game("forum-romanum", {"players": 3})
    state = game.new_state(0)
    for text in ("a1", "d4", "g7", "b1", "d5", "g6", "c1"):
        state.play(text)
    one, two = np.zeros(3), np.zeros(3)
    weights = np.ones(len(h.TERM_NAMES))
    h.seat_values(state.array, weights, one)
    weights[h.T_ROWS] = 2.0
    h.seat_values(state.array, weights, two)
    rows = np.zeros(3)
    unit = np.zeros(len(h.TERM_NAMES))
    unit[h.T_ROWS] = 1.0
    h.seat_values(state.array, unit, rows)
    assert rows[0] == pytest.approx(2.25)
    assert two - one == pytest.approx(rows)


def test_greedy_with_unit_weights_plays_as_the_default_greedy():
    """Weights all 1 given explicitly take the weighted kernel variant: same moves."""
    game = create_game("forum-trajanum", {"players": 3})
    ones = np.ones(len(term_names(game)))
    for s in _positions(game, 60, every=6)[:-1]:
        assert greedy_move(game.kernels.tag, s, make_rng(5), ones) == greedy_move(game.kernels.tag, s, make_rng(5))


def test_one_ply_values_are_greedys_choice():
    game = create_game("forum-romanum", {"players": 3})
    state = game.new_state(0)
    moves = np.empty(game.kernels.max_moves, dtype=np.int64)
    values = np.empty(game.kernels.max_moves)
    n = one_ply_values(game.kernels.tag, state.array, moves, values)
    best = set(moves[:n][values[:n] == values[:n].max()].tolist())
    for seed in range(5):
        assert greedy_move(game.kernels.tag, state.array, make_rng(seed)) in best


def test_weights_reach_every_search_family():
    """A weight that makes the seat value the opponents' lead (rows weighted -5) changes
    the move of greedy, paranoid, brs, maxn and mcts at an iteration/node budget."""
    game = create_game("forum-romanum", {"players": 3})
    state = game.new_state(0)
    for text in ("a1", "d4", "g7", "b1", "d5", "g6"):
        state.play(text)
    for base in ("greedy", "paranoid(depth=2)", "brs(depth=2)", "maxn(depth=2)",
                 "mcts(iterations=400, rollout=none, order_depth=1)"):
        plain = create_agent(base, seed=1).act(state.copy())
        weighted_spec = base.replace(")", ", w.rows=-5, w.columns=-5)") if "(" in base else "greedy(w.rows=-5, w.columns=-5)"
        weighted = create_agent(weighted_spec, seed=1).act(state.copy())
        assert plain != weighted, base


def test_weight_vector_orders_weights_as_the_terms():
    game = create_game("forma", {"players": 2})
    w = weight_vector("greedy", game, "", {"tower": 3.0, "score": 0.5})
    names = term_names(game)
    assert w[names.index("tower")] == 3.0 and w[names.index("score")] == 0.5
    assert sum(w) == len(names) - 2 + 3.5
    assert weight_vector("greedy", game, "", {}) is None  # the fast path
