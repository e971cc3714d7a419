"""Tournament games of random or greedy agents played by one compiled loop (the runner's
fast path).

A seat whose agent is the built-in ``random`` agent moves by its engine's ``random_move``
drawn from the agent's own stream, on the seat's view of the position (a copy with
everything hidden from the seat resampled from the game's view stream); a seat whose
agent is the built-in ``greedy`` agent with the game's own heuristic weights moves by
``greedy_move`` on that view, its ties broken from its own stream. When every seat of a
game holds the same one of these agents, :func:`play_compiled_game` plays the whole game
in one numba call, the same draws in the same order as the runner's per-ply Python loop
(:func:`forumlab.arena.runner.run_job`), so the game, its moves and its result are the same;
only the Python work per ply (a view object, an ``act`` call, the fault policy's checks)
is gone. A random game of Forum Romanum then costs microseconds instead of milliseconds,
and a greedy one what its greedy moves cost.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.dispatch import apply_move, current_player, determinize, is_terminal, random_move
from ..core.rng import next_u64
from ..search.arrays import copy_into
from ..search.greedy import greedy_move

# Per game configuration (while the game's notation reads the code alone): move code -> text.
_memos: dict[tuple[str, str], dict[int, str]] = {}


def notation_reads_position(game) -> bool:
    """Whether ``game.format_move`` may need the position (then no memo is used)."""
    return bool(game.format_move_reads_position)


@njit(cache=True)
def random_seats_kernel(tag, state, view_rng, seat_rngs, hidden, moves, before, counts):
    """Play random seats from ``state`` (changed in place) until the game ends or
    ``moves`` is full; return the plies played.

    Per ply, as the runner does: the seat to move gets a copy of the position
    determinized from its seat with ``view_rng`` (one more draw from it in a
    hidden-information game, ``hidden``, where the view's seed is drawn), and its move
    is ``random_move`` on that view with the seat's stream ``seat_rngs[seat]``.
    ``before[i]`` receives the position before move ``i`` (for its notation) and
    ``counts[seat]`` counts the seat's moves. Called
    again with the same arrays it continues the same game.
    """
    view = state.copy()
    n = 0
    while n < moves.shape[0] and not is_terminal(tag, state):
        seat = current_player(tag, state)
        copy_into(view, state)
        determinize(tag, view, seat, view_rng)
        if hidden:
            next_u64(view_rng)
        move = random_move(tag, view, seat_rngs[seat])
        copy_into(before[n], state)
        apply_move(tag, state, move)
        moves[n] = move
        counts[seat] += 1
        n += 1
    return n


# A copy of the loop above rather than a flag on it: a flag would compile greedy_move
# (and the game's heuristic) into the kernel of every random game.
@njit(cache=True)
def greedy_seats_kernel(tag, state, view_rng, seat_rngs, hidden, moves, before, counts):
    """:func:`random_seats_kernel` with greedy seats: the move is ``greedy_move`` on the
    seat's view (the game's own heuristic weights), ties broken from ``seat_rngs[seat]``."""
    view = state.copy()
    n = 0
    while n < moves.shape[0] and not is_terminal(tag, state):
        seat = current_player(tag, state)
        copy_into(view, state)
        determinize(tag, view, seat, view_rng)
        if hidden:
            next_u64(view_rng)
        move = greedy_move(tag, view, seat_rngs[seat])
        copy_into(before[n], state)
        apply_move(tag, state, move)
        moves[n] = move
        counts[seat] += 1
        n += 1
    return n


# The agents whose games are played by one compiled loop, and their loops.
KERNELS = {"random": random_seats_kernel, "greedy": greedy_seats_kernel}


# Buffers reused from game to game (a fresh quarter megabyte per game cost more in page
# faults than the game itself): (plies, state length) -> (moves, positions before them).
_buffer_cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _buffers(chunk: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    buffers = _buffer_cache.get((chunk, size))
    if buffers is None:
        buffers = _buffer_cache[(chunk, size)] = (np.empty(chunk, dtype=np.int64),
                                                  np.empty((chunk, size), dtype=np.int64))
    return buffers


def play_compiled_game(game, agent: str, array: np.ndarray, view_rng: np.ndarray, seat_rngs: np.ndarray,
                       counts: np.ndarray, chunk: int = 512) -> list[str]:
    """Play a game whose seats all hold the agent ``agent`` to its end; its moves in notation.

    Args:
        game: the configured game (its kernels' tag selects the compiled kernels).
        agent: a name of :data:`KERNELS`: ``random`` or ``greedy`` (with the game's own weights).
        array: the starting position, played on in place.
        view_rng: the game's view stream (``make_rng(derive_seed(seed, "views"))``).
        seat_rngs: one row per seat, each the seat's agent stream (``make_rng(agent seed)``).
        counts: per seat, int64, zeros: receives each seat's number of moves.
        chunk: plies played per compiled call (the buffers' length).

    Returns:
        The moves played, as ``game.format_move`` writes them.
    """
    tag = game.kernels.tag
    kernel = KERNELS[agent]
    hidden = not game.perfect_information
    moves, before = _buffers(chunk, array.shape[0])
    texts: list[str] = []
    # A game whose notation does not read the position formats each move code once.
    memo = None
    if not notation_reads_position(game):
        memo = _memos.setdefault((game.name, repr(sorted(game.config.items()))), {})
    while True:
        n = kernel(tag, array, view_rng, seat_rngs, hidden, moves, before, counts)
        codes = moves[:n].tolist()
        if memo is None:
            texts.extend(game.format_move(before[i], code) for i, code in enumerate(codes))
        else:
            for code in set(codes).difference(memo):
                memo[code] = game.format_move(before[codes.index(code)], code)
            texts.extend(map(memo.__getitem__, codes))
        if n < chunk:
            return texts
