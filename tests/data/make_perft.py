"""Write the perft data files ``tests/data/perft-<game>.json`` with the reference engines.

Perft (from chess programming) counts the move sequences of each length from a
position: depth 1 is the number of legal moves, depth 2 the number of two-ply
continuations, and so on. Counts taken by the plain-Python reference engines
(``forumlab/engines/*/reference.py``, written from the rules alone) are the
expected values for the numba kernels (``tests/conformance/test_perft.py``), so a move-generation
change that gains or loses a move anywhere in these trees fails a test.

For every player count and two seeds the script plays one seeded random line
(``random.Random(seed)`` choosing among the reference engine's legal moves, sorted)
and takes perft at six plies of it: the start, ply 1, a quarter, half and three
quarters of the way, and the last position before the end. The depth goes up to 3
while the positions above the leaves number at most ``NODE_BUDGET``, so the test
stays fast (Forma, with up to ~30,000 placements per position, gets depth 1 until
late in a game). Forum Romanum's random lines reach the 100-round cap, so it also
has lines without a cap, which end by the rules.

Regenerate (after a deliberate rules change, with the engine version bumped)::

    PYTHONPATH=. python tests/data/make_perft.py            # every game
    PYTHONPATH=. python tests/data/make_perft.py forma      # one game
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from forumlab.core.registry import create_game
from forumlab.engines.forma.pieces import square_name
from forumlab.engines.forma.reference import ReferenceForma
from forumlab.engines.forum_romanum.reference import ReferenceForumRomanum
from forumlab.engines.forum_trajanum.reference import ReferenceForumTrajanum
from forumlab.engines.foundations_of_rome.reference import ReferenceFoundationsOfRome

HERE = Path(__file__).resolve().parent
# Depth d + 1 is counted while the positions at depth d number at most this: each
# costs the test one apply_move and one legal_moves call.
NODE_BUDGET = 2_500
MAX_DEPTH = 3
SEEDS = (0, 1)


def _forum_romanum(game, seed):
    return ReferenceForumRomanum(game.players, game.max_rounds)


def _forma(game, seed):
    stones, tower = game.layout(seed)  # the seed's obstacle layout, as explicit squares
    return ReferenceForma(game.players, obstacles=[square_name(q) for q in stones],
                          tower=square_name(tower) if tower >= 0 else None)


class _NotationReference:
    """A reference state whose moves are notation texts, with the copy/apply/legal_moves/
    is_terminal interface used here (Foundations of Rome's and Forum Trajanum's references play texts)."""

    def __init__(self, state):
        self.state = state

    def copy(self):
        return _NotationReference(self.state.copy())

    def apply(self, move):
        self.state.play(move)

    def legal_moves(self):
        return self.state.legal_moves()

    def is_terminal(self):
        return self.state.is_terminal()


def _foundations_of_rome(game, seed):
    return _NotationReference(ReferenceFoundationsOfRome(**game.config).new_game(seed))


def _forum_trajanum(game, seed):
    return _NotationReference(ReferenceForumTrajanum(**game.config).new_game(seed))


# game name -> (options beside the player count, further configs, reference engine)
GAMES = {
    "forum-romanum": ({}, [{"players": 2, "max_rounds": 0}, {"players": 3, "max_rounds": 0}],
                      _forum_romanum),
    "forma": ({"obstacles": "random"}, [{"players": 4, "obstacles": "none"}], _forma),
    "foundations-of-rome": ({}, [{"players": 3, "draft": True, "modules": ["monuments"]},
                                 {"players": 5, "draft": True, "modules": ["monuments"]}],
                            _foundations_of_rome),
    "forum-trajanum": ({}, [{"players": 3, "setup": "fixed"}, {"players": 2, "intro": True}],
                       _forum_trajanum),
}


def reference_perft(ref, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies from ``ref`` (games that end sooner
    count nothing)."""
    moves = ref.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = ref.copy()
        child.apply(move)
        total += reference_perft(child, depth - 1)
    return total


def perft_counts(ref) -> list[int]:
    """Perft at depth 1, 2, ... (at most MAX_DEPTH) while the positions one ply above
    the leaves number at most NODE_BUDGET."""
    counts = [reference_perft(ref, 1)]
    while len(counts) < MAX_DEPTH and 0 < counts[-1] <= NODE_BUDGET:
        counts.append(reference_perft(ref, len(counts) + 1))
    return counts


def line(name: str, config: dict, seed: int) -> dict:
    """A seeded random line of the reference engine, with perft at six of its plies."""
    make_reference = GAMES[name][2]
    game = create_game(name, config)
    ref = make_reference(game, seed)
    state = game.new_state(seed)  # only to write the moves in the game's notation
    chooser = random.Random(seed)
    positions = [ref.copy()]
    texts = []
    while not ref.is_terminal():
        move = chooser.choice(sorted(ref.legal_moves()))
        texts.append(move if isinstance(move, str) else state.game.format_move(state.array, move))
        state.play(move)
        ref.apply(move)
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
    """The perft data of one game."""
    options, further, _ = GAMES[name]
    cls = type(create_game(name))
    configs = [{"players": p, **options} for p in range(cls.min_players, cls.max_players + 1)] + further
    lines = [line(name, config, seed) for config in configs for seed in SEEDS]
    return {
        "about": f"Perft counts of {name} from its reference engine; regenerate with "
                 "'PYTHONPATH=. python tests/data/make_perft.py'. Each line replays 'moves' "
                 "(notation) from (config, seed); 'counts' are the move sequences of depth 1, 2, ... "
                 "from the position after 'ply' of those moves.",
        "game": name,
        "engine_version": cls.engine_version,
        "lines": lines,
    }


def _dump(data: dict) -> str:
    """JSON with one line per game line (a line's moves can number thousands)."""
    head = {k: v for k, v in data.items() if k != "lines"}
    body = ",\n  ".join(json.dumps(line_) for line_ in data["lines"])
    return json.dumps(head, indent=1)[:-2] + f',\n "lines": [\n  {body}\n ]\n}}\n'


def main(names: list[str]) -> None:
    for name in names or list(GAMES):
        path = HERE / f"perft-{name}.json"
        data = build(name)
        path.write_text(_dump(data))
        positions = sum(len(line_["perft"]) for line_ in data["lines"])
        print(f"{path.name}: {len(data['lines'])} lines, {positions} positions")


if __name__ == "__main__":
    main(sys.argv[1:])
