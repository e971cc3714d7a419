"""Every forumlab game as an OpenSpiel Python game (``pip install 'forumlab[openspiel]'``).

Importing this module registers each game under ``python_forumlab_<name>`` (dashes as
underscores)::

    import pyspiel
    import forumlab.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_forumlab_forum_romanum", {"players": 3})
    state = game.new_initial_state()

Games registered later (``forumlab.core.registry.register_game``) are added by
:func:`register_games`. How a forumlab game maps onto OpenSpiel:

- Parameters: ``players`` (default: the game's default) and ``seed`` (an OpenSpiel int:
  -1 .. 2**31 - 1). With ``seed >= 0`` every initial state is that seed's game; with
  ``seed = -1`` (the default) each ``new_initial_state()`` takes the next seed of a
  generator seeded with 0 per game object, drawn when the state is first used (so
  OpenSpiel's ``clone``, which makes and overwrites a new initial state, draws none and
  a run is reproducible). ``options``: the game's other options as a JSON object
  (OpenSpiel parameters are flat), e.g. ``{"options": '{"modules": ["trading"]}'}``
  for Foundations of Rome; empty (the default) keeps the game's defaults.
- Chance: the engines draw every chance event from the seed inside the state, so the
  games are ``SAMPLED_STOCHASTIC`` (no explicit chance nodes); sequential; rewards only
  at the end (``TERMINAL``), ``State.returns()``: in [-1, 1], summing to 0 (``ZERO_SUM``).
- Actions: the game's fixed action space (``num_distinct_actions = game.num_actions``).
- Hidden information (Foundations of Rome, Forum Trajanum): ``IMPERFECT_INFORMATION``.
- Observation tensor: the seat's observation tensor (``State.observation``, layout in
  the game's ``tensor`` module; never anything hidden from the seat).
- Information-state tensor: the same vector (same shape and layout), so it is *not*
  perfect recall. In a perfect-information game it is the whole position but the seed
  (which only deals the setup) and engine caches: it fixes the legal moves, the rest
  of the game and the returns, but not the move order that led there (transpositions
  share it). In a hidden-information game it is the seat's current view: the engines
  keep in it what the seat learnt and still matters (cards it saw in other hands, its
  own secret picks), but two histories the seat could tell apart may end in the same
  view. The information-state *string* is the perfect-recall one.
- Observation string: the board for perfect information, else a digest of the seat's
  observation tensor. Information-state string: for a perfect-information game the
  seed and the moves; otherwise the digests of the seat's observation tensor after
  every ply, replayed from the seed (the seat's own view only, the seed left out).
- Observers (``make_observation``) give one seat's whole view: ``public_info=True`` and,
  in a hidden-information game, ``private_info=SINGLE_PLAYER`` (others are refused).
- ``str(state)`` is the board (the whole table, for a spectator).
- Not supported: OpenSpiel's state serialization (``serialize_game_and_state``,
  ``random_sim_test(serialize=True)``), which for a ``SAMPLED_STOCHASTIC`` game asks for
  the RNG state (``GetRNGState``); keep ``forumlab_state.seed`` and the actions instead.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("forumlab.interop.openspiel needs the openspiel extra: "
                      "pip install 'forumlab[openspiel]'") from exc

from ..core.errors import ConfigError
from ..core.game import Game, State
from ..core.registry import create_game, game_names, get_game_class
from ..testing.conformance import MAX_PLIES

PREFIX = "python_forumlab_"


def short_name(name: str) -> str:
    """The OpenSpiel name of a forumlab game, e.g. ``python_forumlab_forum_romanum``."""
    return PREFIX + name.replace("-", "_")


def register_games() -> list[str]:
    """Register every forumlab game not yet known to OpenSpiel (idempotent).

    Returns:
        The OpenSpiel names of all forumlab games.
    """
    known = set(pyspiel.registered_names())
    names = []
    for name in game_names():
        spiel_name = short_name(name)
        if spiel_name not in known:
            _register(name, spiel_name)
        names.append(spiel_name)
    return names


def _register(name: str, spiel_name: str) -> None:
    cls = get_game_class(name)
    default_players = create_game(name).players
    info = pyspiel.GameType.Information
    game_type = pyspiel.GameType(
        short_name=spiel_name,
        long_name=f"forumlab {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=info.PERFECT_INFORMATION if cls.perfect_information else info.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players, "seed": -1, "options": ""},
    )
    game_class = type(f"Spiel_{name.replace('-', '_')}", (SpielGame,),
                      {"forumlab_name": name, "game_type": game_type})
    pyspiel.register_game(game_type, game_class)


SEED_MAX = 2**31 - 1  # OpenSpiel's parameters are C++ ints
_PARAMETERS = {"players": int, "seed": int, "options": str}


def check_params(params: Any) -> dict[str, Any]:
    """The game's OpenSpiel parameters, checked as the command line checks options.

    Args:
        params: a dict with any of ``players`` (int), ``seed`` (int, -1 .. 2**31 - 1) and
            ``options`` (text: a JSON object), or None.

    Returns:
        A copy with integers as ``int``.

    Raises:
        ConfigError: not a dict, an unknown parameter, or a value of the wrong type or
            out of range (never a TypeError or ValueError from inside: a parameter
            ``name`` used to clash with ``create_game``'s own argument).
    """
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise ConfigError(f"OpenSpiel parameters must be a dict, not {type(params).__name__}")
    checked = {}
    for key, value in params.items():
        kind = _PARAMETERS.get(key)
        if kind is None:
            raise ConfigError(f"unknown parameter {key!r} (parameters: {', '.join(sorted(_PARAMETERS))}; "
                              "the game's own options go inside 'options', as a JSON object)")
        if kind is int:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise ConfigError(f"{key} must be an integer, not {value!r}")
            value = int(value)
        elif not isinstance(value, str):
            raise ConfigError(f"{key} must be text (a JSON object), not {value!r}")
        checked[key] = value
    seed = checked.get("seed", -1)
    if not -1 <= seed <= SEED_MAX:  # below -1 it would have meant -1 (a new seed per game) silently
        raise ConfigError(f"seed must be -1 (a new seed per game) or 0..2**31 - 1, not {seed}")
    return checked


def _game_options(text: str) -> dict[str, Any]:
    """The ``options`` parameter (a JSON object, or empty) as the game's config.

    Raises:
        ConfigError: not a JSON object, or it sets ``players`` (a parameter of its own).
    """
    if not text.strip():
        return {}
    try:
        options = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"options must be a JSON object, e.g. '{{\"draft\": true}}': {exc}") from None
    except RecursionError:
        raise ConfigError("options: the value nests too deeply") from None
    if not isinstance(options, dict):
        raise ConfigError(f"options must be a JSON object, not {text!r}")
    if "players" in options:
        raise ConfigError("give players as its own parameter, not inside options")
    return options


class SpielGame(pyspiel.Game):
    """A forumlab game as an OpenSpiel game (one subclass per registered game)."""

    forumlab_name: str
    game_type: Any

    def __init__(self, params: dict[str, Any] | None = None):
        """The game with OpenSpiel parameters (module docstring).

        Raises:
            ConfigError: a bad parameter or game option (:func:`check_params`).
        """
        params = check_params(params)
        options = _game_options(params.get("options", ""))
        if "players" in params:
            options["players"] = params["players"]
        # as a config dict: a game option never meets create_game's own arguments
        self.forumlab_game: Game = create_game(self.forumlab_name, options)
        game = self.forumlab_game
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=game.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_PLIES,
        )
        super().__init__(self.game_type, info, params)
        self._fixed_seed = params.get("seed", -1)
        self._seeds = np.random.default_rng(0)

    def new_initial_state(self) -> SpielState:
        """A new game: the ``seed`` parameter's, or the next seed of this game object
        (drawn when the state is first used; see :class:`_Position`)."""
        return SpielState(self)

    def next_seed(self) -> int:
        """The ``seed`` parameter, or (``seed = -1``) the next draw of this game's generator."""
        return self._fixed_seed if self._fixed_seed >= 0 else int(self._seeds.integers(0, 2**63 - 1))

    def make_py_observer(self, iig_obs_type=None, params=None) -> SpielObserver:
        """The observer of observation or information-state tensors and strings.

        Raises:
            ValueError: observation parameters, or a type other than the seat's own
                view (``public_info`` and ``SINGLE_PLAYER`` private information) in a
                hidden-information game.
        """
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return SpielObserver(self.forumlab_game, kind)


class _Position:
    """The forumlab state behind a :class:`SpielState`, made on first use.

    OpenSpiel clones a Python state by making a new initial state and then
    ``copy.deepcopy``-ing each attribute of the original into it. Making the position
    lazily means that throw-away initial state costs nothing and draws no seed (with
    ``seed = -1`` a clone would otherwise advance the game's seed generator, so the
    games a run plays would depend on how often it cloned), and :meth:`__deepcopy__`
    copies the position only, never the (shared, immutable) game objects.
    """

    __slots__ = ("game", "state", "chains", "facts_ply", "player", "legal")

    def __init__(self, game: SpielGame, state: State | None = None):
        self.game = game
        self.state = state
        self.chains: dict[int, list[str]] = {}  # per seat: SpielState.observation_digests
        # OpenSpiel asks for the player to move several times a ply (MCTSBot: five);
        # kept until the next move (facts_ply: the history length they are for)
        self.facts_ply = -1
        self.player = 0
        self.legal: list[int] | None = None

    def current_player(self) -> int:
        """The seat to move or ``PlayerId.TERMINAL``, computed once per ply."""
        state = self.get()
        if self.facts_ply != len(state.history):
            self.facts_ply = len(state.history)
            self.player = pyspiel.PlayerId.TERMINAL if state.is_terminal else state.current_player
            self.legal = None
        return self.player

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to move (empty at the end), computed once per ply."""
        if self.current_player() < 0:
            return []
        if self.legal is None:
            self.legal = self.state.legal_actions().tolist()
        return self.legal

    def play(self, action: int) -> None:
        """Play an action (``State.play`` checks it is legal)."""
        state = self.get()
        state.play(state.action_to_move(action))
        self.facts_ply = -1

    def get(self) -> State:
        """The forumlab state, made from the game's next seed on first use."""
        if self.state is None:
            self.state = self.game.forumlab_game.new_state(self.game.next_seed())
        return self.state

    def __deepcopy__(self, memo) -> _Position:
        twin = _Position(self.game, self.get().copy())
        twin.chains = {p: list(chain) for p, chain in self.chains.items()}
        return twin


class SpielState(pyspiel.State):
    """An OpenSpiel state around a forumlab :class:`State` (``.forumlab_state``, to
    read; change the position through ``apply_action`` only, so OpenSpiel's history
    stays in step)."""

    def __init__(self, game: SpielGame, state: State | None = None):
        super().__init__(game)
        self._position = _Position(game, state)

    @property
    def forumlab_state(self) -> State:
        """The forumlab state of this position."""
        return self._position.get()

    def current_player(self) -> int:
        """The seat to move, or ``pyspiel.PlayerId.TERMINAL``."""
        return self._position.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._position.current_player():
            return []
        return self._position.legal_actions()

    def _apply_action(self, action: int) -> None:
        self._position.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.forumlab_state
        try:
            return state.game.format_move(state.array, state.action_to_move(int(action)))
        except Exception:  # noqa: BLE001 - an action not legal here need not print
            return f"action {int(action)}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._position.current_player() == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        """``State.returns()``: 0 until the end, then values in [-1, 1] by rank."""
        return self.forumlab_state.returns()

    def __str__(self) -> str:
        return self.forumlab_state.render()

    def __deepcopy__(self, memo) -> SpielState:
        # copy.deepcopy(state) from Python: the same as OpenSpiel's clone
        return self.clone()

    def observation_digests(self, player: int) -> list[str]:
        """Digests of ``player``'s observation tensor at the start and after every ply.

        Kept per position and extended on demand (clones share the computed prefix),
        from the positions ``State.play`` saved for undo, else by replay from the seed."""
        fs = self.forumlab_state
        chain = self._position.chains.setdefault(player, [])
        if len(chain) <= len(fs.history):
            game = fs.game
            if len(fs._before) == len(fs.history):
                arrays = [*fs._before[len(chain):], fs.array]
            else:
                replay, arrays = game.new_state(fs.seed), []
                for move in fs.history:
                    arrays.append(replay.array.copy())
                    replay.play(move)
                arrays = [*arrays, replay.array][len(chain):]
            chain.extend(_digest(game.observation_tensor(a, player)) for a in arrays)
        return chain


def _digest(array: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(array).tobytes(), digest_size=8).hexdigest()


class SpielObserver:
    """OpenSpiel's PyObserver interface over a forumlab game (see the module docstring).

    Both kinds hold the seat's observation tensor (``tensor``, also ``dict`` under
    ``"observation"`` or ``"info_state"``); they differ in their strings.
    """

    def __init__(self, game: Game, iig_obs_type):
        if not iig_obs_type.public_info or (
                not game.perfect_information
                and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(
                f"{game.name} observers give one seat's whole view (public_info=True, "
                f"private_info=SINGLE_PLAYER), not {iig_obs_type}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.observation_shape[0], np.float32)
        self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation tensor (both kinds)."""
        self.tensor[:] = state.forumlab_state.observation(player)

    def string_from(self, state: SpielState, player: int) -> str:
        """``player``'s observation string, or its (perfect-recall) information-state string."""
        fs = state.forumlab_state
        if not self.perfect_recall:
            if self.game.perfect_information:
                return fs.render()
            return f"seat {player} sees {_digest(fs.observation(player))}"
        if self.game.perfect_information:
            return f"seed {fs.seed}: " + " ".join(str(m) for m in fs.history)
        return f"seat {player}: " + " ".join(state.observation_digests(player))


register_games()
