"""MCTS search behaviour that a reader can check: heuristic leaf values, widening,
reproducibility, and finding an obvious best move in Forma (iteration budgets only)."""
import numpy as np
import pytest

from forumlab.agents import mcts as agent_module
from forumlab.agents.registry import create_agent
from forumlab.agents.spec import AgentSpecError
from forumlab.core.registry import create_game
from forumlab.search import mcts as kernel
from forumlab.search.rewards import (
    REWARD_RANK,
    heuristic_base,
    heuristic_rank_rewards,
    heuristic_rewards,
    terminal_rewards,
)


def forma_position():
    """Forma, 2 players, seed 1 after 31 random plies: Blue (seat 1 to move) has one
    placement worth 36 heuristic points more than any other (12 against -24)."""
    game = create_game("forma", {"players": 2})
    state = game.new_state(1)
    mover = create_agent("random", seed=1)
    for _ in range(31):
        state.play(mover.act(state))
    return state


def heuristic_after(state, move):
    child = state.array.copy()
    state.game.kernels.apply_move(child, move)
    return state.game.kernels.heuristic(child, state.current_player)


def root_stats(agent):
    """(moves, visits, mean rewards) of the root's children after the agent's last search."""
    nodes, rewards, _, _ = agent._tree
    cap = int(nodes[0, kernel.F_NCHILD])
    moves, visits, means = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap)
    k = kernel.root_children(nodes, rewards, moves, visits, means)
    return moves[:k], visits[:k], means[:k]


def test_relative_leaf_values_are_one_half_at_the_root():
    state = forma_position()
    tag = state.game.kernels.tag
    base = np.empty(2)
    out = np.empty(2)
    heuristic_base(tag, state.array, True, base)
    heuristic_rewards(tag, state.array, 30.0, base, out)
    assert out.tolist() == [0.5, 0.5]
    heuristic_base(tag, state.array, False, base)
    assert base.tolist() == [0.0, 0.0]
    heuristic_rewards(tag, state.array, 30.0, base, out)
    margin = state.game.kernels.heuristic(state.array, 0)
    assert out[0] == pytest.approx(1 / (1 + np.exp(-margin / 30.0)))


def test_forma_search_concentrates_on_the_move_the_heuristic_prefers():
    """With Forma's earlier defaults (order_depth 1, widen 1, no depth limit) the root's
    best child got 71 of 3,000 visits, about as many as each of its 54 siblings: the
    replies below it were random moves, whose values say little. Searched best-first
    on both plies, it gets most of them."""
    state = forma_position()
    best = max(state.legal_moves().tolist(), key=lambda m: heuristic_after(state, m))
    agent = create_agent("mcts(iterations=3000)", seed=3)
    move = agent.act(state)
    moves, visits, _ = root_stats(agent)
    assert move == best
    assert visits[moves.tolist().index(best)] > 5 * np.median(visits)


def test_relative_leaf_values_spread_the_root_children_apart():
    """Forma's margins run to tens of points, so sigmoid(margin / 30) puts every leaf near
    1 and the root's children within 0.04 of each other; measured from the root's margin
    the spread is several times larger and the best child gets many more visits."""
    state = forma_position()
    spec = "mcts(iterations=3000, order_depth=1, widen=1.0, tree_depth=0, hrelative={})"
    stats = {}
    for relative in ("false", "true"):
        agent = create_agent(spec.format(relative), seed=3)
        agent.act(state)
        _, visits, means = root_stats(agent)
        stats[relative] = (means.max() - np.median(means), visits.max() / np.median(visits))
    assert stats["true"][0] > 3 * stats["false"][0]
    assert stats["true"][1] > 5 * stats["false"][1]


def test_tree_depth_limits_the_tree():
    state = forma_position()
    # deepen=0: the 2-player default (30) grows leaves that the search keeps visiting.
    agent = create_agent("mcts(iterations=2000, order_depth=1, widen=1.0, tree_depth=1, deepen=0)", seed=4)
    agent.act(state)
    nodes, _, meta, _ = agent._tree
    used = int(meta[0])
    # Every node but the root is a child of the root: nothing below ply 1.
    assert used > 1 and (nodes[1:used, kernel.F_PARENT] == 0).all()


def _depths(nodes, used):
    depth = np.zeros(used, dtype=np.int64)
    for i in range(1, used):  # a child is always created after its parent
        depth[i] = depth[nodes[i, kernel.F_PARENT]] + 1
    return depth


