"""The MCTS agent: UCT / information-set MCTS over the generic numba kernels.

Memory: each node costs ``8 * (10 + 2 * players)`` bytes (an int64 row of ten fields,
one float64 reward sum and one implicit-minimax value per player), e.g. 128 bytes
with 3 players. A node is added
per iteration at most, so 100,000 iterations use about 10 MB; ``max_nodes`` caps
the table (default 2,000,000 nodes, about 260 MB at 3 players), after which the
search keeps iterating without growing the tree.
"""
from __future__ import annotations

import time

import numpy as np

from ..core.errors import ForumlabError
from ..search import mcts as kernel
from ..search.rewards import REWARD_NAMES
from .base import Agent, Param
from .spec import AgentSpecError

_TIME_CHUNK = 64  # iterations between clock checks under a time budget
_INITIAL_TIME_CAPACITY = 1 << 15
_ORDER_POOL_ROWS = 512  # nodes whose children are expanded best-first
_ROLLOUTS = {"random": kernel.ROLLOUT_RANDOM, "heuristic": kernel.ROLLOUT_HEURISTIC, "none": kernel.ROLLOUT_NONE}


class MCTSAgent(Agent):
    """Monte Carlo tree search with vector rewards, ISMCTS for hidden information."""

    name = "mcts"
    description = "UCT with per-player rewards; information-set MCTS for hidden-information games"
    params = {
        "iterations": Param(1000, "iterations per move (when time is 0)"),
        "time": Param(0.0, "wall-clock seconds per move; overrides iterations when > 0"),
        "cpu_time": Param(0.0, "CPU seconds of the searching thread per move; overrides iterations when > 0"),
        "c": Param(0.7, "UCB1 exploration constant (rewards are in [0, 1])"),
        "rollout": Param("random", "rollout policy: random | heuristic (epsilon-greedy one-ply) | none (heuristic at the leaf)"),
        "epsilon": Param(0.2, "random-move probability of the heuristic rollout"),
        "cutoff": Param(0, "rollout plies before the heuristic scores the position (0 = to the end)"),
        "reward": Param("win", "win | rank | score; rank also scores cut-off positions as an expected rank (mean chance of being ahead of each other seat)"),
        "hscale": Param(8.0, "score points per logistic unit when scoring cut-off positions"),
        "tree_depth": Param(0, "deepest tree level that gets children (0 = no limit); deeper positions are scored as leaves"),
        "hrelative": Param(False, "score cut-off positions by the heuristic margin gained since the root, not the margin itself"),
        "imm": Param(0.0, "implicit-minimax weight alpha in [0, 1] (0 = off)"),
        "order_depth": Param(0, "tree depth above which children are expanded best-first by the heuristic"),
        "widen": Param(0.0, "progressive unpruning of best-first nodes: open 1 + widen*sqrt(visits) children (0 = all)"),
        "history": Param(0.0, "progressive-history weight, for large branching (0 = off)"),
        "reuse": Param(True, "keep the subtree of the position reached between moves"),
        "ismcts": Param("auto", "information-set MCTS: auto (hidden-information games) | true | false"),
        "max_nodes": Param(2_000_000, "node table size; the tree stops growing when full"),
    }

    def __init__(self, seed: int = 0, **options):
        super().__init__(seed, **options)
        self.given = set(options)
        o = self.options
        _check(isinstance(o["iterations"], int) and o["iterations"] >= 1, "iterations must be an integer >= 1")
        _check(_is_seconds(o["time"]), "time must be a number >= 0")
        _check(_is_seconds(o["cpu_time"]), "cpu_time must be a number >= 0")
        _check(isinstance(o["c"], (int, float)) and o["c"] >= 0, "c must be a number >= 0")
        _check(o["rollout"] in _ROLLOUTS, "rollout must be random, heuristic or none")
        _check(isinstance(o["epsilon"], (int, float)) and 0 <= o["epsilon"] <= 1, "epsilon must be in [0, 1]")
        _check(isinstance(o["cutoff"], int) and o["cutoff"] >= 0, "cutoff must be an integer >= 0")
        _check(o["reward"] in REWARD_NAMES, "reward must be win, rank or score")
        _check(isinstance(o["hscale"], (int, float)) and o["hscale"] > 0, "hscale must be a number > 0")
        _check(isinstance(o["tree_depth"], int) and not isinstance(o["tree_depth"], bool) and o["tree_depth"] >= 0,
               "tree_depth must be an integer >= 0")
        _check(isinstance(o["hrelative"], bool), "hrelative must be true or false")
        _check(not (o["hrelative"] and o["reward"] == "rank"),
               "hrelative works with reward=win or score (reward=rank compares the seats with each other)")
        _check(isinstance(o["imm"], (int, float)) and 0 <= o["imm"] <= 1, "imm must be in [0, 1]")
        _check(isinstance(o["order_depth"], int) and o["order_depth"] >= 0, "order_depth must be an integer >= 0")
        _check(isinstance(o["widen"], (int, float)) and o["widen"] >= 0, "widen must be a number >= 0")
        _check(isinstance(o["history"], (int, float)) and o["history"] >= 0, "history must be a number >= 0")
        _check(isinstance(o["reuse"], bool), "reuse must be true or false")
        _check(o["ismcts"] in ("auto", True, False), "ismcts must be auto, true or false")
        _check(isinstance(o["max_nodes"], int) and o["max_nodes"] >= 2, "max_nodes must be an integer >= 2")
        self._tree = None  # (nodes, rewards, meta, order pool)
        self._history = None  # per-player progressive-history table
        self._root_key = None  # (game config, seed, history) of the tree's root
        self.last_search: dict = {}

    # ---- tree management ---------------------------------------------------------
    def _allocate(self, capacity: int, players: int, max_moves: int):
        nodes = np.empty((capacity, kernel.N_FIELDS), dtype=np.int64)
        rewards = np.empty((capacity, 2 * players), dtype=np.float64)
        meta = np.zeros(2, dtype=np.int64)
        # Rows of best-first move orders: up to 512, within about 8 MB.
        rows = max(16, min(_ORDER_POOL_ROWS, (8 << 20) // (8 * max_moves)))
        pool = np.empty((rows, max_moves), dtype=np.int64)
        return nodes, rewards, meta, pool

    def _prepare_root(self, state, room: int):
        """Reset the tree at ``state``, or re-root the old tree there when possible."""
        players = state.game.players
        key = (state.game.name, repr(state.game.config), state.seed)
        kept = 0
        if self.options["reuse"] and self._tree is not None and self._root_key is not None:
            old_key, old_history = self._root_key
            history = state.history
            if old_key == key and history[: len(old_history)] == old_history:
                path = np.array(history[len(old_history):], dtype=np.int64)
                old_nodes, old_rewards, old_meta, old_pool = self._tree
                capacity = min(int(old_meta[0]) + room + 1, self.options["max_nodes"])
                new = self._allocate(capacity, players, state.game.kernels.max_moves)
                kept = kernel.reroot(old_nodes, old_rewards, old_meta, old_pool, path, *new)
                self._tree = new
        if kept == 0:
            capacity = min(room + 1, self.options["max_nodes"])
            self._tree = self._allocate(capacity, players, state.game.kernels.max_moves)
            kernel.reset_tree(self._tree[0], self._tree[2])
        if self._history is None or self._history.shape[0] != players:
            self._history = np.zeros((players, 1 << kernel.HISTORY_BITS, 2), dtype=np.float64)
        return kept

    def _grow(self):
        """Double the node table (time and cpu_time budgets only), up to max_nodes."""
        nodes, rewards, meta, pool = self._tree
        capacity = min(2 * nodes.shape[0], self.options["max_nodes"])
        if capacity <= nodes.shape[0]:
            return
        new_nodes, new_rewards, _, _ = self._allocate(capacity, rewards.shape[1] // 2, pool.shape[1])
        used = int(meta[0])
        new_nodes[:used] = nodes[:used]
        new_rewards[:used] = rewards[:used]
        self._tree = (new_nodes, new_rewards, meta, pool)

    # ---- search --------------------------------------------------------------------
    def settings_for(self, game) -> dict:
        """Effective parameters in ``game``: those given in the spec, else the game's
        tuned MCTS defaults at its player count (``Game.tuned_mcts``), else the
        generic defaults."""
        tuned = {k: v for k, v in game.tuned_mcts().items() if k not in self.given}
        return {**self.options, **tuned}

    def choose(self, state):
        game = state.game
        o = self.settings_for(game)
        ismcts = (not game.perfect_information) if o["ismcts"] == "auto" else bool(o["ismcts"])
        reward = REWARD_NAMES[o["reward"]]
        cutoff = o["cutoff"]
        rollout = _ROLLOUTS[o["rollout"]]
        imm = float(o["imm"])
        order_depth = o["order_depth"]
        root = state.array.copy()
        tag = game.kernels.tag
        observer = state.current_player
        time_budget = float(o["time"])
        cpu_budget = float(o["cpu_time"])
        timed = time_budget > 0 or cpu_budget > 0
        room = _INITIAL_TIME_CAPACITY if timed else o["iterations"]
        kept = self._prepare_root(state, room)

        def run(n):
            nodes, rewards, meta, pool = self._tree
            return kernel.run_iterations(
                tag, root, n, nodes, rewards, meta, pool, self._history, self.rng, float(o["c"]),
                ismcts, observer, rollout, float(o["epsilon"]), cutoff, reward,
                float(o["hscale"]), float(o["history"]), imm, order_depth,
                float(o["widen"]), bool(o["hrelative"]), int(o["tree_depth"]),
            )

        started = time.perf_counter()
        cpu_started = time.thread_time()
        iterations = 0
        if timed:
            # Both clocks are read between chunks of iterations; the first budget spent
            # ends the search.  Thread CPU time does not stretch when other processes
            # load the machine, so a cpu_time budget buys the same search anywhere busy.
            deadline = started + time_budget if time_budget > 0 else float("inf")
            cpu_deadline = cpu_started + cpu_budget if cpu_budget > 0 else float("inf")
            while True:
                iterations += run(_TIME_CHUNK)
                if time.perf_counter() >= deadline or time.thread_time() >= cpu_deadline:
                    break
                nodes, _, meta, _ = self._tree
                if meta[0] + _TIME_CHUNK >= nodes.shape[0]:
                    self._grow()
        else:
            iterations = run(o["iterations"])
        move = self._best_root_move(state)
        nodes, rewards, meta, _ = self._tree
        self.last_search = {
            "iterations": iterations,
            "seconds": time.perf_counter() - started,
            "cpu_seconds": time.thread_time() - cpu_started,
            "nodes": int(meta[0]),
            "reused_nodes": int(kept),
        }
        self._root_key = ((game.name, repr(game.config), state.seed), list(state.history))
        return move

    def _best_root_move(self, state) -> int:
        nodes, rewards, _, _ = self._tree
        cap = max(1, int(nodes[0, kernel.F_NCHILD]))  # every child of the root
        moves = np.empty(cap, dtype=np.int64)
        visits = np.empty(cap, dtype=np.int64)
        means = np.empty(cap, dtype=np.float64)
        k = kernel.root_children(nodes, rewards, moves, visits, means)
        legal = set(state.legal_moves().tolist())
        best = None
        for m, v, q in zip(moves[:k].tolist(), visits[:k].tolist(), means[:k].tolist()):
            if m not in legal:  # possible only under ISMCTS determinizations
                continue
            cand = (v, q, -m)
            if best is None or cand > best[0]:
                best = (cand, m)
        if best is None:
            raise ForumlabError("MCTS found no legal move at the root")
        return best[1]


def _is_seconds(value) -> bool:
    return (not isinstance(value, bool) and isinstance(value, (int, float))
            and 0 <= value < float("inf"))


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise AgentSpecError(f"mcts: {message}")
