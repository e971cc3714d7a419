"""Fixed benchmark positions, reproducible from seeds."""
from __future__ import annotations

from forumlab.agents.registry import create_agent
from forumlab.core.game import State
from forumlab.core.registry import create_game
from forumlab.engines.forum_romanum.layout import PIECES

# Forma's greedy agent scores every one of ~25,000 opening placements, so its
# positions come from a cheaper self-play agent (a short MCTS over the heuristic).
_SELF_PLAY = {"forum-romanum": "greedy", "forma": "mcts(iterations=30)"}


def forum_romanum_positions(players: int = 3) -> dict[str, State]:
    """Opening, the placement-to-moving transition, and a late moving-phase position.

    Taken from one greedy self-play game from seed 1 (greedy games look like real
    games, random ones do not): the start, the first moving ply, and six plies before
    that game's end. Every run measures the same three positions.
    """
    game = create_game("forum-romanum", players=players)
    full = _self_play(game, "greedy")
    placements = int(full.array[PIECES]) * game.colours  # pieces per colour x colours
    late = max(placements + 1, len(full.history) - 6)
    return _replay(game, full, {"opening": 0, "transition": placements, "late": late})


def game_positions(name: str, players: int) -> dict[str, State]:
    """Benchmark positions of any registered game: Forum Romanum's three above, else
    the opening, the middle and six plies before the end of one self-play game from
    seed 1 (Foundations of Rome: greedy self-play; its hidden piles are those of seed 1,
    so every run measures the same three positions)."""
    if name == "forum-romanum":
        return forum_romanum_positions(players)
    game = create_game(name, players=players)
    full = _self_play(game, _SELF_PLAY.get(name, "greedy"))
    plies = len(full.history)
    return _replay(game, full, {"opening": 0, "middle": plies // 2, "late": max(0, plies - 6)})


def _self_play(game, spec: str) -> State:
    agents = [create_agent(spec, seed=100 + s) for s in range(game.players)]
    full = game.new_state(1)
    while not full.is_terminal:
        full.play(agents[full.current_player].act(full.view_for(full.current_player)))
    return full


def _replay(game, full: State, plies: dict[str, int]) -> dict[str, State]:
    positions = {}
    for label, ply in plies.items():
        state = game.new_state(1)
        for move in full.history[:ply]:
            state.play(move)
        positions[label] = state
    return positions