def test_deepen_grows_leaves_at_the_depth_limit_once_they_earn_the_visits():
    """With tree_depth=1 and deepen=40 a leaf gets children only once it has 40 visits,
    best-first like an ordered node; so the tree goes deeper than the limit on the
    lines searched most, and only there (without deepen: test_tree_depth_limits_the_tree)."""
    state = forma_position()
    agent = create_agent("mcts(iterations=3000, order_depth=1, widen=0.3, tree_depth=1, deepen=40)", seed=4)
    agent.act(state)
    nodes, _, meta, _ = agent._tree
    used = int(meta[0])
    depth = _depths(nodes, used)
    assert depth.max() >= 3
    grown = [i for i in range(1, used) if nodes[i, kernel.F_CHILD] != -1]
    assert grown
    for i in grown:
        assert nodes[i, kernel.F_VISITS] >= 40 + nodes[i, kernel.F_NCHILD] - 1  # 40 before its first child
        assert nodes[i, kernel.F_PERM] < 0  # expanded from a best-first order
    leaves_at_limit = [i for i in range(1, used) if depth[i] >= 1 and nodes[i, kernel.F_CHILD] == -1]
    assert all(nodes[i, kernel.F_VISITS] <= 40 for i in leaves_at_limit)


def test_deepen_grows_whole_steps_of_tree_depth():
    """With tree_depth=2 a leaf at ply 2 or 4 needs deepen visits to grow, a node at
    ply 3 only its second visit: the tree deepens two plies at a time, so its leaves
    keep the parity the limit was tuned for."""
    state = forma_position()
    agent = create_agent("mcts(iterations=4000, order_depth=2, widen=0.3, tree_depth=2, deepen=30)", seed=4)
    agent.act(state)
    nodes, _, meta, _ = agent._tree
    used = int(meta[0])
    depth = _depths(nodes, used)
    assert depth.max() >= 4
    for i in range(1, used):
        if nodes[i, kernel.F_CHILD] != -1 and depth[i] >= 2:
            need = 30 if depth[i] % 2 == 0 else 1
            assert nodes[i, kernel.F_VISITS] >= need + nodes[i, kernel.F_NCHILD] - 1
    ply3_leaves = [i for i in range(1, used) if depth[i] == 3 and nodes[i, kernel.F_CHILD] == -1]
    assert all(nodes[i, kernel.F_VISITS] <= 1 for i in ply3_leaves)


@pytest.mark.parametrize("held, deepening", [
    ("deepen=30, deepen_after=3001", "deepen=30"),  # the search is shorter than deepen_after
    # an iteration budget one short of deepen_min_iterations; one that reaches it deepens
    ("deepen=30, deepen_min_iterations=3001", "deepen=30, deepen_min_iterations=3000"),
])
def test_a_gate_that_holds_deepening_back_builds_the_tree_without_deepen(held, deepening):
    """A search the gate holds back builds exactly the tree that deepen=0 builds (same
    nodes, same visits, same move); the same search with the gate open deepens."""
    state = forma_position()
    spec = "mcts(iterations=3000, order_depth=2, widen=0.3, tree_depth=2, reuse=false, {})"
    plain = create_agent(spec.format("deepen=0"), seed=4)
    short = create_agent(spec.format(held), seed=4)
    deep = create_agent(spec.format(deepening), seed=4)
    moves = [a.act(state) for a in (plain, short, deep)]
    used = int(plain._tree[2][0])
    assert int(short._tree[2][0]) == used and moves[1] == moves[0]
    assert (short._tree[0][:used] == plain._tree[0][:used]).all()
    assert _depths(deep._tree[0], int(deep._tree[2][0])).max() >= 4


