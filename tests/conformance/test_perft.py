"""Move generation of the numba kernels against perft counts of the reference engines.

``tests/data/perft-<game>.json`` holds, for seeded random lines of every game, the
number of move sequences of depth 1, 2, ... from positions along the line, as the
plain-Python reference engine counted them (``tests/data/make_perft.py`` writes the
files and says how to regenerate them). A kernel that gains or loses a legal move, or
ends a game too early or too late, anywhere in these trees changes a count.
"""
import json
from pathlib import Path

import numpy as np
import pytest

from forumlab.core.registry import create_game, get_game_class

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = sorted(DATA.glob("perft-*.json"))


def kernel_perft(game, array: np.ndarray, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies from ``array``, by the game's kernels."""
    k = game.kernels
    out = np.empty(k.max_moves, dtype=np.int64)
    n = int(k.legal_moves(array, out))
    if depth == 1:
        return n
    total = 0
    for move in out[:n].copy():
        child = array.copy()
        k.apply_move(child, move)
        total += kernel_perft(game, child, depth - 1)
    return total


def test_every_game_has_perft_data():
    from forumlab.core.registry import _GAMES

    assert sorted(f"perft-{name}.json" for name in _GAMES) == [f.name for f in FILES]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_kernels_match_the_reference_perft_counts(path):
    data = json.loads(path.read_text())
    name = data["game"]
    # Counts are of one version of the rules: regenerate them when it changes.
    assert data["engine_version"] == get_game_class(name).engine_version
    for line in data["lines"]:
        game = create_game(name, line["config"])
        state = game.new_state(line["seed"])
        for position in line["perft"]:
            while len(state.history) < position["ply"]:
                state.play(line["moves"][len(state.history)])
            ours = [kernel_perft(game, state.array, depth) for depth in range(1, len(position["counts"]) + 1)]
            assert ours == position["counts"], (
                f"perft of {name} {line['config']} seed {line['seed']} after ply {position['ply']}: "
                f"the kernels count {ours}, the reference engine {position['counts']}")
