"""Compile the numba kernels a run needs before it starts: visibly, once, on every core.

numba compiles each kernel on first use and caches it on disk (in the directory
:mod:`forumlab._numba_cache` chooses), so the first run after an install or an
update spends most of its time compiling. Before the games start, :func:`warm_up`

- says so on stderr, once, when the cache is cold for this game and these agents
  (a marker file per game and agent family is written into numba's cache
  directory after a successful warm-up; numba's own index files cannot tell which
  games' specialisations they hold without loading them);
- compiles the game's own kernels first, in this process, since every agent uses
  them;
- then lets every built-in agent *family* (the module that implements it: MCTS,
  the minimax family, greedy, ...) make one move, the families in parallel
  processes when more than one is cold: their search kernels are independent, so
  both cores of a small machine can compile at once. The longest compilations
  start first (:func:`by_compile_cost`), so that the short ones fill the gaps
  instead of delaying the longest one.

Third-party agents are not warmed up: one that hangs or raises is the workers'
business (the fault policy), not the warm-up's.
"""
from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from ..core.compile_notice import Notify, cache_dir, shown_path, stderr_notice, touch_marker, warm_marker

log = logging.getLogger(__name__)



def _marker(game, family: str) -> Path:
    return warm_marker(f"{game.kernels.tag.kernels}--{family}")


def _builtin_families(specs: Iterable[str]) -> dict[str, list[str]]:
    """Built-in agent specs grouped by the module that implements them, in first-seen order."""
    from ..agents.registry import agent_class, is_builtin
    from ..agents.spec import parse_spec

    families: dict[str, list[str]] = {}
    for spec in specs:
        cls = agent_class(parse_spec(spec)[0])  # third-party agents are never constructed here
        if is_builtin(cls) and not cls.interactive:  # a person is never asked to warm up
            families.setdefault(cls.__module__, []).append(spec)
    return families


# Built-in families by the CPU time their first compilation takes (3-player Forum Romanum,
# benchmarks/startup.py): MCTS's driver inlines every phase, selection to backup, and
# calls the greedy rollouts; the minimax family is the alpha-beta and max^n searches.
# Families not named here compile little (greedy, random) and go last.
_LONGEST_COMPILES = ("forumlab.agents.mcts", "forumlab.agents.minimax")


def by_compile_cost(families: Iterable[str]) -> list[str]:
    """The families, longest compilation first (longest-processing-time order).

    With two processes and the families random, greedy, minimax and MCTS in that
    order, one process would compile greedy and then MCTS while the other had
    finished minimax; started first, MCTS and minimax run side by side and greedy
    follows minimax. MCTS also compiles the greedy rollout kernel, which greedy then
    loads instead of compiling it a second time in parallel.
    """
    rank = {family: i for i, family in enumerate(_LONGEST_COMPILES)}
    return sorted(families, key=lambda f: rank.get(f, len(rank)))


def compile_game_kernels(game, seed: int = 0) -> None:
    """Compile (or load) every protocol kernel of ``game`` with the argument types the
    generic kernels use."""
    k = game.kernels
    array = game.new_state(seed).array.copy()
    rng = np.zeros(1, dtype=np.uint64)
    out = np.empty(k.max_moves, dtype=np.int64)
    k.current_player(array)
    k.is_terminal(array)
    k.legal_moves(array, out)
    k.heuristic(array, 0)
    k.scores(array, np.zeros(game.players, dtype=np.float64))
    k.determinize(array, 0, rng)
    k.apply_move(array, k.random_move(array, rng))


def _one_move(state, spec: str) -> None:
    """Let a throwaway agent of ``spec`` make one move in ``state`` (compiling or loading
    its kernels); the state is not changed."""
    from ..agents.registry import create_agent

    create_agent(spec, seed=0).act(state.view_for(state.current_player))  # as agents are handed


def _first_moves(game_name: str, config: dict, seed: int, specs: list[str]) -> None:
    """Let each agent make one move from the start (compiling or loading its kernels)."""
    from ..core.registry import create_game

    state = create_game(game_name, config).new_state(seed)
    for spec in specs:
        _one_move(state, spec)


# (game, options, spec) whose kernels this process has loaded by load_here().
_LOADED: set[tuple[str, str, str]] = set()


