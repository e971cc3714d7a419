"""The Python side of the minimax search: iterative deepening under a budget.

Iterative deepening is driven from Python: depth 1, 2, ... up to the maximum depth
(``MAX_DEPTH`` when unlimited), until a budget is spent, or until an iteration cut
no leaf by depth: then every line reached the end of the game, the value is proven
(``exact``) and deeper iterations could only repeat it. Depth 1 always completes,
whatever the budget. The node budget is checked at every node; a time budget (wall
clock, or the thread's CPU time) by reading the clock every ``CLOCK_EVERY`` units of
work inside the kernels (:mod:`.budget`). An iteration interrupted by the node
budget is discarded, so the move is the one of the last completed depth; one
interrupted by the clock still counts once it has fully searched its first root
move, the previous best (``partial``): the best fully searched root move is played.
See :func:`search`.
"""
from __future__ import annotations

import math
import time as _time
from dataclasses import dataclass

import numpy as np

from ...core.dispatch import max_moves
from ...core.layout import PLAYERS_SLOT
from ...core.rng import make_rng
from .buffers import Workspace
from .columns import (
    ABORT_CLOCK,
    FRAME_BEST_MOVE,
    STAT_ABORT,
    STAT_CHECK_AT,
    STAT_CPU_DEADLINE,
    STAT_CUT,
    STAT_DEADLINE,
    STAT_EXTRA,
    STAT_NODE_LIMIT,
    STAT_NODES,
    STAT_ROOT,
    STAT_ROOT_DONE,
    WINDOW_BEST,
)
from .root import prepare_root, search_iteration
from .settings import MAX_DEPTH, MAXN, PARANOID


@dataclass(frozen=True)
class SearchResult:
    """Outcome of one search.

    ``value`` is the root player's value at the last completed depth (for max^n its
    own component; ``values`` then holds the whole root vector). ``nodes`` counts
    every iteration, including an abandoned last one. ``exact`` means no leaf was cut
    by depth, so the value is the game's true (paranoid / max^n / BRS) value.
    ``partial`` means the move and value come from an iteration one deeper than
    ``depth`` that the time budget interrupted after its first root moves.
    ``seconds`` is wall-clock time, ``cpu_seconds`` the calling thread's CPU time.
    ``extra`` counts the one-ply look-ahead evaluations (move ordering, greedy BRS
    default moves), which are work but not nodes.
    """

    move: int
    value: float
    nodes: int
    depth: int
    seconds: float
    exact: bool = False
    partial: bool = False
    values: tuple[float, ...] | None = None
    extra: int = 0
    cpu_seconds: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        """Search speed of this call."""
        return self.nodes / self.seconds if self.seconds > 0 else float("nan")


_compiled: set = set()  # (game tag, weighted) pairs whose kernels this process has compiled or loaded


def _ensure_compiled(tag, array: np.ndarray, weights=None) -> None:
    """Compile (or load from the disk cache) the game's kernels before any clock starts
    (with the heuristic's term weights, a kernel variant of its own, when given)."""
    key = (tag, weights is not None)
    if key in _compiled:
        return
    workspace = Workspace(PARANOID, tt_bits=0, weights=weights)
    workspace.ensure(array.shape[0], int(array[PLAYERS_SLOT]), int(max_moves(tag)))
    settings = workspace.begin(PARANOID)
    n = prepare_root(tag, array, make_rng(0), workspace.buffers)
    if n > 0:
        search_iteration(tag, 1, n, workspace.buffers, settings)
    _compiled.add(key)


def _deadlines(stats: np.ndarray, t_start: int, c_start: int, time: float, cpu_time: float) -> bool:
    """Arm the kernels' clock checks for the next iteration; False if a budget is
    already spent (then no iteration should start)."""
    wall = t_start + int(time * 1e9) if time > 0 else 0
    cpu = c_start + int(cpu_time * 1e9) if cpu_time > 0 else 0
    if (wall and _time.perf_counter_ns() >= wall) or (cpu and _time.thread_time_ns() >= cpu):
        return False
    stats[STAT_DEADLINE] = wall
    stats[STAT_CPU_DEADLINE] = cpu
    # the first node of the iteration reads the clock; then every CLOCK_EVERY units of work
    stats[STAT_CHECK_AT] = 1 if (wall or cpu) else 0
    return True


