"""The game protocol: numba kernels behind a small Python facade.

Every game is a flat ``numpy.int64`` state array plus numba kernels with the same
names and signatures in every game (see :class:`Kernels`). Generic code (playouts,
agents, search, the arena) only ever talks to these kernels, so it works for any
registered game, including games with chance (an RNG word lives in the state),
hidden information (``determinize``) and 2-6 players (``scores`` is a vector).

The array begins with the core's header (:mod:`forumlab.core.layout`): slot
``PLAYERS_SLOT`` = 0 holds the number of players, the one slot generic code reads
without the game's help; the game's own slots, documented in its layout, follow from
``HEADER_SIZE`` on. Which game an array belongs to is not stored in it: generic
kernels dispatch on the game's tag type (:mod:`forumlab.core.dispatch`).

The :class:`Game` / :class:`State` facade is for people: move notation, rendering,
results with shared ranks, JSON.
"""
from __future__ import annotations

import importlib
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .actions import ActionSpace
from .errors import ArgumentError, ConfigError, GameOverError, IllegalMoveError, squeeze
from .layout import PLAYERS_SLOT
from .options import check_option_names, resolve_game_options
from .params import Param
from .ranks import shared_ranks, winners

if TYPE_CHECKING:  # the dispatch imports numba, which listing games must not pay for
    from .dispatch import GameTag


@dataclass(frozen=True)
class Kernels:
    """The numba-compiled kernels of one game (identical signatures across games).

    - ``current_player(state) -> int64``: seat to act (for simultaneous hidden
      choices the engine serialises them into plies by seat and hides earlier
      choices from later seats through ``determinize``).
    - ``legal_moves(state, out: int64[:]) -> int64``: writes the legal move codes to
      ``out[:n]`` (``out`` has room for ``max_moves``) and returns n.
    - ``apply_move(state, move)``: plays a legal move in place (no legality check).
    - ``random_move(state, rng: uint64[1]) -> int64``: a uniformly random legal move,
      sampled directly where possible (the playout fast path).
    - ``is_terminal(state) -> bool``.
    - ``scores(state, out: float64[:])``: final (or current) score per player.
    - ``heuristic(state, player) -> float64``: evaluation from ``player``'s view,
      roughly on the scale of scores.
    - ``determinize(state, observer, rng)``: resample in place everything
      ``observer`` cannot see, consistently with what they saw (identity for
      perfect-information games).

    Optional (:data:`forumlab.core.dispatch.OPTIONAL`; generic code calls the stand-in
    named there for a game whose module does not define it):

    - ``proposal_move(state, rng) -> int64``: a legal move biased towards the moves
      that decide points, which the ``proposals`` option of sampled rollouts scores
      first (stand-in: ``random_move``).
    - ``is_legal(state, move) -> bool``: whether ``move`` is among ``legal_moves``,
      without generating them where the lists are long (Forma tests the one move); a
      game with short lists may generate them and look (:mod:`forumlab.core.movelist`).
      A game without one gets a stand-in that does that: in numba code
      :func:`~forumlab.core.dispatch.legal_by_scan`, from Python a scan (calling a
      generic kernel with the game's tag from Python costs more than the scan).

    The kernel module also defines ``MAX_MOVES`` (= ``max_moves``) and ``STATE_SIZE``
    (the length of every state array); both are checked against the limits of generic
    code when the game registers (:mod:`forumlab.core.limits`). ``tag`` selects
    these kernels in the generic numba code (:mod:`forumlab.core.dispatch`): pass it
    as the first argument of every generic kernel, e.g. ``greedy_move(tag, array,
    rng)``.
    """

    current_player: Callable
    legal_moves: Callable
    apply_move: Callable
    random_move: Callable
    is_terminal: Callable
    scores: Callable
    heuristic: Callable
    determinize: Callable
    max_moves: int
    tag: GameTag
    is_legal: Callable

    @classmethod
    def from_module(cls, module, max_moves: int) -> Kernels:
        """The kernels a game's kernel module defines under the protocol's names,
        with the tag that binds them in generic numba code.

        Args:
            module: the game's kernel module (defines every protocol kernel and ``MAX_MOVES``).
            max_moves: the game's move-buffer size; must equal ``module.MAX_MOVES``.

        Returns:
            The game's :class:`Kernels`.

        Raises:
            ValueError: ``module.MAX_MOVES`` is missing or differs from ``max_moves``.
            AttributeError: the module lacks one of the protocol's kernels.
        """
        from .dispatch import PROTOCOL, GameTag

        if getattr(module, "MAX_MOVES", None) != max_moves:
            raise ValueError(f"{module.__name__} must define MAX_MOVES = {max_moves}")
        return cls(max_moves=max_moves, tag=GameTag(module.__name__),
                   is_legal=getattr(module, "is_legal", None) or _scan_for(module.legal_moves, max_moves),
                   **{name: getattr(module, name) for name in PROTOCOL})


