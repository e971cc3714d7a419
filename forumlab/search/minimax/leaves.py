"""Leaf values of the minimax search, from the root player's point of view.

Non-terminal leaves use the game's ``heuristic(s, p)``; terminal leaves use the exact
final ``scores`` as ``score[p] - max(score[q] for q != p)``, the same "my score minus
the best other" margin that Forum Romanum's heuristic estimates, so exact and
estimated leaves compare on one scale. A proven win is therefore not worth more than
an estimated lead of the same size; this is deliberate (the games are scored, and a
margin is what the heuristic predicts). In a cooperative game (``Game.cooperative``:
the seats are one team against an automaton) every seat's score is the team's shared
value, so a margin over the other seats would be 0 for everyone; there the leaf value
is the score itself, on the scale of the heuristic (which estimates the same shared
value in such games). The heuristic carries the search's term weights (``w``: None for
the game's own; forumlab.search.weighted). Leaf values are rounded to multiples of
2**-20 (:func:`quantize`) so that equal evaluations that differ only by float
rounding noise are true ties.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.dispatch import is_terminal, num_players, scores
from ..weighted import heuristic_value

QUANTUM = 2.0 ** -20  # leaf values are rounded to multiples of this (exact in binary)


@njit(cache=True, inline="always")
def quantize(v):
    """v rounded to a multiple of QUANTUM, so that evaluations equal up to float
    rounding noise (e.g. the same sum taken in another order in a mirrored
    position) are exact ties, broken at random at the root instead of by noise."""
    return np.rint(v * (1.0 / QUANTUM)) * QUANTUM


@njit(cache=True, inline="always")
def _margin(buf, p, n, cooperative):
    """buf[p] minus the best other entry of buf[:n]; buf[p] itself when there is no
    other seat (a solo game, e.g. one human against Foundations of Rome's Consul) or
    when the seats are one team (``cooperative``: every entry is the shared value)."""
    if n == 1 or cooperative:
        return buf[p]
    best = -np.inf
    for q in range(n):
        if q != p and buf[q] > best:
            best = buf[q]
    return buf[p] - best


@njit(cache=True)
def leaf_value(tag, s, player, scratch, cooperative, w=None):
    """Value of s for player: exact score margin if terminal (the shared score in a
    cooperative game), else the heuristic."""
    if is_terminal(tag, s):
        scores(tag, s, scratch)
        return quantize(_margin(scratch, player, num_players(s), cooperative))
    return quantize(heuristic_value(tag, s, player, w))


@njit(cache=True)
def leaf_vector(tag, s, out, scratch, cooperative, w=None):
    """Per-player values of s into out[:n] (exact margins if terminal; the shared
    score in a cooperative game)."""
    n = num_players(s)
    if is_terminal(tag, s):
        scores(tag, s, scratch)
        for p in range(n):
            out[p] = quantize(_margin(scratch, p, n, cooperative))
    else:
        for p in range(n):
            out[p] = quantize(heuristic_value(tag, s, p, w))