def test_order_sample_orders_a_sample_only_where_deepening_grew_the_tree():
    """With order_sample=64 every node that deepening opened (ply 2 and below) chooses
    its children from 64 distinct legal moves, best-first by the mover's one-ply
    heuristic; the two fully ordered plies above keep their whole orders."""
    state = forma_position()
    spec = "mcts(iterations=3000, order_depth=2, widen=0.3, tree_depth=2, reuse=false, deepen=30, {})"
    sampled = create_agent(spec.format("order_sample=64"), seed=4)
    sampled.act(state)
    nodes, _, meta, pool = sampled._tree
    used = int(meta[0])
    depth = _depths(nodes, used)
    assert depth.max() >= 4
    grown = [i for i in range(used) if nodes[i, kernel.F_CHILD] != -1]
    deep = [i for i in grown if depth[i] >= 2]
    assert deep
    for i in grown:
        assert nodes[i, kernel.F_PERM] < 0  # best-first everywhere
        assert (nodes[i, kernel.F_NLEGAL] == 64) == (depth[i] >= 2)
    width = kernel.order_width(pool)
    orders = pool.reshape(pool.size)
    game = state.game
    for i in deep:
        # The node's position: replay the moves from the root.
        path, j = [], i
        while j != 0:
            path.append(int(nodes[j, kernel.F_MOVE]))
            j = int(nodes[j, kernel.F_PARENT])
        position = state.array.copy()
        for move in reversed(path):
            game.kernels.apply_move(position, move)
        slot = -1 - int(nodes[i, kernel.F_PERM])
        order = orders[slot * width:slot * width + 64]
        buf = np.empty(game.kernels.max_moves, dtype=np.int64)
        legal = set(buf[:game.kernels.legal_moves(position, buf)].tolist())
        assert len(set(order.tolist())) == 64 and set(order.tolist()) <= legal
        mover = int(nodes[nodes[i, kernel.F_CHILD], kernel.F_MOVER])  # the seat to move there
        values = []
        for move in order.tolist():
            child = position.copy()
            game.kernels.apply_move(child, move)
            values.append(game.kernels.heuristic(child, mover))
        assert values == sorted(values, reverse=True)


def test_order_sample_is_reproducible_and_off_by_default():
    """Same seed, same tree bit for bit; order_sample=0 is the search without it, and a
    sample at least as large as every move list changes nothing either."""
    state = forma_position()
    spec = "mcts(iterations=1500, order_depth=2, widen=0.3, tree_depth=2, reuse=false, deepen=30{})"
    trees = []
    for extra in ("", ", order_sample=0", ", order_sample=40000", ", order_sample=64", ", order_sample=64"):
        agent = create_agent(spec.format(extra), seed=4)
        agent.act(state)
        used = int(agent._tree[2][0])
        trees.append(agent._tree[0][:used].copy())
    assert all(t.shape == trees[0].shape and (t == trees[0]).all() for t in trees[1:3])
    assert trees[3].shape == trees[4].shape and (trees[3] == trees[4]).all()
    assert not (trees[3].shape == trees[0].shape and (trees[3] == trees[0]).all())


def test_order_sample_starts_every_search_from_a_fresh_tree():
    """A kept subtree's root was ordered from a sample when deepening opened it; a root
    must weigh every move, so with order_sample and deepen the search never reuses its
    tree (without deepen nothing is sampled, and the tree is kept as usual)."""
    game = create_game("forma", {"players": 2})
    state = game.new_state(1)
    spec = "mcts(iterations=1000, order_depth=2, widen=0.3, {})"
    for extra, reuses in (("tree_depth=2, deepen=30", True), ("tree_depth=2, deepen=30, order_sample=64", False),
                          ("tree_depth=4, deepen=0, order_sample=64", True)):
        me = create_agent(spec.format(extra), seed=4)
        other = create_agent("greedy", seed=4)
        position = state.copy()
        kept = []
        for _ in range(3):
            position.play(me.act(position))
            kept.append(me.last_search["reused_nodes"])
            position.play(other.act(position))
        assert (max(kept) > 1) is reuses


def _root_order(spec, state, seed):
    """The root's best-first order (its slot of the ordering pool) after one search."""
    agent = create_agent(spec, seed=seed)
    agent.act(state)
    nodes, _, _, pool = agent._tree
    assert nodes[0, kernel.F_PERM] == -1  # the root was ordered first: slot 0
    width = kernel.order_width(pool)
    return pool.reshape(pool.size)[:min(width, state.legal_moves().size)].tolist()


