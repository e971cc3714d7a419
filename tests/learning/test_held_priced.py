"""Forum Trajanum's ``held`` term is linear in its own weight: the tiles a seat holds at
the default weights' prices, times the ``held`` weight, whatever the other weights. So the
outcome fit's column for it is the held tiles' worth (it was 0 in every position while
the other terms' weights priced the tiles, since the column is read with them at 0), and
a learned weight plays the very term it was fitted on."""
import numpy as np

from forumlab.agents.weights import term_names
from forumlab.api import load_game
from forumlab.engines.forum_trajanum import heuristic as h
from forumlab.engines.forum_trajanum.held import held_worth
from forumlab.learning.terms import seat_values_kernel, term_features, term_matrix

PLAYERS = 3


def _positions_holding_tiles(game, games=3, plies=150):
    """Positions of random games (seeds 0..games-1) in which some seat holds tiles."""
    out = []
    for seed in range(games):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(plies):
            if state.is_terminal:
                break
            s = state.array
            scorings_left = h._scorings_left(s)
            if any(held_worth(s, q, scorings_left) != 0.0 for q in range(PLAYERS)):
                out.append(s.copy())
            moves = state.legal_moves()
            state.play(int(moves[rng.integers(len(moves))]))
    assert len(out) > 20
    return out


def _held_worths(s):
    scorings_left = h._scorings_left(s)
    return np.array([held_worth(s, q, scorings_left) for q in range(PLAYERS)])


def test_the_outcome_fits_held_column_is_the_held_tiles_worth():
    game = load_game("forum-trajanum", players=PLAYERS)
    n_terms = len(term_names(game))
    seat_values = seat_values_kernel(game)
    for s in _positions_holding_tiles(game):
        column = term_matrix(seat_values, s, PLAYERS, n_terms)[:, h.T_HELD]
        assert np.array_equal(column, _held_worths(s))
        assert np.array_equal(term_features(game, seat_values, s, n_terms), term_matrix(seat_values, s,
                                                                                         PLAYERS, n_terms))


def test_the_weighted_value_is_linear_in_the_held_weight_whatever_the_others():
    """The held part of a seat's value is ``w[held]`` times the tiles' worth at the default
    prices, with the other weights drawn at random (those the tiles feed included)."""
    game = load_game("forum-trajanum", players=PLAYERS)
    rng = np.random.default_rng(5)
    with_held, without = np.zeros(PLAYERS), np.zeros(PLAYERS)
    for s in _positions_holding_tiles(game):
        w = rng.normal(1.0, 2.0, size=len(h.TERM_NAMES))
        h.seat_values(s, w, with_held)
        w_off = w.copy()
        w_off[h.T_HELD] = 0.0
        h.seat_values(s, w_off, without)
        assert np.allclose(with_held - without, w[h.T_HELD] * _held_worths(s), rtol=1e-12, atol=1e-12)


def test_the_shipped_model_weighs_the_held_tiles():
    """The shipped 3-player model was fitted with the held column read as played: a
    positive weight (a model fitted while the column read 0 had exactly 0)."""
    from forumlab.learning.model import read_model, shipped_path

    assert read_model(shipped_path("forum-trajanum", PLAYERS))["weights"]["held"] > 0
