"""The minimax family: paranoid alpha-beta, max^n and best-reply search (BRS+).

Thin agents over the generic numba search of :mod:`forumlab.search.minimax`
(algorithms, value conventions, move ordering, TT and budgets are documented
there). All three share the budget parameters and one iterative-deepening driver:

- ``depth``: maximum plies (a 2-player Forum Romanum sub-move is a ply). The default,
  0, means: with a ``nodes``, ``time`` or ``cpu_time`` budget, deepen until the budget
  is spent (or the game tree below the position is exhausted); with no budget at
  all, a fixed depth, the class's ``default_depth`` (paranoid 3, max^n 2, BRS 4). An
  explicit depth caps the deepening.
- ``nodes``: node budget per move (0 = none). Deterministic: with a node or depth
  budget the move is a pure function of (position, seed, parameters). Depth 1 always
  completes, so a tiny budget still gives a searched move.
- ``time``: wall-clock seconds per move (0 = none); not reproducible across machines
  or runs, by nature. The clock is read about every millisecond of search.
- ``cpu_time``: CPU seconds of the searching thread per move (0 = none): the same
  search effort whatever else loads the machine (still not bit-reproducible). With
  several budgets the first one spent ends the search.
- ``tt_bits``: the transposition table has 2**tt_bits entries (0 = no table; default
  18, i.e. 8 MB, for paranoid and BRS, 16, i.e. 6 MB, for max^n), allocated when
  the agent is created.
- ``order_depth`` (formerly ``order``, which still works with a warning): nodes with
  at least this many plies left order their moves by a one-ply look-ahead (nearer the
  leaves: TT move, killers, history). MCTS's ``order_depth`` is the same idea counted
  from the root: tree levels above it expand children best-first.

In a cooperative game (``Game.cooperative``, e.g. a Will of the Consul game) the seats
are one team: every algorithm then searches as max^n on the shared value (leaves are
worth the shared score to every seat, and every seat maximizes it), since paranoid's
and BRS's opponents would be teammates.

The seed feeds the agent's SplitMix64 stream, used for the determinization of
hidden information and for breaking ties between equally valued root moves.
"""
from __future__ import annotations

import os
from typing import Any, ClassVar

from ..core.errors import GameOverError
from ..core.game import State
from ..search import minimax as minimax_search
from .base import Param
from .spec import AgentSpecError
from .weights import ARCHETYPE_PARAM, EVAL_PARAM, WeightedAgent

# Time budgets become int64 nanosecond deadlines in the kernels; 1e6 s (about 11.6 days
# a move) is far below where they would overflow.
MAX_SECONDS = 1e6