def test_random_ties_shuffle_equally_valued_moves_and_only_them():
    """On an empty 4-player board 84 of the best opening placements are worth the same to
    the one-ply heuristic. Without random_ties the root opens them in move-list order in
    every search; with it each search draws its own front of the tied class (the same
    for the same seed), and the order stays best-first by value either way."""
    game = create_game("forma", {"players": 4, "obstacles": "none"})
    state = game.new_state(1)
    listed = {m: i for i, m in enumerate(state.legal_moves().tolist())}
    spec = "mcts(iterations=50, order_depth=1, widen=0.3, tree_depth=2, reuse=false{})"
    for flag in ("", ", random_ties=false", ", random_ties=true"):
        order = _root_order(spec.format(flag), state, seed=4)
        values = [heuristic_after(state, m) for m in order]
        assert values == sorted(values, reverse=True)
        tied = [m for m, v in zip(order, values) if v == values[0]]
        assert len(tied) > 50  # more than a 1 s search opens at the root
        in_list_order = [listed[m] for m in tied] == sorted(listed[m] for m in tied)
        assert in_list_order is (flag != ", random_ties=true")
    first = _root_order(spec.format(", random_ties=true"), state, seed=4)
    assert _root_order(spec.format(", random_ties=true"), state, seed=4) == first
    assert _root_order(spec.format(", random_ties=true"), state, seed=5)[:10] != first[:10]


def test_deepen_after_counts_root_visits_before_any_leaf_grows():
    """With deepen_after=2000 of 4000 iterations the tree deepens, but nothing below
    the depth limit can have been visited in the first 2000 iterations: the visits
    of all ply-3 nodes add up to at most 4000 - 2000."""
    state = forma_position()
    agent = create_agent("mcts(iterations=4000, order_depth=2, widen=0.3, tree_depth=2, reuse=false, "
                         "deepen=30, deepen_after=2000)", seed=4)
    agent.act(state)
    nodes, _, meta, _ = agent._tree
    used = int(meta[0])
    depth = _depths(nodes, used)
    assert depth.max() >= 4
    assert 0 < nodes[:used][depth == 3, kernel.F_VISITS].sum() <= 4000 - 2000


@pytest.mark.parametrize("budget, deepens", [
    ({"cpu_time": 0.2}, False), ({"cpu_time": 0.5}, True), ({"cpu_time": 1.0}, True),
    ({"time": 1.0}, True), ({"time": 1.0, "cpu_time": 0.2}, False),  # the smaller one ends the search
    ({"cpu_time": 0.2, "iterations": 100_000}, False),  # a time budget overrides iterations
    ({"iterations": 7999}, False), ({"iterations": 8000}, True),
])
def test_the_deepening_gate_reads_the_budget_given(budget, deepens):
    """deepen_min_seconds gates time budgets, deepen_min_iterations iteration budgets:
    the gate reads the budget the move is given, so a busy machine cannot change it."""
    o = {"time": 0.0, "cpu_time": 0.0, "iterations": 1000, "deepen_min_seconds": 0.5,
         "deepen_min_iterations": 8000, **budget}
    assert agent_module.budget_deepens(o) is deepens
    assert agent_module.budget_deepens({**o, "deepen_min_seconds": 0.0, "deepen_min_iterations": 0})


@pytest.mark.parametrize("budget, cutoff", [
    ({"cpu_time": 0.2}, 4), ({"cpu_time": 0.999}, 4), ({"cpu_time": 1.0}, 16), ({"time": 2.0}, 16),
    ({"time": 2.0, "cpu_time": 0.5}, 4),  # the smaller budget ends the search
    ({"iterations": 24_999}, 4), ({"iterations": 25_000}, 16),
])
def test_the_rollout_horizon_gate_reads_the_budget_given(budget, cutoff):
    """long_cutoff replaces cutoff only for a move whose budget is long: seconds against
    long_min_seconds, iterations against long_min_iterations; -1 turns it off."""
    o = {"time": 0.0, "cpu_time": 0.0, "iterations": 1000, "cutoff": 4, "long_cutoff": 16,
         "long_min_seconds": 1.0, "long_min_iterations": 25_000, **budget}
    assert agent_module.rollout_cutoff(o) == cutoff
    assert agent_module.rollout_cutoff({**o, "long_cutoff": -1}) == 4
    assert agent_module.rollout_cutoff({**o, "long_cutoff": 0, "long_min_seconds": 0.0,
                                        "long_min_iterations": 0}) == 0  # 0 = rollouts to the end


def same_search(state, plain, gated):
    """Assert that two 2-player agents search ``state`` exactly alike (same move, nodes,
    visits and reward sums); return the root's reward sums."""
    assert plain.act(state) == gated.act(state)
    used = int(plain._tree[2][0])
    assert int(gated._tree[2][0]) == used
    assert (gated._tree[0][:used] == plain._tree[0][:used]).all()
    # reward sums; the other half of the row is implicit-minimax room, unused here
    assert (gated._tree[1][:used, :2] == plain._tree[1][:used, :2]).all()
    return plain._tree[1][0, :2].copy()


