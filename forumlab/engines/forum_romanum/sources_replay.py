"""Forum Romanum's score sources from Python: games given as ``(seed, moves)`` packed
into arrays for the batch kernel :func:`.sources.replay_sources`, and its points back
as one ``{source: points}`` per seat and game.

Kept apart from the kernel's module so that what it imports (the notation, the errors)
is no part of the compiled code's cache key (forumlab._numba_cache).
"""
from __future__ import annotations

import functools
import gc
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from itertools import chain

import numpy as np

from ...core.compile_notice import announced_compile
from ...core.errors import IllegalMoveError
from .moves import COLOUR_SHIFT
from .notation import parse_move
from .setup import new_state
from .sources import ANY_COLOUR, BAD_MOVE, SOURCE_NAMES, replay_sources

# Texts kept parsed per player count: every move an engine writes (about 10,000 with the
# 2-player colour prefixes) with room for spellings it accepts, such as spaces around one.
_MAX_TEXTS = 50_000


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
    with _collector_paused():
        games = list(games)
        seeds = np.array([seed for seed, _ in games], dtype=np.int64)
        offsets, codes = pack_moves(game.players, games)
        out = np.zeros((len(games), game.players, len(SOURCE_NAMES)), dtype=np.int64)
        with announced_compile(f"{game.kernels.tag.kernels}--sources",
                               "the forum-romanum score-sources kernel"):
            bad = replay_sources(game.players, game.max_rounds, seeds, offsets, codes, out)
        if bad >= 0:
            _raise_replay_error(game, *games[bad])
        return [[dict(zip(SOURCE_NAMES, seat)) for seat in rows] for rows in out.tolist()]


@contextmanager
def _collector_paused():
    """Pause Python's cyclic garbage collector: the many small tuples, lists and dicts made
    here (none in a cycle) would set off full collections over every game the caller holds
    in memory, which cost more than the work itself (0.3 s of 0.9 s for 20,000 games read
    back, in building the result alone)."""
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
