"""Turning game outcomes and evaluations into per-player rewards in [0, 1]."""
import numpy as np
from numba import njit

from ..core.dispatch import num_players, scores
from .weighted import heuristic_value

REWARD_WIN = 0  # 1/k to each of the k winners, 0 to the others
REWARD_RANK = 1  # 1 for the best, 0 for the worst, linear in shared rank between
REWARD_SCORE = 2  # score normalised between the lowest and the highest score
# Cooperative games (Game.cooperative): every seat's score is the team's shared value;
# a finished game is worth 1 to every seat if it is > 0 (the team won), 0 if < 0, 1/2
# at 0; cut-off positions use heuristic_rewards (the heuristic is the team's margin).
REWARD_SHARED = 3
REWARD_NAMES = {"win": REWARD_WIN, "rank": REWARD_RANK, "score": REWARD_SCORE}


@njit(cache=True)
def terminal_rewards(tag, s, kind, out):
    """Rewards of a finished game (or of the position as it stands) into out[:n]."""
    n = num_players(s)
    raw = np.zeros(n, dtype=np.float64)
    scores(tag, s, raw)
    hi = raw.max()
    lo = raw.min()
    if kind == REWARD_SHARED:
        for p in range(n):
            out[p] = 1.0 if raw[p] > 0 else (0.0 if raw[p] < 0 else 0.5)
    elif kind == REWARD_WIN:
        k = 0
        for p in range(n):
            if raw[p] == hi:
                k += 1
        for p in range(n):
            out[p] = 1.0 / k if raw[p] == hi else 0.0
    elif kind == REWARD_RANK:
        # The share of the other seats p finished ahead of, a tie counting half: the
        # value heuristic_rank_rewards estimates at a cut-off (sigmoid(0) = 1/2). A tie
        # counted as being ahead made a three-way shared win worth as much as a win.
        for p in range(n):
            ahead = 0.0
            for q in range(n):
                if q != p:
                    if raw[p] > raw[q]:
                        ahead += 1.0
                    elif raw[p] == raw[q]:
                        ahead += 0.5
            out[p] = ahead / (n - 1)
    else:
        for p in range(n):
            out[p] = 0.5 if hi == lo else (raw[p] - lo) / (hi - lo)


@njit(cache=True)
def heuristic_rewards(tag, s, scale, base, out, w=None):
    """Rewards of a cut-off position: a logistic squash of each player's heuristic margin.

    ``heuristic(s, p)`` is p's estimated lead over the best other player in score
    points, so sigmoid(margin / scale) reads as a rough probability of finishing first.
    ``base[p]`` is subtracted from the margin first: zeros for that reading, or the
    margins at the search's root, so that the rewards measure what changed since the
    root. Without it a game whose margins run to hundreds of points (Forma) squashes
    every leaf to about 0 or 1, and the children of the root differ by 1e-3 in mean
    reward, far below UCB1's exploration term: selection is then uniform. ``w``: weights
    of the heuristic's terms (None: the game's defaults; :mod:`.weighted`).
    """
    n = num_players(s)
    for p in range(n):
        out[p] = 1.0 / (1.0 + np.exp(-(heuristic_value(tag, s, p, w) - base[p]) / scale))


@njit(cache=True)
def heuristic_rank_rewards(tag, s, scale, base, out, w=None):
    """Rewards of a cut-off position as an expected rank: for each player, the mean over
    the other players q of sigmoid((estimate_p - estimate_q - root_gap_pq) / scale).

    ``heuristic(s, p)`` is p's lead over the best other player, so with the leading
    estimate M, d_p = min(margin_p, 0) is estimate_p - M for every player (0 for the
    leader) and estimate_p - estimate_q = d_p - d_q: the pairwise comparisons come out of
    the game's heuristic unchanged. With two players this is heuristic_rewards with a
    zero base. With more, a search that scores leaves by the lead over the best other
    only (a win chance) plays to finish first at any risk, and a second place counts as
    little as a last one; this reading values every opponent beaten, as the rank-based
    ratings of the arena do.

    ``base`` is heuristic_base's: zeros (root_gap = 0), or the margins at the search's
    root, and then root_gap_pq = estimate_p - estimate_q at the root, so each pair is
    compared by what changed since the root (d_p - min(base_p, 0) is p's estimate
    gained against the leader's since the root). Without it a seat far behind scores
    every leaf near 0 (sigmoid(-8 / 2) = 0.018 in 3-player Forum Romanum) and its search
    cannot tell its moves apart. ``w``: as for :func:`heuristic_rewards`.
    """
    n = num_players(s)
    d = np.empty(n, dtype=np.float64)
    for p in range(n):
        d[p] = min(heuristic_value(tag, s, p, w), 0.0) - min(base[p], 0.0)
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q != p:
                total += 1.0 / (1.0 + np.exp(-(d[p] - d[q]) / scale))
        out[p] = total / (n - 1)


@njit(cache=True)
def heuristic_base(tag, root, relative, out, w=None):
    """The margins heuristic_rewards measures from: the root's (relative) or zeros."""
    n = num_players(root)
    for p in range(n):
        out[p] = heuristic_value(tag, root, p, w) if relative else 0.0