@pytest.mark.parametrize("held, opened", [
    ("long_cutoff=12, long_min_iterations=1501", "long_cutoff=12, long_min_iterations=1500"),
])
def test_a_held_rollout_gate_builds_the_tree_of_the_short_cutoff(held, opened):
    """Below the gate a search is the cutoff=2 search exactly (same nodes, visits,
    rewards and move); at the gate it is the cutoff=12 search exactly."""
    state = forma_position()
    spec = "mcts(iterations=1500, rollout=sample, reuse=false, {})"
    pairs = [(create_agent(spec.format("cutoff=2"), seed=6), create_agent(spec.format(f"cutoff=2, {held}"), seed=6)),
             (create_agent(spec.format("cutoff=12"), seed=6),
              create_agent(spec.format(f"cutoff=2, {opened}"), seed=6))]
    roots = [same_search(state, plain, gated) for plain, gated in pairs]
    assert not np.array_equal(*roots)  # the two horizons search differently


@pytest.mark.parametrize("budget, proposals", [
    ({"cpu_time": 0.1}, 0), ({"cpu_time": 0.2}, 0), ({"cpu_time": 0.999}, 0), ({"cpu_time": 1.0}, 1),
    ({"time": 0.2, "cpu_time": 1.0}, 0),  # the smaller budget ends the search
    ({"iterations": 7_999}, 0), ({"iterations": 8_000}, 1),
])
def test_the_proposal_gate_reads_the_budget_given(budget, proposals):
    """long_proposals replaces proposals only for a move whose budget is long (the gate
    of long_cutoff); -1 turns it off, and the cutoff is not touched by it."""
    o = {"time": 0.0, "cpu_time": 0.0, "iterations": 1000, "cutoff": 4, "long_cutoff": -1, "proposals": 0,
         "long_proposals": 1, "long_min_seconds": 1.0, "long_min_iterations": 8_000, **budget}
    assert agent_module.rollout_proposals(o) == proposals
    assert agent_module.rollout_proposals({**o, "long_proposals": -1}) == 0
    assert agent_module.rollout_cutoff(o) == 4


@pytest.mark.parametrize("budget, proposals", [("cpu_time=0.1", 0), ("cpu_time=0.2", 0), ("cpu_time=1", 1),
                                               ("iterations=2000", 0), ("iterations=8000", 1)])
def test_four_player_forma_proposes_only_under_long_budgets(budget, proposals):
    """The 4-player Forma defaults take the tower-taking proposal only at 1 s (or 8,000
    iterations) per move: the 0.1 s and 0.2 s searches are the ones measured before it."""
    game = create_game("forma", {"players": 4})
    o = create_agent(f"mcts({budget})").settings_for(game)
    assert agent_module.rollout_proposals(o) == proposals
    assert (o["proposals"], agent_module.rollout_cutoff(o)) == (0, 4)


def test_a_held_proposal_gate_builds_the_tree_without_proposals():
    """Below the gate a search is the proposals=0 search exactly (same nodes, visits,
    rewards and move); at the gate it is the proposals=1 search exactly."""
    state = forma_position()
    spec = "mcts(iterations=800, rollout=sample, cutoff=6, reuse=false, {})"
    pairs = [(create_agent(spec.format("proposals=0"), seed=6),
              create_agent(spec.format("long_proposals=1, long_min_iterations=801"), seed=6)),
             (create_agent(spec.format("proposals=1"), seed=6),
              create_agent(spec.format("long_proposals=1, long_min_iterations=800"), seed=6))]
    roots = [same_search(state, plain, gated) for plain, gated in pairs]
    assert not np.array_equal(*roots)  # proposals change the rollouts


def test_every_node_near_the_root_is_ordered_in_forma():
    """Forma's move list is 30,433 long: full-length order rows fitted 34 in the pool, so
    from the 35th node on, ply-2 replies were expanded in random order. Orders are now
    cut to ORDER_WIDTH moves and hundreds fit."""
    state = forma_position()
    agent = create_agent("mcts(iterations=3000, order_depth=2, widen=1.0, tree_depth=2)", seed=5)
    agent.act(state)
    nodes, _, meta, _ = agent._tree
    used = int(meta[0])
    ply1 = [i for i in range(1, used) if nodes[i, kernel.F_PARENT] == 0 and nodes[i, kernel.F_CHILD] != -1]
    assert len(ply1) > 34
    assert all(nodes[i, kernel.F_PERM] < 0 for i in ply1)  # expanded from a best-first order


