"""Leaf evaluation: the reward vector an iteration backs up.

Rollouts are uniformly random (the engines' ``random_move`` fast path), epsilon-greedy
on the one-ply heuristic, or the best of ``samples`` random moves by that heuristic
(``proposals`` of them drawn from the game's proposal of contested moves), with an
optional ``cutoff`` after which the heuristic scores the position; ``rollout=none``
scores the leaf by the heuristic at once. Heuristic values are sigmoid(margin /
hscale) of each seat's margin, with ``hrelative`` measured from the margins at the
root (forumlab.search.rewards). With implicit minimax (``imm``) every new node is
scored by the heuristic too, for its minimax value. Every heuristic call carries
``settings.weights``, the agent's weights of the heuristic's terms (None: the game's
own; forumlab.search.weighted).
"""
from numba import njit

from ...core.dispatch import apply_move, current_player, is_terminal, random_move
from ...core.rng import rand_float
from ..arrays import copy_into
from ..greedy import greedy_move, sampled_greedy_move
from ..rewards import REWARD_RANK, heuristic_rank_rewards, heuristic_rewards, terminal_rewards
from .backup import trace
from .options import ROLLOUT_NONE, ROLLOUT_RANDOM, ROLLOUT_SAMPLED


@njit(cache=True, inline="always")
def rollout_move(tag, s, rng, settings):
    """The move a rollout plays at ``s``."""
    policy = settings.rollout
    if policy == ROLLOUT_SAMPLED:
        return sampled_greedy_move(tag, s, rng, settings.samples, settings.proposals, settings.weights)
    if policy == ROLLOUT_RANDOM or rand_float(rng) < settings.epsilon:
        return random_move(tag, s, rng)
    return greedy_move(tag, s, rng, settings.weights)


@njit(cache=True)
def evaluate(tag, s, reward_kind, hscale, hbase, out, w=None):
    """Rewards of position ``s`` into ``out``: the result if the game is over, else the
    heuristic's estimate (with the term weights ``w``)."""
    if is_terminal(tag, s):
        terminal_rewards(tag, s, reward_kind, out)
    elif reward_kind == REWARD_RANK:
        heuristic_rank_rewards(tag, s, hscale, hbase, out, w)
    else:
        heuristic_rewards(tag, s, hscale, hbase, out, w)


@njit(cache=True, inline="always")
def evaluate_leaf(tag, s, rewards, node, added, rng, settings, n_players, hbase, leaf_value, reward,
                  trace_player, trace_move, n_trace):
    """Score the iteration's leaf ``node`` (position ``s``) into ``reward``; with
    implicit minimax also a node just ``added``'s minimax value. Returns the trace length."""
    use_imm = settings.imm > 0.0
    if use_imm and added:
        evaluate(tag, s, settings.reward, settings.hscale, hbase, leaf_value, settings.weights)
        for p in range(n_players):
            rewards[node, n_players + p] = leaf_value[p]
    plies = 0
    cutoff = settings.cutoff
    while (settings.rollout != ROLLOUT_NONE and not is_terminal(tag, s)
           and (cutoff <= 0 or plies < cutoff)):
        mover = current_player(tag, s)
        move = rollout_move(tag, s, rng, settings)
        apply_move(tag, s, move)
        if settings.history > 0.0:
            n_trace = trace(trace_player, trace_move, n_trace, mover, move)
        plies += 1
    if use_imm and added and settings.rollout == ROLLOUT_NONE:
        copy_into(reward, leaf_value)  # the leaf was just scored: same position, same value
    else:
        evaluate(tag, s, settings.reward, settings.hscale, hbase, reward, settings.weights)
    return n_trace
