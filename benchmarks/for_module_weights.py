"""Foundations of Rome: greedy with other module weights against greedy with the
defaults, 4 players, every module, one new seat against three default seats, the new
seat in every position on the same game seeds (paired). Prints JSON.

    PYTHONPATH=$PWD python -m benchmarks.for_module_weights --weights 1.0,3,1.5,1,1,0 \
        --seeds 25 --seed 100

``--weights`` lists the entries of ``heuristic.MODULE_WEIGHTS`` (objective VP, Augur,
unused invocation, ongoing invocations, roles, accepted offer). Every seat plays one-ply greedy on a
determinized view of its own seat (as agents see the game), random tie-break; one
process, one core.
"""
import argparse
import json
import math
import sys

import numpy as np
from numba import njit

from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng, rand_below
from forumlab.engines.foundations_of_rome import heuristic as for_heuristic
from forumlab.engines.foundations_of_rome import kernels
from forumlab.engines.foundations_of_rome.data import MAX_MOVES
from forumlab.engines.foundations_of_rome.layout import N_PLAYERS, VP

MODULES = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]


@njit(cache=True)
def _greedy(view, w, rng):
    player = kernels.current_player(view)
    buf = np.empty(MAX_MOVES, dtype=np.int64)
    n = kernels.legal_moves(view, buf)
    child = view.copy()
    best, best_v, ties = buf[0], -1e300, 0
    for i in range(n):
        child[:] = view
        kernels.apply_move(child, buf[i])
        v = for_heuristic.heuristic_with(child, player, w)
        if v > best_v:
            best_v, best, ties = v, buf[i], 1
        elif v == best_v:
            ties += 1
            if rand_below(rng, ties) == 0:
                best = buf[i]
    return best


@njit(cache=True)
def play(s, weights, rng):
    """Play s to the end, seat p on weights[p]; returns the plies."""
    plies = 0
    while not kernels.is_terminal(s):
        p = kernels.current_player(s)
        view = s.copy()
        kernels.determinize(view, p, rng)
        kernels.apply_move(s, _greedy(view, weights[p], rng))
        plies += 1
    return plies


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", required=True, help="comma-separated MODULE_WEIGHTS of the new seat")
    ap.add_argument("--seeds", type=int, default=25, help="game seeds (4 games each)")
    ap.add_argument("--seed", type=int, default=100, help="first game seed")
    args = ap.parse_args()
    try:
        new = np.array([float(x) for x in args.weights.split(",")])
    except ValueError:
        new = np.empty(0)
    if new.shape != for_heuristic.MODULE_WEIGHTS.shape or args.seeds < 1:
        print(f"error: --weights needs {for_heuristic.MODULE_WEIGHTS.size} comma-separated numbers and "
              f"--seeds at least 1", file=sys.stderr)
        sys.exit(2)
    game = create_game("foundations-of-rome", {"players": 4, "modules": MODULES})
    rng = make_rng(args.seed)
    wins, margins, plies = 0.0, [], []
    for seed in range(args.seed, args.seed + args.seeds):
        for seat in range(4):
            weights = np.tile(for_heuristic.MODULE_WEIGHTS, (4, 1))
            weights[seat] = new
            s = game.new_state(seed).array.copy()
            plies.append(play(s, weights, rng))
            vp = [int(s[VP + p]) for p in range(int(s[N_PLAYERS]))]
            top = max(vp)
            if vp[seat] == top:
                wins += 1.0 / vp.count(top)  # a shared win split (VP only, no silver tie-break)
            margins.append(vp[seat] - sum(v for p, v in enumerate(vp) if p != seat) / 3)
    n = len(margins)
    m = sum(margins) / n
    se = math.sqrt(sum((x - m) ** 2 for x in margins) / (n - 1) / n)
    rate = wins / n
    z = 1.96  # Wilson interval of the win rate
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(json.dumps({"weights": new.tolist(), "defaults": for_heuristic.MODULE_WEIGHTS.tolist(), "games": n,
                      "new_seat_win_rate": round(rate, 3),
                      "win_rate_95": [round(centre - half, 3), round(centre + half, 3)],
                      "margin_vs_mean_other": round(m, 2),
                      "margin_95": [round(m - z * se, 2), round(m + z * se, 2)],
                      "plies": round(sum(plies) / n, 1)}))


if __name__ == "__main__":
    main()