class LazyKernels:
    """A game class's ``kernels``, loaded from its kernel module when first read.

    ``kernels = LazyKernels("forumlab.engines.forma.kernels")`` in a Game subclass keeps
    the class free of numba: what lists games and their options (name, player counts,
    ``OPTIONS``) is read without importing or compiling any kernel. The first read of
    ``kernels`` (from the class or an instance) imports the module, builds
    :meth:`Kernels.from_module` with the module's own ``MAX_MOVES`` and checks it against
    the limits of generic code (:func:`forumlab.core.limits.check_kernels`), once per
    class. Assigning ``game.kernels`` on an instance overrides it for that instance.
    """

    def __init__(self, module: str):
        """Args: module: the import path of the game's kernel module."""
        self.module = module
        self._kernels: Kernels | None = None
        self._checked: set[type] = set()

    def __get__(self, game: Game | None, owner: type[Game]) -> Kernels:
        if owner not in self._checked:
            from .limits import check_kernel_module, check_kernels

            name = getattr(owner, "name", owner.__name__)
            if self._kernels is None:
                module = importlib.import_module(self.module)
                check_kernel_module(name, module)
                self._kernels = Kernels.from_module(module, module.MAX_MOVES)
            check_kernels(name, owner, self._kernels)
            self._checked.add(owner)
        return self._kernels

    @property
    def loaded(self) -> bool:
        """Whether the kernel module has been imported through this declaration."""
        return self._kernels is not None


def _scan_for(legal_moves: Callable, max_moves: int) -> Callable:
    """``is_legal(array, move)`` for a game without that kernel: generate the legal
    moves and look for ``move``."""

    def is_legal(array: np.ndarray, move: int) -> bool:
        out = np.empty(max_moves, dtype=np.int64)
        return bool((out[: legal_moves(array, out)] == move).any())

    return is_legal


