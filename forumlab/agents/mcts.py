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
from ..search.mcts.options import OPTIONS, long_values
from .base import Param
from .weights import ARCHETYPE_PARAM, EVAL_PARAM, WeightedAgent

_TIME_CHUNK = 64  # iterations between clock checks under a time budget
_INITIAL_TIME_CAPACITY = 1 << 15
_ORDER_POOL_ROWS = 512  # nodes whose children are expanded best-first


class MCTSAgent(WeightedAgent):
    """Monte Carlo tree search with vector rewards, ISMCTS for hidden information."""

    name = "mcts"
    description = "UCT with per-player rewards; information-set MCTS for hidden-information games"
    # One Param per option of the table (forumlab.search.mcts.options), under its name.
    # The heuristic's term weights (w.NAME, archetype) are not kernel options: .weights.
    params = {**{o.name: Param(o.default, o.help, kind=o.kind, low=o.low, high=o.high, low_open=o.low_open,
                               choices=o.choices) for o in OPTIONS},
              "archetype": ARCHETYPE_PARAM, "eval": EVAL_PARAM}

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
        values = {**o, **long_values(o),
                  "ismcts": ismcts,
                  # a cooperative game has one shared value: every seat plays for the team
                  "reward": "shared" if game.cooperative else o["reward"]}
        settings = kernel.settings_from(values, observer=state.current_player,
                                        weights=self.heuristic_weights(game))
        reuse = o["reuse"]
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

