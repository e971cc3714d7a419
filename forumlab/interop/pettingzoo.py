"""Every forumlab game as a PettingZoo AEC environment (``pip install 'forumlab[pettingzoo]'``).

::

    from forumlab.interop.pettingzoo import env

    e = env("forum-romanum", players=3, render_mode="ansi")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

- Agents are ``player_0`` .. ``player_{n-1}``, one per seat; the seat to move acts
  (a draft's secret picks are plies in seat order, as in the engines).
- Observations are dicts: ``"observation"``, the seat's observation tensor
  (:meth:`State.observation`, never anything hidden from the seat; its layout is
  documented in the game's ``tensor`` module), and ``"action_mask"``, an int8 mask over
  the game's fixed action space (all zeros for a seat not to move).
- Actions are indices of that action space (``state.action_to_move`` gives the move
  code). An illegal action raises ``IllegalMoveError``; mask it.
- Rewards are 0 until the end, then :meth:`State.returns` (1 for a sole winner, -1
  for a sole last, ties shared). A game cut off by its turn cap ends with
  ``truncations`` true instead of ``terminations``.
- ``reset(seed=s)`` makes the game's seed from ``s``, so the same seed replays the
  same chance events; ``info["move"]`` is the last move in notation.
- ``render_mode="ansi"`` returns the game's board (``State.render``; the whole table,
  for a spectator), ``"human"`` prints it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("forumlab.interop.pettingzoo needs the pettingzoo extra: "
                      "pip install 'forumlab[pettingzoo]'") from exc

from ..core.errors import ConfigError, IllegalMoveError
from ..core.game import Game, State
from ..core.registry import create_game


def env(game: str | Game, /, render_mode: str | None = None, **options: Any) -> AECEnv:
    """A PettingZoo AEC environment of a forumlab game, with PettingZoo's order checks.

    Args:
        game: a registered game name, or a configured game.
        render_mode: None, ``"ansi"`` or ``"human"``.
        **options: the game's options (with a name), e.g. ``players=3``.

    Returns:
        The environment (call ``reset`` first).

    Raises:
        UnknownGameError: an unknown game name.
        ConfigError: a bad game option, an unknown render mode, or options given with a
            configured game.
    """
    return wrappers.OrderEnforcingWrapper(ForumlabAECEnv(game, render_mode=render_mode, **options))


class ForumlabAECEnv(AECEnv):
    """The raw environment behind :func:`env` (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "forumlab_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game, /, render_mode: str | None = None, **options: Any):
        super().__init__()
        if not (render_mode is None or (isinstance(render_mode, str)
                                        and render_mode in self.metadata["render_modes"])):
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                              f"not {render_mode!r}")
        if isinstance(game, Game):
            if options:
                raise ConfigError("give options with a game name, not with a configured game")
            self.game = game
        elif isinstance(game, str):
            self.game = create_game(game, options)
        else:
            raise ConfigError(f"game must be a game name or a configured Game, not {game!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"forumlab_{self.game.name.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        n, shape = self.game.num_actions, self.game.observation_shape
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(n)
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self._np_random = None
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The dict space of ``"observation"`` (float32) and ``"action_mask"`` (int8)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(game.num_actions)``."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; its seed is drawn from ``seed`` (fresh entropy when None).

        Raises:
            ConfigError: ``seed`` is not None or an integer >= 0 (a float is refused,
                not truncated). ``options`` is ignored (PettingZoo's own checks pass some;
                the game's options go to :func:`env`).
        """
        if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer))
                                 or seed < 0):
            raise ConfigError(f"seed must be None or an integer >= 0, not {seed!r}")
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(None if seed is None else int(seed))
        game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_state(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"seed": game_seed} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's observation tensor and its legal-action mask."""
        seat = self._seat[agent]
        if not self.state.is_terminal and self.state.current_player == seat:
            mask = self.state.legal_action_mask()
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.state.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None once it is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.state.action_to_move(action)  # an int: refuses None, 3.7 (not truncated to 3)
        if move not in set(self.state.legal_moves().tolist()):
            raise IllegalMoveError(f"action {action} ({move}) is not legal for {agent}")
        text = self.game.format_move(self.state.array, move)
        self.state.play(move)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        for a in self.agents:
            self.infos[a]["move"] = text
        if self.state.is_terminal:
            truncated = self.game.is_truncated(self.state.array)
            for a, value in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = value
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as text (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode is None or self.state is None:
            return None
        picture = self.state.render()
        if self.render_mode == "human":
            print(picture)
            return None
        return picture

    def close(self) -> None:
        """Nothing to release."""
