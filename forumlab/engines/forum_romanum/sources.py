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
more than the replay itself.
"""
from __future__ import annotations

import functools
import gc
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from itertools import chain

import numpy as np
from numba import njit

from ...core.bits import lowest_bit_index
from ...core.errors import IllegalMoveError
from .layout import MAX_COLOURS, N_COLOURS, N_PLAYERS, REGION_NAMES, SCORE, SETTLED, STATE_SIZE, TERMINAL
from .moves import CODES_PER_COLOUR, COLOUR_SHIFT, _first_colour_to_move, apply_move, is_legal
from .notation import parse_move
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
# Texts kept parsed per player count: every move an engine writes (about 10,000 with the
# 2-player colour prefixes) with room for spellings it accepts, such as spaces around one.
_MAX_TEXTS = 50_000


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


class _TextCodes(dict):
    """Move text -> packed code, each distinct text parsed once by the engine's notation.

    Keys are texts only: a move given as a code raises :class:`_NotText`, and the caller
    packs such games move by move (never storing an int, so ``True`` and ``1`` cannot
    share an entry)."""

    def __init__(self, players: int):
        super().__init__()
        self.players = players
        # Parsing a text with a prefix reads no position; one without one takes the
        # only colour that may move, colour 0 at the start of a 3-player game.
        self._start = new_state(players, 0, 0)
        self._one_mover = new_state(3, 0, 0)

    def __missing__(self, text):
        if not isinstance(text, str):
            raise _NotText
        try:
            if ":" in text:
                code = parse_move(self._start, text, self.players)
            else:
                code = parse_move(self._one_mover, text, 3) | (ANY_COLOUR << COLOUR_SHIFT)
        except IllegalMoveError:
            return BAD_MOVE  # not kept: the replay stops at it, and junk must not pile up
        if len(self) < _MAX_TEXTS:
            self[text] = code
        return code


@functools.cache
def _text_codes(players: int) -> _TextCodes:
    """The texts parsed so far for games of this many players (at most a few thousand
    distinct texts a player count), kept across calls: the arena asks game by game."""
    return _TextCodes(players)


class _NotText(Exception):
    """A move given as a code, not as text."""


def _code_of(move, texts: _TextCodes) -> int:
    """Packed code of one move, text or code."""
    if isinstance(move, str):
        return texts[move]
    if isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
        return BAD_MOVE
    code = int(move)
    return code if 0 <= code < ANY_COLOUR << COLOUR_SHIFT else BAD_MOVE


def pack_moves(players: int, games: Sequence[tuple[int, Sequence]]) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, packed codes) of the games' moves for :func:`replay_sources`."""
    lengths = np.fromiter((len(moves) for _, moves in games), dtype=np.int64, count=len(games))
    offsets = np.zeros(len(games) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    texts = _text_codes(players)
    every_move = chain.from_iterable(moves for _, moves in games)
    try:  # the usual case, all text: one C-level pass over every move
        codes = np.fromiter(map(texts.__getitem__, every_move), dtype=np.int64, count=int(offsets[-1]))
    except _NotText:
        every_move = chain.from_iterable(moves for _, moves in games)
        codes = np.fromiter((_code_of(m, texts) for m in every_move), dtype=np.int64,
                            count=int(offsets[-1]))
    return offsets, codes


def sources_by_seat(game, games: Iterable[tuple[int, Sequence]]) -> list[list[dict[str, int]]]:
    """Points per source and seat of each game, replayed in one batch.

    Args:
        game: the configured :class:`~forumlab.engines.forum_romanum.game.ForumRomanum`.
        games: ``(seed, moves)`` per game, moves in notation or as codes.

    Returns:
        Per game, per seat ``{source: points}`` over :data:`SOURCE_NAMES`.

    Raises:
        IllegalMoveError: a move is malformed or not legal where it is played (the error
            :meth:`State.play` gives for it).
    """
    games = list(games)
    seeds = np.array([seed for seed, _ in games], dtype=np.int64)
    offsets, codes = pack_moves(game.players, games)
    out = np.zeros((len(games), game.players, len(SOURCE_NAMES)), dtype=np.int64)
    bad = replay_sources(game.players, game.max_rounds, seeds, offsets, codes, out)
    if bad >= 0:
        _raise_replay_error(game, *games[bad])
    with _collector_paused():
        return [[dict(zip(SOURCE_NAMES, seat)) for seat in rows] for rows in out.tolist()]


@contextmanager
def _collector_paused():
    """Pause Python's cyclic garbage collector: the many small dicts of the result (none in
    a cycle) would set off full collections over every game the caller holds in memory,
    which cost ten times the building itself (0.3 s for 20,000 games read back)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _raise_replay_error(game, seed: int, moves: Sequence) -> None:
    """Replay the game whose move the kernel refused move by move, for the error that
    :meth:`State.play` gives."""
    state = game.new_state(seed)
    for move in moves:
        state.play(move)
    raise IllegalMoveError(f"a move of the game of seed {seed} does not replay")
