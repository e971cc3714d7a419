"""Every MCTS option, declared once: :data:`OPTIONS`.

Each :class:`Option` record carries an option's name, default, help, type and allowed
values, and whether (and as what type) the search kernel reads it. Everything else is
derived from the table, under the same name end to end:

- the agent's declared parameters (``forumlab.agents.mcts.MCTSAgent.params``), and from
  them validation, ``Agent.spec()``, ``forumlab agents`` and docs/agents.md;
- the kernel's settings record :class:`Settings` (one numba tuple argument, so the
  kernel's signature does not grow with every option), built by :func:`settings_from`,
  which fixes each field's type: a field passed once as an int and once as a float
  would compile the kernel twice;
- the budget gate: options marked ``long_of`` replace the option they name when the
  move's budget is long (:func:`long_values`).

A game's tuned values (``Game.mcts_defaults``, ``mcts_defaults_by_players``) stay with
the game, since a game registered from outside forumlab must be able to declare its
own; they are values of these options and are checked against this table.

Pure Python: reading the table imports no numba.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..rewards import REWARD_NAMES, REWARD_SHARED

ROLLOUT_RANDOM = 0
ROLLOUT_HEURISTIC = 1
ROLLOUT_NONE = 2  # score the new leaf by the heuristic at once
ROLLOUT_SAMPLED = 3  # each ply the best of ``samples`` random moves by the one-ply heuristic
ROLLOUT_CODES = {"random": ROLLOUT_RANDOM, "heuristic": ROLLOUT_HEURISTIC, "none": ROLLOUT_NONE,
                 "sample": ROLLOUT_SAMPLED}

# Upper bounds of the options, chosen so that every value allowed keeps the kernels'
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
MAX_THREADS = 64


@dataclass(frozen=True)
class Option:
    """One MCTS option.

    Args:
        name: the one name, in specs, in the agent and in the kernel's settings.
        default: the value when neither the spec nor the game's tuned defaults set it.
        help: when to use it, for ``forumlab agents`` and docs/agents.md.
        kind, low, high, low_open, choices: what values are allowed (as
            :class:`forumlab.agents.params.Param` reads them).
        kernel: the type of the kernel's settings field (int, float or bool), or None
            for an option only the agent reads (budgets, tree reuse, threads, the gate).
        codes: for a kernel option with named choices, the code the kernel reads for each.
        long_of: the name of the option this one replaces when the move's budget is
            long (:func:`long_values`); -1 means "not set".
        gate: ``"seconds"`` or ``"iterations"`` for the two thresholds of a long budget.
    """

    name: str
    default: Any
    help: str
    kind: type | None = None
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    choices: tuple | None = None
    kernel: type | None = None
    codes: dict | None = None
    long_of: str | None = None
    gate: str | None = None

    def encode(self, value: Any) -> Any:
        """``value`` as the kernel's settings field holds it (a code, cast to its type)."""
        if self.codes is not None and not isinstance(value, bool) and value in self.codes:
            value = self.codes[value]
        return self.kernel(value)


