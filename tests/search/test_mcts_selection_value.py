"""UCB1 selection values from scalars: the select loops hand the per-child helper no
arrays (numba's reference counting of the node tables there cost 65% of Forum Romanum's
rollout=none iterations; docs/notebook/mcts-iteration-cost.md)."""
import math

import numpy as np

from forumlab.search.mcts.backup import history_key
from forumlab.search.mcts.selection import history_bonus, selection_value


def test_selection_value_mixes_mean_and_minimax_and_adds_exploration_from_scalars():
    visits, total, minimax, log_parent, c, alpha = 4, 3.0, 0.5, math.log(20.0), 0.7, 0.25
    expected = (1.0 - alpha) * (total / visits) + alpha * minimax
    expected += c * math.sqrt(log_parent / visits)
    assert selection_value(visits, total, minimax, log_parent, c, alpha) == expected


def test_history_bonus_reads_the_players_mean_for_the_move():
    history = np.zeros((3, 1 << 16, 2))
    key = history_key(1234)
    history[1, key] = (4.0, 3.0)  # four playouts, mean 0.75
    visits, total = 2, 1.0  # the child's mean 0.5
    assert history_bonus(history, 1, 1234, 0.5, visits, total) == 0.5 * 0.75 / (visits * (1.0 - 0.5) + 1.0)
    assert history_bonus(history, 0, 1234, 0.5, visits, total) == 0.0
