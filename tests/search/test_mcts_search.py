"""MCTS search behaviour that a reader can check: heuristic leaf values, widening,
reproducibility, and finding an obvious best move in Forma (iteration budgets only)."""
import numpy as np
import pytest

from forumlab.agents.registry import create_agent
from forumlab.agents.spec import AgentSpecError
from forumlab.core.registry import create_game
from forumlab.search import mcts as kernel
from forumlab.search.mcts.options import budget_is_long, long_values
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


@pytest.mark.parametrize("budget, proposals", [
    ({"cpu_time": 0.1}, 0), ({"cpu_time": 0.2}, 0), ({"cpu_time": 0.999}, 0), ({"cpu_time": 1.0}, 1),
    ({"time": 0.2, "cpu_time": 1.0}, 0),  # the smaller budget ends the search
    ({"iterations": 7_999}, 0), ({"iterations": 8_000}, 1),
])
def test_the_proposal_gate_reads_the_budget_given(budget, proposals):
    """long_proposals replaces proposals only for a move whose budget is long: seconds
    against long_min_seconds, iterations against long_min_iterations; -1 turns it off."""
    o = {"time": 0.0, "cpu_time": 0.0, "iterations": 1000, "proposals": 0,
         "long_proposals": 1, "long_min_seconds": 1.0, "long_min_iterations": 8_000, **budget}
    assert long_values(o).get("proposals", 0) == proposals
    assert budget_is_long(o) is (proposals == 1)
    assert long_values({**o, "long_proposals": -1}) == {}
    assert budget_is_long({**o, "long_min_seconds": 0.0, "long_min_iterations": 0})


@pytest.mark.parametrize("budget, proposals", [("cpu_time=0.1", 0), ("cpu_time=0.2", 0), ("cpu_time=1", 1),
                                               ("iterations=2000", 0), ("iterations=8000", 1)])
def test_four_player_forma_proposes_only_under_long_budgets(budget, proposals):
    """The 4-player Forma defaults take the tower-taking proposal only at 1 s (or 8,000
    iterations) per move: the 0.1 s and 0.2 s searches are the ones measured before it."""
    game = create_game("forma", {"players": 4})
    o = create_agent(f"mcts({budget})").settings_for(game)
    assert {**o, **long_values(o)}["proposals"] == proposals
    assert (o["proposals"], o["cutoff"]) == (0, 4)


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
                                        ("mcts(long_proposals=-2)", "long_proposals"),
                                        ("mcts(long_proposals=0.5)", "long_proposals"),
                                        ("mcts(long_min_seconds=-1)", "long_min_seconds"),
                                        ("mcts(long_min_iterations=-1)", "long_min_iterations"),
                                        ("mcts(replies=-1)", "replies"), ("mcts(replies=1.5)", "replies")])
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