def test_mcts_finds_the_big_move_with_a_small_budget():
    state = forma_position()
    best = max(state.legal_moves().tolist(), key=lambda m: heuristic_after(state, m))
    for seed in range(3):
        assert create_agent("mcts(iterations=100)", seed=seed).act(state) == best


def test_widening_opens_only_the_best_children_by_heuristic():
    state = forma_position()
    agent = create_agent("mcts(iterations=400, order_depth=1, widen=1.0)", seed=2)
    agent.act(state)
    moves, _, _ = root_stats(agent)
    # 1 + widen * sqrt(visits): at most 1 + sqrt(400) = 21 children, the best by heuristic.
    assert 1 < len(moves) <= 21
    values = sorted((heuristic_after(state, m) for m in state.legal_moves().tolist()), reverse=True)
    worst_opened = min(heuristic_after(state, m) for m in moves.tolist())
    assert worst_opened >= values[len(moves) - 1]


def test_replies_caps_other_seats_nodes_at_their_best_moves():
    """With replies=1 every node where the other seat moves opens one child: that seat's
    best move by its own one-ply heuristic (greedy's, up to ties); the searcher's own
    nodes still open several. Without the cap those nodes open several children too."""
    state = forma_position()
    searcher = state.current_player
    for replies, most in ((1, 1), (0, None)):
        agent = create_agent(f"mcts(iterations=1500, order_depth=2, widen=1.0, tree_depth=2, reuse=false, "
                             f"replies={replies})", seed=3)
        agent.act(state)
        nodes, _, meta, _ = agent._tree
        used = int(meta[0])
        replied = [i for i in range(1, used) if nodes[i, kernel.F_PARENT] == 0 and nodes[i, kernel.F_CHILD] != -1]
        assert len(replied) > 3 and int(nodes[0, kernel.F_NCHILD]) > 3
        opened = [int(nodes[i, kernel.F_NCHILD]) for i in replied]
        if most is None:
            assert max(opened) > 1
            continue
        assert opened == [1] * len(replied)
        for i in replied[:5]:
            after = state.copy()
            after.play(int(nodes[i, kernel.F_MOVE]))
            assert after.current_player != searcher
            reply = int(nodes[nodes[i, kernel.F_CHILD], kernel.F_MOVE])
            best = max(heuristic_after(after, m) for m in after.legal_moves().tolist())
            assert heuristic_after(after, reply) == best


def test_same_seed_same_tree_bit_for_bit():
    state = forma_position()
    runs = []
    for _ in range(2):
        agent = create_agent("mcts(iterations=500, hrelative=true)", seed=11)
        move = agent.act(state)
        moves, visits, means = root_stats(agent)
        runs.append((move, moves.tolist(), visits.tolist(), means.tobytes()))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("spec, name", [("mcts(hrelative=3)", "hrelative"), ("mcts(tree_depth=-1)", "tree_depth"),
                                        ("mcts(tree_depth=1.5)", "tree_depth"),
                                        ("mcts(deepen=-1)", "deepen"), ("mcts(deepen=2.5)", "deepen"),
                                        ("mcts(deepen_after=-5)", "deepen_after"),
                                        ("mcts(deepen_min_seconds=-0.5)", "deepen_min_seconds"),
                                        ("mcts(deepen_min_iterations=-1)", "deepen_min_iterations"),
                                        ("mcts(deepen_min_iterations=0.5)", "deepen_min_iterations"),
                                        ("mcts(long_cutoff=-2)", "long_cutoff"),
                                        ("mcts(long_cutoff=2.5)", "long_cutoff"),
                                        ("mcts(long_proposals=-2)", "long_proposals"),
                                        ("mcts(long_proposals=0.5)", "long_proposals"),
                                        ("mcts(long_min_seconds=-1)", "long_min_seconds"),
                                        ("mcts(long_min_iterations=-1)", "long_min_iterations"),
                                        ("mcts(replies=-1)", "replies"), ("mcts(replies=1.5)", "replies"),
                                        ("mcts(order_sample=-1)", "order_sample"),
                                        ("mcts(order_sample=2.5)", "order_sample")])
def test_bad_new_parameters_are_refused(spec, name):
    with pytest.raises(AgentSpecError, match=name):
        create_agent(spec)


