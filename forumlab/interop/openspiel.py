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
  -1 .. 2**31 - 1). With ``seed >= 0``
  every initial state is that seed's game; with ``seed = -1`` (the default) each
  ``new_initial_state()`` takes the next seed of a generator seeded with 0 per game
  object, so a run is reproducible. Other game options keep their defaults.
- Chance: the engines draw every chance event from the seed inside the state, so the
  games are ``SAMPLED_STOCHASTIC`` (no explicit chance nodes); sequential; rewards only
  at the end (``TERMINAL``), ``State.returns()``: in [-1, 1], summing to 0 (``ZERO_SUM``).
- Actions: the game's fixed action space (``num_distinct_actions = game.num_actions``).
- Hidden information (Foundations of Rome, Forum Trajanum): ``IMPERFECT_INFORMATION``.
  The observation tensor is the seat's observation tensor (``State.observation``,
  never anything hidden from it); the observation string is the board for perfect
  information, else a digest of the seat's observation. The information-state string
  is perfect recall: for a perfect-information game the seed and the moves; otherwise
  the digests of the seat's observation tensor after every ply, replayed from the seed
  (the seat's own view only, the seed left out; no information-state tensor).
- ``str(state)`` is the board (the whole table, for a spectator).
"""
from __future__ import annotations

import copy
import hashlib
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("forumlab.interop.openspiel needs the openspiel extra: "
                      "pip install 'forumlab[openspiel]'") from exc

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
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players, "seed": -1},
    )
    game_class = type(f"Spiel_{name.replace('-', '_')}", (SpielGame,),
                      {"forumlab_name": name, "game_type": game_type})
    pyspiel.register_game(game_type, game_class)


class SpielGame(pyspiel.Game):
    """A forumlab game as an OpenSpiel game (one subclass per registered game)."""

    forumlab_name: str
    game_type: Any

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        self.forumlab_game: Game = create_game(self.forumlab_name, **(
            {"players": int(params["players"])} if "players" in params else {}))
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
        self._fixed_seed = int(params.get("seed", -1))
        self._seeds = np.random.default_rng(0)

    def new_initial_state(self) -> SpielState:
        """A new game: the ``seed`` parameter's, or the next seed of this game object."""
        seed = self._fixed_seed if self._fixed_seed >= 0 else int(self._seeds.integers(0, 2**63 - 1))
        return SpielState(self, self.forumlab_game.new_state(seed))

    def make_py_observer(self, iig_obs_type=None, params=None) -> SpielObserver:
        """The observer of observation tensors/strings or information-state strings."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return SpielObserver(self.forumlab_game, kind)


class SpielState(pyspiel.State):
    """An OpenSpiel state around a forumlab :class:`State` (``.forumlab_state``)."""

    def __init__(self, game: SpielGame, state: State):
        super().__init__(game)
        self.forumlab_state = state

    def current_player(self) -> int:
        """The seat to move, or ``pyspiel.PlayerId.TERMINAL``."""
        if self.forumlab_state.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return self.forumlab_state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        if self.forumlab_state.is_terminal or player != self.forumlab_state.current_player:
            return []
        return self.forumlab_state.legal_actions().tolist()

    def _apply_action(self, action: int) -> None:
        self.forumlab_state.play(self.forumlab_state.action_to_move(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.forumlab_state
        try:
            return state.game.format_move(state.array, state.action_to_move(int(action)))
        except Exception:  # noqa: BLE001 - an action not legal here need not print
            return f"action {int(action)}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.forumlab_state.is_terminal

    def returns(self) -> list[float]:
        """``State.returns()``: 0 until the end, then values in [-1, 1] by rank."""
        return self.forumlab_state.returns()

    def __str__(self) -> str:
        return self.forumlab_state.render()

    def observation_digests(self, player: int) -> list[str]:
        """Digests of ``player``'s observation tensor at the start and after every ply.

        Kept per state and extended on demand (clones share the computed prefix), from
        the positions ``State.play`` saved for undo, else by replay from the seed."""
        fs = self.forumlab_state
        chains = self.__dict__.setdefault("_chains", {})
        chain = chains.setdefault(player, [])
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

    def __deepcopy__(self, memo) -> SpielState:
        # OpenSpiel clones Python states with copy.deepcopy: copy the position only,
        # never the (shared, immutable) game objects.
        twin = SpielState(self.get_game(), self.forumlab_state.copy())
        for attr, value in self.__dict__.items():
            if attr == "_chains":
                twin._chains = {p: list(chain) for p, chain in value.items()}
            elif attr != "forumlab_state":
                setattr(twin, attr, copy.deepcopy(value, memo))
        return twin


def _digest(array: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(array).tobytes(), digest_size=8).hexdigest()


class SpielObserver:
    """OpenSpiel's PyObserver interface over a forumlab game (see the module docstring)."""

    def __init__(self, game: Game, iig_obs_type):
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = 0 if self.perfect_recall else game.observation_shape[0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation tensor."""
        if not self.perfect_recall:
            self.tensor[:] = state.forumlab_state.observation(player)

    def string_from(self, state: SpielState, player: int) -> str:
        """``player``'s observation string, or its information-state string."""
        fs = state.forumlab_state
        if not self.perfect_recall:
            if self.game.perfect_information:
                return fs.render()
            return f"seat {player} sees {_digest(fs.observation(player))}"
        if self.game.perfect_information:
            return f"seed {fs.seed}: " + " ".join(str(m) for m in fs.history)
        return f"seat {player}: " + " ".join(state.observation_digests(player))


register_games()
