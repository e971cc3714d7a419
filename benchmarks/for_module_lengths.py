"""Foundations of Rome: does greedy self-play finish every module set before the turn cap?

Plays greedy against itself over module sets (each module alone, trading with each other
module, all six) at 2-5 players and prints JSON: games, the truncated ones (module set,
players, seed) and the longest game in plies (free actions and answers included).
One process, one core::

    python -m benchmarks.for_module_lengths --games 10
"""
import json
import time

import click

import forumlab

MODULES = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]


def module_sets() -> list[list[str]]:
    """Each module alone, trading with each other module (offers interact with every
    asset), and all six together."""
    return ([[m] for m in MODULES] + [["trading", m] for m in MODULES if m != "trading"]
            + [list(MODULES)])


@click.command()
@click.option("--games", type=click.IntRange(1), default=10, show_default=True,
              help="Games per module set and player count.")
@click.option("--seed", type=int, default=1000, show_default=True, help="First game seed.")
def main(games: int, seed: int) -> None:
    """Greedy self-play over module sets at 2-5 players; truncated games and lengths as JSON."""
    truncated, longest, played = [], 0, 0
    t0 = time.perf_counter()
    for modules in module_sets():
        for players in (2, 3, 4, 5):
            game = forumlab.load_game("foundations-of-rome", players=players, modules=modules)
            for k in range(games):
                record = forumlab.play(game, ["greedy"] * players, seed=seed + k)
                played += 1
                if record.result["truncated"]:
                    truncated.append({"modules": modules, "players": players, "seed": seed + k})
                longest = max(longest, len(record.moves))
    print(json.dumps({"benchmark": "for_module_lengths", "games": played, "truncated": truncated,
                      "max_plies": longest, "seconds": round(time.perf_counter() - t0, 1)}))


if __name__ == "__main__":
    main()
