"""Generic Monte Carlo tree search, written once for every game (numba compiles and
caches it per game: the game's tag is the first argument, see forumlab.core.dispatch).

One implementation covers:
- UCT with vector rewards: each node keeps the summed reward of every player, and
  the player to move at a node picks the child maximising *their own* mean reward
  plus the UCB1 exploration term (Kocsis & Szepesvari 2006; the multi-player
  "max^n-style" UCT of Sturtevant 2008).
- Information-set MCTS (single-observer SO-ISMCTS, Cowling, Powley & Whitehouse
  2012): every iteration starts from a fresh determinization of the root from the
  searching seat's view; a child is *available* in an iteration when its move is
  legal in that determinization, and UCB uses availability counts instead of the
  parent's visits. For perfect-information games determinization is the identity
  and the cheaper UCT path is used.
- Rollouts: uniformly random (the engines' random_move fast path), epsilon-greedy
  on the one-ply heuristic, or the best of a few random moves by that heuristic
  (``samples``; cheap where a full greedy step would generate thousands of moves;
  ``proposals`` of them drawn from the game's proposal of contested moves, if any),
  with an optional cut-off after which the position is scored by the heuristic.
- Heuristic leaf values: sigmoid(margin / hscale) of each player's heuristic margin,
  optionally measured from the margin at the root (``hrelative``), which keeps the
  values where the sigmoid is steep in games with large margins.
- Implicit minimax backups (Lanctot, Winands, Pepels & Sturtevant 2014): every new
  node is scored by the heuristic, each node keeps the max^n backup of those scores,
  and selection mixes ``(1 - alpha) * mean reward + alpha * minimax value``.
- Heuristic move ordering near the root: nodes shallower than ``order_depth``
  expand their children best-first by the one-ply heuristic (the order is kept in a
  small pool of slots of ORDER_WIDTH moves, so the cost is bounded however long the
  search runs; such a node considers only its ORDER_WIDTH best moves). With ``widen``
  > 0 such a node opens only ``1 + widen * sqrt(visits)`` of its best children
  (progressive unpruning, Chaslot et al. 2008), so the search goes deep on the
  moves the heuristic likes before it spreads out.
- A depth limit (``max_depth``, the agent's ``tree_depth``): no node below it gets
  children. With a branching factor in the thousands (Forma) the tree below the
  best-first plies would grow by random moves, and averaging a well-visited child
  over them biases the search against the moves it explores most; with the limit
  and best-first plies above it, MCTS is a selective fixed-depth search whose
  visits go to the strongest replies (docs/notebook/search.md).
- Sampled orders below the fully ordered plies (``order_sample=M``): a node that
  deepening opens orders M of its legal moves drawn uniformly without replacement, not
  all of them (a full one-ply scan of Forma's thousands of placements costs about as much
  as a whole greedy move, so without it deepening spends the budget on ordering).
- Ties in best-first orders (``random_ties``): moves the one-ply heuristic values equally
  keep their move-list order by default, so a widened node opens the same run of them in
  every search (in Forma often one piece slid square by square along a row); with
  ``random_ties`` they are shuffled from the search's RNG stream first, so the children
  opened are a uniform draw from each tied class, as greedy's tie-break is.
- Progressive history (Nijssen & Winands 2011) as the large-branching option: a
  per-player table of mean rewards per move code adds
  ``w * H(m) / (n_i * (1 - q_i) + 1)`` to the selection value.
- An opponent model (``replies=k``): a best-first node of any other seat than the
  searcher's opens only its k best moves by that seat's one-ply heuristic, so the
  budget goes to the searcher's own alternatives and a shallow tree can span a whole
  round of a many-player game (``replies=1`` expects greedy's move from every
  opponent; docs/notebook/search.md).

Root parallelism: ``run_iterations``, ``reset_tree`` and ``reroot`` release the GIL
(``nogil``), so several Python threads can each search their own tree from the same
root at once; the agent sums the root children's statistics over the trees
(:func:`root_totals`, forumlab.agents.mcts).

The tree lives in preallocated arrays (one ``_Search`` per thread in forumlab.agents.mcts),
nodes are created one per iteration, and children hang off a first-child /
next-sibling list. Untried moves of a perfect-information node are visited in a
pseudo-random order without storing them: child k takes legal move
``(a + k * b) mod n`` where b is a prime larger than any move count (so the map is a
permutation of 0..n-1) and a is drawn when the node is first expanded.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.dispatch import (
    apply_move,
    current_player,
    determinize,
    heuristic,
    is_terminal,
    legal_moves,
    max_moves,
    num_players,
    random_move,
)
from ..core.rng import rand_below, rand_float
from .arrays import copy_into, stable_argsort
from .greedy import greedy_move, sampled_greedy_move
from .rewards import REWARD_RANK, heuristic_base, heuristic_rank_rewards, heuristic_rewards, terminal_rewards


class Settings(NamedTuple):
    """Read-only search settings of ``run_iterations`` (one numba tuple argument, so
    the kernel's signature does not grow with every option). Build it with
    :func:`make_settings`, which fixes each field's type: a field passed once as an int
    and once as a float would compile the kernel twice."""

    c: float  # UCB1 exploration constant
    ismcts: bool  # determinize every iteration from ``observer``'s view
    observer: int  # the searching seat
    rollout: int  # ROLLOUT_RANDOM | ROLLOUT_HEURISTIC | ROLLOUT_NONE
    epsilon: float  # random-move probability of the heuristic rollout
    cutoff: int  # rollout plies before the heuristic scores the position (0 = to the end)
    reward_kind: int  # forumlab.search.rewards REWARD_*
    hscale: float  # score points per logistic unit of heuristic leaf values
    history_weight: float  # progressive-history weight (0 = off)
    imm_alpha: float  # implicit-minimax weight (0 = off)
    order_depth: int  # nodes shallower than this expand best-first
    widen: float  # progressive unpruning of best-first nodes (0 = open all)
    hrelative: bool  # leaf values relative to the root's margins
    max_depth: int  # deepest level that gets children (0 = no limit)
    deepen: int  # visits after which a leaf at max_depth * k grows max_depth more plies (0 = never)
    samples: int  # random moves scored per ply of a ROLLOUT_SAMPLED rollout
    deepen_after: int  # root visits before any leaf deepens (0 = from the first iteration)
    replies: int  # most children a best-first node of another seat than the root's opens (0 = no cap)
    proposals: int  # of a ROLLOUT_SAMPLED ply's ``samples``, how many come from the game's proposal_move
    order_sample: int  # nodes deepening orders (depth >= order_depth) score this many drawn moves (0 = all)
    random_ties: bool  # best-first orders put equally valued moves in random order, not move-list order


def make_settings(c=0.7, ismcts=False, observer=0, rollout=0, epsilon=0.2, cutoff=0, reward_kind=0,
                  hscale=8.0, history_weight=0.0, imm_alpha=0.0, order_depth=0, widen=0.0,
                  hrelative=False, max_depth=0, deepen=0, samples=8, deepen_after=0, replies=0,
                  proposals=0, order_sample=0, random_ties=False) -> Settings:
    """A :class:`Settings` with every field converted to its declared type."""
    return Settings(float(c), bool(ismcts), int(observer), int(rollout), float(epsilon), int(cutoff),
                    int(reward_kind), float(hscale), float(history_weight), float(imm_alpha),
                    int(order_depth), float(widen), bool(hrelative), int(max_depth), int(deepen),
                    int(samples), int(deepen_after), int(replies), int(proposals), int(order_sample),
                    bool(random_ties))


ROLLOUT_RANDOM = 0
ROLLOUT_HEURISTIC = 1
ROLLOUT_NONE = 2  # score the new leaf by the heuristic at once
ROLLOUT_SAMPLED = 3  # each ply the best of ``samples`` random moves by the one-ply heuristic

# Node fields (columns of the int64 node table).
F_MOVE = 0  # move that leads here from the parent
F_PARENT = 1
F_CHILD = 2  # first child, -1 if none
F_SIBLING = 3  # next sibling, -1 if none
F_NCHILD = 4  # children created so far
F_NLEGAL = 5  # number of legal moves (-1 until first expanded; perfect information only)
F_VISITS = 6
F_AVAIL = 7  # ISMCTS availability count
F_MOVER = 8  # player who made F_MOVE
F_PERM = 9  # untried-move permutation: offset * 16 + stride index
N_FIELDS = 10

HISTORY_BITS = 16
_HISTORY_MASK = (1 << HISTORY_BITS) - 1
# Primes above every game's move-list bound (Forma's is 30,433): a prime stride larger
# than n is coprime with n, so k -> (a + k * stride) mod n is a permutation of 0..n-1.
_STRIDE_PRIMES = np.array([65537, 65539, 65543, 65551, 65557, 65563, 65579, 65581, 65587, 65599,
                           65609, 65617], dtype=np.int64)
_MAX_TRACE = 4096  # moves of one iteration remembered for progressive history
# Longest best-first move order kept per node. The pool's rows are cut into slots of
# this width, so a game with a long move list (Forma: 30,433) orders hundreds of nodes
# instead of the 34 its full-length rows held; an ordered node then considers only its
# best ORDER_WIDTH moves, which progressive unpruning at widen=1 would not open before
# about a million visits anyway.
ORDER_WIDTH = 1024


@njit(cache=True, inline="always")
def order_width(pool):
    """Moves kept per best-first order in ``pool`` (a slot's length)."""
    return min(pool.shape[1], ORDER_WIDTH)


@njit(cache=True, inline="always")
def order_slots(pool):
    """Best-first orders that ``pool`` can hold."""
    return (pool.shape[0] * pool.shape[1]) // order_width(pool)


@njit(cache=True, nogil=True)
def reset_tree(nodes, meta):
    """Make the tree a lone root."""
    nodes[0, F_MOVE] = -1
    nodes[0, F_PARENT] = -1
    nodes[0, F_CHILD] = -1
    nodes[0, F_SIBLING] = -1
    nodes[0, F_NCHILD] = 0
    nodes[0, F_NLEGAL] = -1
    nodes[0, F_VISITS] = 0
    nodes[0, F_AVAIL] = 0
    nodes[0, F_MOVER] = -1
    nodes[0, F_PERM] = 0
    meta[0] = 1  # nodes in use
    meta[1] = 0  # slots of the move-ordering pool in use


@njit(cache=True, inline="always")
def _new_child(nodes, rewards, meta, parent, move, mover):
    idx = meta[0]
    meta[0] = idx + 1
    nodes[idx, F_MOVE] = move
    nodes[idx, F_PARENT] = parent
    nodes[idx, F_CHILD] = -1
    nodes[idx, F_SIBLING] = nodes[parent, F_CHILD]
    nodes[idx, F_NCHILD] = 0
    nodes[idx, F_NLEGAL] = -1
    nodes[idx, F_VISITS] = 0
    nodes[idx, F_AVAIL] = 0
    nodes[idx, F_MOVER] = mover
    nodes[idx, F_PERM] = 0
    rewards[idx, :] = 0.0
    nodes[parent, F_CHILD] = idx
    nodes[parent, F_NCHILD] += 1
    return idx


@njit(cache=True, inline="always")
def _history_bonus(history, player, move, weight, visits, mean):
    key = (move ^ (move >> HISTORY_BITS)) & _HISTORY_MASK
    hv = history[player, key, 0]
    if hv == 0.0:
        return 0.0
    return weight * (history[player, key, 1] / hv) / (visits * (1.0 - mean) + 1.0)


@njit(cache=True, inline="always")
def _rollout_move(tag, s, rng, policy, epsilon, samples, proposals):
    if policy == ROLLOUT_SAMPLED:
        return sampled_greedy_move(tag, s, rng, samples, proposals)
    if policy == ROLLOUT_RANDOM or rand_float(rng) < epsilon:
        return random_move(tag, s, rng)
    return greedy_move(tag, s, rng)


@njit(cache=True, inline="always")
def _selection_value(nodes, rewards, ch, mover, n_players, log_parent, c, imm_alpha,
                     use_history, history, history_weight):
    """UCB1 value of child ch for the mover: mean reward mixed with the implicit
    minimax value, plus exploration (log_parent = log of the parent's visits, or of
    the child's availability count under ISMCTS), plus the progressive-history bonus."""
    v = nodes[ch, F_VISITS]
    q = rewards[ch, mover] / v
    val = (1.0 - imm_alpha) * q + imm_alpha * rewards[ch, n_players + mover]
    val += c * np.sqrt(log_parent / v)
    if use_history:
        val += _history_bonus(history, mover, nodes[ch, F_MOVE], history_weight, v, q)
    return val


@njit(cache=True, inline="always")
def _trace(trace_player, trace_move, n_trace, mover, move):
    """Remember (mover, move) of this iteration for progressive history; new length."""
    if n_trace < trace_move.shape[0]:
        trace_player[n_trace] = mover
        trace_move[n_trace] = move
        return n_trace + 1
    return n_trace


@njit(cache=True, inline="always")
def untried_index(perm, k, n):
    """Index in the legal move list of a node's k-th child (perm = offset * 16 + stride id)."""
    return (perm // 16 + k * _STRIDE_PRIMES[perm % 16]) % n


@njit(cache=True, inline="always")
def _order_moves(tag, s, buf, n, mover, out):
    """Write buf[:n] sorted by the mover's one-ply heuristic, best first, to out (the
    first len(out) of them)."""
    values = np.empty(n, dtype=np.float64)
    child = s.copy()
    for i in range(n):
        copy_into(child, s)
        apply_move(tag, child, buf[i])
        values[i] = -heuristic(tag, child, mover)
    order = stable_argsort(values)
    for i in range(min(n, out.shape[0])):
        out[i] = buf[order[i]]


@njit(cache=True, inline="always")
def _sample_front(buf, n, k, rng):
    """Move a uniform sample of k of buf[:n] (without replacement) to buf[:k]
    (the first k steps of a Fisher-Yates shuffle)."""
    for i in range(k):
        j = i + rand_below(rng, n - i)
        tmp = buf[i]
        buf[i] = buf[j]
        buf[j] = tmp


@njit(cache=True)
def _sorted(buf, n):
    """buf[:n] sorted ascending, as a new array."""
    order = stable_argsort(buf[:n])
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = buf[order[i]]
    return out


@njit(cache=True)
def _evaluate(tag, s, reward_kind, hscale, hbase, out):
    if is_terminal(tag, s):
        terminal_rewards(tag, s, reward_kind, out)
    elif reward_kind == REWARD_RANK:
        heuristic_rank_rewards(tag, s, hscale, hbase, out)
    else:
        heuristic_rewards(tag, s, hscale, hbase, out)


@njit(cache=True)
def _backup_implicit_minimax(nodes, rewards, node, n_players):
    """Set node's minimax value vector to that of its best child for the mover there."""
    ch = nodes[node, F_CHILD]
    mover = nodes[ch, F_MOVER]
    best = ch
    while ch != -1:
        if rewards[ch, n_players + mover] > rewards[best, n_players + mover]:
            best = ch
        ch = nodes[ch, F_SIBLING]
    for p in range(n_players):
        rewards[node, n_players + p] = rewards[best, n_players + p]


@njit(cache=True, nogil=True)
def run_iterations(tag, root, n_iter, tree, history, rng, settings):
    """Run n_iter MCTS iterations from ``root`` (a state of the game ``tag``) on
    ``tree`` = (nodes, rewards, meta, order pool); return iterations done.

    ``history`` is the per-player progressive-history table, ``rng`` the search's RNG
    stream (advanced in place), ``settings`` a :class:`Settings`.

    With ``max_depth`` > 0 no node deeper than that is expanded, unless ``deepen`` > 0:
    then a leaf at depth max_depth * k (k >= 1) gets children, best-first and
    progressively widened like an ordered node, once it has ``deepen`` visits, and the
    nodes between two such depths once they have one; always only while the ordering
    pool has a free slot, once the root has ``deepen_after`` visits, and never under
    ISMCTS.
    With ``hrelative`` the heuristic scores positions by each player's margin minus
    their margin at ``root`` (see rewards.heuristic_rewards).

    The tree must already hold ``root`` at node 0 (see reset_tree). When the node
    table is full, iterations still run (selection + rollout) but add no nodes.
    """
    nodes, rewards, meta, order_pool = tree
    c, ismcts, observer, rollout = settings.c, settings.ismcts, settings.observer, settings.rollout
    epsilon, cutoff, reward_kind = settings.epsilon, settings.cutoff, settings.reward_kind
    hscale, history_weight, imm_alpha = settings.hscale, settings.history_weight, settings.imm_alpha
    order_depth, widen, hrelative = settings.order_depth, settings.widen, settings.hrelative
    max_depth, deepen, deepen_after = settings.max_depth, settings.deepen, settings.deepen_after
    replies, order_sample, random_ties = settings.replies, settings.order_sample, settings.random_ties
    searcher = current_player(tag, root)
    capacity = nodes.shape[0]
    width = order_width(order_pool)
    slots = order_slots(order_pool)
    orders = order_pool.reshape(order_pool.size)  # slot i = orders[i * width:(i + 1) * width]
    n_players = num_players(root)  # rewards holds n_players sums, then n_players minimax values
    s = root.copy()
    buf = np.empty(max_moves(tag), dtype=np.int64)
    matched = np.zeros(max_moves(tag), dtype=np.bool_)
    reward = np.zeros(n_players, dtype=np.float64)
    trace_player = np.empty(_MAX_TRACE, dtype=np.int64)
    trace_move = np.empty(_MAX_TRACE, dtype=np.int64)
    use_history = history_weight > 0.0
    use_imm = imm_alpha > 0.0
    leaf_value = np.zeros(n_players, dtype=np.float64)
    hbase = np.zeros(n_players, dtype=np.float64)
    heuristic_base(tag, root, hrelative, hbase)
    for _ in range(n_iter):
        copy_into(s, root)
        if ismcts:
            determinize(tag, s, observer, rng)
        node = 0
        depth = 0
        n_trace = 0
        expanded = False
        # ---- selection and expansion -------------------------------------------
        while not is_terminal(tag, s):
            if max_depth > 0 and depth >= max_depth and (
                    ismcts or nodes[node, F_NLEGAL] < 0
                    and (deepen <= 0 or meta[1] >= slots or nodes[0, F_VISITS] < deepen_after
                         or nodes[node, F_VISITS] < (deepen if (depth - max_depth) % max_depth == 0 else 1))):
                # A leaf (for now): the heuristic (or a rollout) scores it every visit.
                # With ``deepen`` a leaf the search keeps returning to grows another
                # ``max_depth`` plies once it has ``deepen`` visits (the plies between
                # open at their second visit), so more time buys depth on the lines
                # that matter and the leaves keep the parity the limit was tuned for.
                # ``deepen_after`` holds the tree at max_depth until the search has
                # run that many iterations (counted in root visits, so it is the same
                # on any machine): depth is bought by iterations, and short searches
                # keep the tree their settings were tuned for.
                break
            mover = current_player(tag, s)
            if not ismcts:
                if nodes[node, F_NLEGAL] < 0:
                    nodes[node, F_NLEGAL] = legal_moves(tag, s, buf)
                    if (depth < order_depth or 0 < max_depth <= depth) and meta[1] < slots:
                        # Near the root, expand children best-first by the one-ply
                        # heuristic so refutations are found within a few visits.
                        slot = orders[meta[1] * width:(meta[1] + 1) * width]
                        n_order = nodes[node, F_NLEGAL]
                        if 0 < order_sample < n_order and depth >= order_depth:
                            # A node that deepening opened below the fully ordered
                            # plies: order a uniform sample of its moves, so growing
                            # the tree costs order_sample one-ply scores, not a full
                            # scan of thousands (about 5 ms a node in Forma).
                            _sample_front(buf, n_order, order_sample, rng)
                            n_order = order_sample
                        elif random_ties:
                            # The stable sort below keeps this order among equal
                            # values: a uniform shuffle makes each tied class's
                            # front a uniform draw. (A sampled front is one already.)
                            _sample_front(buf, n_order, n_order - 1, rng)
                        _order_moves(tag, s, buf, n_order, mover, slot)
                        nodes[node, F_NLEGAL] = min(n_order, width)
                        nodes[node, F_PERM] = -1 - meta[1]
                        meta[1] += 1
                    else:
                        # Offset and stride of the untried-move permutation, packed.
                        nodes[node, F_PERM] = (
                            rand_below(rng, nodes[node, F_NLEGAL]) * 16
                            + rand_below(rng, _STRIDE_PRIMES.shape[0])
                        )
                k = nodes[node, F_NCHILD]
                n = nodes[node, F_NLEGAL]
                if widen > 0.0 and nodes[node, F_PERM] < 0:
                    # Progressive unpruning: best-first children are opened one by
                    # one as the node's visits grow.
                    n = min(n, 1 + np.int64(widen * np.sqrt(nodes[node, F_VISITS])))
                if replies > 0 and nodes[node, F_PERM] < 0 and mover != searcher:
                    # An opponent model: another seat's best-first node opens only its
                    # ``replies`` best moves by that seat's one-ply heuristic (1: the
                    # seat is expected to play greedy's move), so the budget goes to the
                    # searcher's own alternatives and the tree can span a whole round.
                    n = min(n, replies)
                if k < n and meta[0] < capacity:
                    perm = nodes[node, F_PERM]
                    if perm < 0:
                        move = orders[(-1 - perm) * width + k]
                    else:
                        legal_moves(tag, s, buf)
                        move = buf[untried_index(perm, k, n)]
                    node = _new_child(nodes, rewards, meta, node, move, mover)
                    apply_move(tag, s, move)
                    expanded = True
                    if use_history:
                        n_trace = _trace(trace_player, trace_move, n_trace, mover, move)
                    break
                if k == 0:
                    break  # table full and nothing expanded here: roll out
                log_n = np.log(nodes[node, F_VISITS])
                best = -1
                best_v = -1e300
                ch = nodes[node, F_CHILD]
                while ch != -1:
                    val = _selection_value(nodes, rewards, ch, mover, n_players, log_n, c, imm_alpha,
                                           use_history, history, history_weight)
                    if val > best_v:
                        best_v = val
                        best = ch
                    ch = nodes[ch, F_SIBLING]
            else:
                n = legal_moves(tag, s, buf)
                sorted_moves = _sorted(buf, n)
                matched[:n] = False
                ch = nodes[node, F_CHILD]
                while ch != -1:
                    i = np.searchsorted(sorted_moves, nodes[ch, F_MOVE])
                    if i < n and sorted_moves[i] == nodes[ch, F_MOVE]:
                        matched[i] = True
                        nodes[ch, F_AVAIL] += 1
                    ch = nodes[ch, F_SIBLING]
                untried = 0
                for i in range(n):
                    if not matched[i]:
                        untried += 1
                if untried > 0 and meta[0] < capacity:
                    pick = rand_below(rng, untried)
                    move = -1
                    for i in range(n):
                        if not matched[i]:
                            if pick == 0:
                                move = sorted_moves[i]
                                break
                            pick -= 1
                    node = _new_child(nodes, rewards, meta, node, move, mover)
                    nodes[node, F_AVAIL] = 1
                    apply_move(tag, s, move)
                    expanded = True
                    if use_history:
                        n_trace = _trace(trace_player, trace_move, n_trace, mover, move)
                    break
                best = -1
                best_v = -1e300
                ch = nodes[node, F_CHILD]
                while ch != -1:
                    i = np.searchsorted(sorted_moves, nodes[ch, F_MOVE])
                    if i < n and sorted_moves[i] == nodes[ch, F_MOVE]:
                        val = _selection_value(nodes, rewards, ch, mover, n_players,
                                               np.log(nodes[ch, F_AVAIL]), c, imm_alpha,
                                               use_history, history, history_weight)
                        if val > best_v:
                            best_v = val
                            best = ch
                    ch = nodes[ch, F_SIBLING]
                if best < 0:
                    break
            node = best
            depth += 1
            apply_move(tag, s, nodes[node, F_MOVE])
            if use_history:
                n_trace = _trace(trace_player, trace_move, n_trace, mover, nodes[node, F_MOVE])
        if use_imm and expanded:
            _evaluate(tag, s, reward_kind, hscale, hbase, leaf_value)
            for p in range(n_players):
                rewards[node, n_players + p] = leaf_value[p]
        # ---- rollout ------------------------------------------------------------
        plies = 0
        while (rollout != ROLLOUT_NONE and not is_terminal(tag, s)
               and (cutoff <= 0 or plies < cutoff)):
            mover = current_player(tag, s)
            move = _rollout_move(tag, s, rng, rollout, epsilon, settings.samples, settings.proposals)
            apply_move(tag, s, move)
            if use_history:
                n_trace = _trace(trace_player, trace_move, n_trace, mover, move)
            plies += 1
        if use_imm and expanded and rollout == ROLLOUT_NONE:
            copy_into(reward, leaf_value)  # the leaf was just scored: same position, same value
        else:
            _evaluate(tag, s, reward_kind, hscale, hbase, reward)
        # ---- backpropagation ----------------------------------------------------
        while node != -1:
            nodes[node, F_VISITS] += 1
            for p in range(n_players):
                rewards[node, p] += reward[p]
            if use_imm and nodes[node, F_CHILD] != -1:
                _backup_implicit_minimax(nodes, rewards, node, n_players)
            node = nodes[node, F_PARENT]
        if use_history:
            for t in range(n_trace):
                move = trace_move[t]
                key = (move ^ (move >> HISTORY_BITS)) & _HISTORY_MASK
                history[trace_player[t], key, 0] += 1.0
                history[trace_player[t], key, 1] += reward[trace_player[t]]
    return n_iter


@njit(cache=True)
def root_totals(nodes, rewards, out_moves, out_visits, out_rewards):
    """Moves, visit counts and summed rewards (for the root's mover) of the root's children.

    Writes at most len(out_moves) children and returns how many it wrote.
    """
    k = 0
    ch = nodes[0, F_CHILD]
    while ch != -1 and k < out_moves.shape[0]:
        out_moves[k] = nodes[ch, F_MOVE]
        out_visits[k] = nodes[ch, F_VISITS]
        out_rewards[k] = rewards[ch, nodes[ch, F_MOVER]]
        k += 1
        ch = nodes[ch, F_SIBLING]
    return k


@njit(cache=True)
def root_children(nodes, rewards, out_moves, out_visits, out_means):
    """Moves, visit counts and mean rewards (for the root's mover) of the root's children.

    Writes at most len(out_moves) children and returns how many it wrote.
    """
    k = root_totals(nodes, rewards, out_moves, out_visits, out_means)
    for i in range(k):
        out_means[i] /= max(out_visits[i], 1)
    return k


@njit(cache=True, nogil=True)
def reroot(nodes, rewards, meta, pool, path, new_nodes, new_rewards, new_meta, new_pool):
    """Follow ``path`` (moves) from the root; copy that subtree into the new arrays.

    Move orders of kept nodes are copied to the front of ``new_pool`` (both pools
    must have the same row length).

    Returns the number of nodes kept (0 if the path left the tree or the subtree
    does not fit, in which case the new tree is reset to a lone root).
    """
    node = 0
    for i in range(path.shape[0]):
        ch = nodes[node, F_CHILD]
        while ch != -1 and nodes[ch, F_MOVE] != path[i]:
            ch = nodes[ch, F_SIBLING]
        if ch == -1:
            reset_tree(new_nodes, new_meta)
            return 0
        node = ch
    capacity = new_nodes.shape[0]
    width = order_width(pool)
    orders = pool.reshape(pool.size)
    new_orders = new_pool.reshape(new_pool.size)
    # Breadth-first copy; old -> new index map kept in a queue of old indices.
    queue = np.empty(meta[0], dtype=np.int64)
    new_index = np.empty(meta[0], dtype=np.int64)
    queue[0] = node
    new_index[0] = 0
    new_meta[1] = 0
    head = 0
    tail = 1
    while head < tail:
        old = queue[head]
        new = new_index[head]
        head += 1
        parent = new_nodes[new, F_PARENT] if head > 1 else -1
        sibling = new_nodes[new, F_SIBLING] if head > 1 else -1
        copy_into(new_nodes[new], nodes[old])
        copy_into(new_rewards[new], rewards[old])
        new_nodes[new, F_PARENT] = parent
        new_nodes[new, F_SIBLING] = sibling
        new_nodes[new, F_CHILD] = -1
        if nodes[old, F_PERM] < 0:
            if new_meta[1] < order_slots(new_pool):
                at = (-1 - nodes[old, F_PERM]) * width
                new_at = new_meta[1] * width
                copy_into(new_orders[new_at:new_at + width], orders[at:at + width])
                new_nodes[new, F_PERM] = -1 - new_meta[1]
                new_meta[1] += 1
            else:  # no room: forget the order, keep the expanded children as they are
                new_nodes[new, F_NLEGAL] = new_nodes[new, F_NCHILD]
                new_nodes[new, F_PERM] = 0
        # Children are appended in reverse sibling order so prepending keeps the order.
        n_kids = 0
        ch = nodes[old, F_CHILD]
        while ch != -1:
            n_kids += 1
            ch = nodes[ch, F_SIBLING]
        if tail + n_kids > capacity:
            reset_tree(new_nodes, new_meta)
            return 0
        kids = np.empty(n_kids, dtype=np.int64)
        ch = nodes[old, F_CHILD]
        j = 0
        while ch != -1:
            kids[j] = ch
            j += 1
            ch = nodes[ch, F_SIBLING]
        for j in range(n_kids - 1, -1, -1):
            queue[tail] = kids[j]
            new_index[tail] = tail
            new_nodes[tail, F_PARENT] = new
            new_nodes[tail, F_SIBLING] = new_nodes[new, F_CHILD]
            new_nodes[new, F_CHILD] = tail
            tail += 1
    new_meta[0] = tail
    return tail
