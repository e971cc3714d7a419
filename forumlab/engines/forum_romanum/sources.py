"""Forum Romanum's score sources: every point of a game attributed to what paid it.

The final position does not keep which settled region paid whom, so the games are
replayed from their moves by one compiled batch kernel (:func:`replay_sources`), which
plays each ply with the engine's own ``apply_move`` and then asks the engine's own
``settle`` and ``final_settlement`` (:mod:`.scoring`), on a scratch copy whose scores are
zeroed, what each region that ply settled, and the final settlement, paid. The sources:

- ``rows``, ``columns``, ``diagonals``, ``sections``: the settled regions of each kind
  (region ids 0-6, 7-13, 14-15 and 16-22, :mod:`.layout`), the majority's value and the
  minority's loss alike;
- ``deadlocks``: the final settlement of the regions deadlocked when the game ends.

Per seat, so in the 2-player game a seat's two colours are summed, as its score is; a
seat's sources always sum to its score. A results file of 20,000 random 3-player games
(300 plies each) is attributed in about a second: per-game calls from Python would cost
more than the replay itself. Games as Python data go in and out through
:mod:`.sources_replay` (``Game.score_sources``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index
from .layout import MAX_COLOURS, N_COLOURS, N_PLAYERS, REGION_NAMES, SCORE, SETTLED, STATE_SIZE, TERMINAL
from .moves import CODES_PER_COLOUR, COLOUR_SHIFT, _first_colour_to_move, apply_move, is_legal
from .scoring import final_settlement, settle
from .setup import new_state

SOURCE_NAMES = ("rows", "columns", "diagonals", "sections", "deadlocks")
DEADLOCKS = SOURCE_NAMES.index("deadlocks")
# A region's source from the first letter of its name (R1, Ca, D1, S1, ...: .layout).
_KIND_OF_LETTER = {"R": "rows", "C": "columns", "D": "diagonals", "S": "sections"}
REGION_SOURCE = np.array([SOURCE_NAMES.index(_KIND_OF_LETTER[name[0]]) for name in REGION_NAMES],
                         dtype=np.int64)

# A move written without a colour prefix ("d4"): its colour field holds this, which no
# colour has (at most MAX_COLOURS = 6), and the kernel puts in the one colour that may
# move in the position, as notation.parse_move does.
ANY_COLOUR = 7
BAD_MOVE = -1  # malformed text, or a code no colour could play: the replay stops there


@njit(cache=True, inline="always")
def _seat_of(s, colour):
    """The seat that owns a colour (2 players: colours 2p and 2p+1 are seat p's)."""
    return colour >> 1 if s[N_PLAYERS] == 2 else colour


@njit(cache=True, inline="always")
def _resolve(s, move):
    """The move code of a packed move in position s, or BAD_MOVE."""
    if move < 0 or (move >> COLOUR_SHIFT) != ANY_COLOUR:
        return move
    c0, n = _first_colour_to_move(s)
    if n != 1:  # two colours may move: the text had to name one
        return BAD_MOVE
    return (c0 << COLOUR_SHIFT) | (move & (CODES_PER_COLOUR - 1))


@njit(cache=True, inline="always")
def _credit(s, scratch, source, game, out):
    """Add the scores in scratch (zeroed before the engine scored there) to ``source``."""
    for k in range(s[N_COLOURS]):
        out[game, _seat_of(s, k), source] += scratch[SCORE + k]


@njit(cache=True, inline="always")
def _attribute_ply(s, settled_before, scratch, game, out):
    """Credit what the ply just played in s paid: each region it settled, and the final
    settlement if it ended the game. Each is scored again by the engine's own kernel on
    scratch, a copy of s with zeroed scores (and the region unsettled for ``settle``):
    the boards are those the engine scored, since nothing moves after a ply's placement."""
    newly = s[SETTLED] & ~settled_before
    while newly:
        r = lowest_bit_index(newly)
        newly &= newly - 1
        scratch[:] = s
        scratch[SCORE:SCORE + MAX_COLOURS] = 0
        scratch[SETTLED] = s[SETTLED] & ~(1 << r)
        settle(scratch, r)
        _credit(s, scratch, REGION_SOURCE[r], game, out)
    if s[TERMINAL] != 0:
        scratch[:] = s
        scratch[SCORE:SCORE + MAX_COLOURS] = 0
        final_settlement(scratch)
        _credit(s, scratch, DEADLOCKS, game, out)


@njit(cache=True)
def replay_sources(players, max_rounds, seeds, offsets, moves, out):
    """Replay games and add every point to its source.

    Args:
        players, max_rounds: the game's options.
        seeds: int64[n], each game's seed.
        offsets: int64[n + 1]; game g's moves are ``moves[offsets[g]:offsets[g + 1]]``.
        moves: int64 move codes, ``ANY_COLOUR`` in the colour field for a move written
            without a colour, ``BAD_MOVE`` for one that cannot be played.
        out: int64[n, players, len(SOURCE_NAMES)], zeroed: points per game, seat, source.

    Returns:
        -1, or the first game with a move that is not legal where it is played (its
        row of ``out`` is then incomplete).
    """
    scratch = np.empty(STATE_SIZE, dtype=np.int64)
    for g in range(len(seeds)):
        s = new_state(players, max_rounds, seeds[g])
        for i in range(offsets[g], offsets[g + 1]):
            move = _resolve(s, moves[i])
            if not is_legal(s, move):
                return g
            settled_before = s[SETTLED]
            apply_move(s, move)
            _attribute_ply(s, settled_before, scratch, g, out)
    return -1