def load_here(game, config: dict, specs: Iterable[str], seed: int = 0) -> None:
    """Load the kernels of the built-in agents ``specs`` into this process, untimed.

    numba loads a cached kernel into a process on its first call: 0.05 s on a quiet
    machine, but over 2 s of wall time with a dozen processes on two cores. A worker
    playing under a move time calls this before a game's first timed move, so that an
    honest agent's first move is not flagged as too slow for what the loading cost.
    Each spec makes one move, with a throwaway agent, from the start of ``game`` (the
    game's own agents and streams are untouched), once per process. What fails here
    is left for the timed move, where the fault policy records it.

    Args:
        game: the game being played.
        config: its options (a key of what is loaded).
        specs: the seats' agent specs; only built-in agents are loaded.
        seed: game seed of the position the throwaway agents move in.
    """
    import json

    key = json.dumps(config, sort_keys=True, default=str)
    todo = [spec for specs_ in _builtin_families(specs).values() for spec in specs_
            if (game.name, key, spec) not in _LOADED]
    if not todo:
        return
    state = game.new_state(seed)
    for spec in dict.fromkeys(todo):
        try:
            _one_move(state, spec)
        except Exception:  # noqa: BLE001 - the timed move records the agent's fault
            log.debug("loading %s failed", spec, exc_info=True)
        _LOADED.add((game.name, key, spec))


def warm_up(game_name: str, config: dict, specs: Iterable[str], seed: int = 0,
            workers: int | None = None, notify: Notify | None = stderr_notice) -> None:
    """Compile or load the kernels of ``game_name`` that the agents ``specs`` use.

    Args:
        game_name: registered game.
        config: the game's options.
        specs: agent specs; only built-in agents are warmed up.
        seed: game seed of the position the agents move in.
        workers: processes that compile agent families at the same time (default:
            the cores this process may use).
        notify: receives the one-line notice printed when something must be
            compiled (default: stderr); None for silence.
    """
    from ..core.registry import create_game
    from .executors import default_workers

    game = create_game(game_name, config)
    families = _builtin_families(specs)
    cold = [f for f in ["game", *families] if not _marker(game, f).exists()]
    if not cold:
        return
    started = time.perf_counter()
    if notify is not None:
        names = ", ".join(dict.fromkeys(
            name.split("(")[0] for specs_ in families.values() for name in specs_))
        notify(f"compiling the {game_name} kernels{' of ' + names if names else ''} once "
               f"(cached in {shown_path(cache_dir())}); later runs start at once")
    jobs = {f: families[f] for f in by_compile_cost(cold) if f != "game"}
    processes = min(len(jobs), workers or default_workers())
    if processes <= 1:
        compile_game_kernels(game, seed)
        touch_marker(_marker(game, "game"))
        for family, family_specs in jobs.items():
            _first_moves(game_name, config, seed, family_specs)
            touch_marker(_marker(game, family))
    else:
        for family in _in_parallel(game, config, seed, jobs, processes):
            touch_marker(_marker(game, family))
    if notify is not None:
        notify(f"compiled in {time.perf_counter() - started:.1f} s")


def _ready() -> None:
    """Nothing: a child that ran this has imported forumlab and numba."""


def _in_parallel(game, config: dict, seed: int, jobs: dict[str, list[str]],
                 processes: int) -> list[str]:
    """Compile the game's kernels here, then warm the families of ``jobs`` up in
    child processes; return the families that finished."""
    # 'spawn': a fresh interpreter, since the caller may have threads (forking such
    # a process can deadlock) and must not start the fork server the local pool
    # preloads.
    context = multiprocessing.get_context("spawn")
    done = []
    with concurrent.futures.ProcessPoolExecutor(processes, mp_context=context) as pool:
        # The children start now and import forumlab and numba while this process
        # compiles the game's own kernels, which they then load from the cache.
        for _ in range(processes):
            pool.submit(_ready)
        compile_game_kernels(game, seed)
        touch_marker(_marker(game, "game"))
        futures = {family: pool.submit(_first_moves, game.name, config, seed, specs)
                   for family, specs in jobs.items()}
        for family, future in futures.items():
            try:
                future.result()
            except concurrent.futures.process.BrokenProcessPool:
                # A child died (e.g. killed): the workers compile what is missing.
                log.warning("warm-up of %s did not finish", ", ".join(jobs[family]))
            else:
                done.append(family)
    return done
