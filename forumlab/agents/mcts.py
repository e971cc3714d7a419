"""The MCTS agent: UCT / information-set MCTS over the generic numba kernels.

Memory: each node costs ``8 * (10 + 2 * players)`` bytes (an int64 row of ten fields,
one float64 reward sum and one implicit-minimax value per player), e.g. 128 bytes
with 3 players. A node is added
per iteration at most, so 100,000 iterations use about 10 MB; ``max_nodes`` caps
the table (default 2,000,000 nodes, about 260 MB at 3 players), after which the
search keeps iterating without growing the tree.

Root parallelism (``threads=k``): k searches from the same root run at once in k
Python threads (the numba kernels release the GIL), each with its own tree, move-order
pool, progressive-history table and RNG stream (thread 0 draws from the agent's own
stream, thread i > 0 from one derived from the agent's seed and i). The move played is
the one with the most root visits summed over the trees (ties: the higher summed
reward, then the lower move code). ``iterations`` is the total over the threads, shared
out as evenly as possible, so a search under an iteration budget is reproducible bit
for bit however the threads are scheduled; ``time`` ends every thread at the same
wall-clock deadline; ``cpu_time`` is spent by each thread on its own CPU clock. Memory
grows with the threads: each tree may reach ``max_nodes`` nodes, so k threads may use
k times the table above (plus about ``8 * 2**17 * players`` bytes of history table and
up to 8 MB of move-order pool per thread).
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..core.errors import ForumlabError
from ..core.rng import derive_seed, make_rng
from ..search import mcts as kernel
from ..search.rewards import REWARD_NAMES, REWARD_SHARED
from .base import Agent, Param

_TIME_CHUNK = 64  # iterations between clock checks under a time budget
_INITIAL_TIME_CAPACITY = 1 << 15
_ORDER_POOL_ROWS = 512  # nodes whose children are expanded best-first
MAX_THREADS = 64
# Upper bounds of the parameters, chosen so that every value allowed keeps the kernels'
# arithmetic in range (int64 counters, float64 products such as widen * sqrt(visits),
# which the kernel turns into an int64) while leaving far more room than any search
# uses; a value beyond them is refused with one line instead of failing in every search.
MAX_COUNT = 1 << 62  # iterations and visit thresholds (int64 counters)
MAX_SECONDS = 1e6  # time budgets (about 11.6 days a move)
MAX_WEIGHT = 1e6  # c, widen, history: times sqrt(visits) <= 2**31 stays below 2**63
MAX_HSCALE = 1e9  # score points per logistic unit
MAX_MOVES = 1 << 16  # counts of moves (samples, proposals, replies): above every move list
MAX_PLIES = 1 << 20  # depths and rollout plies
MAX_NODES = 1 << 40  # node table size (memory runs out long before)
_ROLLOUTS = {"random": kernel.ROLLOUT_RANDOM, "heuristic": kernel.ROLLOUT_HEURISTIC,
             "none": kernel.ROLLOUT_NONE, "sample": kernel.ROLLOUT_SAMPLED}


class MCTSAgent(Agent):
    """Monte Carlo tree search with vector rewards, ISMCTS for hidden information."""

    name = "mcts"
    description = "UCT with per-player rewards; information-set MCTS for hidden-information games"
    params = {
        "iterations": Param(1000, "iterations per move (when time is 0)", low=1, high=MAX_COUNT),
        "time": Param(0.0, "wall-clock seconds per move; overrides iterations when > 0", low=0.0,
                      high=MAX_SECONDS),
        "cpu_time": Param(0.0, "CPU seconds of the searching thread per move; overrides iterations when > 0",
                          low=0.0, high=MAX_SECONDS),
        "c": Param(0.7, "UCB1 exploration constant (rewards are in [0, 1])", low=0.0, high=MAX_WEIGHT),
        "rollout": Param("random", "rollout policy: random | heuristic (epsilon-greedy one-ply) "
                                   "| sample (best of `samples` random moves by the one-ply heuristic) "
                                   "| none (heuristic at the leaf)", choices=tuple(_ROLLOUTS)),
        "samples": Param(8, "random moves scored per ply of a rollout=sample rollout", low=1, high=MAX_MOVES),
        "proposals": Param(0, "of those samples, how many come from the game's proposal of contested moves "
                              "(a game without one proposes uniformly random moves)", low=0, high=MAX_MOVES),
        "epsilon": Param(0.2, "random-move probability of the heuristic rollout", low=0.0, high=1.0),
        "cutoff": Param(0, "rollout plies before the heuristic scores the position (0 = to the end)", low=0,
                        high=MAX_PLIES),
        "long_cutoff": Param(-1, "the cutoff of a move whose budget is long (long_min_seconds, "
                                 "long_min_iterations); -1 = cutoff at every budget: rollouts that "
                                 "look further pay only when there is time for many of them",
                             low=-1, high=MAX_PLIES),
        "long_proposals": Param(-1, "the proposals of a move whose budget is long (the long_cutoff gate); "
                                    "-1 = proposals at every budget", low=-1, high=MAX_MOVES),
        "long_min_seconds": Param(0.0, "under a time or cpu_time budget, use long_cutoff and "
                                       "long_proposals only when the move's budget is at least this many "
                                       "seconds (0 = any budget)",
                                  low=0.0, high=MAX_SECONDS),
        "long_min_iterations": Param(0, "under an iteration budget, use long_cutoff and long_proposals "
                                        "only when the move's budget is at least this many iterations "
                                        "(0 = any budget)", low=0, high=MAX_COUNT),
        "reward": Param("win", "win | rank | score; rank also scores cut-off positions as an expected rank "
                               "(mean chance of being ahead of each other seat)",
                        choices=tuple(REWARD_NAMES)),
        "hscale": Param(8.0, "score points per logistic unit when scoring cut-off positions",
                        low=0.0, low_open=True, high=MAX_HSCALE),
        "tree_depth": Param(0, "deepest tree level that gets children (0 = no limit); "
                               "deeper positions are scored as leaves", low=0, high=MAX_PLIES),
        "deepen": Param(0, "visits after which a leaf at the tree_depth limit (or a multiple of it) grows "
                           "tree_depth more plies, best-first (0 = never): more time buys depth", low=0,
                         high=MAX_COUNT),
        "deepen_after": Param(0, "root visits (iterations, reused ones included) before any leaf deepens "
                                 "(0 = at once): short searches keep the tree_depth tree",
                               low=0, high=MAX_COUNT),
        "deepen_min_seconds": Param(0.0, "under a time or cpu_time budget, deepen only when the move's "
                                         "budget is at least this many seconds (0 = any budget)", low=0.0,
                                      high=MAX_SECONDS),
        "deepen_min_iterations": Param(0, "under an iteration budget, deepen only when the move's budget is "
                                          "at least this many iterations (0 = any budget)",
                                        low=0, high=MAX_COUNT),
        "order_sample": Param(0, "a node that deepening opens (at depth order_depth or more) orders "
                                 "this many of its legal moves, drawn uniformly, instead of all of them "
                                 "(0 = all): deepening then costs little where moves number thousands; "
                                 "in a search that deepens, tree reuse is off: a kept node may have "
                                 "been ordered from a sample", low=0, high=MAX_MOVES),
        "random_ties": Param(False, "best-first orders put moves of equal one-ply value in random order "
                                    "(drawn from the search's RNG), not move-list order: a widened node "
                                    "then opens a uniform draw of each tied class, not the same run of "
                                    "near-identical moves in every search"),
        "hrelative": Param(False, "score cut-off positions by the heuristic margin gained since the root "
                                  "(with reward=rank: each pair's gap gained), not the margin itself"),
        "imm": Param(0.0, "implicit-minimax weight alpha in [0, 1] (0 = off)", low=0.0, high=1.0),
        "order_depth": Param(0, "tree depth above which children are expanded best-first by the heuristic",
                             low=0, high=MAX_PLIES),
        "widen": Param(0.0, "progressive unpruning of best-first nodes: "
                             "open 1 + widen*sqrt(visits) children (0 = all)", low=0.0, high=MAX_WEIGHT),
        "replies": Param(0, "most children a best-first node of another seat opens, its best by its own "
                            "one-ply heuristic (0 = as widen allows; 1 = expect greedy's move: an "
                            "opponent model, strong against greedy seats, weak against searching ones)",
                         low=0, high=MAX_MOVES),
        "history": Param(0.0, "progressive-history weight, for large branching (0 = off)", low=0.0,
                         high=MAX_WEIGHT),
        "reuse": Param(True, "keep the subtree of the position reached between moves"),
        "ismcts": Param("auto", "information-set MCTS: auto (hidden-information games) | true | false",
                        choices=("auto", True, False)),
        "max_nodes": Param(2_000_000, "node table size of each thread's tree; "
                                      "the tree stops growing when full", low=2, high=MAX_NODES),
        "threads": Param(1, "root-parallel searches, one tree each "
                            f"(up to max_nodes nodes per thread, 1..{MAX_THREADS}); "
                            "iterations is their total, time and cpu_time bound each thread",
                         low=1, high=MAX_THREADS),
    }

    def __init__(self, seed: int = 0, **options):
        super().__init__(seed, **options)  # checks each parameter against its declaration
        self._searches: list[_Search] = []  # one per thread, kept between moves
        self.last_search: dict = {}

    @property
    def _tree(self):
        """(nodes, rewards, meta, order pool) of the first thread's tree (tests, probes)."""
        return self._searches[0].tree if self._searches else None

    def _searches_for(self, threads: int) -> list:
        """The first ``threads`` searches; thread 0 uses the agent's RNG stream."""
        while len(self._searches) < threads:
            i = len(self._searches)
            rng = self.rng if i == 0 else make_rng(derive_seed(self.seed, "mcts thread", i))
            self._searches.append(_Search(rng))
        return self._searches[:threads]

    # ---- search --------------------------------------------------------------------
    def settings_for(self, game) -> dict:
        """The parameters a search in ``game`` uses.

        Args:
            game: the Game being played.

        Returns:
            Every parameter: the one given in the spec, else the game's tuned MCTS
            default at its player count (``Game.tuned_mcts``), else the declared default.
        """
        tuned = {k: v for k, v in game.tuned_mcts().items() if k not in self.given}
        return {**self.options, **tuned}

    def choose(self, state):
        game = state.game
        o = self.settings_for(game)
        ismcts = (not game.perfect_information) if o["ismcts"] == "auto" else bool(o["ismcts"])
        time_budget = float(o["time"])
        cpu_budget = float(o["cpu_time"])
        timed = time_budget > 0 or cpu_budget > 0
        threads = o["threads"]
        searches = self._searches_for(threads)
        # Iterations shared out as evenly as possible: the same total gives the same
        # trees whatever the scheduling.
        total = o["iterations"]
        shares = [total // threads + (1 if i < total % threads else 0) for i in range(threads)]
        settings = kernel.make_settings(
            c=o["c"], ismcts=ismcts, observer=state.current_player, rollout=_ROLLOUTS[o["rollout"]],
            epsilon=o["epsilon"], cutoff=rollout_cutoff(o),
            # a cooperative game has one shared value: every seat plays for the team
            reward_kind=REWARD_SHARED if game.cooperative else REWARD_NAMES[o["reward"]],
            hscale=o["hscale"], history_weight=o["history"], imm_alpha=o["imm"],
            order_depth=o["order_depth"], widen=o["widen"], hrelative=o["hrelative"],
            max_depth=o["tree_depth"], deepen=o["deepen"] if budget_deepens(o) else 0, samples=o["samples"],
            deepen_after=o["deepen_after"], replies=o["replies"], proposals=rollout_proposals(o),
            order_sample=o["order_sample"], random_ties=o["random_ties"],
        )
        # A kept subtree's nodes sit nearer the root than when they were expanded: when
        # this search's deepening orders nodes from a sample, its new root may be one, and
        # a root must weigh every legal move, so such a search starts a fresh tree.
        reuse = o["reuse"] and not (settings.order_sample > 0 and settings.deepen > 0)
        key = ((game.name, repr(game.config), state.seed), list(state.history))
        tag = game.kernels.tag

        def prepare(i):
            room = _INITIAL_TIME_CAPACITY if timed else shares[i]
            return searches[i].prepare_root(state, room, reuse, o["max_nodes"])

        def run(i):
            root = state.array.copy()  # one per thread, nothing shared but read-only settings
            done, cpu = searches[i].spend(tag, root, settings, shares[i], deadline, cpu_budget,
                                          o["max_nodes"])
            searches[i].root_key = key + (state.array.copy(),)
            return done, cpu

        def deadline_from(started):
            # Every thread stops at the same wall-clock deadline; each spends its own CPU budget.
            if not timed:
                return None
            return started + time_budget if time_budget > 0 else float("inf")

        if threads == 1:
            kept = [prepare(0)]
            started = time.perf_counter()
            deadline = deadline_from(started)
            results = [run(0)]
        else:
            started = time.perf_counter()
            deadline = deadline_from(started)
            # The calling thread runs search 0; leaving the with-block joins the pool,
            # so no thread outlives the move.
            def prepare_and_run(i):
                return prepare(i), run(i)

            with ThreadPoolExecutor(max_workers=threads - 1, thread_name_prefix="mcts") as pool:
                futures = [pool.submit(prepare_and_run, i) for i in range(1, threads)]
                first = prepare_and_run(0)
                done = [first] + [f.result() for f in futures]
            kept = [d[0] for d in done]
            results = [d[1] for d in done]
        move = _best_root_move(state, [s.tree for s in searches])
        self.last_search = {
            "iterations": sum(r[0] for r in results),
            "seconds": time.perf_counter() - started,
            "cpu_seconds": sum(r[1] for r in results),
            "nodes": sum(int(s.tree[2][0]) for s in searches),
            "reused_nodes": sum(int(k) for k in kept),
            "threads": threads,
            "thread_iterations": [r[0] for r in results],
            "thread_cpu_seconds": [r[1] for r in results],
        }
        return move


def budget_reaches(o: dict, gate: str) -> bool:
    """Whether the budget of a move searched with the parameters ``o`` opens ``gate``.

    The gate looks at the budget the move is given, never at how fast the machine is
    or how busy: seconds of ``time`` or ``cpu_time`` (the smaller, when both are set)
    against ``{gate}_min_seconds``, else ``iterations`` against ``{gate}_min_iterations``.
    Why: a setting that pays at a second per move can cost at a fifth of one
    (docs/notebook/search.md), so short searches keep the settings they were tuned with,
    exactly.
    """
    seconds = [float(o[k]) for k in ("time", "cpu_time") if float(o[k]) > 0]
    if seconds:
        return min(seconds) >= float(o[f"{gate}_min_seconds"])
    return int(o["iterations"]) >= int(o[f"{gate}_min_iterations"])


def budget_deepens(o: dict) -> bool:
    """Whether a move searched with the parameters ``o`` may deepen (``deepen``)."""
    return budget_reaches(o, "deepen")


def long_setting(o: dict, name: str) -> int:
    """The value of the integer parameter ``name`` for a move searched with the parameters
    ``o``: ``long_{name}`` when it is set (not -1) and the move's budget opens the ``long``
    gate, else ``name`` itself."""
    if int(o[f"long_{name}"]) >= 0 and budget_reaches(o, "long"):
        return int(o[f"long_{name}"])
    return int(o[name])


def rollout_cutoff(o: dict) -> int:
    """The rollout cutoff of a move searched with the parameters ``o``: ``long_cutoff``
    when it is set and the move's budget is long, else ``cutoff``."""
    return long_setting(o, "cutoff")


def rollout_proposals(o: dict) -> int:
    """The rollout proposals of a move searched with the parameters ``o``:
    ``long_proposals`` when it is set and the move's budget is long, else ``proposals``.
    Why a gate: in 4-player Forma the tower-taking proposal paid at 1 s per move, where
    nothing says it pays at 0.1 s (docs/notebook/search.md)."""
    return long_setting(o, "proposals")


class _Search:
    """One search tree with its progressive-history table, RNG stream and root key,
    kept between moves for tree reuse (root-parallel search keeps one per thread)."""

    def __init__(self, rng):
        self.rng = rng
        self.tree = None  # (nodes, rewards, meta, order pool)
        self.history = None  # per-player progressive-history table
        self.root_key = None  # ((game, config, seed), history, array) of the tree's root

    # ---- tree management ---------------------------------------------------------
    @staticmethod
    def _allocate(capacity: int, players: int, max_moves: int):
        try:
            nodes = np.empty((capacity, kernel.N_FIELDS), dtype=np.int64)
            rewards = np.empty((capacity, 2 * players), dtype=np.float64)
        except (MemoryError, ValueError):  # ValueError: beyond what numpy can address
            # A budget of many iterations sizes the table up front (up to max_nodes):
            # say which parameters to lower rather than numpy's words.
            need = capacity * 8 * (kernel.N_FIELDS + 2 * players)
            raise ForumlabError(f"mcts: no memory for a tree of {capacity} nodes ({need / 2**30:.3g} GiB); "
                                "lower max_nodes or iterations") from None
        meta = np.zeros(2, dtype=np.int64)
        # Rows of best-first move orders: up to 512, within about 8 MB.
        rows = max(16, min(_ORDER_POOL_ROWS, (8 << 20) // (8 * max_moves)))
        pool = np.empty((rows, max_moves), dtype=np.int64)
        return nodes, rewards, meta, pool

    def prepare_root(self, state, room: int, reuse: bool, max_nodes: int) -> int:
        """Reset the tree at ``state``, or re-root the old tree there when possible;
        return the nodes kept."""
        players = state.game.players
        key = (state.game.name, repr(state.game.config), state.seed)
        kept = 0
        if reuse and self.tree is not None and self.root_key is not None:
            old_key, old_history, old_array = self.root_key
            history = state.history
            if (old_key == key and history[: len(old_history)] == old_history
                    and _leads_to(state.game, old_array, history[len(old_history):], state.array)):
                path = np.array(history[len(old_history):], dtype=np.int64)
                old_nodes, old_rewards, old_meta, old_pool = self.tree
                capacity = min(int(old_meta[0]) + room + 1, max_nodes)
                new = self._allocate(capacity, players, state.game.kernels.max_moves)
                kept = kernel.reroot(old_nodes, old_rewards, old_meta, old_pool, path, *new)
                self.tree = new
        if kept == 0:
            capacity = min(room + 1, max_nodes)
            self.tree = self._allocate(capacity, players, state.game.kernels.max_moves)
            kernel.reset_tree(self.tree[0], self.tree[2])
        if self.history is None or self.history.shape[0] != players:
            self.history = np.zeros((players, 1 << kernel.HISTORY_BITS, 2), dtype=np.float64)
        return kept

    def grow(self, max_nodes: int) -> None:
        """Double the node table (time and cpu_time budgets only), up to max_nodes."""
        nodes, rewards, meta, pool = self.tree
        capacity = min(2 * nodes.shape[0], max_nodes)
        if capacity <= nodes.shape[0]:
            return
        new_nodes, new_rewards, _, _ = self._allocate(capacity, rewards.shape[1] // 2, pool.shape[1])
        used = int(meta[0])
        new_nodes[:used] = nodes[:used]
        new_rewards[:used] = rewards[:used]
        self.tree = (new_nodes, new_rewards, meta, pool)

    def spend(self, tag, root, settings: kernel.Settings, iterations: int, deadline, cpu_budget: float,
              max_nodes: int):
        """Search from ``root``: ``iterations`` iterations when ``deadline`` is None, else
        chunks of iterations until the wall clock passes ``deadline`` or this thread's
        CPU clock has advanced by ``cpu_budget`` seconds (when > 0).

        Returns (iterations done, CPU seconds of the calling thread).
        """
        cpu_started = time.thread_time()
        if deadline is None:
            done = self._run(tag, root, iterations, settings)
        else:
            # Both clocks are read between chunks of iterations; the first budget spent
            # ends the search.  Thread CPU time does not stretch when other processes
            # load the machine, so a cpu_time budget buys the same search anywhere busy;
            # each thread reads its own clock, so it is per thread under root parallelism.
            cpu_deadline = cpu_started + cpu_budget if cpu_budget > 0 else float("inf")
            done = 0
            while True:
                done += self._run(tag, root, _TIME_CHUNK, settings)
                if time.perf_counter() >= deadline or time.thread_time() >= cpu_deadline:
                    break
                nodes, _, meta, _ = self.tree
                if meta[0] + _TIME_CHUNK >= nodes.shape[0]:
                    self.grow(max_nodes)
        return done, time.thread_time() - cpu_started

    def _run(self, tag, root, n: int, settings: kernel.Settings) -> int:
        return kernel.run_iterations(tag, root, n, self.tree, self.history, self.rng, settings)


def _leads_to(game, array, moves, target) -> bool:
    """True when playing ``moves`` from ``array`` gives exactly ``target``: the check
    that the tree's old root and the new position are the same game. A history alone
    is not enough: a hidden-information game's view has none (State.view_for), so
    without this check the tree of the previous move was searched again."""
    position = array.copy()
    for move in moves:
        game.kernels.apply_move(position, move)
    return np.array_equal(position, target)


def _best_root_move(state, trees) -> int:
    """The legal move with the most root visits summed over ``trees``; ties go to the
    higher mean reward for the mover, then to the lower move code."""
    found = []
    for nodes, rewards, _, _ in trees:
        cap = max(1, int(nodes[0, kernel.F_NCHILD]))  # every child of the root
        moves = np.empty(cap, dtype=np.int64)
        visits = np.empty(cap, dtype=np.int64)
        totals = np.empty(cap, dtype=np.float64)
        k = kernel.root_totals(nodes, rewards, moves, visits, totals)
        found.append((moves[:k], visits[:k], totals[:k]))
    codes, where = np.unique(np.concatenate([f[0] for f in found]), return_inverse=True)
    visits = np.zeros(len(codes), dtype=np.int64)
    totals = np.zeros(len(codes), dtype=np.float64)
    np.add.at(visits, where, np.concatenate([f[1] for f in found]))
    np.add.at(totals, where, np.concatenate([f[2] for f in found]))  # in tree order: reproducible
    legal = np.isin(codes, state.legal_moves())  # differ only under ISMCTS determinizations
    if not legal.any():
        raise ForumlabError("MCTS found no legal move at the root")
    codes, visits, totals = codes[legal], visits[legal], totals[legal]
    # With one tree, totals / visits is the mean the kernel reports, to the last bit.
    means = totals / np.maximum(visits, 1)
    best = np.lexsort((-codes, means, visits))[-1]
    return int(codes[best])

