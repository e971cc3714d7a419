"""The minimax search's preallocated arrays: one typed tuple for the kernels, one
:class:`Workspace` per searcher that owns them.

Buffers are preallocated per ply: ``states[ply]``, ``moves[ply]``,
``move_keys[ply]``, ``values[ply]`` and the frames; nothing is allocated per node
by the search itself.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .columns import N_FRAME_COLUMNS, N_STATS, N_TT_COLUMNS, N_WINDOW_COLUMNS
from .settings import (
    ALGORITHMS,
    DEFAULT_HISTORY,
    DEFAULT_MOVES,
    HISTORY_BITS,
    MAX_PLAYERS,
    MAX_STACK,
    MAXN,
    ORDER_DEPTH,
    PARANOID,
    SearchSettings,
)


class SearchBuffers(NamedTuple):
    """Every array a search works in, passed to the kernels as one argument (numba
    types it as a tuple of C-contiguous arrays: one signature per game, cached).

    Attributes:
        states: int64 (MAX_STACK + 1, state length): the position at each ply.
        moves: int64 (MAX_STACK + 1, game's move bound): legal moves at each ply.
        move_keys: float64, the moves' ordering keys.
        values: float64 (MAX_STACK + 2, MAX_PLAYERS): max^n value vectors per ply;
            row ``SCRATCH_ROW`` is scratch for final scores.
        frames: int64 (MAX_STACK + 1, N_FRAME_COLUMNS): the explicit stack, ``FRAME_*``.
        windows: float64 (MAX_STACK + 1, N_WINDOW_COLUMNS): each frame's ``WINDOW_*``.
        tt: int64 (2**tt_bits, N_TT_COLUMNS): transposition table, ``TT_*``.
        tt_values: float64 (2**tt_bits, 1 or MAX_PLAYERS): the entries' values.
        killers: int64 (MAX_STACK + 1, 2): two killer moves per ply.
        history: float64 (2**HISTORY_BITS): history-heuristic scores.
        stats: int64 (N_STATS): counters and budget shared with Python, ``STAT_*``.
    """

    states: np.ndarray
    moves: np.ndarray
    move_keys: np.ndarray
    values: np.ndarray
    frames: np.ndarray
    windows: np.ndarray
    tt: np.ndarray
    tt_values: np.ndarray
    killers: np.ndarray
    history: np.ndarray
    stats: np.ndarray


class Workspace:
    """Preallocated buffers of one searcher: per-ply stacks, TT, killers, history.

    Everything is allocated here, at construction (the TT pages are written, so
    committed, now rather than faulted in during the first search), except the
    per-ply state stack, which is sized from the first state seen. Buffers are reused
    for every later search; the TT is invalidated between searches by a generation
    stamp rather than cleared. TT memory: 2**tt_bits entries of 32 bytes (max^n: 88,
    one value per player up to MAX_PLAYERS).
    """

    def __init__(self, algorithm: int = PARANOID, tt_bits: int = 18,
                 default_move: int = DEFAULT_HISTORY, order_depth: int = ORDER_DEPTH, weights=None):
        if algorithm not in ALGORITHMS.values():
            raise ValueError(f"unknown algorithm {algorithm!r}")
        if not 0 <= tt_bits <= 28:
            raise ValueError(f"tt_bits must be in 0..28, not {tt_bits}")
        if default_move not in DEFAULT_MOVES.values():
            raise ValueError(f"unknown default-move rule {default_move!r}")
        if order_depth < 1:
            raise ValueError(f"order_depth must be >= 1, not {order_depth}")
        self.algorithm = algorithm
        self.tt_bits = tt_bits
        self.default_move = default_move
        self.order_depth = order_depth
        # the heuristic's term weights (float64 array; None: the game's own)
        self.weights = None if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
        self.generation = 0
        size = 1 << tt_bits if tt_bits > 0 else 1
        tt = np.empty((size, N_TT_COLUMNS), dtype=np.int64)
        tt.fill(0)
        tt_values = np.empty((size, MAX_PLAYERS if algorithm == MAXN else 1), dtype=np.float64)
        tt_values.fill(0.0)
        self.buffers = SearchBuffers(
            states=np.zeros((MAX_STACK + 1, 0), dtype=np.int64),
            # Move buffers are sized per game by ensure(): Forma's bound is ~60x Forum Romanum's.
            moves=np.zeros((MAX_STACK + 1, 0), dtype=np.int64),
            move_keys=np.zeros((MAX_STACK + 1, 0), dtype=np.float64),
            values=np.zeros((MAX_STACK + 2, MAX_PLAYERS), dtype=np.float64),
            frames=np.zeros((MAX_STACK + 1, N_FRAME_COLUMNS), dtype=np.int64),
            windows=np.zeros((MAX_STACK + 1, N_WINDOW_COLUMNS), dtype=np.float64),
            tt=tt,
            tt_values=tt_values,
            killers=np.full((MAX_STACK + 1, 2), -1, dtype=np.int64),
            history=np.zeros(1 << HISTORY_BITS, dtype=np.float64),
            stats=np.zeros(N_STATS, dtype=np.int64),
        )

    @property
    def stats(self) -> np.ndarray:
        """The counters and budget of the current (or last) search, ``STAT_*`` slots."""
        return self.buffers.stats

    def ensure(self, state_len: int, n_players: int, max_moves: int) -> None:
        """Size the per-ply state stack and move buffers for this game.

        Args:
            state_len: length of the game's state array.
            n_players: players in the game (at most MAX_PLAYERS).
            max_moves: the game's bound on legal moves in a position.

        Raises:
            ValueError: more than MAX_PLAYERS players.
        """
        if n_players > MAX_PLAYERS:
            raise ValueError(f"at most {MAX_PLAYERS} players are supported")
        buffers = self.buffers
        if buffers.states.shape[1] != state_len:
            buffers = buffers._replace(states=np.zeros((MAX_STACK + 1, state_len), dtype=np.int64))
        if buffers.moves.shape[1] != max_moves:
            buffers = buffers._replace(
                moves=np.zeros((MAX_STACK + 1, max_moves), dtype=np.int64),
                move_keys=np.zeros((MAX_STACK + 1, max_moves), dtype=np.float64))
        self.buffers = buffers

    def begin(self, algorithm: int, cooperative: bool = False) -> SearchSettings:
        """Start a new search: a fresh TT generation and zeroed counters.

        Args:
            algorithm: the algorithm this search runs (the driver runs 2-player max^n
                as PARANOID, and every search of a cooperative game as MAXN).
            cooperative: the seats are one team (leaves worth the shared score).

        Returns:
            The search's settings, for the kernels.
        """
        self.generation += 1
        if self.generation >= 1 << 40:  # never in practice; keep the meta word in range
            self.buffers.tt[:] = 0
            self.generation = 1
        self.buffers.stats[:] = 0
        return SearchSettings(
            algorithm=int(algorithm),
            default_move=int(self.default_move),
            order_depth=int(self.order_depth),
            tt_mask=(1 << self.tt_bits) - 1 if self.tt_bits > 0 else -1,
            generation=self.generation,
            cooperative=int(bool(cooperative)),
            weights=self.weights,
        )
