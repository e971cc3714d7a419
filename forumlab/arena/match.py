"""Play one game between agents (used by the CLI, benchmarks and the arena)."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import Agent
from ..bots.news import listening, tell_game_over, tell_ply
from ..core.game import Game, State
from ..core.rng import derive_seed, make_rng


@dataclass
class MatchResult:
    """A finished (or aborted) game: the final state, result and per-seat move times."""

    state: State
    result: dict[str, Any]
    move_seconds: list[float] = field(default_factory=list)  # summed per seat
    moves_made: list[int] = field(default_factory=list)  # per seat


def play_match(game: Game, agents: list[Agent], seed: int,
               on_move: Callable[[State, int, int], None] | None = None) -> MatchResult:
    """Play ``agents`` (one per seat) from a fresh ``game`` with ``seed`` to the end.

    Each agent gets its own copy of the state, determinized from its seat
    (:meth:`State.view_for`, as in the arena), so nothing an agent does to it can touch
    the real game and nothing hidden from its seat reaches it. ``on_move(state,
    seat, move)`` is called after every move, e.g. to print the board.

    Args:
        game: the game to play (a fresh state is made from ``seed``).
        agents: one agent per seat, in seat order.
        seed: the game's seed (also seeds the agents' determinized views).
        on_move: called as ``on_move(state, seat, move)`` after every move, or None.

    Returns:
        The final state, its ``result()`` and per-seat move seconds and move counts.

    Raises:
        ValueError: the number of agents is not the game's number of players.
    """
    if len(agents) != game.players:
        raise ValueError(f"{len(agents)} agents for {game.players} players")
    state = game.new_state(seed)
    view_rng = make_rng(derive_seed(seed, "views"))
    seconds = [0.0] * game.players
    counts = [0] * game.players
    listeners = listening(agents)
    while not state.is_terminal:
        seat = state.current_player
        view = state.view_for(seat, view_rng)
        t0 = time.perf_counter()
        move = agents[seat].act(view)
        seconds[seat] += time.perf_counter() - t0
        counts[seat] += 1
        before = state.array.copy() if listeners else None
        state.play(move)
        if listeners:  # bots hear each ply as their seat sees it (forumlab.bots.news)
            tell_ply(agents, game, before, move, seat)
        if on_move is not None:
            on_move(state, seat, move)
    result = state.result()
    tell_game_over(agents, result["scores"], result["ranks"])
    return MatchResult(state, result, seconds, counts)
