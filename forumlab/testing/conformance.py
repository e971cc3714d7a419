"""The conformance kit: checks that a game keeps the game protocol.

Every registered game must pass these checks (``tests/conformance/test_conformance.py`` runs them
all, one test per game and check). They drive the game only through the protocol of
:mod:`forumlab.core.game` (the kernels, the facade, the registry), so they know
nothing about any game's rules; rule details stay in each game's own tests.

Each check runs at every configuration the game lists in its conformance data (the
``CONFORMANCE`` constant of ``conformance.py`` next to the game class; see
:mod:`forumlab.testing.reference` and docs/adding-a-game.md), else at one configuration
per player count. A check takes a configured :class:`~forumlab.core.game.Game` and a seed, plays
seeded random games (moves drawn by Python's ``random`` from the legal-move list,
so a broken ``random_move`` cannot hide other faults) and raises
:class:`ConformanceError` whose message starts with the rule broken and names the
position, e.g. ``notation round trip: move 'd4' printed as 'e4' at ply 12 of seed 3
(ForumRomanum(players=3, max_rounds=100))``.

Use in a new game's tests::

    import pytest
    from forumlab.testing.conformance import CHECKS, run_check

    @pytest.mark.parametrize("check", CHECKS)
    def test_my_game_conforms(check):
        run_check("my-game", check)

The checks:

- ``start``: the start position (array type and size, the player count in
  ``PLAYERS_SLOT``, a seat to move, legal moves, ``new_state`` deterministic) and the
  config's JSON round trip.
- ``legal_moves``: at every ply the list is within ``MAX_MOVES``, without
  duplicates, empty exactly when the game is over, and reading it changes nothing.
- ``notation``: every legal move (a sample where there are many) prints as one line
  that parses back to it; mutated texts either parse to a legal move or raise
  :class:`~forumlab.core.errors.IllegalMoveError`.
- ``illegal_moves``: garbage text, out-of-range codes and moves legal elsewhere raise
  ``IllegalMoveError`` and leave the state as it was; a finished game raises
  ``GameOverError``.
- ``replay``: (config, seed, move texts) replays the same state at every ply and the
  same result, also through a JSON record.
- ``determinism``: a fresh Python process plays the same games to the same states.
- ``random_move``: legal, does not change the state, uniform over the legal moves
  (a chi-square test with a fixed seed and a generous threshold).
- ``determinize``: keeps what the observer sees (:meth:`Game.observation`), the seat
  to move, the end and, for the seat to move, its legal moves; a no-op in
  perfect-information games; resamples something in hidden-information ones.
- ``view_for``: an agent's view is a copy that keeps the observer's observation and
  never touches the true state (and drops the history when information is hidden).
- ``result``: scores, shared ranks, winners, plies, terminal and truncated agree
  with each other and are JSON data; the heuristic is finite.
- ``clone_undo``: ``State.clone`` is independent; ``State.undo`` restores the previous
  position after every move (saved arrays, or replay); the repr is one line.
- ``returns``: zero before the end; at the end one value in [-1, 1] per seat following
  the ranks, summing to 0 (unless cooperative).
- ``actions``: every legal move lies in the fixed action space and maps to an action
  and back; the legal-action mask marks exactly the legal moves.
- ``observation``: the observation tensor has ``Game.observation_shape`` and is finite
  float32, and is the same in every position the seat cannot tell apart.
- ``differential``: the numba engine and the game's reference engine agree at every ply
  of a seeded game (:mod:`forumlab.testing.differential`); a skip for a game without one.
- ``malformed``: the game's own bad move texts and bad records, listed in its
  conformance data, are refused (:mod:`forumlab.testing.malformed`).
- ``agents``: every registered agent (small budgets) finishes a game, at the configs
  with the fewest and the most players.
"""
from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..core.errors import GameOverError, IllegalMoveError
from ..core.game import Game, State, result_winners
from ..core.layout import PLAYERS_SLOT
from ..core.ranks import shared_ranks
from ..core.registry import create_game, game_names, get_game_class
from ..core.rng import make_rng

# A random game longer than this is taken to be one that never ends.
MAX_PLIES = 20_000
# Legal moves round-tripped per position; all of them where there are fewer.
NOTATION_SAMPLE = 16
# Small budgets, so that every agent finishes a game in seconds; an agent not listed
# here plays with its defaults.
QUICK_AGENT_SPECS = {
    "random": "random",
    "greedy": "greedy",
    "mcts": "mcts(iterations=20)",
    "paranoid": "paranoid(depth=1)",
    "maxn": "maxn(depth=1)",
    "brs": "brs(depth=1)",
}
# Seeds of every check at a configuration unless the game's conformance data lists others.
DEFAULT_SEEDS = (0, 1)
# Texts that no game's notation should accept as a legal move.
GARBAGE_MOVES = ["", " ", "\n", "?", "~~~~", "\x00", "\u00e9", "\U0001f642", "x" * 300, "-1",
                 "99999999999999999999", "None", "move move"]