def test_reused_subtree_keeps_its_best_first_orders():
    """Two plies later the kept node expands its children from the copied order: the
    best by heuristic, as if it had been ordered afresh."""
    state = forma_position()
    agent = create_agent("mcts(iterations=2000, order_depth=3, widen=1.0, tree_depth=0, reuse=true)", seed=6)
    move = agent.act(state)
    nodes, _, _, _ = agent._tree
    node = nodes[0, kernel.F_CHILD]
    while nodes[node, kernel.F_MOVE] != move:
        node = nodes[node, kernel.F_SIBLING]
    # The reply with the most visits under our move: a node with an order and children.
    reply, best_visits = -1, -1
    ch = nodes[node, kernel.F_CHILD]
    while ch != -1:
        if nodes[ch, kernel.F_VISITS] > best_visits:
            reply, best_visits = nodes[ch, kernel.F_MOVE], nodes[ch, kernel.F_VISITS]
        ch = nodes[ch, kernel.F_SIBLING]
    state.play(move)
    state.play(int(reply))
    agent.act(state)
    assert agent.last_search["reused_nodes"] > 1
    moves, _, _ = root_stats(agent)
    legal = state.legal_moves().tolist()
    values = np.array([-heuristic_after(state, m) for m in legal])
    fresh_order = [legal[i] for i in np.argsort(values, kind="stable")]  # what ordering gives
    assert set(moves.tolist()) == set(fresh_order[:len(moves)])


def test_tuned_defaults_per_player_count_apply_below_explicit_values(monkeypatch):
    from forumlab.engines.forma.game import Forma as FormaGame

    monkeypatch.setattr(FormaGame, "mcts_defaults_by_players", {4: {"tree_depth": 5, "c": 0.9}})
    agent = create_agent("mcts(c=0.4)")
    four, two = create_game("forma", {"players": 4}), create_game("forma", {"players": 2})
    at_four, at_two = agent.settings_for(four), agent.settings_for(two)
    assert at_four["tree_depth"] == 5 and at_four["c"] == 0.4  # the spec's own value wins
    assert at_two["tree_depth"] == FormaGame.mcts_defaults["tree_depth"]
    assert at_four["rollout"] == at_two["rollout"] == FormaGame.mcts_defaults["rollout"]


def played_position(game, players, plies, seed=4):
    state = create_game(game, {"players": players}).new_state(seed)
    mover = create_agent("random", seed=seed)
    for _ in range(plies):
        state.play(mover.act(state))
    return state


@pytest.mark.parametrize("game, players, plies", [("forum-romanum", 3, 12), ("forum-romanum", 5, 15), ("forma", 4, 9)])
def test_rank_leaf_value_is_the_mean_chance_of_being_ahead_of_each_other_seat(game, players, plies):
    state = played_position(game, players, plies)
    kernels = state.game.kernels
    margins = [kernels.heuristic(state.array, p) for p in range(players)]
    # The estimates relative to the leader: the leader's margin is >= 0, everyone
    # else's margin is its distance to the leader.
    top = max(margins)
    assert top >= 0
    rel = [0.0 if m >= 0 else m for m in margins]
    out = np.empty(players)
    heuristic_rank_rewards(kernels.tag, state.array, 10.0, np.zeros(players), out)

    def sig(x):
        return 1 / (1 + np.exp(-x / 10.0))

    for p in range(players):
        expected = sum(sig(rel[p] - rel[q]) for q in range(players) if q != p) / (players - 1)
        assert out[p] == pytest.approx(expected)
    # sigmoid(x) + sigmoid(-x) = 1: every pair shares one unit, so the values sum to n/2,
    # and whoever leads the estimates has the highest value.
    assert out.sum() == pytest.approx(players / 2)
    assert int(np.argmax(out)) == int(np.argmax(margins))


def test_rank_leaf_value_with_two_players_is_the_win_chance():
    state = played_position("forma", 2, 7)
    tag = state.game.kernels.tag
    win, rank, zero = np.empty(2), np.empty(2), np.zeros(2)
    heuristic_rewards(tag, state.array, 30.0, zero, win)
    heuristic_rank_rewards(tag, state.array, 30.0, zero, rank)
    assert rank == pytest.approx(win)


