"""benchmarks.side_by_side reads the rates it compares from the two benchmarks' JSON and
runs each commit from its own copy of the tree."""
from benchmarks import side_by_side as sxs


def test_rates_are_read_from_the_benchmarks_json():
    playouts = {"game": "forma", "results": [{"players": 2, "numba": {"plies_per_cpu_s": 5.0}}]}
    search = {"game": "forma", "positions": [{"position": "late",
                                              "mcts": [{"spec": "mcts(iterations=N)", "iterations_per_s": 7.0}],
                                              "minimax": [{"spec": "brs(depth=2)", "nodes_per_cpu_s": 9.0}]}]}
    assert sxs.playout_rates(playouts) == {"forma/2 playouts": 5.0}
    assert sxs.search_rates(search) == {"forma/late mcts(iterations=N)": 7.0, "forma/late brs(depth=2)": 9.0}


def test_a_commit_is_run_from_a_copy_of_its_tree():
    tree = sxs.checkout("HEAD")
    assert (tree / "forumlab" / "core" / "bits.py").is_file()
    assert (tree / "benchmarks" / "playouts.py").is_file()
    assert sxs.checkout("HEAD") == tree  # written once