class ConformanceError(AssertionError):
    """A game broke a rule of the protocol; the message starts with the rule's name."""


def _broken(rule: str, detail: str) -> ConformanceError:
    return ConformanceError(f"{rule}: {detail}")


def _where(game: Game, seed: int, ply: int | None = None) -> str:
    at = f"ply {ply} of " if ply is not None else ""
    return f"at {at}seed {seed} ({game!r})"


# ---- games to check --------------------------------------------------------------------

def default_configs(name: str) -> list[dict[str, Any]]:
    """One config per player count of the registered game ``name``, other options at
    their defaults.

    Args:
        name: a registered game name.

    Returns:
        The configs, fewest players first.
    """
    cls = get_game_class(name)
    return [cls.from_config({"players": p}).config for p in range(cls.min_players, cls.max_players + 1)]


def listed_configs(name: str) -> list[tuple[dict[str, Any], tuple[int, ...]]]:
    """The configurations the kit checks the registered game ``name`` at, each with its
    seeds: the ``configs`` of the game's conformance data
    (:func:`forumlab.testing.reference.conformance_data`), else :func:`default_configs`
    with seeds 0 and 1.

    Args:
        name: a registered game name.

    Returns:
        ``(config, seeds)`` pairs, in the data's order.
    """
    from .reference import conformance_data

    entries = conformance_data(name).get("configs")
    if not entries:
        return [(config, DEFAULT_SEEDS) for config in default_configs(name)]
    return [(entry["config"], tuple(entry.get("seeds", DEFAULT_SEEDS))) for entry in entries]


def random_game(game: Game, seed: int) -> Iterator[tuple[int, State]]:
    """Play a seeded random game of ``game``; yield ``(ply, state)`` before every move
    and once more at the end (the same State object, advanced in place).

    Moves are drawn by ``random.Random(seed)`` from the legal-move list, never by the
    game's ``random_move``, so that the other checks do not rely on it.

    Args:
        game: the configured game.
        seed: the game's seed and the move chooser's.

    Yields:
        ``(ply, state)``: plies played so far and the (shared, live) state.

    Raises:
        ConformanceError: a non-terminal position has no legal move, or the game does not
            end within ``MAX_PLIES`` plies.
    """
    state = game.new_state(seed)
    chooser = random.Random(seed)
    ply = 0
    while not state.is_terminal:
        yield ply, state
        legal = state.legal_moves()
        if legal.size == 0:
            raise _broken("legal moves", f"no legal move but not terminal {_where(game, seed, ply)}")
        state.play(int(legal[chooser.randrange(legal.size)]))
        ply += 1
        if ply > MAX_PLIES:
            raise _broken("termination", f"a random game did not end within {MAX_PLIES} plies "
                          f"{_where(game, seed)}")
    yield ply, state


# ---- the checks ------------------------------------------------------------------------

def check_start(game: Game, seed: int) -> None:
    """The start position: an int64 vector of the kernel module's ``STATE_SIZE`` with the
    player count in ``PLAYERS_SLOT`` (:mod:`forumlab.core.layout`), the same for the same
    seed, not over, with a seat to move and legal moves; the game's config is JSON data
    that rebuilds the same game.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    state = game.new_state(seed)
    array = state.array
    where = _where(game, seed, 0)
    if not (isinstance(array, np.ndarray) and array.ndim == 1 and array.dtype == np.int64):
        raise _broken("state array", f"the state is not a 1-D int64 array {where}")
    size = getattr(game.kernels.tag.module(), "STATE_SIZE", None)
    if array.shape[0] != size:
        raise _broken("state size", f"the state has {array.shape[0]} slots but the kernel module's "
                      f"STATE_SIZE is {size} {where}")
    players = int(array[PLAYERS_SLOT])
    if players != game.players:
        raise _broken("state array", f"slot {PLAYERS_SLOT} holds {players}, not the player count "
                      f"{game.players} {where}")
    if not np.array_equal(game.new_state(seed).array, array):
        raise _broken("setup determinism", f"new_state gave two different positions {where}")
    if state.is_terminal or state.legal_moves().size == 0:
        raise _broken("start", f"the game is over before the first move {where}")
    if not 0 <= state.current_player < game.players:
        raise _broken("current player", f"seat {state.current_player} to move {where}")
    if game.plies(array) != 0:
        raise _broken("result", f"plies is {game.plies(array)} at the start {where}")
    config = json.loads(json.dumps(game.config))
    again = type(game).from_config(config)
    if again.config != game.config or not np.array_equal(again.new_state(seed).array, array):
        raise _broken("config round trip", f"the game rebuilt from its JSON config {config} differs {where}")


def check_legal_moves(game: Game, seed: int) -> None:
    """At every ply: at most ``max_moves`` legal moves, no duplicates, none exactly when
    the game is over, a seat to move in range, and generating them changes nothing.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    bound = game.kernels.max_moves
    # Room beyond the bound, so that a kernel that overruns it is caught here rather
    # than writing past the end of a buffer.
    out = np.empty(2 * bound + 64, dtype=np.int64)
    for ply, state in random_game(game, seed):
        where = _where(game, seed, ply)
        before = state.array.copy()
        n = int(game.kernels.legal_moves(state.array, out))
        if not np.array_equal(state.array, before):
            raise _broken("legal moves purity", f"legal_moves changed the state {where}")
        if not 0 <= n <= bound:
            raise _broken("move bound", f"{n} legal moves, MAX_MOVES is {bound} {where}")
        if len(set(out[:n].tolist())) != n:
            raise _broken("legal moves", f"the list repeats a move {where}")
        if (n == 0) != state.is_terminal:
            raise _broken("legal moves", f"{n} legal moves but terminal={state.is_terminal} {where}")
        if game.plies(state.array) != ply:
            raise _broken("result", f"plies is {game.plies(state.array)} after {ply} moves {where}")
        if not state.is_terminal and not 0 <= state.current_player < game.players:
            raise _broken("current player", f"seat {state.current_player} to move {where}")


