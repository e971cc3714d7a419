"""Generic Monte Carlo tree search, written once for every game (numba compiles and
caches it per game: the game's tag is the first argument, see forumlab.core.dispatch).

One phase per module, each a small kernel that the driver inlines:

- :mod:`.options`: every option, declared once (name, default, allowed values, help,
  kernel type), and the kernel's :class:`Settings` record derived from it.
- :mod:`.tree`: the node table, its fields, and the pool of best-first move orders.
- :mod:`.selection`: UCT with vector rewards (each node keeps the summed reward of every
  player; the player to move picks the child maximising *their own* mean plus the UCB1
  term: Kocsis & Szepesvari 2006, Sturtevant 2008) and single-observer information-set
  MCTS (Cowling, Powley & Whitehouse 2012: every iteration starts from a fresh
  determinization of the root from the searching seat's view, and UCB counts how often a
  child was available). For perfect-information games determinization is the identity
  and the cheaper UCT path is used.
- :mod:`.expansion`: heuristic move ordering near the root (``order_depth``; orders keep
  a node's ORDER_WIDTH best moves in a bounded pool), progressive unpruning (``widen``,
  Chaslot et al. 2008), an opponent model (``replies``), the depth limit (``tree_depth``)
  and deepening of the leaves the search keeps returning to (``deepen``). With a
  branching factor in the thousands (Forma) the tree below the best-first plies would
  grow by random moves, and averaging a well-visited child over them biases the search
  against the moves it explores most; with the limit, MCTS is a selective fixed-depth
  search whose visits go to the strongest replies (docs/notebook/search.md).
- :mod:`.evaluation`: rollouts (random, epsilon-greedy, or sampled greedy with
  ``samples`` and ``proposals``), the ``cutoff``, and heuristic leaf values
  sigmoid(margin / hscale), optionally relative to the root (``hrelative``).
- :mod:`.backup`: reward vectors backed up the path, implicit minimax values (Lanctot,
  Winands, Pepels & Sturtevant 2014; selection mixes ``(1 - imm) * mean + imm *
  minimax``), progressive history (Nijssen & Winands 2011).
- :mod:`.reuse`: the subtree of the position reached, kept between moves.
- :mod:`.driver`: ``run_iterations``, the loop calling the phases.

Root parallelism: ``run_iterations``, ``reset_tree`` and ``reroot`` release the GIL
(``nogil``), so several Python threads can each search their own tree from the same
root at once; the agent sums the root children's statistics over the trees
(:func:`root_totals`, forumlab.agents.mcts).
"""
from .backup import HISTORY_BITS, MAX_TRACE
from .driver import run_iterations
from .options import (
    OPTIONS,
    ROLLOUT_HEURISTIC,
    ROLLOUT_NONE,
    ROLLOUT_RANDOM,
    ROLLOUT_SAMPLED,
    Option,
    Settings,
    make_settings,
    settings_from,
)
from .reuse import reroot
from .tree import (
    _STRIDE_PRIMES,
    F_AVAIL,
    F_CHILD,
    F_MOVE,
    F_MOVER,
    F_NCHILD,
    F_NLEGAL,
    F_PARENT,
    F_PERM,
    F_SIBLING,
    F_VISITS,
    N_FIELDS,
    ORDER_WIDTH,
    order_slots,
    order_width,
    reset_tree,
    root_children,
    root_totals,
    untried_index,
)

__all__ = [
    "HISTORY_BITS", "MAX_TRACE", "run_iterations", "OPTIONS", "ROLLOUT_HEURISTIC", "ROLLOUT_NONE",
    "ROLLOUT_RANDOM", "ROLLOUT_SAMPLED", "Option", "Settings", "make_settings", "settings_from", "reroot",
    "_STRIDE_PRIMES", "F_AVAIL", "F_CHILD", "F_MOVE", "F_MOVER", "F_NCHILD", "F_NLEGAL", "F_PARENT",
    "F_PERM", "F_SIBLING", "F_VISITS", "N_FIELDS", "ORDER_WIDTH", "order_slots", "order_width",
    "reset_tree", "root_children", "root_totals", "untried_index",
]
