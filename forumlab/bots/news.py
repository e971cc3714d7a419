"""What every driver of a game (the arena's runner, ``play``, the Python API) tells the
agents that listen: each ply as the agent's seat sees it, and the end of the game.

An agent listens by defining ``observe_ply(mover, seen)`` and ``game_over(result,
faulted)`` (the bot referee, :class:`forumlab.bots.referee.CommandAgent`, does); other
agents are left alone, and a driver with no listening agent pays nothing.
"""
from __future__ import annotations


def listening(agents) -> bool:
    """Whether any of ``agents`` wants to be told of the plies."""
    return any(hasattr(agent, "observe_ply") for agent in agents)


def tell_ply(agents, game, before, move: int, mover: int) -> None:
    """Tell every agent that listens (a bot) what its seat sees of a ply just played.

    Args:
        agents: the seats' agents in seat order (None for a seat without one).
        game: the game.
        before: the true state array before the move (read only through the game's
            ``move_seen_by``, which gives each seat only what it may know).
        move: the move code played.
        mover: the seat that played it.
    """
    for seat, agent in enumerate(agents):
        hook = getattr(agent, "observe_ply", None)
        if hook is not None:
            hook(mover, game.move_seen_by(before, move, seat))


def tell_game_over(agents, scores, ranks, faulty=()) -> None:
    """Tell every agent that listens (a bot) that the game is over, with the result.

    Args:
        agents: the seats' agents in seat order (None for a seat without one).
        scores: final scores per seat.
        ranks: ranks per seat after the fault policy.
        faulty: seats with a fault (their bots are ended, never kept for another game).
    """
    result = {"scores": list(scores), "ranks": [int(r) for r in ranks]}
    for seat, agent in enumerate(agents):
        hook = getattr(agent, "game_over", None)
        if hook is not None:
            try:
                hook(result, seat in faulty)
            except Exception:  # noqa: BLE001 - a bot's goodbye never costs the game its result
                pass
