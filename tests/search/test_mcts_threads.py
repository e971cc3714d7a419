"""Root-parallel MCTS (the agent's ``threads`` parameter): k searches from the same root
in k threads, each with its own tree and RNG stream, the move chosen by summed root
visits. Iteration budgets only, so every check is exact; no wall-clock assertion."""
import hashlib
import subprocess
import sys
import threading

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.agents import mcts as agent_module
from forumlab.agents.registry import create_agent
from forumlab.agents.spec import AgentSpecError
from forumlab.arena.match import play_match
from forumlab.cli import main
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.search import mcts as kernel
from tests.cli.test_records_cli import assert_bad_input

# rollout=random: the threads' RNG streams shape their trees, so the trees differ.
SPEC = "mcts(iterations={n}, threads={k}, rollout=random, cutoff=6)"


def opening(players=3):
    state = create_game("forum-romanum", players=players).new_state(4)
    for move in ("d4", "e5"):
        state.play(state.game.parse_move(state.array, move))
    return state


def root_totals(tree):
    """{move: (visits, summed reward)} of the root's children of one tree."""
    nodes, rewards, _, _ = tree
    cap = max(1, int(nodes[0, kernel.F_NCHILD]))
    moves, visits, totals = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap)
    k = kernel.root_totals(nodes, rewards, moves, visits, totals)
    return {int(m): (int(v), float(t)) for m, v, t in zip(moves[:k], visits[:k], totals[:k])}


def test_one_thread_is_one_search_with_the_agents_own_stream():
    """threads=1 runs exactly the single search of before: the same tree, bit for bit,
    as run_iterations called directly with the agent's seed and settings."""
    state = opening()
    agent = create_agent("mcts(iterations=700, threads=1)", seed=9)
    move = agent.act(state)
    o = agent.settings_for(state.game)
    nodes = np.empty((701, kernel.N_FIELDS), np.int64)
    rewards = np.empty((701, 2 * 3))
    meta = np.zeros(2, np.int64)
    pool = np.empty(agent._tree[3].shape, np.int64)
    history = np.zeros((3, 1 << kernel.HISTORY_BITS, 2))
    kernel.reset_tree(nodes, meta)
    # The tuned options by their names, with the agent's "auto" resolved: Forum Romanum
    # shows everything.
    settings = kernel.settings_from({**o, "ismcts": False}, observer=state.current_player)
    kernel.run_iterations(state.game.kernels.tag, state.array.copy(), 700, (nodes, rewards, meta, pool),
                          history, make_rng(9), settings)
    used = int(meta[0])
    assert int(agent._tree[2][0]) == used
    assert np.array_equal(agent._tree[0][:used], nodes[:used])
    assert agent._tree[1][1:used].tobytes() == rewards[1:used].tobytes()  # row 0 is never read
    totals = root_totals(agent._tree)
    assert move == max(totals, key=lambda m: (totals[m][0], totals[m][1] / totals[m][0], -m))
    assert agent.last_search["thread_iterations"] == [700]


def test_iterations_are_shared_out_and_root_statistics_sum_over_the_trees():
    state = opening()
    agent = create_agent(SPEC.format(n=1001, k=2), seed=5)
    move = agent.act(state)
    s = agent.last_search
    assert s["threads"] == 2 and s["iterations"] == 1001 and s["thread_iterations"] == [501, 500]
    trees = [search.tree for search in agent._searches]
    assert [int(t[0][0, kernel.F_VISITS]) for t in trees] == [501, 500]
    assert s["nodes"] == sum(int(t[2][0]) for t in trees)
    per_tree = [root_totals(t) for t in trees]
    summed = {}
    for totals in per_tree:
        for m, (v, r) in totals.items():
            old = summed.get(m, (0, 0.0))
            summed[m] = (old[0] + v, old[1] + r)
    # Every iteration passes through one child of the root: summed visits = iterations.
    assert sum(v for v, _ in summed.values()) == 1001
    assert move == max(summed, key=lambda m: (summed[m][0], summed[m][1] / summed[m][0], -m))
    # Independent searches: the two trees differ (different RNG streams) ...
    assert per_tree[0] != per_tree[1]
    # ... and thread 0 is the single search of its share with the agent's own stream.
    alone = create_agent(SPEC.format(n=501, k=1), seed=5)
    alone.act(state)
    assert root_totals(alone._tree) == per_tree[0]


