"""Random obstacle setup for Forma: 25 grey stones and the tower, from the game's seed.

Constraints (rules spec): the tower is not on the board edge; no two obstacles
(stones or tower) touch along an edge (corners may touch). DECISION of this engine: a
random layout may not enclose a free square by itself (a free square whose every side
is the edge or an obstacle): such a square could never score, since only a placement
that closes a square's last side encloses it.

Method: whole-layout rejection sampling. Draw the tower uniformly among the 324
interior squares, then the stones one by one uniformly among the squares not yet
used; as soon as an obstacle touches another along an edge, or when the finished
layout encloses a free square, throw the whole layout away and start again. Every
ordered draw of distinct squares is equally likely and the test does not depend on
the order, so the accepted layout is *exactly* uniform over all valid layouts.
(Drawing each stone only among the squares still allowed would not be: a layout's
probability would then depend on how many squares each of its orderings left open.)
About one whole-layout draw in 30 is accepted, which costs a few microseconds.

The random stream is SplitMix64 seeded by ``derive_seed("forma-obstacles", seed)``,
so the layout depends on the game's seed alone and replays exactly.
"""
import numpy as np
from numba import njit

from ...core.rng import make_rng, rand_below
from .layout import N_STONES_RANDOM, NEIGHBOURS, SIZE, SQUARES


@njit(cache=True)
def _sample_layout(rng, n_stones):
    used = np.zeros(SQUARES, dtype=np.bool_)
    stones = np.empty(n_stones, dtype=np.int64)
    while True:
        used[:] = False
        tower = (1 + rand_below(rng, SIZE - 2)) * SIZE + 1 + rand_below(rng, SIZE - 2)
        used[tower] = True
        ok = True
        for i in range(n_stones):
            while True:
                sq = rand_below(rng, SQUARES)
                if not used[sq]:
                    break
            for d in range(4):
                nb = NEIGHBOURS[sq, d]
                if nb >= 0 and used[nb]:
                    ok = False
            if not ok:
                break
            used[sq] = True
            stones[i] = sq
        if not ok:
            continue
        # Reject a layout that encloses a free square on its own.
        for sq in range(SQUARES):
            if used[sq]:
                continue
            open_side = False
            for d in range(4):
                nb = NEIGHBOURS[sq, d]
                if nb >= 0 and not used[nb]:
                    open_side = True
                    break
            if not open_side:
                ok = False
                break
        if ok:
            return np.sort(stones), tower


def random_layout(seed: int, n_stones: int = N_STONES_RANDOM) -> tuple[list[int], int]:
    """(sorted stone squares, tower square) of the random setup for a game seed."""
    from ...core.rng import derive_seed

    rng = make_rng(derive_seed("forma-obstacles", int(seed)))
    stones, tower = _sample_layout(rng, n_stones)
    return [int(x) for x in stones], int(tower)


def layout_problems(stones: list[int], tower: int | None) -> str | None:
    """A one-line description of the first setup rule an explicit layout breaks, or None."""
    from .pieces import square_name

    squares = list(stones) + ([tower] if tower is not None else [])
    if len(set(squares)) != len(squares):
        dup = next(q for q in squares if squares.count(q) > 1)
        return f"square {square_name(dup)} holds two obstacles"
    if tower is not None:
        r, c = divmod(tower, SIZE)
        if r in (0, SIZE - 1) or c in (0, SIZE - 1):
            return f"the tower may not stand on the board edge ({square_name(tower)})"
    taken = set(squares)
    for q in squares:
        for nb in NEIGHBOURS[q]:
            if nb >= 0 and int(nb) in taken:
                return f"obstacles {square_name(q)} and {square_name(int(nb))} touch along an edge"
    return None
