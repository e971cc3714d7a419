"""Move-choice examples for :mod:`.choice_fit`: positions from self-play, the move a
stronger teacher (a search agent at a node or iteration budget) plays there, and the
seats x terms matrices of the afterstates of that move and of other legal moves."""
from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np


def afterstate_terms(game, seat_values, s: np.ndarray, moves: Iterable[int], n_terms: int) -> np.ndarray:
    """afterstates x seats x terms: each term's part of every seat's value
    (:func:`.terms.term_features`) in ``s`` after each move; NaN for an
    afterstate that ends the game (its value is the exact margin, which no weight changes)."""
    from ..core.dispatch import apply_move, is_terminal
    from .terms import term_features

    tag, players = game.kernels.tag, game.players
    rows = []
    for move in moves:
        child = s.copy()
        apply_move(tag, child, int(move))
        if is_terminal(tag, child):
            rows.append(np.full((players, n_terms), np.nan))
        else:
            rows.append(term_features(game, seat_values, child, n_terms))
    return np.array(rows)


def choice_examples(game, records, teacher, alternatives: int, seed: int,
                    tick: Callable[[], None] = lambda: None) -> list[tuple[np.ndarray, int]]:
    """The teacher's choice at every recorded position, as (afterstates x seats x terms
    with the teacher's afterstate first, mover).

    Args:
        game: the Game.
        records: (game seed, positions) pairs (:func:`.train.recorded_games`).
        teacher: the agent whose moves are the targets; it is handed the mover's view.
        alternatives: most other legal moves per position, drawn uniformly without
            replacement when there are more (a conditional logit fitted on a uniform
            sample of the alternatives estimates the same weights).
        seed: seeds the draws of alternatives.
        tick: called once per game.

    Positions with one legal move, or where a candidate move ends the game, are left out:
    they say nothing about the weights.
    """
    from ..agents.weights import term_names
    from ..core.game import State
    from ..core.rng import derive_seed
    from .terms import seat_values_kernel

    seat_values, n_terms = seat_values_kernel(game), len(term_names(game))
    examples = []
    for game_seed, rows in records:
        for ply, row in enumerate(rows):
            state = State(game, row.copy(), game_seed)
            legal = [int(m) for m in state.legal_moves()]
            if state.is_terminal or len(legal) < 2:
                continue
            mover = state.current_player
            chosen = teacher.act(state.view_for(mover))
            if chosen not in legal:  # a view's move the true position refuses: no target
                continue
            others = [m for m in legal if m != chosen]
            if len(others) > alternatives:
                draw = np.random.default_rng(derive_seed(seed, game_seed, ply))
                others = [others[i] for i in sorted(draw.choice(len(others), alternatives, replace=False))]
            x = afterstate_terms(game, seat_values, row, [chosen] + others, n_terms)
            if not np.isnan(x).any():
                examples.append((x, mover))
        tick()
    return examples


def stack_examples(examples: list[tuple[np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The examples as padded arrays: x (positions x afterstates x seats x terms), mask
    (positions x afterstates) and mover (positions)."""
    width = max(x.shape[0] for x, _ in examples)
    _, seats, terms = examples[0][0].shape
    x = np.zeros((len(examples), width, seats, terms))
    mask = np.zeros((len(examples), width), dtype=bool)
    for i, (xi, _) in enumerate(examples):
        x[i, :len(xi)] = xi
        mask[i, :len(xi)] = True
    return x, mask, np.array([m for _, m in examples], dtype=np.int64)