OPTIONS: tuple[Option, ...] = (
    # ---- budget ---------------------------------------------------------------------
    Option("iterations", 1000, "iterations per move (when time is 0)", int, 1, MAX_COUNT),
    Option("time", 0.0, "wall-clock seconds per move; overrides iterations when > 0", float, 0.0,
           MAX_SECONDS),
    Option("cpu_time", 0.0, "CPU seconds of the searching thread per move; overrides iterations when > 0",
           float, 0.0, MAX_SECONDS),
    # ---- selection --------------------------------------------------------------------
    Option("c", 0.7, "UCB1 exploration constant (rewards are in [0, 1])", float, 0.0, MAX_WEIGHT,
           kernel=float),
    # ---- leaf evaluation --------------------------------------------------------------
    Option("rollout", "random", "rollout policy: random | heuristic (epsilon-greedy one-ply) "
                                "| sample (best of `samples` random moves by the one-ply heuristic) "
                                "| none (heuristic at the leaf)",
           choices=tuple(ROLLOUT_CODES), kernel=int, codes=ROLLOUT_CODES),
    Option("samples", 8, "random moves scored per ply of a rollout=sample rollout", int, 1, MAX_MOVES,
           kernel=int),
    Option("proposals", 0, "of those samples, how many come from the game's proposal of contested moves "
                           "(a game without one proposes uniformly random moves); proposals=4 measured level "
                           "with 0 in 4-player Forma, so use it through long_proposals",
           int, 0, MAX_MOVES, kernel=int),
    Option("epsilon", 0.2, "random-move probability of the heuristic rollout (rollout=heuristic: a full "
                           "move generation per ply, for games with short move lists)",
           float, 0.0, 1.0, kernel=float),
    Option("cutoff", 0, "rollout plies before the heuristic scores the position (0 = to the end)", int, 0,
           MAX_PLIES, kernel=int),
    Option("long_proposals", -1, "the proposals of a move whose budget is long (long_min_seconds, "
                                 "long_min_iterations); -1 = proposals at every budget: the tower-taking "
                                 "proposal pays in 4-player Forma at 1 s per move, not measured below",
           int, -1, MAX_MOVES, long_of="proposals"),
    Option("long_min_seconds", 0.0, "under a time or cpu_time budget, use long_proposals only when the "
                                    "move's budget is at least this many seconds (0 = any budget)",
           float, 0.0, MAX_SECONDS, gate="seconds"),
    Option("long_min_iterations", 0, "under an iteration budget, use long_proposals only when the move's "
                                     "budget is at least this many iterations (0 = any budget)",
           int, 0, MAX_COUNT, gate="iterations"),
    Option("reward", "win", "win | rank | score; rank also scores cut-off positions as an expected rank "
                            "(mean chance of being ahead of each other seat)",
           choices=tuple(REWARD_NAMES), kernel=int, codes={**REWARD_NAMES, "shared": REWARD_SHARED}),
    Option("hscale", 8.0, "score points per logistic unit when scoring cut-off positions", float, 0.0,
           MAX_HSCALE, low_open=True, kernel=float),
    # ---- tree shape -------------------------------------------------------------------
    Option("tree_depth", 0, "deepest tree level that gets children (0 = no limit); deeper positions are "
                            "scored as leaves: for branching in the thousands (Forma), where UCT below "
                            "the best-first plies would average over random moves",
           int, 0, MAX_PLIES, kernel=int),
    Option("deepen", 0, "visits after which a leaf at the tree_depth limit (or a multiple of it) grows "
                        "tree_depth more plies, best-first (0 = never): more time buys depth",
           int, 0, MAX_COUNT, kernel=int),
    Option("hrelative", False, "score cut-off positions by the heuristic margin gained since the root "
                               "(with reward=rank: each pair's gap gained), not the margin itself",
           bool, kernel=bool),
    Option("imm", 0.0, "implicit-minimax weight alpha in [0, 1] (0 = off)", float, 0.0, 1.0, kernel=float),
    Option("order_depth", 0, "tree depth above which children are expanded best-first by the heuristic",
           int, 0, MAX_PLIES, kernel=int),
    Option("widen", 0.0, "progressive unpruning of best-first nodes: "
                         "open 1 + widen*sqrt(visits) children (0 = all)", float, 0.0, MAX_WEIGHT,
           kernel=float),
    Option("replies", 0, "most children a best-first node of another seat opens, its best by its own "
                         "one-ply heuristic (0 = as widen allows; 1 = expect greedy's move: an opponent "
                         "model, strong against greedy seats, weak against searching ones)",
           int, 0, MAX_MOVES, kernel=int),
    Option("history", 0.0, "progressive-history weight (0 = off): a per-move bonus shared across the "
                           "tree, for large branching; not measured on these games",
           float, 0.0, MAX_WEIGHT, kernel=float),
    # ---- between moves, hidden information, resources ---------------------------------
    Option("reuse", True, "keep the subtree of the position reached between moves", bool),
    Option("ismcts", "auto", "information-set MCTS: auto (hidden-information games) | true | false",
           choices=("auto", True, False), kernel=bool),
    Option("max_nodes", 2_000_000, "node table size of each thread's tree; the tree stops growing when full",
           int, 2, MAX_NODES),
    Option("threads", 1, "root-parallel searches, one tree each "
                         f"(up to max_nodes nodes per thread, 1..{MAX_THREADS}); "
                         "iterations is their total, time and cpu_time bound each thread",
           int, 1, MAX_THREADS),
)