def search(tag, array: np.ndarray, workspace: Workspace, rng: np.ndarray, depth: int,
           nodes: int = 0, time: float = 0.0, cpu_time: float = 0.0,
           cooperative: bool = False) -> SearchResult:
    """Iterative-deepening search of the position ``array`` of the game ``tag`` (a
    :class:`~forumlab.core.dispatch.GameTag`) for the player to move.

    Args:
        tag: the game's tag (``state.game.kernels.tag``): selects its compiled kernels.
        array: the position (a game's state array).
        workspace: the searcher's buffers (algorithm, TT, ordering tables).
        rng: a uint64[1] SplitMix64 state; drives the determinization and the root
            tie-breaks.
        depth: maximum plies, ``1..MAX_DEPTH``; 0 = no limit other than the budgets
            and ``MAX_DEPTH`` (then a budget is required).
        nodes: node budget for the whole move (0 = none).
        time: wall-clock seconds for the whole move (0 = none), ``time.perf_counter``.
        cpu_time: CPU seconds of the calling thread for the whole move (0 = none),
            ``time.thread_time``: unlike ``time``, it does not shrink when other
            processes share the cores.
        cooperative: the seats are one team (``Game.cooperative``, e.g. against
            Foundations of Rome's Consul): leaves are worth the shared score to every
            seat and every seat maximizes it, so any algorithm searches as max^n (the
            paranoid and best-reply opponent models would make teammates adversaries).

    Returns:
        The :class:`SearchResult`.

    Raises ValueError for a bad depth, depth 0 without a budget, or a position
    without legal moves.

    Iterations run at depth 1, 2, ... until ``depth``, a budget is spent, or an
    iteration saw no leaf cut by depth (the game tree below the root is exhausted:
    ``exact``; deeper iterations would search the same tree). Depth 1 always
    completes, whatever the budget. The kernels check the node budget at every node
    and read the clocks every ``CLOCK_EVERY`` units of work (nodes plus look-ahead
    evaluations), about every millisecond of search; one node's move generation and
    ordering are not interrupted (in Forma's opening: up to ~8 ms CPU past a budget,
    against ~0.3 ms in Forum Romanum).

    What an interrupted iteration contributes: under a node budget, nothing (the
    move of the last completed depth is played, so a node budget gives the same move
    as that depth alone). Under a time budget, its best *fully searched* root move
    is played if it finished at least one (``partial``). That is safe because every
    iteration searches the previous iteration's best move first: the first finished
    root move is the old principal variation searched one ply deeper, and any later
    root move can only replace it with a value proven better at the new depth (at
    the root the window has no upper bound, so such a value is exact).
    """
    if depth < 0 or depth > MAX_DEPTH:
        raise ValueError(f"depth must be in 0..{MAX_DEPTH}, not {depth}")
    if depth == 0 and nodes <= 0 and time <= 0 and cpu_time <= 0:
        raise ValueError("depth=0 (unlimited) needs a nodes, time or cpu_time budget")
    array = np.ascontiguousarray(array, dtype=np.int64)
    if time > 0 or cpu_time > 0:
        _ensure_compiled(tag, array, workspace.weights)
    budget = _Budget(nodes, time, cpu_time, _time.perf_counter_ns(), _time.thread_time_ns())
    n_players = int(array[PLAYERS_SLOT])
    workspace.ensure(array.shape[0], n_players, int(max_moves(tag)))
    algorithm, maxn = _effective_algorithm(workspace.algorithm, n_players, cooperative)
    settings = workspace.begin(algorithm, cooperative)
    buffers = workspace.buffers
    st = buffers.stats
    n_root = prepare_root(tag, array, rng, buffers)
    if n_root == 0:
        raise ValueError("no legal moves: the game is over")

    found = _deepen(tag, n_root, depth if depth > 0 else MAX_DEPTH, budget, buffers, settings,
                    n_players if maxn else 0)
    values, value = found.values, found.value
    if workspace.algorithm == MAXN and not maxn and not math.isnan(value):
        values = tuple(value if p == int(st[STAT_ROOT]) else -value for p in range(n_players))
    return SearchResult(move=found.move, value=value, nodes=int(st[STAT_NODES]), depth=found.completed,
                        seconds=(_time.perf_counter_ns() - budget.t_start) / 1e9, exact=found.exact,
                        partial=found.partial, values=values, extra=int(st[STAT_EXTRA]),
                        cpu_seconds=(_time.thread_time_ns() - budget.c_start) / 1e9)