def test_more_threads_than_iterations_still_play_a_legal_move():
    state = opening()
    agent = create_agent("mcts(iterations=3, threads=5)", seed=1)
    assert agent.act(state) in state.legal_moves()
    assert agent.last_search["thread_iterations"] == [1, 1, 1, 0, 0]


def _fingerprint(agent, state):
    """The move, the iterations per thread and a digest of every thread's tree."""
    move = agent.act(state)
    digests = []
    for s in agent._searches:
        nodes, rewards, meta, _ = s.tree
        used = int(meta[0])
        # Row 0 of rewards is never initialised (the root's own sums are never read).
        digests.append(hashlib.blake2b(nodes[:used].tobytes() + rewards[1:used].tobytes()).hexdigest())
    return move, agent.last_search["thread_iterations"], digests


def test_two_threads_are_reproducible_within_and_across_processes():
    state = opening()
    runs = [_fingerprint(create_agent(SPEC.format(n=2000, k=2), seed=3), state) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    code = (
        "from tests.search.test_mcts_threads import SPEC, opening, _fingerprint;"
        "from forumlab.agents.registry import create_agent;"
        "print(repr(_fingerprint(create_agent(SPEC.format(n=2000, k=2), seed=3), opening())))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == repr(runs[0])


def test_the_searches_run_in_concurrent_threads(monkeypatch):
    """Each search waits at a barrier for the other one before searching: run one
    after the other in one thread, they could never meet and the barrier would break."""
    barrier = threading.Barrier(2, timeout=120)
    idents = set()
    spend = agent_module._Search.spend

    def meeting_spend(self, *args, **kwargs):
        idents.add(threading.get_ident())
        barrier.wait()
        return spend(self, *args, **kwargs)

    monkeypatch.setattr(agent_module._Search, "spend", meeting_spend)
    agent = create_agent(SPEC.format(n=400, k=2), seed=2)
    before = threading.active_count()
    agent.act(opening())
    assert len(idents) == 2
    assert agent.last_search["thread_iterations"] == [200, 200]
    assert threading.active_count() == before  # no search thread outlives the move


def test_the_kernel_releases_the_gil():
    """While one thread runs a long run_iterations call, this thread sees the node count
    grow mid-call; holding the GIL, the call would show only its start and its end."""
    state = opening()
    n = 40_000
    nodes = np.empty((n + 1, kernel.N_FIELDS), np.int64)
    rewards = np.empty((n + 1, 6))
    meta = np.zeros(2, np.int64)
    pool = np.empty((16, state.game.kernels.max_moves), np.int64)
    history = np.zeros((3, 1 << kernel.HISTORY_BITS, 2))
    kernel.reset_tree(nodes, meta)
    args = (state.game.kernels.tag, state.array.copy(), n, (nodes, rewards, meta, pool), history, make_rng(1),
            kernel.make_settings(observer=state.current_player))
    kernel.run_iterations(*args[:2], 1, *args[3:])  # compile / load outside the measurement
    kernel.reset_tree(nodes, meta)
    worker = threading.Thread(target=kernel.run_iterations, args=args)
    seen = set()
    worker.start()
    while worker.is_alive():
        seen.add(int(meta[0]))
    worker.join()
    final = int(meta[0])
    assert final > 2
    assert any(2 <= m < final for m in seen), sorted(seen)[:5]


def test_budgets_bound_every_thread():
    state = opening()
    agent = create_agent("mcts(cpu_time=0.02, threads=2)", seed=1)
    agent.act(state)
    s = agent.last_search
    # Each thread reads its own CPU clock and stops once it passed the budget. These are
    # lower bounds on the budget spent (a search must not stop early), not speed
    # claims: a busy machine can only make the measured times longer, never shorter.
    assert all(c >= 0.02 for c in s["thread_cpu_seconds"])
    assert all(i > 0 for i in s["thread_iterations"])
    assert s["cpu_seconds"] == pytest.approx(sum(s["thread_cpu_seconds"]))
    timed = create_agent("mcts(time=0.02, threads=2)", seed=1)
    timed.act(state)
    assert timed.last_search["seconds"] >= 0.02  # the wall budget was used up, at least
    assert all(i > 0 for i in timed.last_search["thread_iterations"])


def test_each_thread_reuses_its_own_subtree():
    game = create_game("forum-romanum", players=3)
    state = game.new_state(0)
    agent = create_agent(SPEC.format(n=3000, k=2), seed=1)
    move = agent.act(state)
    child_visits = []
    for search in agent._searches:
        child_visits.append(root_totals(search.tree)[move][0])
    state.play(move)
    agent.options["iterations"] = 2
    agent.act(state)
    assert agent.last_search["reused_nodes"] > 2
    # Each tree was re-rooted at the move played and searched its one iteration more.
    assert [int(s.tree[0][0, kernel.F_VISITS]) for s in agent._searches] == [v + 1 for v in child_visits]


def small(name, players):
    return create_game(name, {"players": players, **({"max_rounds": 6} if name == "forum-romanum" else {})})


@pytest.mark.parametrize("name, players", [("forum-romanum", 3), ("forum-romanum", 4), ("forma", 2), ("forma", 3),
                                           ("forma", 4)])
def test_full_games_with_two_threads(name, players):
    game = small(name, players)
    specs = ["mcts(iterations=60, threads=2)", "mcts(iterations=60)", "mcts(iterations=40, threads=3)", "greedy"]

    def play():
        agents = [create_agent(specs[i], seed=10 + i) for i in range(players)]
        return play_match(game, agents, seed=2)

    first = play()
    assert first.state.is_terminal
    assert first.state.history == play().state.history  # reproducible under iteration budgets


def test_information_set_search_with_threads():
    """ISMCTS (forced on a perfect-information game: every determinization is the
    position itself) runs per thread and plays full games."""
    game = small("forum-romanum", 3)
    agents = [create_agent("mcts(iterations=50, threads=2, ismcts=true)", seed=s) for s in range(3)]
    assert play_match(game, agents, seed=1).state.is_terminal
    assert agents[0].last_search["thread_iterations"] == [25, 25]


@pytest.mark.parametrize("value", ["0", "65", "1.5", "true", "two", "-1"])
def test_bad_thread_counts_are_refused(value):
    with pytest.raises(AgentSpecError, match=r"^agent 'mcts': threads must be an integer in 1\.\.64, not \S+$"):
        create_agent(f"mcts(threads={value})")


def test_bad_thread_count_on_the_command_line_is_one_error_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "forum-romanum", "-a", "mcts(threads=0),random,random"])
    assert_bad_input(result, "threads")
    assert list(tmp_path.iterdir()) == []


def test_benchmark_measures_both_thread_counts_on_equal_work():
    from benchmarks.mcts_threads import THREADS, speed

    report = speed(0.005, 1)
    assert [(g["game"], g["players"]) for g in report["games"]] == [("forum-romanum", 3), ("forma", 2)]
    for g in report["games"]:
        assert g[f"threads={THREADS[0]}"]["iterations"] == g[f"threads={THREADS[1]}"]["iterations"] > 0


def test_benchmark_bad_option_is_one_error_line():
    done = subprocess.run([sys.executable, "-m", "benchmarks.mcts_threads", "--budget", "0"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().startswith("error: --budget") and "\n" not in done.stderr.strip()
