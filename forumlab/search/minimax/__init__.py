"""Generic numba minimax search for 2 to ``MAX_PLAYERS`` players: paranoid alpha-beta, max^n and
best-reply search (BRS+), with iterative deepening, move ordering and a
transposition table.

Everything below the Python driver :func:`search` is ``@njit(cache=True)`` and
touches game logic only through :mod:`forumlab.core.dispatch`, with the game's tag
as the first argument, so one implementation serves every registered game and numba
compiles and caches it per game. The kernels take their arrays as one typed tuple
(:class:`SearchBuffers`) and the search's choices as another (:class:`SearchSettings`).

Modules, one job each:

- :mod:`.settings`: algorithm ids, size limits, :class:`SearchSettings`.
- :mod:`.columns`: slots and columns of the arrays (``STAT_*``, ``TT_*``,
  ``FRAME_*``, ``WINDOW_*``) and why the searches use an explicit frame stack.
- :mod:`.buffers`: :class:`SearchBuffers` and the :class:`Workspace` that owns them.
- :mod:`.leaves`: leaf values (exact score margins or the heuristic, quantized).
- :mod:`.budget`: node and clock budget checks inside the kernels.
- :mod:`.ordering`: move ordering (TT move, look-ahead, killers, history).
- :mod:`.table`: the transposition table and the proof flag.
- :mod:`.alphabeta`: paranoid and BRS+ (one alpha-beta engine).
- :mod:`.maxn`: max^n.
- :mod:`.root`: root preparation and one iteration, the kernels Python calls.
- :mod:`.driver`: iterative deepening under node, depth, wall-clock or CPU budgets.

Conventions
-----------
- **Depth counts plies**: every call of ``apply_move`` that the search branches on
  is one ply, whoever moves (in Forum Romanum's 2-player game each sub-move is a
  ply; ``current_player`` says who moves). In BRS only *searched* plies count: the
  fixed default moves of non-searching opponents are free (see :mod:`.alphabeta`).
- **Values** are from the root player's point of view, on the scale of scores
  (see :mod:`.leaves`).
- **Nodes** = positions reached by ``apply_move`` during the search, plus the root
  once per iteration (the default moves of BRS count too; the one-ply look-aheads
  used only to order moves or to pick a greedy default move do not, they are
  counted apart as ``extra`` evaluations). Across iterative deepening the counts
  are cumulative.
"""
from __future__ import annotations

from .buffers import SearchBuffers, Workspace
from .driver import SearchResult, search
from .leaves import QUANTUM, leaf_value, leaf_vector, quantize
from .root import prepare_root, search_iteration
from .settings import (
    ALGORITHMS,
    BRS,
    CLOCK_EVERY,
    DEFAULT_GREEDY,
    DEFAULT_HISTORY,
    DEFAULT_MOVES,
    HISTORY_BITS,
    MAX_DEPTH,
    MAX_PLAYERS,
    MAX_STACK,
    MAXN,
    ORDER_DEPTH,
    PARANOID,
    PICK_FIRST,
    SearchSettings,
)

__all__ = [
    "ALGORITHMS", "BRS", "CLOCK_EVERY", "DEFAULT_GREEDY", "DEFAULT_HISTORY", "DEFAULT_MOVES",
    "HISTORY_BITS", "MAX_DEPTH", "MAX_PLAYERS", "MAX_STACK", "MAXN", "ORDER_DEPTH", "PARANOID",
    "PICK_FIRST", "QUANTUM", "SearchBuffers", "SearchResult", "SearchSettings", "Workspace",
    "leaf_value", "leaf_vector", "prepare_root", "quantize", "search", "search_iteration",
]
