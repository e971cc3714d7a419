"""Write the perft data files ``tests/data/perft-<game>.json`` with the reference engines.

Perft (from chess programming) counts the move sequences of each length from a
position: depth 1 is the number of legal moves, depth 2 the number of two-ply
continuations, and so on. Counts taken by the plain-Python reference engines
(``forumlab/engines/*/reference*``, written from the rules alone, driven through the
reference protocol of ``forumlab.testing.reference``) are the expected values for the
numba kernels (``tests/conformance/test_perft.py``), so a move-generation change that
gains or loses a move anywhere in these trees fails a test.

For every configuration of the ``perft`` entry of the game's conformance data
(``forumlab/engines/<game>/conformance.py``) and two seeds the script plays one seeded
random line (``random.Random(seed)`` choosing among the reference engine's legal moves)
and takes perft at six plies of it: the start, ply 1, a quarter, half and three
quarters of the way, and the last position before the end. The depth goes up to 3
while the positions above the leaves number at most ``NODE_BUDGET``, so the test
stays fast (Forma, with up to ~30,000 placements per position, gets depth 1 until
late in a game). Forum Romanum's random lines reach the 100-round cap, so it also
has lines without a cap, which end by the rules. A new game adds a ``perft`` entry to
its conformance data and runs the script for its name.

Regenerate (after a deliberate rules change, with the engine version bumped)::

    python tests/data/make_perft.py            # every game
    python tests/data/make_perft.py forma      # one game
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The checkout's forumlab, also when the script is run by path without PYTHONPATH=.
sys.path.insert(0, str(HERE.parents[1]))

from forumlab.core.registry import create_game, game_names, get_game_class  # noqa: E402
from forumlab.testing.reference import conformance_data, start_reference  # noqa: E402

# Depth d + 1 is counted while the positions at depth d number at most this: each
# costs the test one apply_move and one legal_moves call.
NODE_BUDGET = 2_500
MAX_DEPTH = 3
SEEDS = (0, 1)


def reference_perft(ref, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies from ``ref`` (games that end sooner
    count nothing)."""
    moves = ref.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = ref.copy()
        child.play(move)
        total += reference_perft(child, depth - 1)
    return total


def perft_counts(ref) -> list[int]:
    """Perft at depth 1, 2, ... (at most MAX_DEPTH) while the positions one ply above
    the leaves number at most NODE_BUDGET."""
    counts = [reference_perft(ref, 1)]
    while len(counts) < MAX_DEPTH and 0 < counts[-1] <= NODE_BUDGET:
        counts.append(reference_perft(ref, len(counts) + 1))
    return counts


def line(name: str, config: dict, seed: int, sort_moves: bool) -> dict:
    """A seeded random line of the reference engine, with perft at six of its plies; the
    moves are drawn from the reference's legal list, sorted by text when ``sort_moves``
    (else in the engine's own order), as when the files were first written."""
    game = create_game(name, config)
    ref = start_reference(game, seed)
    chooser = random.Random(seed)
    positions = [ref.copy()]
    texts = []
    while not ref.is_terminal():
        legal = ref.legal_moves()
        texts.append(chooser.choice(sorted(legal) if sort_moves else legal))
        ref.play(texts[-1])
        positions.append(ref.copy())
    last = len(texts) - 1  # the last position before the end
    plies = sorted({0, 1, last // 4, last // 2, 3 * last // 4, last})
    return {
        "config": game.config,
        "seed": seed,
        "moves": texts[:last],
        "perft": [{"ply": ply, "counts": perft_counts(positions[ply])} for ply in plies],
    }


def build(name: str) -> dict:
    """The perft data of one game (its conformance data's ``perft`` entry)."""
    spec = conformance_data(name)["perft"]
    lines = [line(name, config, seed, spec["sort_moves"]) for config in spec["configs"] for seed in SEEDS]
    return {
        "about": f"Perft counts of {name} from its reference engine; regenerate with "
                 "'PYTHONPATH=. python tests/data/make_perft.py'. Each line replays 'moves' "
                 "(notation) from (config, seed); 'counts' are the move sequences of depth 1, 2, ... "
                 "from the position after 'ply' of those moves.",
        "game": name,
        "engine_version": get_game_class(name).engine_version,
        "lines": lines,
    }


def _dump(data: dict) -> str:
    """JSON with one line per game line (a line's moves can number thousands)."""
    head = {k: v for k, v in data.items() if k != "lines"}
    body = ",\n  ".join(json.dumps(line_) for line_ in data["lines"])
    return json.dumps(head, indent=1)[:-2] + f',\n "lines": [\n  {body}\n ]\n}}\n'


def main(names: list[str]) -> None:
    for name in names or [n for n in game_names() if "perft" in conformance_data(n)]:
        path = HERE / f"perft-{name}.json"
        data = build(name)
        path.write_text(_dump(data))
        positions = sum(len(line_["perft"]) for line_ in data["lines"])
        print(f"{path.name}: {len(data['lines'])} lines, {positions} positions")


if __name__ == "__main__":
    main(sys.argv[1:])
