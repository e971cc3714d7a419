"""The fixed benchmark positions of Foundations of Rome (benchmarks.positions) are the
same in every run: an opening, a middle and a late position of one seeded greedy game."""
from benchmarks.positions import game_positions


def test_benchmark_positions_are_fixed_and_ordered():
    first = game_positions("foundations-of-rome", 4)
    again = game_positions("foundations-of-rome", 4)
    assert list(first) == ["opening", "middle", "late"]
    plies = [len(s.history) for s in first.values()]
    assert plies[0] == 0 < plies[1] < plies[2]
    for label, state in first.items():
        assert state.history == again[label].history
        assert (state.array == again[label].array).all()
        assert not state.is_terminal and len(state.legal_moves()) > 0