def _sample(moves: np.ndarray, rng: random.Random, k: int = NOTATION_SAMPLE) -> list[int]:
    codes = moves.tolist()
    return codes if len(codes) <= k else rng.sample(codes, k)


def _mutations(text: str) -> list[str]:
    return [text[:-1], text + "~", "~" + text, text + text, text.swapcase()]


def check_notation(game: Game, seed: int) -> None:
    """At every ply every legal move (a sample of ``NOTATION_SAMPLE`` where there are
    more) prints as one line that parses back to the same code, distinct moves print
    differently, and texts one edit away from a few of them either parse to a legal
    move or raise IllegalMoveError (never another exception).

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    sampler = random.Random(seed)
    for ply, state in random_game(game, seed):
        if state.is_terminal:
            break
        where = _where(game, seed, ply)
        legal = state.legal_moves()
        legal_set = set(legal.tolist())
        printed: dict[str, int] = {}
        for i, move in enumerate(_sample(legal, sampler)):
            text = game.format_move(state.array, move)
            if not isinstance(text, str) or not text or text != text.strip() or "\n" in text:
                raise _broken("notation", f"move {move} printed as {text!r} {where}")
            if text in printed:
                raise _broken("notation", f"moves {printed[text]} and {move} both print as {text!r} {where}")
            printed[text] = move
            try:
                # State.parse (parse_move plus the legality test) once per position;
                # the game's parse_move alone for the rest of the sample (cheaper).
                back = state.parse(text) if i == 0 else game.parse_move(state.array, text)
            except IllegalMoveError as exc:
                raise _broken("notation round trip",
                              f"move {text!r} does not parse back ({exc}) {where}") from None
            if back != move:
                raise _broken("notation round trip", f"move {move} printed as {text!r} parses as {back} "
                              f"({game.format_move(state.array, back)!r}) {where}")
            if i >= 4:
                continue
            for bad in _mutations(text):
                try:
                    code = game.parse_move(state.array, bad)
                except IllegalMoveError:
                    continue
                except Exception as exc:  # noqa: BLE001 - the rule is about the type
                    raise _broken("malformed move", f"{bad!r} raised {type(exc).__name__} ({exc}) instead "
                                  f"of IllegalMoveError {where}") from None
                if code not in legal_set:  # then State.play must refuse it
                    _expect_refused(state, bad, IllegalMoveError, "illegal move", where)


def _expect_refused(state: State, move: int | str, error: type, rule: str, where: str) -> None:
    before, history = state.array.copy(), list(state.history)
    try:
        state.play(move)
    except error:
        pass
    except Exception as exc:  # noqa: BLE001 - the rule is about the type
        raise _broken(rule, f"{move!r} raised {type(exc).__name__} ({exc}) instead of "
                      f"{error.__name__} {where}") from None
    else:
        raise _broken(rule, f"{move!r} was played {where}")
    if not np.array_equal(state.array, before) or state.history != history:
        raise _broken(rule, f"refusing {move!r} changed the state {where}")


def check_illegal_moves(game: Game, seed: int) -> None:
    """Garbage text, out-of-range codes and moves that are legal at other plies but not
    here raise IllegalMoveError and change nothing; a finished game refuses every move
    with GameOverError.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    seen: set[int] = set()
    positions: list[tuple[int, State, set[int]]] = []
    final = None
    for ply, state in random_game(game, seed):
        legal = set(state.legal_moves().tolist())
        seen |= legal
        if state.is_terminal:
            final = state
        elif ply % 7 == 0:
            positions.append((ply, state.copy(), legal))
    for ply, state, legal in positions:
        where = _where(game, seed, ply)
        for text in GARBAGE_MOVES:
            _expect_refused(state, text, IllegalMoveError, "malformed move", where)
        for code in [-1, -(2**63), 2**62, *sorted(seen - legal)[:12]]:
            _expect_refused(state, code, IllegalMoveError, "illegal move", where)
            if code < 0 or code >= 2**62:
                continue
            try:
                text = game.format_move(state.array, code)
            except Exception:  # noqa: BLE001 - an illegal code need not print
                continue
            try:
                parsed = state.game.parse_move(state.array, text)
            except IllegalMoveError:
                parsed = None
            if parsed not in legal:
                _expect_refused(state, text, IllegalMoveError, "illegal move", where)
    where = _where(game, seed, game.plies(final.array))
    if final.legal_moves().size:
        raise _broken("legal moves", f"a finished game has legal moves {where}")
    for move in [*sorted(seen)[:3], *GARBAGE_MOVES[:3]]:
        _expect_refused(final, move, GameOverError, "game over", where)