def test_relative_rank_leaf_value_compares_each_pair_by_the_gap_gained_since_the_root():
    """hrelative with reward=rank: p against q scores sigmoid of (p's estimate minus q's)
    minus that difference at the root, so the root itself is worth 1/2 to every seat
    however far behind a seat is (without it, a seat 8 points behind in 3-player Forum
    Romanum at hscale 2 scored every leaf near 0 and could not tell its moves apart)."""
    root = played_position("forum-romanum", 3, 12)
    kernels = root.game.kernels
    base = np.array([kernels.heuristic(root.array, p) for p in range(3)])
    out = np.empty(3)
    heuristic_rank_rewards(kernels.tag, root.array, 2.0, base, out)
    assert out == pytest.approx([0.5, 0.5, 0.5])
    later = root.clone()
    for _ in range(4):
        later.play(later.legal_moves()[0])
    gaps = [min(kernels.heuristic(later.array, p), 0.0) - min(base[p], 0.0) for p in range(3)]

    def sig(x):
        return 1 / (1 + np.exp(-x / 2.0))

    heuristic_rank_rewards(kernels.tag, later.array, 2.0, base, out)
    for p in range(3):
        assert out[p] == pytest.approx(sum(sig(gaps[p] - gaps[q]) for q in range(3) if q != p) / 2)


def test_a_rank_reward_with_relative_leaves_searches():
    """4-player Forma's tuned default is reward=rank; a given hrelative=true now combines
    with it (it was refused, then overrode the tuned reward) and the search runs."""
    game = create_game("forma", players=4)
    agent = create_agent("mcts(iterations=50, hrelative=true)", seed=1)
    assert agent.settings_for(game)["reward"] == "rank"
    move = agent.act(game.new_state(1))
    assert move in game.new_state(1).legal_moves()


def test_tree_reuse_never_keeps_a_tree_from_another_position_of_a_hidden_information_game():
    """An agent of a hidden-information game is handed views without a history
    (State.view_for). Tree reuse keyed on the history alone took every new view for
    the old root and searched the previous position's tree again (MCTS then lost 12 of
    12 Foundations of Rome games to greedy). Now the old root must lead to the new
    position move for move, so a view starts a fresh tree and the move is legal."""
    from forumlab.core.rng import make_rng

    game = create_game("foundations-of-rome", players=3)
    state = game.new_state(4)
    agent = create_agent("mcts(iterations=300, reuse=true)", seed=2)
    rng = make_rng(7)
    for _ in range(6):
        view = state.view_for(state.current_player, rng)
        move = agent.act(view)
        assert move in state.legal_moves().tolist()
        assert agent.last_search["reused_nodes"] == 0
        state.play(move)
        for _ in range(2):  # the other seats move
            state.play(create_agent("greedy", seed=1).act(state.view_for(state.current_player, rng)))


def test_tree_reuse_still_keeps_the_subtree_in_a_perfect_information_game():
    game = create_game("forum-romanum", players=3)
    state = game.new_state(4)
    agent = create_agent("mcts(iterations=2000, reuse=true)", seed=2)
    state.play(agent.act(state))
    for _ in range(2):
        state.play(create_agent("greedy", seed=1).act(state))
    agent.act(state)
    assert agent.last_search["reused_nodes"] > 0


def test_rank_reward_of_a_finished_game_counts_a_tie_as_half():
    """A finished game is worth, to each seat, the share of the other seats it finished
    ahead of, a tie counting half (what the cut-off value estimates, so the values sum
    to n/2). Ties used to count as being ahead: a three-way shared win was worth 1 to
    everyone, as much as a win alone, and mcts(reward=rank) gave away a won game."""
    game = create_game("forum-romanum", players=3, max_rounds=3)
    state = game.new_state(0)
    for text in ["a1", "b1", "c1", "d1", "e1", "f1", "a7", "b7"]:
        state.play(text)
    tag, out = game.kernels.tag, np.empty(3)
    alone = state.copy().play("g1")  # row 1 settles: seat 2 +7, seats 0 and 1 -2 each
    assert alone.is_terminal and alone.result()["scores"] == [-2, -2, 7]
    terminal_rewards(tag, alone.array, REWARD_RANK, out)
    assert out.tolist() == [0.25, 0.25, 1.0]
    shared = state.copy().play("c7")
    assert shared.is_terminal and shared.result()["scores"] == [0, 0, 0]
    terminal_rewards(tag, shared.array, REWARD_RANK, out)
    assert out.tolist() == [0.5, 0.5, 0.5]
