"""Generic kernel entry points that work on any game's state.

Slot 0 of every state array holds the game's id; these functions branch on it to
the game's own kernel. Generic numba code (playouts, MCTS, alpha-beta) calls these
and is therefore written and compiled once for all games, and caches on disk
(numba cannot cache functions that take other jitted functions as arguments or
closures). The branch is perfectly predicted inside any one search.

Adding a game: give it an id, then add one branch per function below.
"""
from numba import njit

from ..engines.forma import kernels as forma
from ..engines.forma.layout import FORMA_ID
from ..engines.forma.layout import MAX_MOVES as FORMA_MAX_MOVES
from ..engines.forum_romanum import kernels as forum_romanum
from ..engines.forum_romanum.layout import FORUM_ROMANUM_ID
from ..engines.forum_romanum.layout import MAX_MOVES as FORUM_ROMANUM_MAX_MOVES

MAX_MOVES = max(FORUM_ROMANUM_MAX_MOVES, FORMA_MAX_MOVES)  # the largest move list of any registered game


@njit(cache=True, inline="always")
def current_player(s):
    """Seat to move."""
    if s[0] == FORUM_ROMANUM_ID:
        return forum_romanum.current_player(s)
    if s[0] == FORMA_ID:
        return forma.current_player(s)
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def legal_moves(s, out):
    """Write the legal move codes to out; return their number."""
    if s[0] == FORUM_ROMANUM_ID:
        return forum_romanum.legal_moves(s, out)
    if s[0] == FORMA_ID:
        return forma.legal_moves(s, out)
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def apply_move(s, move):
    """Play a legal move in place."""
    if s[0] == FORUM_ROMANUM_ID:
        forum_romanum.apply_move(s, move)
        return
    if s[0] == FORMA_ID:
        forma.apply_move(s, move)
        return
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def random_move(s, rng):
    """A uniformly random legal move."""
    if s[0] == FORUM_ROMANUM_ID:
        return forum_romanum.random_move(s, rng)
    if s[0] == FORMA_ID:
        return forma.random_move(s, rng)
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def is_terminal(s):
    """True once the game is over."""
    if s[0] == FORUM_ROMANUM_ID:
        return forum_romanum.is_terminal(s)
    if s[0] == FORMA_ID:
        return forma.is_terminal(s)
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def scores(s, out):
    """Score per player into out."""
    if s[0] == FORUM_ROMANUM_ID:
        forum_romanum.scores(s, out)
        return
    if s[0] == FORMA_ID:
        forma.scores(s, out)
        return
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def heuristic(s, player):
    """Evaluation of the position for player."""
    if s[0] == FORUM_ROMANUM_ID:
        return forum_romanum.heuristic(s, player)
    if s[0] == FORMA_ID:
        return forma.heuristic(s, player)
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def determinize(s, observer, rng):
    """Resample what observer cannot see."""
    if s[0] == FORUM_ROMANUM_ID:
        forum_romanum.determinize(s, observer, rng)
        return
    if s[0] == FORMA_ID:
        forma.determinize(s, observer, rng)
        return
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def max_moves(s):
    """The game's own bound on the length of a move list (MAX_MOVES is the largest)."""
    if s[0] == FORUM_ROMANUM_ID:
        return FORUM_ROMANUM_MAX_MOVES
    if s[0] == FORMA_ID:
        return FORMA_MAX_MOVES
    raise ValueError("unknown game id")


@njit(cache=True, inline="always")
def num_players(s):
    """Number of players (slot 1 in every game)."""
    return s[1]
