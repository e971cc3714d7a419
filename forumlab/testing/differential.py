"""The differential check: a game's numba engine against its plain-Python reference engine.

Both engines play the same seeded games (the reference engine started by
:func:`forumlab.testing.reference.start_reference`, so both deal the same setup) with
the same move texts. At every ply they must agree on

- whether the game is over, and the summary of the position (every key of the
  reference's ``summary()`` against ``engine_summary`` of the numba state);
- the seat to move and the set of legal moves as notation texts;

and at the end on every field of the reference's ``result()``. Moves are drawn by
``random.Random(seed * 31 + 7)`` from the sorted legal texts, so neither engine's
sampler is trusted (a game's own tests may pass another chooser, e.g. one biased
towards a rare rule). A difference raises :class:`ConformanceError` naming the game and
its config, the seed, the ply and the first difference, e.g. ``differential: summary
key 'silver' differs: numba [3, 5], reference [3, 4] at ply 17 of seed 2
(FoundationsOfRome(players=2, ...))``.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..core.game import Game, State
from ..core.rng import make_rng
from .conformance import MAX_PLIES, ConformanceError
from .reference import ReferenceEngine, reference_config, start_reference

# choose(rng, sorted legal texts, numba state) -> the text to play
Chooser = Callable[[random.Random, list[str], State], str]
# Values longer than this are cut in messages (a board is hundreds of entries).
SHOWN = 160


def uniform_choice(rng: random.Random, legal: list[str], state: State) -> str:
    """The default chooser: a uniform draw from the sorted legal texts."""
    return legal[rng.randrange(len(legal))]


def kernel_sampler(seed: int) -> Chooser:
    """A chooser that plays the numba engine's own ``random_move`` draws (the playout fast
    path, from ``make_rng(seed)``), so that its samples are compared too: one it should
    not draw is refused by the reference engine."""
    rng = make_rng(seed)

    def choose(_: random.Random, legal: list[str], state: State) -> str:
        return state.game.format_move(state.array, int(state.game.kernels.random_move(state.array, rng)))

    return choose


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def _differs(where: str, detail: str) -> ConformanceError:
    return ConformanceError(f"differential: {detail} {where}")


def first_summary_difference(mine: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """The first key of the reference's summary whose value differs in the numba
    engine's, as text naming both values; None when every key agrees."""
    for key, value in theirs.items():
        got = mine.get(key, "<missing>")
        if got != value:
            return f"summary key {key!r} differs: numba {_shown(got)}, reference {_shown(value)}"
    return None


def _compare_position(state: State, ref: ReferenceEngine, where: str) -> None:
    if state.is_terminal != bool(ref.is_terminal()):
        raise _differs(where, f"game over: numba {state.is_terminal}, reference {ref.is_terminal()}")
    difference = first_summary_difference(type(ref).engine_summary(state), ref.summary())
    if difference:
        raise _differs(where, difference)
    if state.is_terminal:
        return
    if state.current_player != ref.current_player():
        raise _differs(where, f"seat to move: numba {state.current_player}, reference {ref.current_player()}")


def _compare_legal(state: State, ref: ReferenceEngine, where: str) -> list[str]:
    theirs = sorted(ref.legal_moves())
    mine = sorted(state.legal_move_texts())
    if mine != theirs:
        only_mine, only_theirs = sorted(set(mine) - set(theirs)), sorted(set(theirs) - set(mine))
        raise _differs(where, f"legal moves: {len(mine)} in numba, {len(theirs)} in the reference; only "
                              f"numba {_shown(only_mine[:6])}, only reference {_shown(only_theirs[:6])}"
                              + (" (a move listed twice)" if not (only_mine or only_theirs) else ""))
    return theirs


def _compare_result(state: State, ref: ReferenceEngine, where: str) -> None:
    mine = state.result()
    for key, value in ref.result().items():
        got = mine.get(key, "<missing>")
        if got != value:
            raise _differs(where, f"result {key!r}: numba {_shown(got)}, reference {_shown(value)}")


def differential_game(game: Game, seed: int, choose: Chooser | None = None,
                      reference: type[ReferenceEngine] | None = None) -> int:
    """Play one seeded game in the numba engine and the reference engine together,
    comparing them at every ply and at the end.

    Args:
        game: the configured game (its conformance data names the reference engine).
        seed: the deal of both engines and the seed of the move chooser.
        choose: picks each ply from the sorted legal texts (default
            :func:`uniform_choice`).
        reference: the reference engine class to use instead of the one the game's
            conformance data names.

    Returns:
        The plies played.

    Raises:
        ConformanceError: the engines differ; the message names the game, config, seed,
            ply and the first difference.
        NoReferenceEngine: the game has no reference engine (a skip).
    """
    if reference is None:
        ref = start_reference(game, seed)
    else:
        ref = reference.from_config(reference_config(game, seed), seed)
    state = game.new_state(seed)
    chooser = random.Random(seed * 31 + 7)
    pick = choose or uniform_choice
    ply = 0
    while True:
        where = f"at ply {ply} of seed {seed} ({game!r})"
        _compare_position(state, ref, where)
        if state.is_terminal:
            break
        text = pick(chooser, _compare_legal(state, ref, where), state)
        state.play(text)
        ref.play(text)
        ply += 1
        if ply > MAX_PLIES:
            raise _differs(where, f"the game did not end within {MAX_PLIES} plies")
    _compare_result(state, ref, f"at the end (ply {ply}) of seed {seed} ({game!r})")
    return ply


def differential_seeds(entry: dict[str, Any]) -> range:
    """The seeds of a conformance-data configuration's further differential games (the
    slow tier's): ``entry["differential"]`` of them from 100 on, apart from the seeds
    every check plays."""
    return range(100, 100 + entry.get("differential", 0))
