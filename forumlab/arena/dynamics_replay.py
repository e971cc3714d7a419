"""Trajectories of recorded games: stored move lists replayed through the engine.

Two kinds of per-seat value can be followed (docs/dynamics.md):

- ``score``: the seat's current score, the game's ``scores`` kernel at every point (in
  some games points move only at scoring events, so a lead can change only there);
- ``heuristic``: where the seat stands relative to the leader by the game's heuristic
  evaluation, ``min(h, 0)`` of the seat's heuristic ``h``. Every built-in heuristic is a
  seat's estimated value minus the best other seat's, so ``min(h, 0)`` is the seat's
  estimated value minus the highest one: 0 for the leader (and for seats tied with it),
  the deficit otherwise, on the scale of the scores. It is evaluated on the true state
  (an onlooker who sees every hand), not on any seat's view. Once the game is over the
  standing is the exact score margin (the score minus the highest score).
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..core.errors import ConfigError, ForumlabError, squeeze
from ..core.game import Game
from ..core.registry import create_game
from .dynamics import Trajectory
from .schema import damaged

LEADS = ("score", "heuristic")


def _values(game: Game, array: np.ndarray, lead: str, out: np.ndarray) -> tuple[float, ...]:
    if lead == "score":
        game.kernels.scores(array, out)
        return tuple(float(v) for v in out)
    if game.kernels.is_terminal(array):
        # A finished game's standing is its score margin: a heuristic may still weigh what a
        # seat holds there (Forum Trajanum's does), which no longer counts.
        game.kernels.scores(array, out)
        return tuple(float(v) - float(out.max()) for v in out)
    return tuple(min(float(game.kernels.heuristic(array, s)), 0.0) for s in range(game.players))


def replay_trajectory(game: Game, seed: int, moves: list[str], lead: str = "score", key: str = "",
                      group: str = "") -> Trajectory:
    """Replay one game from its seed and move list (notation) and follow it point by point.

    Args:
        game: the configured game the moves were played in.
        seed: the game seed.
        moves: the moves in notation, from the start.
        lead: ``score`` or ``heuristic`` (see the module docstring).
        key: the game's key, kept in the trajectory.
        group: its rotation group (games of a group share the game seed).

    Returns:
        The :class:`Trajectory`; its winners are the seats ranked first by the game's own
        rank keys (the rules' tie-breaks; a fault policy's reordering is not applied).

    Raises:
        IllegalMoveError: a move is not legal where it is played.
        ConfigError: ``lead`` is not one of ``LEADS``.
    """
    if lead not in LEADS:
        raise ConfigError(f"lead must be one of {', '.join(LEADS)}, not {lead!r}")
    state = game.new_state(seed)
    buf = np.empty(game.kernels.max_moves, dtype=np.int64)
    out = np.zeros(game.players, dtype=np.float64)
    values = [_values(game, state.array, lead, out)]
    movers, branching = [], []
    for text in moves:
        movers.append(state.current_player)
        branching.append(int(game.kernels.legal_moves(state.array, buf)))
        state.play(text)
        values.append(_values(game, state.array, lead, out))
    result = state.result()
    winners = tuple(s for s, r in enumerate(result["ranks"]) if r == 1)
    return Trajectory(values=tuple(values), movers=tuple(movers), branching=tuple(branching),
                      winners=winners, final_scores=tuple(float(v) for v in result["scores"]),
                      key=key, group=group, truncated=bool(result["truncated"]))


def check_competitive(game: Game) -> None:
    """Refuse a cooperative game: every seat shares one value, so nobody leads."""
    if game.cooperative:
        raise ConfigError("game dynamics need competing seats; a cooperative game (one team against "
                          "an automaton) has no leader among its seats")


def store_trajectories(paths: list[str], lead: str = "score") -> tuple[dict, Iterator[Trajectory]]:
    """The games of results files, replayed.

    Args:
        paths: results files of one game and config (as ``forumlab ratings`` pools them).
        lead: ``score`` or ``heuristic``.

    Returns:
        (the first file's stored definition, an iterator of trajectories, file by file in
        recording order; group names are prefixed by the file's position when there are
        several files, so groups of different files stay apart).

    Raises:
        StoreError: a file is missing, damaged or not a results file.
        ConfigError: the files hold different games or configs, or a cooperative game.
    """
    from .store import ResultStore

    definitions = []
    for path in paths:
        with ResultStore.open(path, readonly=True) as store:
            definitions.append(store.definition)
    first = definitions[0]
    for path, d in zip(paths, definitions):
        if (d.get("game"), d.get("config")) != (first.get("game"), first.get("config")):
            raise ConfigError(f"{path} holds {d.get('game')} {d.get('config')}, not "
                              f"{first.get('game')} {first.get('config')} as {paths[0]}: "
                              "give files of one game and config")
    game = create_game(first["game"], first["config"])
    check_competitive(game)

    def replayed() -> Iterator[Trajectory]:
        for i, path in enumerate(paths):
            prefix = f"{i}:" if len(paths) > 1 else ""
            with ResultStore.open(path, readonly=True) as store:
                outcomes = store.outcomes()
            for o in outcomes:
                try:
                    trajectory = replay_trajectory(game, o.seed, list(o.moves), lead, key=prefix + o.key,
                                                   group=prefix + o.group)
                except ForumlabError as exc:  # a stored move that does not replay: the file is damaged
                    raise damaged(path, f"game {o.key} does not replay: {squeeze(exc, 120)}") from None
                yield trajectory

    return first, replayed()