def check_replay(game: Game, seed: int) -> None:
    """Replaying (config, seed, move texts) reaches the same state at every ply and the
    same result, directly and through a JSON record.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    from ..core.record import Record, replay

    arrays = []
    for _, state in random_game(game, seed):
        arrays.append(state.array.copy())
    record = state.to_json()
    try:
        json.dumps(record)
    except (TypeError, ValueError) as exc:
        raise _broken("replay", f"to_json() is not JSON data ({exc}) {_where(game, seed)}") from None
    again = type(game).from_config(record["config"]).new_state(record["seed"])
    for ply, text in enumerate(record["moves"]):
        if not np.array_equal(again.array, arrays[ply]):
            raise _broken("replay", f"the replay differs from the game {_where(game, seed, ply)}")
        again.play(text)
    if not np.array_equal(again.array, arrays[-1]) or again.result() != state.result():
        raise _broken("replay", f"the replayed game ends differently {_where(game, seed)}")
    stored = Record.from_json(json.loads(json.dumps(Record.from_state(state).to_json())))
    from_record = replay(stored)
    if not np.array_equal(from_record.array, state.array) or from_record.result() != state.result():
        raise _broken("replay", f"the JSON record replays to another end {_where(game, seed)}")


def _trace(game: Game, seed: int) -> dict[str, Any]:
    """What determinism compares: the moves and end of a random game, and of a game
    played by the kernels' random_move from a seeded RNG word."""
    import hashlib

    for _, state in random_game(game, seed):  # noqa: B007 - plays it out; the last state is used
        pass
    kernel_state = game.new_state(seed)
    rng = make_rng(seed)
    while not kernel_state.is_terminal and len(kernel_state.history) <= MAX_PLIES:
        kernel_state.play(int(game.kernels.random_move(kernel_state.array, rng)))
    return {
        "moves": state.history,
        "state": hashlib.sha256(state.array.tobytes()).hexdigest(),
        "result": state.result(),
        "random_move_line": kernel_state.history,
        "random_move_state": hashlib.sha256(kernel_state.array.tobytes()).hexdigest(),
    }


def _class_path(game: Game) -> str:
    cls = type(game)
    return f"{cls.__module__}:{cls.__qualname__}"


def _traces(cases: list[tuple[str, dict, int]]) -> list[dict]:
    import importlib

    out = []
    for path, config, seed in cases:
        module, name = path.split(":")
        game = getattr(importlib.import_module(module), name).from_config(config)
        out.append(_trace(game, seed))
    return out


def _traces_main() -> None:
    """Entry point of the determinism check's child process: cases as JSON on stdin,
    traces as JSON on stdout."""
    cases = json.loads(sys.stdin.read())
    print(json.dumps(_traces([(p, c, s) for p, c, s in cases])))


def check_determinism(games_and_seeds: list[tuple[Game, int]], timeout: float = 900.0) -> None:
    """A fresh Python process (another hash seed, its own numba dispatch) plays the same
    seeded games, by legal-move choice and by ``random_move``, to the same moves,
    states and results. All cases go to one child process to pay its start-up once.

    Args:
        games_and_seeds: the (configured game, seed) pairs to compare.
        timeout: seconds the child may take (generous: it may compile kernels).

    Raises:
        ConformanceError: the child failed or got a different trace.
        subprocess.TimeoutExpired: the child took longer than ``timeout``.
    """
    cases = [(_class_path(g), g.config, s) for g, s in games_and_seeds]
    env = dict(os.environ)
    # The child imports the game classes by module path, exactly as this process does.
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    child = subprocess.run(
        [sys.executable, "-c", "from forumlab.testing.conformance import _traces_main; _traces_main()"],
        input=json.dumps(cases), capture_output=True, text=True, env=env, timeout=timeout)
    if child.returncode != 0:
        raise _broken("determinism", f"the child process failed: {child.stderr.strip()[-2000:]}")
    theirs = json.loads(child.stdout)
    ours = _traces(cases)
    for (game, seed), mine, other in zip(games_and_seeds, ours, theirs):
        for key in mine:
            if json.loads(json.dumps(mine[key])) != other[key]:
                raise _broken("determinism", f"another process got a different {key!r} "
                              f"{_where(game, seed)}")


