"""The tuner's grid: parsing NAME=LOW..HIGH[:STEPS] and NAME=V1,V2,..., list elements of
game options, spec strings, the resumable log."""
from __future__ import annotations

import json

import pytest

from forumlab.core.errors import ConfigError
from forumlab.tuning.grid import Dimension, apply_options, parse_dimension, spec_with
from forumlab.tuning.log import TuneLog
from forumlab.tuning.objectives import pairwise_share, parse_target


def test_ranges_and_lists():
    assert parse_dimension("cutoff=0..3").values == (0, 1, 2, 3)
    assert parse_dimension("c=0.1..0.5").values == (0.1, 0.2, 0.3, 0.4, 0.5)
    assert parse_dimension("iterations=100..1000:4").values == (100, 400, 700, 1000)
    assert parse_dimension("rollout=random,none").values == ("random", "none")
    assert parse_dimension("w.civic=0.5,1,2") == Dimension("w.civic", (0.5, 1, 2))


@pytest.mark.parametrize("text", ["c", "c=", "c=3..1", "n=0..100", "c=1,1", "c=1,,2", "c=0..1:1"])
def test_bad_dimensions_are_one_line_errors(text):
    with pytest.raises(ConfigError):
        parse_dimension(text)


def test_list_elements_of_an_option():
    dims = [parse_dimension("start_silver[2]=3..5"), parse_dimension("max_trades=0,1")]
    base = {"start_silver": [5, 6, 7, 8]}
    assert apply_options(base, dims, (2, 1)) == {"start_silver": [5, 6, 5, 8], "max_trades": 1}
    assert base == {"start_silver": [5, 6, 7, 8]}  # the base is not changed
    with pytest.raises(ConfigError):
        apply_options({}, dims, (0, 0))


def test_spec_with_sets_and_replaces():
    assert spec_with("greedy", {"w.civic": 2}) == "greedy(w.civic=2)"
    assert spec_with("mcts(iterations=50, c=1)", {"c": 0.3}) == "mcts(iterations=50, c=0.3)"


def test_pairwise_share_and_targets():
    assert pairwise_share([1, 2, 2], 0) == 1.0 and pairwise_share([1, 2, 2], 1) == 0.25
    assert parse_target("seat-fair") == ("seat-fair", 0.0)
    assert parse_target("length=120") == ("length", 120.0)
    for bad in ("fair", "length=0", "length=x"):
        with pytest.raises(ConfigError):
            parse_target(bad)


def test_log_reads_back_and_survives_a_cut_line(tmp_path):
    path = str(tmp_path / "t.jsonl")
    log = TuneLog(path, {"a": 1})
    log.add({"index": 0, "point": [1, 2], "value": 0.5})
    with open(path, "a") as f:
        f.write('{"index": 1, "po')  # killed in the middle of a write
    again = TuneLog(path, {"a": 1})
    assert again.get(0, [1, 2])["value"] == 0.5 and again.get(1, [0, 0]) is None
    assert again.get(0, [2, 2]) is None  # another point at that index is played, not read
    again.add({"index": 1, "point": [0, 0], "value": 1.0})
    rows = [json.loads(line) for line in open(path).read().splitlines() if line.startswith('{"index": 1, "point"')]
    assert rows == [{"index": 1, "point": [0, 0], "value": 1.0}]
    with pytest.raises(ConfigError, match="another tuning run"):
        TuneLog(path, {"a": 2})
