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


def test_cpu_rates_are_preferred_and_one_sided_rates_are_listed_not_divided():
    search = {"game": "forma", "positions": [{"position": "late", "ply": 40, "legal_moves": 12,
                                              "mcts": [{"spec": "mcts(iterations=N)", "iterations_per_s": 7.0,
                                                        "iterations_per_cpu_s": 8.0}],
                                              "minimax": []}]}
    assert sxs.search_rates(search) == {"forma/late mcts(iterations=N)": 8.0}
    assert sxs.search_positions(search) == {"forma/late": [40, 12]}
    ratios, one_sided = sxs.summary({"a": {"old": [2.0, 4.0], "new": [3.0, 3.0]}, "b": {"old": [1.0], "new": []}})
    assert ratios == {"a": {"new_over_old": 1.0, "rounds": [1.5, 0.75]}}
    assert one_sided == ["b"]


def test_the_old_commit_runs_the_new_commits_scripts_against_its_own_forumlab():
    tree = sxs.checkout("HEAD")
    scripts = sxs.harness(tree)
    assert (scripts / "benchmarks" / "side_by_side.py").is_file()
    assert not (scripts / "forumlab").exists()  # forumlab comes from the tree on PYTHONPATH
    assert sxs.harness(tree) == scripts
