"""forumlab from Python: a game, a state, agents, one recorded game and a small tournament."""
import tempfile
from pathlib import Path

import forumlab


def main() -> None:
    game = forumlab.load_game("forum-romanum", players=3)
    state = game.new_state(seed=1)
    print(state)                                  # <ForumRomanum(...) seed=1: ply 0, seat 0 to move>
    print(state.legal_move_texts()[:5])           # ['a1', 'b1', 'c1', 'd1', 'e1']: the game's notation

    # A fixed action space for learning agents: a mask, and tensors of what a seat sees.
    mask = state.legal_action_mask()              # int8, game.num_actions entries
    obs = state.observation(0)                    # float32, game.observation_shape
    print(game.num_actions, int(mask.sum()), obs.shape)

    # Search on copies, take moves back, read the outcome as values in [-1, 1].
    greedy = forumlab.make_agent("greedy", seed=7)
    trial = state.clone()
    trial.play(greedy.act(trial))
    trial.undo()
    assert (trial.array == state.array).all()
    print(state.returns())                        # [0.0, 0.0, 0.0] until the game is over

    # One game between agents: a record with the moves and the result.
    record = forumlab.play(game, ["greedy", "mcts(iterations=200)", "random"], seed=1)
    print(record.result["scores"], record.result["ranks"])
    final = forumlab.replay(record)
    print(final.returns())                        # 1 for the winner, -1 for the last

    # A round robin into a results file, and its ratings as data.
    with tempfile.TemporaryDirectory() as tmp:
        report = forumlab.run_tournament("forum-romanum", ["random", "greedy", "mcts(iterations=100)"],
                                         Path(tmp) / "t.db", players=3, workers=0)
        # The intervals `forumlab ratings` prints: two agents whose intervals do not overlap
        # differ with a likelihood of superiority of about 0.975 or more; * marks an agent
        # the games cannot place (it never finished ahead of the rest, or never behind), so the
        # prior sets its distance.
        for agent in report["agents"]:
            mark = "*" if agent["separated"] else ""
            print(f'{agent["agent"]}: {agent["elo"]:+.0f}{mark} Elo [{agent["comparison_low"]:+.0f}, '
                  f'{agent["comparison_high"]:+.0f}], win rate {agent["win_rate"]:.2f}')


if __name__ == "__main__":  # tournament workers import this module
    main()