BY_NAME = {o.name: o for o in OPTIONS}
KERNEL_OPTIONS = tuple(o for o in OPTIONS if o.kernel is not None)
_GATE = {o.gate: o.name for o in OPTIONS if o.gate}

# The kernel's settings record: a field per kernel option, under the option's name,
# the searching seat (``observer``, whose view ISMCTS determinizes from) and the weights
# of the heuristic's terms (``weights``: None for the game's own, else a float64 array;
# forumlab.search.weighted), which the agent's ``w.NAME`` parameters set.
Settings = NamedTuple("Settings", [(o.name, o.kernel) for o in KERNEL_OPTIONS]
                      + [("observer", int), ("weights", Any)])
Settings.__new__.__defaults__ = (None,)
Settings.__doc__ = ("Read-only search settings of ``run_iterations``: one field per kernel option of "
                    ":data:`OPTIONS` (choices as their codes), ``observer``, the searching seat, and "
                    "``weights``, the heuristic's term weights (None: the game's defaults). "
                    "Build it with :func:`settings_from` or :func:`make_settings`.")


def budget_is_long(values: dict) -> bool:
    """Whether the budget of a move searched with the option values ``values`` is long.

    The gate looks at the budget the move is given, never at how fast the machine is or
    how busy: seconds of ``time`` or ``cpu_time`` (the smaller, when both are set)
    against ``long_min_seconds``, else ``iterations`` against ``long_min_iterations``.
    Why: a setting that pays at a second per move can cost at a fifth of one
    (docs/notebook/search.md), so short searches keep the settings they were tuned
    with, exactly.
    """
    seconds = [float(values[k]) for k in ("time", "cpu_time") if float(values[k]) > 0]
    if seconds:
        return min(seconds) >= float(values[_GATE["seconds"]])
    return int(values["iterations"]) >= int(values[_GATE["iterations"]])


def long_values(values: dict) -> dict:
    """The options that a long budget replaces: ``{name: value}`` of every option named
    by a set (not -1) ``long_of`` option, when the move's budget is long; else empty."""
    replaced = {o.long_of: values[o.name] for o in OPTIONS if o.long_of and int(values[o.name]) >= 0}
    return replaced if replaced and budget_is_long(values) else {}


def settings_from(values: dict, observer: int, weights=None) -> Settings:
    """The kernel's :class:`Settings` for the option values ``values`` (every kernel
    option by name; other keys are ignored) searched from the seat ``observer``, with the
    heuristic's term ``weights`` (a float64 array, or None for the game's own)."""
    return Settings(*(o.encode(values[o.name]) for o in KERNEL_OPTIONS), int(observer), weights)


_KERNEL_DEFAULTS = {o.name: o.default for o in KERNEL_OPTIONS}
_KERNEL_DEFAULTS["ismcts"] = False  # "auto" is resolved by the agent, which knows the game


def make_settings(observer: int = 0, **values) -> Settings:
    """A :class:`Settings` of the declared defaults (``ismcts`` off) updated with
    ``values`` (kernel options by name, choices by name or code).

    Raises:
        TypeError: a name that is not a kernel option.
    """
    unknown = set(values) - set(_KERNEL_DEFAULTS)
    if unknown:
        raise TypeError(f"make_settings: not kernel options: {', '.join(sorted(unknown))}")
    return settings_from({**_KERNEL_DEFAULTS, **values}, observer)