def _chi_square_ok(counts: np.ndarray, expected: np.ndarray) -> tuple[bool, float]:
    """Pearson's statistic against ``dof + 6 * sqrt(2 * dof)``: six standard deviations
    of the chi-square distribution above its mean, so a correct sampler fails about
    once in millions of runs, while a bias of a few per cent on 16 groups of 200
    draws still shows."""
    keep = expected > 0
    stat = float(((counts[keep] - expected[keep]) ** 2 / expected[keep]).sum())
    dof = int(keep.sum()) - 1
    return stat <= dof + 6 * math.sqrt(2 * max(dof, 1)), stat


def _uniformity(game: Game, state: State, rng: np.ndarray, where: str) -> None:
    legal = state.legal_moves()
    n = legal.size
    index = {m: i for i, m in enumerate(legal.tolist())}
    groups = n if n <= 32 else 16
    draws = 200 * groups
    hits = np.zeros(n)
    for _ in range(draws):
        move = int(game.kernels.random_move(state.array, rng))
        if move not in index:
            raise _broken("random_move legality", f"drew the illegal move {move} {where}")
        hits[index[move]] += 1
    # Two partitions of the sorted legal list: interleaved (i mod groups) and in
    # contiguous blocks (moves of one piece or one region tend to be neighbours).
    ids = np.arange(n)
    for label, group in (("interleaved", ids % groups), ("contiguous", ids * groups // n)):
        counts = np.bincount(group, weights=hits, minlength=groups)
        expected = np.bincount(group, minlength=groups) * draws / n
        ok, stat = _chi_square_ok(counts, expected)
        if not ok:
            raise _broken("random_move uniformity", f"chi-square {stat:.1f} over {groups} {label} groups "
                          f"of {n} legal moves ({draws} draws) {where}")


def check_random_move(game: Game, seed: int) -> None:
    """``random_move`` returns a legal move and leaves the state as it was at every ply,
    and is uniform over the legal moves at the start, in the middle and at the last
    position with a choice of a seeded random game.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    rng = make_rng(seed * 7919 + 1)
    positions: list[tuple[int, State]] = []
    for ply, state in random_game(game, seed):
        if state.is_terminal:
            break
        where = _where(game, seed, ply)
        before = state.array.copy()
        move = int(game.kernels.random_move(state.array, rng))
        if not np.array_equal(state.array, before):
            raise _broken("random_move purity", f"random_move changed the state {where}")
        legal = state.legal_moves()
        if move not in set(legal.tolist()):
            raise _broken("random_move legality", f"drew the illegal move {move} {where}")
        if legal.size > 1:
            positions.append((ply, state.copy()))
    if not positions:
        return
    sampled = (positions[0], positions[len(positions) // 2], positions[-1])
    for ply, state in {id(p): p for p in sampled}.values():
        _uniformity(game, state, rng, _where(game, seed, ply))


def check_determinize(game: Game, seed: int) -> None:
    """At every ply and for every observer, ``determinize`` keeps the observer's
    observation (:meth:`Game.observation`), the seat to move, the end, the ply count
    and, for the seat to move, its legal moves. In a perfect-information game it
    changes nothing; in a hidden-information game some determinization of the game
    differs from the true state (else nothing is hidden).

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    rng = make_rng(seed * 104729 + 3)
    resampled = False
    for ply, state in random_game(game, seed):
        where = _where(game, seed, ply)
        for seat in range(game.players):
            array = state.array.copy()
            game.kernels.determinize(array, seat, rng)
            if game.perfect_information:
                if not np.array_equal(array, state.array):
                    raise _broken("determinize",
                                  f"changed a perfect-information state for seat {seat} {where}")
                continue
            resampled |= not np.array_equal(array, state.array)
            _same_view(game, state.array, array, seat, "determinize", where)
    if not game.perfect_information and not resampled:
        raise _broken("determinize", f"never changed a hidden-information state {_where(game, seed)}")


def _same_view(game: Game, true: np.ndarray, seen: np.ndarray, seat: int, rule: str, where: str) -> None:
    """What ``seat`` may rely on is the same in the true state and in its view."""
    k = game.kernels
    if not np.array_equal(game.observation(seen, seat), game.observation(true, seat)):
        raise _broken(rule, f"seat {seat}'s observation changed {where}")
    if bool(k.is_terminal(seen)) != bool(k.is_terminal(true)) or game.plies(seen) != game.plies(true):
        raise _broken(rule, f"the end or the ply count changed for seat {seat} {where}")
    if k.is_terminal(true):
        return
    if int(k.current_player(seen)) != int(k.current_player(true)):
        raise _broken(rule, f"the seat to move changed for seat {seat} {where}")
    if int(k.current_player(true)) == seat:
        out = np.empty(k.max_moves, dtype=np.int64)
        mine = sorted(out[:k.legal_moves(seen, out)].tolist())
        real = sorted(out[:k.legal_moves(true, out)].tolist())
        if mine != real:
            raise _broken(rule, f"the legal moves of seat {seat}, to move, changed {where}")


def check_view_for(game: Game, seed: int) -> None:
    """``State.view_for`` hands out a copy that keeps the seat's observation, never
    touches the true state (not even when the view is played on), keeps the history
    in perfect-information games and drops it in hidden-information ones.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    rng = make_rng(seed * 15485863 + 5)
    for ply, state in random_game(game, seed):
        where = _where(game, seed, ply)
        before, history = state.array.copy(), list(state.history)
        for seat in range(game.players):
            view = state.view_for(seat, rng)
            if view.array is state.array or view.game is not game:
                raise _broken("view_for", f"the view of seat {seat} shares the state's array {where}")
            if game.perfect_information:
                if not np.array_equal(view.array, state.array) or view.history != state.history:
                    raise _broken("view_for", f"a perfect-information view of seat {seat} differs {where}")
            else:
                if view.history:
                    raise _broken("view_for", f"the view of seat {seat} keeps the move history {where}")
                _same_view(game, state.array, view.array, seat, "view_for", where)
            if not view.is_terminal:
                view.play(int(view.legal_moves()[0]))
            if not np.array_equal(state.array, before) or state.history != history:
                raise _broken("view_for", f"the view of seat {seat} changed the true state {where}")


def check_move_seen_by(game: Game, seed: int) -> None:
    """``Game.move_seen_by`` (what a person at the table is told of a move) names the
    mover's own move in notation, and tells every other seat None or text that depends
    only on what that seat may see: the same in any determinization from its seat.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    rng = make_rng(seed * 7919 + 13)
    for ply, state in random_game(game, seed):
        if state.is_terminal:
            break
        where = _where(game, seed, ply)
        mover, legal = state.current_player, state.legal_moves()
        move = int(legal[ply % len(legal)])
        own = game.move_seen_by(state.array, move, mover)
        if own != game.format_move(state.array, move):
            raise _broken("move_seen_by", f"the mover is told {own!r}, not its move's notation {where}")
        for seat in range(game.players):
            if seat == mover:
                continue
            told = game.move_seen_by(state.array, move, seat)
            if told is not None and not isinstance(told, str):
                raise _broken("move_seen_by", f"seat {seat} is told {told!r}, neither text nor None {where}")
            guess = game.move_seen_by(state.view_for(seat, rng).array, move, seat)
            if guess != told:
                raise _broken("move_seen_by", f"seat {seat} is told {told!r} of move {move}, but {guess!r} "
                                              f"in a position it cannot tell apart {where}")


def check_result(game: Game, seed: int) -> None:
    """``State.result()`` holds scores (one finite number per player), shared ranks,
    winners (the best scores once the game is over, none before), plies (= moves
    played), terminal and truncated (only at the end), all as JSON data; the
    heuristic is a finite number for every seat.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    for ply, state in random_game(game, seed):
        if ply % 5 and not state.is_terminal:
            continue
        where = _where(game, seed, ply)
        res = state.result()
        missing = {"scores", "ranks", "winners", "plies", "terminal", "truncated"} - set(res)
        if missing:
            raise _broken("result", f"fields {sorted(missing)} are missing {where}")
        scores = res["scores"]
        if len(scores) != game.players or not all(
                isinstance(x, (int, float)) and math.isfinite(x) for x in scores):
            raise _broken("result", f"scores {scores!r} are not one finite number per player {where}")
        keys = game.rank_keys(state.array, scores)
        if res["ranks"] != shared_ranks(keys):
            raise _broken("result", f"ranks {res['ranks']} do not follow scores {scores} "
                                    f"(rank keys {keys}) {where}")
        expected = result_winners(game, state.array, keys, state.is_terminal)
        if res["winners"] != expected:
            raise _broken("result", f"winners {res['winners']}, expected {expected} {where}")
        if res["plies"] != ply or res["terminal"] is not state.is_terminal:
            raise _broken("result", f"plies {res['plies']} / terminal {res['terminal']} are wrong {where}")
        if not isinstance(res["truncated"], bool) or (res["truncated"] and not res["terminal"]):
            raise _broken("result", f"truncated is {res['truncated']!r} {where}")
        try:
            json.dumps(res)
        except (TypeError, ValueError) as exc:
            raise _broken("result", f"the result is not JSON data ({exc}) {where}") from None
        for seat in range(game.players):
            value = game.kernels.heuristic(state.array, seat)
            if not math.isfinite(value):
                raise _broken("heuristic", f"{value} for seat {seat} is not a finite number {where}")


def check_clone_undo(game: Game, seed: int) -> None:
    """``State.clone`` is independent of its original, and ``State.undo`` after every
    move restores the array and history from before it, both from the arrays ``play``
    saved and by replay for a state rebuilt from its history; the repr is one line.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    previous = None
    for ply, state in random_game(game, seed):
        where = _where(game, seed, ply)
        text = repr(state)
        if "\n" in text or not text:
            raise _broken("repr", f"the state's repr {text!r} is not one line {where}")
        twin = state.clone()
        if not np.array_equal(twin.array, state.array) or twin.history != state.history:
            raise _broken("clone", f"the clone differs from the state {where}")
        if not state.is_terminal:
            before = state.array.copy()
            twin.play(int(twin.legal_moves()[0]))
            if not np.array_equal(state.array, before) or len(state.history) != ply:
                raise _broken("clone", f"playing on the clone changed the state {where}")
            twin.undo()
            if not np.array_equal(twin.array, state.array) or twin.history != state.history:
                raise _broken("undo", f"undo after a move does not restore the position {where}")
        if previous is not None and ply % 5 == 0:
            for label, copy in (("saved", state.clone()),
                                ("replayed", State(game, state.array.copy(), state.seed, state.history))):
                copy.undo()
                if not np.array_equal(copy.array, previous) or copy.history != state.history[:-1]:
                    raise _broken("undo", f"undo ({label}) does not restore the previous position {where}")
        previous = state.array.copy()
    try:
        game.new_state(seed).undo()
    except GameOverError:
        pass
    else:
        raise _broken("undo", f"undo at the start did not raise GameOverError {_where(game, seed, 0)}")


def check_returns(game: Game, seed: int) -> None:
    """``State.returns()`` is zero for every seat before the end and, at the end, one
    value per seat in [-1, 1] that follows the result's ranks (a better rank a higher
    value, shared ranks equal values), summing to 0 unless the game is cooperative.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    for ply, state in random_game(game, seed):
        values = state.returns()
        where = _where(game, seed, ply)
        if len(values) != game.players or not all(isinstance(v, float) and -1 <= v <= 1 for v in values):
            raise _broken("returns", f"{values!r} is not one value in [-1, 1] per seat {where}")
        if not state.is_terminal:
            if any(values):
                raise _broken("returns", f"{values} before the end {where}")
            continue
        ranks = state.result()["ranks"]
        for a in range(game.players):
            for b in range(game.players):
                if ranks[a] < ranks[b] and not values[a] > values[b] \
                        and not getattr(game, "cooperative", False):
                    raise _broken("returns", f"{values} do not follow the ranks {ranks} {where}")
                if ranks[a] == ranks[b] and values[a] != values[b]:
                    raise _broken("returns", f"{values} differ for shared ranks {ranks} {where}")
        if not getattr(game, "cooperative", False) and abs(sum(values)) > 1e-9:
            raise _broken("returns", f"{values} do not sum to 0 {where}")


def check_actions(game: Game, seed: int) -> None:
    """At every ply, every legal move lies in the game's fixed action space and maps to
    an action and back to itself; the legal-action mask has ``num_actions`` entries and
    marks exactly the legal moves' actions; out-of-range actions raise IllegalMoveError.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    n = game.num_actions
    for bad in (-1, n):
        try:
            game.action_space.action_to_move(bad)
        except IllegalMoveError:
            continue
        raise _broken("actions", f"action {bad} of {n} was accepted {_where(game, seed)}")
    space = game.action_space
    sampler = random.Random(seed)
    for ply, state in random_game(game, seed):
        where = _where(game, seed, ply)
        legal = state.legal_moves()
        try:
            actions = space.actions_of(legal).tolist()
            for move in _sample(legal, sampler):  # the one-move API on a sample
                if state.action_to_move(state.move_to_action(move)) != move:
                    raise _broken("actions", f"move {move} does not map back to itself {where}")
        except IllegalMoveError as exc:
            raise _broken("actions", f"a legal move is outside the action space ({exc}) {where}") from None
        back = space.moves_of(np.array(actions, dtype=np.int64)).tolist()
        if back != legal.tolist() or not all(0 <= a < n for a in actions):
            raise _broken("actions", f"moves {legal.tolist()[:5]}... map to actions {actions[:5]}... "
                                     f"and back to {back[:5]}... {where}")
        mask = state.legal_action_mask()
        if mask.shape != (n,) or sorted(np.flatnonzero(mask).tolist()) != sorted(actions):
            raise _broken("actions", f"the mask marks {int(mask.sum())} actions for {legal.size} "
                                     f"legal moves {where}")
        if state.legal_actions().tolist() != sorted(actions):
            raise _broken("actions", f"legal_actions() disagrees with the mask {where}")


def check_observation(game: Game, seed: int) -> None:
    """``State.observation(seat)`` is a finite float32 vector of ``game.observation_shape``
    for every seat, at every fifth ply and at the end, and is the same in every
    determinization from that seat (:meth:`State.view_for`): two positions the seat
    cannot tell apart give it the same tensor.

    Args:
        game: the configured game.
        seed: the seed of the random game played.

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
    """
    rng = make_rng(seed * 7919 + 17)
    shape = game.observation_shape
    for ply, state in random_game(game, seed):
        if ply % 5 and not state.is_terminal:
            continue
        where = _where(game, seed, ply)
        for seat in range(game.players):
            tensor = state.observation(seat)
            if tensor.dtype != np.float32 or tensor.shape != shape or not np.isfinite(tensor).all():
                raise _broken("observation", f"seat {seat}'s tensor is {tensor.dtype} {tensor.shape}, "
                                             f"expected finite float32 {shape} {where}")
            if game.perfect_information:
                continue
            for _ in range(2):
                other = state.view_for(seat, rng)
                if not np.array_equal(other.observation(seat), tensor):
                    raise _broken("observation", f"seat {seat}'s tensor differs in a position it "
                                                 f"cannot tell apart {where}")


def check_agents(game: Game, seed: int, specs: list[str] | None = None) -> None:
    """Every registered agent but interactive and external ones (``QUICK_AGENT_SPECS``
    budgets; defaults for others), in every seat, plays a game of ``game`` to its end.

    Args:
        game: the configured game.
        seed: the game's seed (agents are seeded by seat).
        specs: agent specs to use instead of every registered agent.

    Raises:
        ConformanceError: an agent raised or the game did not finish.
    """
    from ..agents.registry import agent_class, agent_names, create_agent
    from ..arena.match import play_match

    if specs is None:  # a person (the human agent) is not there to play, and an external
        # bot (cmd) needs the command line of a program outside forumlab
        specs = [QUICK_AGENT_SPECS.get(name, name) for name in agent_names()
                 if not agent_class(name).interactive and not getattr(agent_class(name), "external", False)]
    for spec in specs:
        agents = [create_agent(spec, seed=s) for s in range(game.players)]
        try:
            result = play_match(game, agents, seed).result
        except Exception as exc:  # noqa: BLE001 - report which agent broke
            raise _broken("agents",
                          f"{spec} raised {type(exc).__name__}: {exc} {_where(game, seed)}") from exc
        if not result["terminal"]:
            raise _broken("agents", f"{spec} did not finish the game {_where(game, seed)}")


# ---- running them ------------------------------------------------------------------------

def check_differential(game: Game, seed: int) -> None:
    """The numba engine and the game's reference engine play one seeded game together
    and agree at every ply (:func:`forumlab.testing.differential.differential_game`).

    Args:
        game: the configured game.
        seed: the seed of the game.

    Raises:
        ConformanceError: the engines differ; the message names the ply and the difference.
        NoReferenceEngine: the game has no reference engine (a skip, for games such as the
            toy of tests/toy_goofspiel).
    """
    from .differential import differential_game  # it imports this module

    differential_game(game, seed)


PER_GAME: dict[str, Callable[[Game, int], None]] = {
    "start": check_start,
    "legal_moves": check_legal_moves,
    "notation": check_notation,
    "illegal_moves": check_illegal_moves,
    "replay": check_replay,
    "random_move": check_random_move,
    "determinize": check_determinize,
    "view_for": check_view_for,
    "move_seen_by": check_move_seen_by,
    "result": check_result,
    "clone_undo": check_clone_undo,
    "returns": check_returns,
    "actions": check_actions,
    "observation": check_observation,
    "differential": check_differential,
}
CHECKS = (*PER_GAME, "malformed", "determinism", "agents")


def run_check(name: str, check: str, configs: list[dict[str, Any]] | None = None,
              seeds: tuple[int, ...] | None = None) -> None:
    """Run one check of the kit on a registered game, at every configuration its
    conformance data lists (:func:`listed_configs`).

    Args:
        name: the registered game.
        check: one of :data:`CHECKS`.
        configs: game configs to check instead of the listed ones.
        seeds: game seeds per config instead of the listed ones (the ``agents`` check
            plays the first only, at the configs with the fewest and the most players).

    Raises:
        ConformanceError: a rule is broken; the message names it and the position.
        NoReferenceEngine: ``differential`` for a game without a reference engine (a skip).
        ValueError: an unknown check or game name.
    """
    if name not in game_names():
        raise ValueError(f"{name!r} is not a registered game")
    listed = [(c, DEFAULT_SEEDS) for c in configs] if configs else listed_configs(name)
    cases = [(create_game(name, config), seeds or own) for config, own in listed]
    if check == "malformed":
        from .malformed import check_malformed

        check_malformed(name)
    elif check == "determinism":
        check_determinism([(g, s) for g, own in cases for s in own])
    elif check == "agents":
        # Fewest and most players: whole games with every agent are the kit's
        # slowest part, and the seat count is what varies the agents' code paths.
        fewest = min(cases, key=lambda case: case[0].players)
        most = max(cases, key=lambda case: case[0].players)
        for g, own in {id(g): (g, own) for g, own in (fewest, most)}.values():
            check_agents(g, own[0])
    elif check in PER_GAME:
        for g, own in cases:
            for s in own:
                PER_GAME[check](g, s)
    else:
        raise ValueError(f"unknown check {check!r} (known: {', '.join(CHECKS)})")