def physical_memory() -> int | None:
    """Bytes of memory this machine has (None where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def table_bytes(algorithm: int, tt_bits: int) -> int:
    """Bytes of the transposition table of 2**tt_bits entries that ``algorithm`` allocates
    (an entry: its int64 columns and one value, or one per player for max^n)."""
    from ..search.minimax.columns import N_TT_COLUMNS
    from ..search.minimax.settings import MAX_PLAYERS

    values = MAX_PLAYERS if algorithm == minimax_search.MAXN else 1
    return (1 << tt_bits) * 8 * (N_TT_COLUMNS + values)


def _budget_params(default_depth: int, tt_bits: int = 18,
                   extra: dict[str, Param] | None = None) -> dict[str, Param]:
    params = {
        "depth": Param(0, f"maximum search depth in plies, at most {minimax_search.MAX_DEPTH} (0 = until the "
                          f"nodes/time budget is spent; {default_depth} when no budget is given)",
                       low=0, high=minimax_search.MAX_DEPTH),
        "nodes": Param(0, "node budget per move (0 = none; deterministic)", low=0, high=1 << 62),
        "time": Param(0.0, "wall-clock seconds per move (0 = none)", low=0.0, high=MAX_SECONDS),
        "cpu_time": Param(0.0, "CPU seconds of the searching thread per move (0 = none)", low=0.0,
                          high=MAX_SECONDS),
        "tt_bits": Param(tt_bits, "transposition table of 2**tt_bits entries (0 = none)", low=0, high=28),
        # "order" until the name was shared with MCTS's order_depth (records and notes use it)
        "order_depth": Param(minimax_search.ORDER_DEPTH,
                             "order moves by one-ply look-ahead at nodes with at least this many plies left",
                             low=1, high=minimax_search.MAX_DEPTH + 1, aliases=("order",)),
        "archetype": ARCHETYPE_PARAM,
        "eval": EVAL_PARAM,
    }
    params.update(extra or {})
    return params


class MinimaxAgent(WeightedAgent):
    """Shared machinery of the minimax family (not registered itself)."""

    algorithm: ClassVar[int]
    default_depth: ClassVar[int]  # the depth when neither a depth nor a budget is given
    name = "minimax"

    def __init__(self, seed: int = 0, **options: Any):
        super().__init__(seed, **options)  # checks each parameter against its declaration
        o = self.options
        self.depth, self.nodes = o["depth"], o["nodes"]
        self.time, self.cpu_time = float(o["time"]), float(o["cpu_time"])
        if self.depth == 0 and self.nodes == 0 and self.time == 0 and self.cpu_time == 0:
            self.depth = self.default_depth  # no budget at all: a fixed depth
        # The table is written in full here (committed now, not during the first search):
        # one larger than the machine's memory would end the process (the kernel's
        # out-of-memory killer), so it is refused with one line instead.
        need, have = table_bytes(self.algorithm, o["tt_bits"]), physical_memory()
        if have is not None and need > have:
            raise AgentSpecError(f"agent {self.name!r}: tt_bits={o['tt_bits']} needs a table of "
                                 f"{need / 2**30:.3g} GiB, more than this machine's {have / 2**30:.3g} GiB "
                                 "of memory")
        self.workspace = minimax_search.Workspace(self.algorithm, o["tt_bits"], self._default_move(),
                                                  o["order_depth"])
        self.last_result: minimax_search.SearchResult | None = None
        self.last_search: dict = {}

    def _default_move(self) -> int:
        return minimax_search.DEFAULT_HISTORY  # unused by paranoid and max^n

    def search(self, state: State) -> minimax_search.SearchResult:
        """Search ``state`` for the player to move.

        Args:
            state: a position of any registered game.

        Returns:
            The full result: move, value, nodes, completed depth, time (also kept in
            ``last_result``, and as a plain dict in ``last_search``).

        Raises:
            GameOverError: the game is over.
        """
        if state.is_terminal:
            raise GameOverError(f"agent {self.name!r} was asked to move in a finished game")
        # the heuristic's term weights (w.NAME, archetype) for this game; None: its own
        self.workspace.weights = self.heuristic_weights(state.game)
        result = minimax_search.search(state.game.kernels.tag, state.array, self.workspace, self.rng,
                                       self.depth, self.nodes, self.time, self.cpu_time,
                                       cooperative=state.game.cooperative)
        self.last_result = result
        # the plain-dict summary every agent family offers (benchmarks, arena logs)
        self.last_search = {
            "nodes": result.nodes,
            "depth": result.depth,
            "value": result.value,
            "seconds": result.seconds,
            "cpu_seconds": result.cpu_seconds,
            "exact": result.exact,
            "partial": result.partial,
            "extra": result.extra,
        }
        return result

    def choose(self, state: State) -> int:
        return self.search(state).move


class ParanoidAgent(MinimaxAgent):
    """Paranoid alpha-beta: every opponent is assumed to play against this player."""

    name = "paranoid"
    description = "paranoid alpha-beta (opponents minimize our margin), iterative deepening, TT"
    algorithm = minimax_search.PARANOID
    default_depth = 3
    params = _budget_params(default_depth)


class MaxnAgent(MinimaxAgent):
    """max^n: every player maximizes their own margin (value vectors, no pruning;
    with two players it is minimax and searches as paranoid alpha-beta)."""

    name = "maxn"
    description = "max^n search (each player maximizes their own margin)"
    algorithm = minimax_search.MAXN
    default_depth = 2
    # few transpositions within max^n's shallow depths, and 88-byte entries
    params = _budget_params(default_depth, tt_bits=16)


class BRSAgent(MinimaxAgent):
    """Best-reply search (BRS+): only the strongest opponent reply is searched; the
    other opponents play a default move instead of passing."""

    name = "brs"
    description = "best-reply search (BRS+): one opponent replies, the others play a default move"
    algorithm = minimax_search.BRS
    default_depth = 4
    params = _budget_params(default_depth, extra={
        "default_move": Param("history", "non-searching opponents' move: 'history' "
                              "(move-ordering best) or 'greedy' (best for themselves one ply ahead)",
                              choices=tuple(minimax_search.DEFAULT_MOVES)),
    })

    def _default_move(self) -> int:
        return minimax_search.DEFAULT_MOVES[self.options["default_move"]]