class Game(ABC):
    """A configured game (rules variant + player count). Subclasses fill in the hooks."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    perfect_information: ClassVar[bool] = True
    engine_version: ClassVar[str] = "1"  # bump when rules or move codes change
    # False when format_move writes a move from its code alone (and what the game's options
    # fix, such as a board's side), never reading what play changes: the arena's compiled
    # games then format each distinct code once per configuration.
    format_move_reads_position: ClassVar[bool] = True
    # True when score_sources_many replays thousands of games a second (one compiled batch):
    # forumlab report then shows the score sources of any results file without being asked.
    score_sources_fast: ClassVar[bool] = False
    kernels: ClassVar[Kernels]  # or a LazyKernels, which keeps listing the game numba-free
    # MCTS parameters tuned for this game; a spec's explicit values override them.
    mcts_defaults: ClassVar[dict[str, Any]] = {}
    # Per player count, on top of mcts_defaults: what works against one opponent need
    # not work against three (docs/results.md).
    mcts_defaults_by_players: ClassVar[dict[int, dict[str, Any]]] = {}

    # The game's options, declared once (forumlab.core.params.Param: default, help, type,
    # range or choices, a validator for deep checks), ``players`` first; one path checks
    # them (forumlab.core.options.resolve_game_options) and ``forumlab games --options``
    # lists them. None: the game takes ``players`` only (its seat range).
    OPTIONS: ClassVar[dict[str, Param] | None] = None

    def __init__(self, players: int, **options):
        """Check the options against ``OPTIONS`` and keep them.

        A subclass passes every option its constructor takes, e.g.
        ``super().__init__(players, obstacles=obstacles, tower=tower)``, then reads the
        checked values from ``self.options``.

        Args:
            players: the number of players.
            **options: the other declared options.

        Raises:
            ConfigError: a value its declaration refuses (:func:`resolve_game_options`).
        """
        self.options: dict[str, Any] = resolve_game_options(type(self), {"players": players, **options})
        self.players = self.options["players"]

    def tuned_mcts(self) -> dict[str, Any]:
        """The MCTS parameters tuned for this game at its player count.

        Returns:
            ``mcts_defaults`` updated with ``mcts_defaults_by_players[players]`` (a new dict).
        """
        return {**self.mcts_defaults, **self.mcts_defaults_by_players.get(self.players, {})}

    # ---- configuration -------------------------------------------------------------
    @property
    @abstractmethod
    def config(self) -> dict[str, Any]:
        """The JSON-serialisable options that, with a seed, define a game exactly."""

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Game:
        """Build a game from a config dict, rejecting unknown options.

        Args:
            config: the game's options by name, e.g. ``{"players": 3}`` (checked against
                ``OPTIONS``; missing ones take their declared defaults).

        Returns:
            The configured game.

        Raises:
            ConfigError: ``config`` is not a dict, has unknown or missing options, or holds
                a bad value.
        """
        if not isinstance(config, dict):
            raise ConfigError(f"config must be an object, not {type(config).__name__}")
        check_option_names(cls, config)  # the values: the constructor (one path for both)
        return cls(**config)

    # ---- hooks ---------------------------------------------------------------------
    @abstractmethod
    def initial_array(self, seed: int) -> np.ndarray:
        """The state array at the start of a game with this seed."""

    @abstractmethod
    def format_move(self, array: np.ndarray, move: int) -> str:
        """Notation of a move code in the position before it is played.

        Args:
            array: the position's state array.
            move: a move code (legal in ``array``).

        Returns:
            The move's notation, which :meth:`parse_move` turns back into ``move``.
        """

    @abstractmethod
    def parse_move(self, array: np.ndarray, text: str) -> int:
        """Move code for a notation string (legality is checked by :meth:`State.parse`).

        Args:
            array: the position's state array.
            text: the move's notation.

        Returns:
            The move code.

        Raises:
            IllegalMoveError: ``text`` is malformed.
        """

    @abstractmethod
    def render(self, array: np.ndarray) -> str:
        """A terminal picture of the position.

        Args:
            array: the position's state array.

        Returns:
            Multi-line text, without ANSI colours.
        """

    def details(self, array: np.ndarray) -> dict[str, Any]:
        """Game-specific result fields, merged into :meth:`State.result`.

        Args:
            array: the position's state array.

        Returns:
            JSON-serialisable fields (e.g. per-colour scores); empty by default.
        """
        return {}

    def rank_keys(self, array: np.ndarray, scores: list) -> list:
        """What ranks and winners follow: the scores, refined by the game's tie-break.

        Args:
            array: the position's state array.
            scores: its scores (``State.scores``).

        Returns:
            One comparable key per seat (higher is better, equal keys share a rank):
            the scores themselves unless the game breaks score ties, e.g. Foundations
            of Rome's (VP, silver), so that reported scores stay the rules' own.
        """
        return scores

    def is_truncated(self, array: np.ndarray) -> bool:
        """Whether the game ended by a turn cap rather than by the rules."""
        return False

    @property
    def cooperative(self) -> bool:
        """True when every seat plays for one team (e.g. against a solo automaton): the
        ``scores`` kernel then gives every seat the same shared value, every rank is 1,
        the winners are every seat or none (:meth:`team_won`), and the arena reports the
        team's win rate instead of competitive ratings. False by default."""
        return False

    def team_won(self, array: np.ndarray) -> bool:
        """In a cooperative game, whether the team won (by default: shared value > 0).

        Args:
            array: a finished position's state array.

        Returns:
            True if every seat won.
        """
        out = np.zeros(int(array[PLAYERS_SLOT]), dtype=np.float64)
        self.kernels.scores(array, out)
        return bool(out[0] > 0)

    def plies(self, array: np.ndarray) -> int:
        """Plies played so far."""
        raise NotImplementedError

    def observation(self, array: np.ndarray, seat: int) -> np.ndarray:
        """Everything ``seat`` may see of the position, as an array that two positions
        share exactly when ``seat`` cannot tell them apart.

        ``determinize(array, seat, rng)`` must leave it unchanged; the conformance kit
        (:mod:`forumlab.testing.conformance`) checks that. In a perfect-information game
        it is the whole array (the default); a hidden-information game overrides it,
        e.g. with the hidden slots blanked out and unordered parts sorted.

        Args:
            array: the position's state array.
            seat: the observing seat.

        Returns:
            The observation array (the default: a copy of ``array``).

        Raises:
            NotImplementedError: a hidden-information game did not override this method.
        """
        if not self.perfect_information:
            raise NotImplementedError(f"{self.name} hides information, so it must define observation()")
        return array.copy()

    def move_seen_by(self, array: np.ndarray, move: int, seat: int) -> str | None:
        """What ``seat`` learns when a move is played: its notation, or None if it is secret.

        Used to tell a person at the table (the ``human`` agent) what the other seats did.
        Hidden-information games override it to name the moves everyone sees (a purchase
        from an open display) and keep the secret ones (a hidden pick) to the mover; the
        default keeps every other seat's move secret in them, which can leak nothing.

        Args:
            array: the position before the move (the true state).
            move: the move code played.
            seat: the seat being told.

        Returns:
            The move's notation, or None when ``seat`` may not see which move it was.
        """
        if self.perfect_information or int(self.kernels.current_player(array)) == seat:
            return self.format_move(array, move)
        return None

    def setup_record(self, start: State) -> dict[str, Any]:
        """The part of the setup that the seed drew at random, as config options that fix it.

        ``start`` is the position at the start of a game (``new_state(seed)``). Merged into
        ``config``, the returned options give a game with the same start position whose
        setup no longer depends on this project's RNG, so a game record can carry its setup
        for other implementations (and ``replay`` can check it against the seed). Empty (the
        default) when the config alone fixes the setup.

        Args:
            start: the start position of a game.

        Returns:
            Config options (JSON-serialisable) that fix the random setup.
        """
        return {}

    # ---- score sources (balance studies and reports) --------------------------------
    def score_sources(self, seed: int, moves: Sequence[int | str]) -> list[dict[str, float]] | None:
        """Points per scoring source and seat of a game, replayed from its seed and moves.

        The default replays with :meth:`State.play` and reads ``result()["vp_by_source"]``
        (Foundations of Rome, Forum Trajanum); a game whose result does not report it at
        the start position gives None at once, without replaying. A game overrides this
        when it can say more (Forma: the parts of its score) or do it faster (Forum Romanum).

        Args:
            seed: the game's seed.
            moves: its moves, as codes or in notation.

        Returns:
            Per seat ``{source: points}``, each seat's points summing to its score; None
            when the game does not report its sources.

        Raises:
            IllegalMoveError: a move is malformed or not legal where it is played.
        """
        state = self.new_state(seed)
        if "vp_by_source" not in state.result():
            return None
        for move in moves:
            state.play(move)
        return state.result()["vp_by_source"]

    def score_sources_many(self, games: Iterable[tuple[int, Sequence[int | str]]]) \
            -> list[list[dict[str, float]] | None]:
        """:meth:`score_sources` of many games, each given as ``(seed, moves)``.

        The default calls :meth:`score_sources` game by game; a game whose games are cheap
        overrides it to replay them all at once (Forum Romanum: one compiled batch).

        Args:
            games: ``(seed, moves)`` per game.

        Returns:
            One entry per game, as :meth:`score_sources` gives it.
        """
        return [self.score_sources(seed, moves) for seed, moves in games]

    # ---- learning interface: fixed actions and observation tensors ------------------
    # The module (dotted path) that defines this game's ``action_space(game)`` and
    # ``observation_fields(game)`` (see forumlab.core.tensor); None: the defaults below.
    tensor_module: ClassVar[str | None] = None

    def _tensor_hooks(self):
        return importlib.import_module(self.tensor_module) if self.tensor_module else None

    @cached_property
    def action_space(self) -> ActionSpace:
        """The game's fixed action space (:class:`forumlab.core.actions.ActionSpace`).

        The default is the identity on ``0 .. max_moves - 1``, right for a game whose
        move codes are all below ``MAX_MOVES``; other games name a ``tensor_module``
        whose ``action_space(game)`` gives theirs. The conformance kit checks that every
        legal move lies inside it.
        """
        hooks = self._tensor_hooks()
        return hooks.action_space(self) if hooks else ActionSpace(size=self.kernels.max_moves)

    @property
    def num_actions(self) -> int:
        """How many actions the fixed action space has."""
        return self.action_space.num_actions

    @cached_property
    def _observation_encoder(self):
        from .tensor import ObservationEncoder

        hooks = self._tensor_hooks()
        fields = hooks.observation_fields(self) if hooks else []
        size = len(self.observation(self.initial_array(0), 0))
        return ObservationEncoder(self.players, size, fields)

    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of :meth:`observation_tensor` (one float32 vector; its layout is
        documented in the game's tensor module)."""
        return self._observation_encoder.shape

    def observation_tensor(self, array: np.ndarray, seat: int) -> np.ndarray:
        """What ``seat`` may see, as a float32 vector for learning agents.

        Built from :meth:`observation` alone (never from the true array), so two
        positions that ``seat`` cannot tell apart give the same tensor: the seat as a
        one-hot, then the observation's slots, bitboards unpacked into 0/1 entries and
        engine bookkeeping (seeds, RNG words) left out (:mod:`forumlab.core.tensor`).

        Args:
            array: the position's state array.
            seat: the observing seat.

        Returns:
            A new float32 array of shape :attr:`observation_shape`.
        """
        return self._observation_encoder.encode(self.observation(array, seat), seat)

    # ---- convenience ---------------------------------------------------------------
    def rules_text(self) -> str:
        """A short version of the game's rules for the terminal.

        It is ``SHORT_RULES`` of the ``rules`` module in the package of the game's
        class (e.g. :mod:`forumlab.engines.forma.rules`); the full rules of a built-in
        game are in ``docs/games/<game>.md``.

        Returns:
            Plain text, at most 80 columns wide; one line pointing to the docs for a
            game without a ``rules`` module.
        """
        module = type(self).__module__
        loaded = sys.modules.get(module)
        package = module if hasattr(loaded, "__path__") else module.rpartition(".")[0]
        rules = None
        if package:
            target = f"{package}.rules"
            try:
                rules = importlib.import_module(target)
            except ModuleNotFoundError as exc:
                if not exc.name or not (target == exc.name or target.startswith(exc.name + ".")):
                    raise  # a rules module that exists but fails to import is a real error
        text = getattr(rules, "SHORT_RULES", None)
        if not text:
            return (f"{self.name}: no short rules are bundled with this game; "
                    f"see its documentation (docs/games/{self.name}.md for a built-in game).")
        return text.strip("\n") + "\n"

    def new_state(self, seed: int = 0) -> State:
        """A fresh game from a seed (the seed drives every chance event).

        Args:
            seed: any 64-bit signed integer.

        Returns:
            The start position, with an empty history.

        Raises:
            ConfigError: ``seed`` is not an integer or does not fit in 64 bits.
        """
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise ConfigError(f"seed must be an integer, not {seed!r}")
        if not -(2**63) <= int(seed) < 2**63:
            raise ConfigError(f"seed {seed} does not fit in 64 bits (-2**63 .. 2**63-1)")
        return State(self, self.initial_array(int(seed)), int(seed))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.config.items())
        return f"{type(self).__name__}({opts})"


