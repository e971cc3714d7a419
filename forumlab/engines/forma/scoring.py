"""Forma's points: enclosures, stones and the tower during play; bridges and the end.

Rules: ``shared/rules/forma.md`` (Scoring). Bridge counting: :mod:`.bridges`.

Decisions (where the spec leaves a gap; shared with the reference engine)
-------------------------------------------------------------------------
- Enclosure checks after a placement look at the free squares next to the squares
  just covered; one placement may close several, all scored by the mover (+10 and a
  marker each). An enclosed square has no free neighbour, so marking it cannot
  enclose another square (no cascade).
- A free square enclosed by the setup alone scores nobody and stays free (a monomino
  may still cover it).
- A grey stone is claimed (+10, marker on the stone) by the mover when every side of it
  that is not the board edge is a piece square or marker of the mover's colour; it
  is checked when one of its sides is covered or marked during the move. Claimed once.
- The tower (+50) goes to the mover when, after the placement and the markers it
  earned, none of its sides is free. Happens once.
- Markers: 35 per colour (70 for a 2-player pair); an enclosure still scores and is
  still marked when they have run out (``MARKERS_USED`` may exceed the supply).
- 2 players: each owns two sets and the two colours are one colour in every rule, so
  the engine gives that player a double supply (4 monominoes, 2 of every other shape).
- Bridges are scored when the game ends: the maximum number of square-disjoint
  north-south chains of a player's piece squares and markers, and likewise east-west
  (Edmonds-Karp max-flow with unit vertex capacities), +50 each.
"""
from numba import njit

from .bridges import bridges
from .data import ORIENT_DC, ORIENT_DR, ORIENT_NCELLS
from .layout import (
    BRIDGES_EW,
    BRIDGES_NS,
    ENCLOSED,
    FREE,
    MARKERS_USED,
    MARKS,
    MOVER_CAN_PLACE,
    N_PLAYERS,
    NEIGHBOURS,
    OCC,
    PIECES,
    SCORE,
    SIZE,
    STONES,
    STONES_CLAIMED,
    TERMINAL,
    TOWER,
    TOWER_OWNER,
    WORDS,
)
from .planes import set_square, square_bit

ENCLOSURE_POINTS = 10
STONE_POINTS = 10
TOWER_POINTS = 50
BRIDGE_POINTS = 50


@njit(cache=True, inline="always")
def enclosed(s, sq):
    """Whether no side of square sq is free."""
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb >= 0 and not square_bit(s, OCC, nb):
            return False
    return True


@njit(cache=True)
def check_obstacle(s, sq, p):
    """Claim the stone or the tower on square sq for p if this move completed it."""
    if sq == s[TOWER]:
        if s[TOWER_OWNER] < 0 and enclosed(s, sq):
            s[TOWER_OWNER] = p
            s[SCORE + p] += TOWER_POINTS
        return
    if not square_bit(s, STONES, sq) or square_bit(s, MARKS + p * WORDS, sq):
        return
    for d in range(4):
        nb = NEIGHBOURS[sq, d]
        if nb >= 0 and not (square_bit(s, PIECES + p * WORDS, nb) | square_bit(s, MARKS + p * WORDS, nb)):
            return
    set_square(s, MARKS + p * WORDS, sq)
    s[STONES_CLAIMED + p] += 1
    s[MARKERS_USED + p] += 1
    s[SCORE + p] += STONE_POINTS


@njit(cache=True, inline="always")
def score_placement(s, p, o, anchor):
    """Score what player p's placement of orientation o at ``anchor`` closed: the free
    squares it enclosed (a marker and +10 each), then the stones and the tower beside
    the piece or beside a new marker."""
    size = ORIENT_NCELLS[o]
    marks = MARKS + p * WORDS
    # Free squares next to the piece that it closed: marker and +10 each. A stone or
    # the tower next to a new marker may be completed by it: check them at once.
    for k in range(size):
        sq = anchor + ORIENT_DR[o, k] * SIZE + ORIENT_DC[o, k]
        for d in range(4):
            nb = NEIGHBOURS[sq, d]
            if nb >= 0 and not square_bit(s, OCC, nb) and enclosed(s, nb):
                set_square(s, OCC, nb)
                set_square(s, marks, nb)
                s[FREE] -= 1
                s[ENCLOSED + p] += 1
                s[MARKERS_USED + p] += 1
                s[SCORE + p] += ENCLOSURE_POINTS
                for d2 in range(4):
                    nb2 = NEIGHBOURS[nb, d2]
                    if nb2 >= 0:
                        check_obstacle(s, nb2, p)
    # Stones and the tower next to the piece (after all markers are down).
    for k in range(size):
        sq = anchor + ORIENT_DR[o, k] * SIZE + ORIENT_DC[o, k]
        for d in range(4):
            nb = NEIGHBOURS[sq, d]
            if nb >= 0:
                check_obstacle(s, nb, p)


@njit(cache=True)
def finish(s):
    """End the game: score every player's bridges."""
    s[TERMINAL] = 1
    s[MOVER_CAN_PLACE] = 0
    for p in range(s[N_PLAYERS]):
        ns, ew = bridges(s, p)
        s[BRIDGES_NS + p] = ns
        s[BRIDGES_EW + p] = ew
        s[SCORE + p] += BRIDGE_POINTS * (ns + ew)


@njit(cache=True)
def scores(s, out):
    """Score per player (bridges included once the game is over)."""
    for p in range(s[N_PLAYERS]):
        out[p] = s[SCORE + p]


@njit(cache=True)
def is_terminal(s):
    """True once nobody can place any more."""
    return s[TERMINAL] != 0