def _effective_algorithm(requested: int, n_players: int, cooperative: bool) -> tuple[int, bool]:
    """(the algorithm to run, whether it is max^n) for the requested one in this game."""
    # max^n with two players is minimax: values are score margins, so the second
    # player's value is minus the first's (a constant sum of 0) and alpha-beta prunes
    # max^n exactly, which max^n's own, unpruned path cannot (at 0.2 s per move it
    # reached 2 plies in Forum Romanum's 2-player moving phase, the mover's own two
    # sub-moves only, against paranoid's 4).
    maxn = (requested == MAXN and n_players > 2) or (cooperative and n_players > 1)
    if maxn:
        return MAXN, True
    if requested == MAXN:
        return PARANOID, False
    return requested, False


@dataclass(frozen=True)
class _Budget:
    """The budgets of one move and the clocks' readings when it started."""

    nodes: int
    time: float
    cpu_time: float
    t_start: int  # time.perf_counter_ns()
    c_start: int  # time.thread_time_ns()

    def arm(self, stats: np.ndarray) -> bool:
        """Set the limits of the next iteration; False if a budget is already spent."""
        if self.nodes > 0 and stats[STAT_NODES] >= self.nodes:
            return False
        timed = self.time > 0 or self.cpu_time > 0
        if timed and not _deadlines(stats, self.t_start, self.c_start, self.time, self.cpu_time):
            return False
        stats[STAT_NODE_LIMIT] = self.nodes
        return True


@dataclass
class _Deepening:
    """Where iterative deepening got to: the move and value to report, and how far."""

    move: int
    value: float = math.nan
    values: tuple[float, ...] | None = None  # max^n: the root's value vector
    completed: int = 0  # the deepest completed iteration
    exact: bool = False
    partial: bool = False


def _deepen(tag, n_root: int, max_depth: int, budget: _Budget, buffers, settings,
            maxn_players: int) -> _Deepening:
    """Run iterations at depth 1, 2, ... ``max_depth`` until a budget is spent or one is
    exact (see :func:`search`); ``maxn_players`` > 0 reads max^n value vectors of that size."""
    st = buffers.stats
    found = _Deepening(move=int(buffers.moves[0, 0]))
    for d in range(1, max_depth + 1):
        if d > 1 and not budget.arm(st):  # depth 1 runs unbudgeted
            break
        v = search_iteration(tag, d, n_root, buffers, settings)
        if st[STAT_ABORT]:
            if st[STAT_ABORT] == ABORT_CLOCK and st[STAT_ROOT_DONE] > 0:
                found.move = int(buffers.frames[0, FRAME_BEST_MOVE])
                if maxn_players:
                    found.values = tuple(float(x) for x in buffers.values[0, :maxn_players])
                    found.value = found.values[int(st[STAT_ROOT])]
                else:
                    found.value = float(buffers.windows[0, WINDOW_BEST])
                found.partial = True
            break
        found.completed = d
        found.move = int(buffers.moves[0, 0])
        found.value = float(v)
        if maxn_players:
            found.values = tuple(float(x) for x in buffers.values[0, :maxn_players])
        if not st[STAT_CUT]:
            found.exact = True
            break
    return found
