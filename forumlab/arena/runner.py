"""Play one tournament game under the fault policy (runs inside a worker).

Fault policy "random" (the default and only one so far): when a seat's agent raises,
returns an illegal move, answers later than ``move_time * TIMEOUT_FACTOR +
TIMEOUT_SLACK`` (when the tournament sets a move time), or is cut off at the hard
limit, the fault is recorded, that move and every later move of the seat are played
by a seeded random agent, and the seat is ranked below every seat without a fault.

Hard limit: in a worker's main thread a SIGALRM timer interrupts a Python-level hang
after ``hard_limit`` seconds. Code that never returns to the interpreter (a runaway
compiled loop) cannot be interrupted that way; the executor's watchdog then kills the
worker and records the game as killed.
"""
from __future__ import annotations

import signal
import socket
import threading
import time
from contextlib import contextmanager

from ..agents.random_agent import RandomAgent
from ..agents.registry import create_agent
from ..core.ranks import shared_ranks
from ..core.registry import create_game
from ..core.rng import derive_seed, make_rng
from .jobs import (
    END_CAP,
    END_RULES,
    FAULT_EXCEPTION,
    FAULT_HANG,
    FAULT_ILLEGAL,
    FAULT_TIMEOUT,
    Fault,
    GameJob,
    GameOutcome,
)

TIMEOUT_FACTOR = 1.5
TIMEOUT_SLACK = 0.25  # seconds


class MoveInterrupted(Exception):
    """Raised inside an agent's act() when the hard limit fires."""


def _progress_hook():
    """The executor's progress reporter (a no-op outside a worker)."""
    try:
        from .executors import progress_hook
    except ImportError:  # e.g. a third-party runner without the executors module
        return lambda seat, ply, moves: None
    return progress_hook()


@contextmanager
def _hard_limit(seconds: float):
    usable = seconds > 0 and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def fire(signum, frame):
        raise MoveInterrupted(f"no move after the hard limit of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def fault_ranks(scores: list[float], faulty: set[int]) -> list[int]:
    """Shared ranks where every faulty seat ranks below every clean seat."""
    clean = [s for i, s in enumerate(scores) if i not in faulty]
    ranks = []
    for i, s in enumerate(scores):
        if i in faulty:
            bad = [scores[j] for j in faulty]
            ranks.append(len(clean) + 1 + sum(1 for x in bad if x > s))
        else:
            ranks.append(1 + sum(1 for x in clean if x > s))
    return ranks


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


def run_job(job: GameJob) -> GameOutcome:
    """Play the game of ``job`` to the end and return what the store records."""
    started = time.time()
    game = create_game(job.game, job.config)
    agents = [create_agent(spec, seed=seed) for spec, seed in zip(job.specs, job.agent_seeds)]
    fallbacks = [RandomAgent(seed=derive_seed(job.seed, "fallback", seat)) for seat in range(game.players)]
    view_rng = make_rng(derive_seed(job.seed, "views"))
    state = game.new_state(job.seed)
    faulty: set[int] = set()
    faults: list[Fault] = []
    moves: list[str] = []
    seconds = [0.0] * game.players
    counts = [0] * game.players
    limit = job.move_time * TIMEOUT_FACTOR + TIMEOUT_SLACK if job.move_time > 0 else None
    report_progress = _progress_hook()
    while not state.is_terminal:
        seat = state.current_player
        ply = len(moves) + 1
        report_progress(seat, ply, moves)
        # The agent sees a copy with everything its seat cannot see resampled.
        view = state.copy()
        game.kernels.determinize(view.array, seat, view_rng)
        move = None
        if seat not in faulty:
            fault = None
            t0 = time.perf_counter()
            try:
                with _hard_limit(job.hard_limit):
                    move = agents[seat].act(view)
            except MoveInterrupted as exc:
                fault = (FAULT_HANG, str(exc))
            except Exception as exc:  # any agent failure is the agent's fault
                fault = (FAULT_EXCEPTION, _one_line(exc))
            elapsed = time.perf_counter() - t0
            seconds[seat] += elapsed
            counts[seat] += 1
            if fault is None and move not in set(state.legal_moves().tolist()):
                fault = (FAULT_ILLEGAL, f"returned {move!r}, which is not a legal move")
            if fault is None and limit is not None and elapsed > limit:
                fault = (FAULT_TIMEOUT, f"took {elapsed:.3f} s, limit {job.move_time:g} s (+margin)")
            if fault is not None:
                faulty.add(seat)
                faults.append(Fault(seat, ply, fault[0], fault[1]))
                move = None
        if move is None:
            move = fallbacks[seat].act(view)
        moves.append(game.format_move(state.array, move))
        state.play(move)
    scores = state.scores()
    result = state.result()
    return GameOutcome.for_job(
        job,
        moves=moves,
        scores=scores,
        ranks=fault_ranks(scores, faulty) if faulty else shared_ranks(scores),
        plies=result["plies"],
        termination=END_CAP if result["truncated"] else END_RULES,
        faults=faults,
        move_seconds=seconds,
        moves_made=counts,
        started=started,
        finished=time.time(),
        host=socket.gethostname(),
    )
