"""The minimax search's choices and size limits, and the settings tuple its kernels read.

Python chooses an algorithm and its options once per search (:class:`SearchSettings`);
the numba kernels receive them as one typed tuple, so adding a setting changes one
type, not every kernel's argument list. The size limits bound the preallocated
buffers (:mod:`.buffers`) and are among the limits every game must respect
(:mod:`forumlab.core.limits` imports ``MAX_PLAYERS`` and ``MAX_STACK`` from here).
"""
from __future__ import annotations

from typing import Any, NamedTuple

PARANOID = 0
MAXN = 1
BRS = 2
ALGORITHMS = {"paranoid": PARANOID, "maxn": MAXN, "brs": BRS}

DEFAULT_GREEDY = 0
DEFAULT_HISTORY = 1
DEFAULT_MOVES = {"greedy": DEFAULT_GREEDY, "history": DEFAULT_HISTORY}

MAX_DEPTH = 64  # largest depth parameter
MAX_STACK = 192  # plies of buffers (BRS default moves add plies beyond the depth)
MAX_PLAYERS = 8  # width of the value-vector buffers
ORDER_DEPTH = 3  # default: nodes with at least this many plies left order by look-ahead
PICK_FIRST = 4  # nearer the leaves only the first moves are picked in order (TT, killers)
# Under a time budget the kernels read the clock each time this much work (nodes plus
# look-ahead evaluations) has been done: a few microseconds per read against roughly
# 0.1-1 ms of search between reads.
CLOCK_EVERY = 256
HISTORY_BITS = 16  # the history table has 2**HISTORY_BITS entries, indexed by a move hash


class SearchSettings(NamedTuple):
    """What one search does, fixed for its whole iterative deepening (numba reads it
    as a tuple of six int64 and the weights; Python ints are required, so the type
    never varies).

    Attributes:
        algorithm: PARANOID, MAXN or BRS (max^n with two players runs as PARANOID).
        default_move: BRS+ default-move rule, DEFAULT_GREEDY or DEFAULT_HISTORY.
        order_depth: nodes with at least this many plies left order their moves by a
            one-ply look-ahead.
        tt_mask: transposition-table index mask, -1 = no table.
        generation: this search's stamp in the table; entries of other searches are
            treated as empty.
        cooperative: 1 when the seats are one team (terminal leaves are worth the
            shared score, not a margin over the other seats), else 0.
        weights: the heuristic's term weights (a float64 array), or None for the
            game's own (forumlab.search.weighted).
    """

    algorithm: int
    default_move: int
    order_depth: int
    tt_mask: int
    generation: int
    cooperative: int
    weights: Any = None
