"""Forma's start position: the seeded obstacle layout (25 grey stones and the tower) and ``new_state``.

Constraints (rules spec, ``shared/rules/forma.md``, Setup): the tower is not on the
board edge; no two obstacles (stones or tower) touch along an edge (corners may
touch). The random setup is uniform over *all* layouts that keep these rules, as the
spec says. In particular a layout may enclose a free square by itself (a free square
whose every side is the edge or an obstacle, e.g. a corner square between two
stones): the engine leaves such a square free and scoring nobody, as it does for an
explicit layout. (Until engine version 2 such layouts were rejected as well, which
made the setup measurably non-uniform over the spec's layouts: 3.26 corner contacts
between obstacles per layout instead of 3.35; see ``benchmarks/forma_setup.py``.)

Method: whole-layout rejection sampling. Every ordered draw of distinct squares is
equally likely and the test does not depend on the order, so the accepted layout is
*exactly* uniform over all valid layouts. (Drawing each stone only among the squares
still allowed would not be: a layout's probability would then depend on how many
squares each of its orderings left open.) About one whole-layout draw in 27 is
accepted, a few microseconds per setup.

Draw order (the rules spec prescribes none; this is the engine's, so that another
implementation can reproduce a seed's layout):

1. ``rng`` = SplitMix64 (:mod:`forumlab.core.rng`) with state
   ``derive_seed("forma-obstacles", seed)`` (BLAKE2b with an 8-byte digest of the
   UTF-8 text ``forma-obstacles``, U+001F, the seed in decimal; read little-endian,
   masked to 63 bits);
   ``rand_below(n) = ((next_u64 >> 32) * n) >> 32``.
2. One attempt: tower row ``r = 1 + rand_below(18)``, then column
   ``c = 1 + rand_below(18)``, tower square ``20 * r + c`` (``a1`` = 0, row-major).
3. Then the stones one by one: draw ``q = rand_below(400)`` again until ``q`` is
   neither the tower nor an earlier stone of this attempt. If ``q`` touches the
   tower or an earlier stone along an edge, the attempt fails at once (no more
   draws for it) and a new attempt starts at step 2 with the same ``rng``.
4. After the 25th stone the attempt succeeds: the layout is the set of stones
   (reported in ascending order) and the tower.
"""
import numpy as np
from numba import njit

from ...core.rng import make_rng, rand_below
from .data import SHAPE_COPIES, SHAPE_SIZE
from .layout import (
    AVAIL,
    FREE,
    N_PLAYERS,
    N_SHAPES,
    N_STONES_RANDOM,
    NEIGHBOURS,
    OCC,
    SEED,
    SIZE,
    SQUARES,
    STATE_SIZE,
    STONES,
    SUPPLY,
    SUPPLY_BITS,
    SUPPLY_SQUARES,
    TOWER,
    TOWER_OWNER,
    WITNESS,
    plane_bit,
)
from .moves import find_witness, update_status
from .planes import set_square


@njit(cache=True)
def _sample_layout(rng, n_stones):
    """(stones in ascending order, tower): whole-layout rejection sampling in the
    draw order of the module docstring."""
    used = np.zeros(SQUARES, dtype=np.bool_)
    stones = np.empty(n_stones, dtype=np.int64)
    while True:
        used[:] = False
        row = 1 + rand_below(rng, SIZE - 2)  # the row first (see the draw order above)
        col = 1 + rand_below(rng, SIZE - 2)
        tower = row * SIZE + col
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


@njit(cache=True)
def new_state(players, stones, tower, seed):
    """Initial state: players 2-4, stone squares (int64 array), tower square or -1."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[N_PLAYERS] = players
    s[TOWER] = tower
    s[TOWER_OWNER] = -1
    s[SEED] = seed
    for i in range(stones.shape[0]):
        set_square(s, STONES, stones[i])
        set_square(s, OCC, stones[i])
    if tower >= 0:
        set_square(s, OCC, tower)
    s[FREE] = SQUARES - stones.shape[0] - (1 if tower >= 0 else 0)
    sets = 2 if players == 2 else 1
    supply = 0
    squares = 0
    for sh in range(N_SHAPES):
        supply |= (SHAPE_COPIES[sh] * sets) << (SUPPLY_BITS * sh)
        squares += SHAPE_COPIES[sh] * sets * SHAPE_SIZE[sh]
    for p in range(players):
        s[SUPPLY + p] = supply
        s[AVAIL + p] = (1 << N_SHAPES) - 1
        s[SUPPLY_SQUARES + p] = squares
    for sh in range(N_SHAPES):
        s[WITNESS + sh] = find_witness(s, sh)
    update_status(s)
    return s


def obstacle_squares(array: np.ndarray) -> tuple[list[int], int]:
    """(stone squares, tower square or -1) of a state."""
    stones = [i for i in range(SQUARES) if plane_bit(array, STONES, i)]
    return stones, int(array[TOWER])
