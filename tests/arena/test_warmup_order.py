"""The warm-up starts the agent families whose first compilation takes longest first,
so on a machine with fewer cores than cold families the short ones fill the gaps."""
from forumlab.arena.warmup import by_compile_cost


def test_mcts_and_minimax_start_before_the_cheap_families():
    families = ["forumlab.agents.random_agent", "forumlab.agents.greedy", "forumlab.agents.minimax",
                "forumlab.agents.mcts"]
    assert by_compile_cost(families) == ["forumlab.agents.mcts", "forumlab.agents.minimax",
                                         "forumlab.agents.random_agent", "forumlab.agents.greedy"]


def test_other_families_keep_their_order():
    assert by_compile_cost(["x.b", "forumlab.agents.minimax", "x.a"]) == ["forumlab.agents.minimax", "x.b", "x.a"]
