"""Fixed benchmark positions, reproducible from seeds."""
from __future__ import annotations

from forumlab.agents.registry import create_agent
from forumlab.core.game import State
from forumlab.core.registry import create_game


def forum_romanum_positions(players: int = 3) -> dict[str, State]:
    """Opening, the placement-to-moving transition, and a late moving-phase position.

    Taken from one greedy self-play game from seed 1 (greedy games look like real
    games, random ones do not): the start, the first moving ply, and six plies before
    that game's end. Every run measures the same three positions.
    """
    game = create_game("forum-romanum", players=players)
    agents = [create_agent("greedy", seed=100 + s) for s in range(players)]
    full = game.new_state(1)
    while not full.is_terminal:
        full.play(agents[full.current_player].act(full))
    placements = int(full.array[3]) * game.colours  # pieces per colour x colours
    late = max(placements + 1, len(full.history) - 6)
    positions = {}
    for label, ply in (("opening", 0), ("transition", placements), ("late", late)):
        state = game.new_state(1)
        for move in full.history[:ply]:
            state.play(move)
        positions[label] = state
    return positions