def result_winners(game: Game, array: np.ndarray, keys: list, terminal: bool) -> list[int]:
    """The winners a result reports: none before the end; the best rank keys, or in a
    cooperative game every seat if the team won and none otherwise.

    Args:
        game: the configured game.
        array: the position.
        keys: its rank keys.
        terminal: whether the game is over.

    Returns:
        The winning seats.
    """
    if not terminal:
        return []
    if game.cooperative:
        return list(range(len(keys))) if game.team_won(array) else []
    return winners(keys)


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class State:
    """A position with its history: a thin, friendly wrapper around the state array.

    What a search written in Python needs is cheap here (measured per game in
    ``benchmarks/python_agent.py`` and docs/writing-an-agent.md): :meth:`copy`,
    :meth:`child` (copy and play in one call), :meth:`play`, whose legality check is
    one kernel call (:meth:`is_legal`) rather than a move generation,
    :meth:`heuristic` and :meth:`scores`.
    """

    __slots__ = ("game", "array", "seed", "history", "_before", "viewer")

    def __init__(self, game: Game, array: np.ndarray, seed: int, history=None, viewer: int | None = None):
        self.game = game
        self.array = array
        self.seed = seed
        self.history: list[int] = list(history or [])
        # The array before each move of the history played through play(), for undo().
        # Saved arrays are never changed, so copies of the state share them.
        self._before: list[np.ndarray] = []
        #: The seat whose view this is (:meth:`view_for`), or None for the true state.
        #: Copies and children of a view are views of the same seat.
        self.viewer = viewer

    def copy(self) -> State:
        """An independent copy (the array and the history are copied; a view stays a
        view of the same seat)."""
        twin = State(self.game, self.array.copy(), self.seed, self.history, self.viewer)
        twin._before = list(self._before)
        return twin

    def child(self, move: int | str) -> State:
        """The position after ``move``: a copy with the move played, this state unchanged.

        The one call a lookahead needs per move (``state.child(m).heuristic(seat)``);
        the move is checked as :meth:`play` checks it.

        Args:
            move: a move code or its notation.

        Returns:
            A new state (a view of the same seat if this is a view).

        Raises:
            GameOverError: the game is already over.
            IllegalMoveError: the move is malformed or not legal here.
        """
        return self.copy().play(move)

    def clone(self) -> State:
        """An independent copy, the same as :meth:`copy` (OpenSpiel's name)."""
        return self.copy()

    def undo(self) -> State:
        """Take back the last move of the history, in place.

        The position before it is restored from the arrays saved by :meth:`play`; a
        state whose history was built another way is replayed from its seed.

        Returns:
            This state (changed in place).

        Raises:
            GameOverError: there is no move to take back (the history is empty; an
                agent's view of a hidden-information game has none).
        """
        if not self.history:
            raise GameOverError("no move to undo")
        if len(self._before) == len(self.history):
            self.array[:] = self._before.pop()
            self.history.pop()
            return self
        replay = self.game.new_state(self.seed)
        for move in self.history[:-1]:
            replay.play(move)
        self.array[:] = replay.array
        self.history[:] = replay.history
        self._before = replay._before
        return self

    def __repr__(self) -> str:
        try:
            where = f"ply {self.game.plies(self.array)}"
        except NotImplementedError:
            where = f"{len(self.history)} moves"
        if self.is_terminal:
            status = f"over, scores {self.scores()}"
        else:
            status = f"seat {self.current_player} to move"
        return f"<{self.game!r} seed={self.seed}: {where}, {status}>"

    def view_for(self, seat: int, rng: np.ndarray | None = None) -> State:
        """What ``seat`` may see: the only state an agent is ever handed.

        Args:
            seat: the observing seat.
            rng: the RNG word array (``forumlab.core.rng.make_rng``) that draws the
                resampled hidden parts, advanced in place; by default a fresh one seeded
                from this state's seed, ``seat`` and ply (``derive_seed(seed, "view",
                seat, ply)``), so the same position gives the same view every time.
                Pass your own stream to draw several different views of one position.

        Returns:
            A copy in which the game's ``determinize`` has resampled everything hidden
            from ``seat`` (a plain copy in perfect-information games), with
            :attr:`viewer` set to ``seat``. In a hidden-information game the move
            history is left out too, since earlier moves (a secret pick) may reveal what
            the array hides.

        Raises:
            ArgumentError: ``seat`` is not a seat of this game, or ``rng`` is not a
                generator state (a ConfigError and a ValueError).
        """
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= int(seat) < self.game.players:
            raise ArgumentError(f"seat must be 0..{self.game.players - 1}, not {seat!r}")
        seat = int(seat)
        # Checked in every game: a perfect-information game never draws from it, so a wrong
        # value would pass there unseen and fail in another game.
        if rng is not None and not (isinstance(rng, np.ndarray) and rng.dtype == np.uint64
                                    and rng.shape == (1,)):
            raise ArgumentError("rng must be a generator state from forumlab.core.rng.make_rng, "
                                f"not {squeeze(repr(rng), 60)}")
        if rng is None:
            from .rng import derive_seed, make_rng

            rng = make_rng(derive_seed(self.seed, "view", seat, self._ply()))
        view = self.copy()
        view.viewer = seat
        self.game.kernels.determinize(view.array, seat, rng)
        if not self.game.perfect_information:
            view.history = []
            view._before = []  # the true arrays of earlier plies hold the hidden parts
            # The seed drives every shuffle: game.new_state(seed) would rebuild the true
            # deal. The view gets a seed drawn from the resampling stream instead.
            from .rng import next_u64

            view.seed = int(next_u64(rng) >> np.uint64(33))
        return view

    def _ply(self) -> int:
        """Plies played: the game's count, else the length of the history."""
        try:
            return self.game.plies(self.array)
        except NotImplementedError:
            return len(self.history)

    @property
    def current_player(self) -> int:
        """Seat to move."""
        return int(self.game.kernels.current_player(self.array))

    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return bool(self.game.kernels.is_terminal(self.array))

    def legal_moves(self) -> np.ndarray:
        """The legal moves of the side to move.

        Returns:
            The legal move codes, a new int64 array; empty when the game is over.
        """
        out = np.empty(self.game.kernels.max_moves, dtype=np.int64)
        n = self.game.kernels.legal_moves(self.array, out)
        return out[:n].copy()

    def legal_move_texts(self) -> list[str]:
        """Legal moves in notation.

        Returns:
            The notation of each of :meth:`legal_moves`, in the same order.
        """
        return [self.game.format_move(self.array, int(m)) for m in self.legal_moves()]

    def parse(self, text: str) -> int:
        """Move code for a notation string, checked against the legal moves.

        Args:
            text: the move's notation.

        Returns:
            The legal move code.

        Raises:
            IllegalMoveError: ``text`` is malformed or not legal in this position.
        """
        move = self.game.parse_move(self.array, text)
        if not self.is_legal(move):
            raise IllegalMoveError(f"{text!r} is not legal here")
        return move

    def is_legal(self, move: Any) -> bool:
        """Whether ``move`` is a legal move code here, without generating every move.

        One call of the game's ``is_legal`` kernel (Forma: one placement tested against
        the board; games without one: a move generation and a scan); either way the
        answer equals ``move in state.legal_moves()``. Anything that is not an integer
        (a float such as ``3.0`` or ``3.9``, a bool, a string) is not a move code, so
        it is not legal.

        Args:
            move: a candidate move code (``int`` or numpy integer).

        Returns:
            True if ``move`` is one of :meth:`legal_moves`.
        """
        if isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
            return False
        code = int(move)
        if not _INT64_MIN <= code <= _INT64_MAX:
            return False
        return bool(self.game.kernels.is_legal(self.array, code))

    def play(self, move: int | str) -> State:
        """Play a move after checking it is legal, and append it to the history.

        Args:
            move: a move code or its notation.

        Returns:
            This state (changed in place), so calls can be chained.

        Raises:
            GameOverError: the game is already over.
            IllegalMoveError: the move is malformed or not legal here.
        """
        if self.is_terminal:
            raise GameOverError("the game is over; no more moves")
        if isinstance(move, str):
            code = self.parse(move)
        elif not self.is_legal(move):
            if isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
                raise IllegalMoveError(f"a move code must be an integer, not {move!r}")
            raise IllegalMoveError(f"move code {move} is not legal here")
        else:
            code = int(move)
        if len(self._before) != len(self.history):  # history changed by hand: undo replays
            self._before = []
        else:
            self._before.append(self.array.copy())
        self.game.kernels.apply_move(self.array, code)
        self.history.append(code)
        return self

    def heuristic(self, seat: int) -> float:
        """The game's evaluation of this position for ``seat`` (its ``heuristic`` kernel,
        the one the built-in ``greedy`` agent and the searches use).

        Roughly on the scale of the scores, higher is better for ``seat``; what it
        estimates is documented in each game's kernel module (e.g. Forma: the seat's
        estimated final score minus the best estimate among the others).

        Args:
            seat: the seat to evaluate for.

        Returns:
            The evaluation, a float.

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < self.game.players:
            raise ValueError(f"seat must be 0..{self.game.players - 1}, not {seat!r}")
        return float(self.game.kernels.heuristic(self.array, int(seat)))

    def scores(self) -> list[float]:
        """Score per player (final once the game is over).

        Returns:
            One score per seat; whole numbers as ``int``, others as ``float``.
        """
        out = np.zeros(self.game.players, dtype=np.float64)
        self.game.kernels.scores(self.array, out)
        return [int(x) if float(x).is_integer() else float(x) for x in out]

    def rank_keys(self) -> list:
        """Per seat, what ranks follow: the scores refined by the game's tie-break
        (:meth:`Game.rank_keys`)."""
        return self.game.rank_keys(self.array, self.scores())

    def result(self) -> dict[str, Any]:
        """Scores, shared ranks, winners and game-specific fields, as plain JSON data.

        Returns:
            ``scores``, ``ranks`` (1 = best, ties share a rank), ``winners`` (empty until
            the game is over), ``plies``, ``terminal``, ``truncated`` and the fields of
            :meth:`Game.details`.
        """
        scores = self.scores()
        keys = self.game.rank_keys(self.array, scores)
        res = {
            "scores": scores,
            "ranks": shared_ranks(keys),
            "winners": result_winners(self.game, self.array, keys, self.is_terminal),
            "plies": self.game.plies(self.array),
            "terminal": self.is_terminal,
            "truncated": self.game.is_truncated(self.array),
        }
        res.update(self.game.details(self.array))
        return res

    def move_texts(self) -> list[str]:
        """The history in notation (replayed from the start, since notation may
        depend on the position).

        Returns:
            One notation string per move played.
        """
        replay = self.game.new_state(self.seed)
        texts = []
        for code in self.history:
            texts.append(self.game.format_move(replay.array, code))
            self.game.kernels.apply_move(replay.array, code)
        return texts

    def render(self, color: bool = False) -> str:
        """A terminal picture of the position.

        Args:
            color: add ANSI colours.

        Returns:
            Multi-line text.
        """
        picture = self.game.render(self.array)
        if color:
            from .display import colourize

            picture = colourize(picture)
        return picture

    def to_json(self) -> dict[str, Any]:
        """The position as a record-compatible dict.

        Returns:
            ``game``, ``config``, ``seed`` and ``moves`` (in notation): enough to replay it.
        """
        return {
            "game": self.game.name,
            "config": self.game.config,
            "seed": self.seed,
            "moves": self.move_texts(),
        }

    # ---- learning interface ----------------------------------------------------------
    def returns(self) -> list[float]:
        """Per-seat outcome values in [-1, 1]: zero until the game is over.

        At the end, the seats are ordered by the game's rank keys (:meth:`Game.rank_keys`,
        the same order as ``result()["ranks"]``) and finishing position k (1 = best) of n
        is worth ``1 - 2 (k - 1) / (n - 1)``: 1 for a sole winner, -1 for a sole last,
        linear in between. Tied seats share the mean value of the positions they
        occupy, so a two-way tie for first at 3 players gives 0.5, 0.5, -1, and the
        values always sum to 0. In a cooperative game (``Game.cooperative``) every seat
        gets 1 if the team won, else -1.

        Returns:
            One float per seat.
        """
        n = self.game.players
        if not self.is_terminal:
            return [0.0] * n
        if getattr(self.game, "cooperative", False):
            return [1.0 if self.game.team_won(self.array) else -1.0] * n
        if n == 1:
            return [0.0]
        ranks = shared_ranks(self.rank_keys())
        values = []
        for rank in ranks:
            tied = ranks.count(rank)  # positions rank .. rank + tied - 1
            mean_position = rank + (tied - 1) / 2
            values.append(1.0 - 2.0 * (mean_position - 1) / (n - 1))
        return values

    def legal_actions(self) -> np.ndarray:
        """The legal moves as action indices of the game's fixed action space.

        Returns:
            A sorted int64 array (empty once the game is over).
        """
        return np.sort(self.game.action_space.actions_of(self.legal_moves()))

    def legal_action_mask(self) -> np.ndarray:
        """Which actions of the game's fixed action space are legal now.

        Returns:
            An int8 array of ``game.num_actions`` entries, 1 where the action is legal.
        """
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        mask[self.game.action_space.actions_of(self.legal_moves())] = 1
        return mask

    def action_to_move(self, action: int) -> int:
        """The move code of an action index (:meth:`ActionSpace.action_to_move`)."""
        return self.game.action_space.action_to_move(action)

    def move_to_action(self, move: int | str) -> int:
        """The action index of a move code, or of a move in notation in this position."""
        code = self.game.parse_move(self.array, move) if isinstance(move, str) else int(move)
        return self.game.action_space.move_to_action(code)

    def observation(self, player: int) -> np.ndarray:
        """What seat ``player`` may see, as a float32 vector (:meth:`Game.observation_tensor`).

        Args:
            player: the observing seat.

        Returns:
            A new float32 array of shape ``game.observation_shape``.

        Raises:
            ValueError: ``player`` is not a seat of this game.
        """
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) \
                or not 0 <= int(player) < self.game.players:
            raise ValueError(f"player must be a seat 0..{self.game.players - 1}, not {player!r}")
        return self.game.observation_tensor(self.array, int(player))
