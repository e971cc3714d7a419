"""How differently each strategy archetype plays: its greedy move's agreement with the
default heuristic's, per game.

Usage:
    python -m benchmarks.archetype_agreement [--game forum-trajanum ...] [--games 6]
        [--positions 40] [--seed 1]

Positions come from self-play of the default greedy (game seeds ``seed .. seed+games-1``;
in game g the seats' agent seeds are ``g * players + seat``, so that games of a game
without chance, Forum Romanum, differ by their tie-breaks), as the seat to move sees
them (its view, a determinization in a hidden-information game): ``--positions`` per
game, evenly spaced over the plies that have at least two legal moves. At each position
the one-ply values of every legal move are computed with the default weights and with
each archetype's; greedy plays one of the moves of highest value (ties at random), so an
archetype's agreement at a position is the chance that its greedy move is one the
default greedy may play too: ``|best_archetype & best_default| / |best_archetype|``. The
figure is the mean over the positions, with a 95% percentile interval from a bootstrap
over games (positions of one game are not independent). An archetype "plays
differently" when its agreement is below ``THRESHOLD`` (0.8, declared before measuring:
one move in five or more differs).

Prints one JSON object; deterministic (no clock enters it).
"""
from __future__ import annotations

import json

import click
import numpy as np

from forumlab.agents.archetypes import archetypes
from forumlab.agents.registry import create_agent
from forumlab.agents.weights import weight_vector

THRESHOLD = 0.8
# The setting of each game: its default player count; Foundations of Rome with the
# Monuments module, without which the monuments archetype has nothing to weigh.
CONFIGS = {
    "forum-romanum": {"players": 3},
    "forma": {"players": 4},
    "forum-trajanum": {"players": 3},
    "foundations-of-rome": {"players": 3, "modules": ["monuments"]},
}
BOOTSTRAP = 2000


def sample_positions(game, games: int, per_game: int, seed: int) -> list[list]:
    """Views of the seat to move from default-greedy self-play: ``per_game`` per game,
    evenly spaced over the plies with at least two legal moves; one list per game."""
    out = []
    for g in range(games):
        state = game.new_state(seed + g)
        agents = [create_agent("greedy", seed=g * game.players + s) for s in range(game.players)]
        views = []
        while not state.is_terminal:
            seat = state.current_player
            view = state.view_for(seat)
            if len(state.legal_moves()) > 1:
                views.append(view)
            state.play(agents[seat].act(view))
        picks = np.linspace(0, len(views) - 1, min(per_game, len(views))).round().astype(int)
        out.append([views[i] for i in sorted(set(picks))])
    return out


def _best(values: np.ndarray) -> set:
    return set(np.flatnonzero(values == values.max()).tolist())


def position_agreement(state, weights: np.ndarray | None) -> float:
    """The chance that greedy with ``weights`` plays a move the default greedy may play."""
    from forumlab.search.greedy import one_ply_values

    tag = state.game.kernels.tag
    moves = np.empty(state.game.kernels.max_moves, dtype=np.int64)
    default = np.empty(moves.shape[0], dtype=np.float64)
    n = one_ply_values(tag, state.array, moves, default)
    if weights is None:
        return 1.0
    weighted = np.empty(moves.shape[0], dtype=np.float64)
    one_ply_values(tag, state.array, moves, weighted, weights)
    best_d, best_w = _best(default[:n]), _best(weighted[:n])
    return len(best_d & best_w) / len(best_w)


def agreement_table(game, per_game: list[list], seed: int = 0) -> dict:
    """Each archetype's mean agreement over the positions, its bootstrap interval over
    games and whether it plays differently (below :data:`THRESHOLD`)."""
    rng = np.random.default_rng(seed)
    table = {}
    for name, weights in archetypes(game.name).items():
        w = weight_vector("greedy", game, "", weights)
        by_game = [np.array([position_agreement(s, w) for s in views]) for views in per_game]
        sums = np.array([a.sum() for a in by_game])
        counts = np.array([a.size for a in by_game])
        boot = []
        for _ in range(BOOTSTRAP):
            pick = rng.integers(0, len(by_game), len(by_game))
            boot.append(sums[pick].sum() / counts[pick].sum())
        mean = float(sums.sum() / counts.sum())
        table[name] = {"agreement": round(mean, 4),
                       "interval": [round(float(np.percentile(boot, 2.5)), 4),
                                    round(float(np.percentile(boot, 97.5)), 4)],
                       "plays_differently": mean < THRESHOLD}
    return table


@click.command()
@click.option("--game", "games_wanted", multiple=True, type=click.Choice(sorted(CONFIGS)),
              help="Games to measure (default: all four).")
@click.option("--games", default=6, show_default=True, help="Self-play games per game.")
@click.option("--positions", default=40, show_default=True, help="Positions sampled per game.")
@click.option("--seed", default=1, show_default=True, help="First game seed.")
def main(games_wanted, games, positions, seed):
    """Print the archetypes' move agreement with the default heuristic as JSON."""
    from forumlab.core.registry import create_game

    report = {"threshold": THRESHOLD, "games_per_game": games, "positions_per_game": positions,
              "seed": seed, "games": {}}
    for name in games_wanted or sorted(CONFIGS):
        game = create_game(name, CONFIGS[name])
        per_game = sample_positions(game, games, positions, seed)
        report["games"][name] = {"config": CONFIGS[name], "positions": sum(len(v) for v in per_game),
                                 "archetypes": agreement_table(game, per_game)}
    click.echo(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
