"""Play one tournament game under the fault policy (runs inside a worker).

Fault policy "random" (the default and only one so far): when a seat's agent cannot
be created, raises (any exception, ``SystemExit`` and ``KeyboardInterrupt``
included), returns an illegal move, answers later than ``move_time *
TIMEOUT_FACTOR + TIMEOUT_SLACK`` (when the tournament sets a move time), or is cut
off at the hard limit, the fault is recorded, that move and every later move of the
seat are played by a seeded random agent, and the seat is ranked below every seat
without a fault. The order of the clean seats always comes from their scores.

Hard limit: in a worker's main thread a SIGALRM timer interrupts a Python-level hang
after ``hard_limit`` seconds. What that cannot stop (a runaway compiled loop, an
agent that blocks SIGALRM) and what ends the worker process (a segfault,
``os._exit``) is the executor's business: it re-creates the game from the moves the
runner reported (:func:`forumlab.arena.progress.report_progress`) and hands this
runner a continuation job (``GameJob.resume_moves`` and ``prior_faults``), which it
plays on from there.
"""
from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..agents.base import Agent
from ..agents.random_agent import RandomAgent
from ..agents.registry import agent_class
from ..agents.spec import AgentSpecError, check_seed, parse_spec
from ..bots.news import listening, tell_game_over, tell_ply
from ..core.errors import exception_line
from ..core.game import Game, State
from ..core.ranks import fault_ranks, shared_ranks
from ..core.registry import create_game
from ..core.rng import derive_seed, make_rng
from .jobs import (
    END_CAP,
    END_RULES,
    FAULT_EXCEPTION,
    FAULT_EXIT,
    FAULT_HANG,
    FAULT_ILLEGAL,
    FAULT_INIT,
    FAULT_TIMEOUT,
    Fault,
    GameJob,
    GameOutcome,
)
from .progress import progress_hook
from .warmup import load_here

TIMEOUT_FACTOR = 1.5
TIMEOUT_SLACK = 0.25  # seconds


class MoveInterrupted(Exception):
    """Raised inside an agent's act() when the hard limit fires."""


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def _hard_limit(seconds: float) -> Iterator[None]:
    usable = seconds > 0 and _in_main_thread()
    if not usable:
        yield
        return

    def fire(signum, frame):
        raise MoveInterrupted(f"no move after the hard limit of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, fire)
    # A previous agent may have blocked SIGALRM in this thread and returned.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        # If the agent blocked SIGALRM, the alarm may be pending: ignoring the signal
        # discards it, so that unblocking cannot deliver it to the previous handler
        # (by default: terminate the process).
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
        signal.signal(signal.SIGALRM, previous)


class CtrlC:
    """Tells a real Ctrl-C from an agent raising KeyboardInterrupt.

    Worker processes ignore SIGINT, so there every KeyboardInterrupt is the agent's.
    In the tournament process itself (``workers=0``) a SIGINT handler marks the
    real ones, which must stop the tournament, not count as a fault.
    """

    def __init__(self) -> None:
        self.pressed = False

    @contextmanager
    def watching(self) -> Iterator[CtrlC]:
        if not _in_main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            yield self
            return

        def on_sigint(signum, frame):
            self.pressed = True
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGINT, on_sigint)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, previous)

    def is_agent_exit(self, exc: BaseException) -> bool:
        """An exit the agent asked for (recorded as FAULT_EXIT)? Re-raises a real Ctrl-C."""
        if isinstance(exc, KeyboardInterrupt) and self.pressed:
            raise exc
        return isinstance(exc, (SystemExit, KeyboardInterrupt))


@dataclass
class Answer:
    """What an agent's turn came to under the fault policy (:func:`ask_agent`)."""

    move: int | None  # the agent's legal move; None after a fault (the fallback moves)
    fault: tuple[str, str] | None  # (FAULT_* kind, one-line message), or None
    seconds: float  # wall clock of act()
    cpu_seconds: float  # CPU of the thread that called act()


def ask_agent(agent: Agent, view: State, state: State, ctrl_c: CtrlC, hard_limit: float = 0.0,
              move_time: float = 0.0, passthrough: tuple[type[BaseException], ...] = ()) -> Answer:
    """Ask ``agent`` for its move in ``view`` and judge the answer by the fault policy.

    Shared by tournament games (:func:`run_job`) and ``forumlab play``, so that an agent
    is judged the same way wherever it plays: anything raised from ``act`` (any
    ``BaseException``, ``SystemExit`` and an agent's own ``KeyboardInterrupt`` included)
    is a fault, so is a move not legal in ``state`` or, with ``move_time`` > 0, an
    answer later than ``move_time * TIMEOUT_FACTOR + TIMEOUT_SLACK``.

    Args:
        agent: the seat's agent.
        view: what the seat may see (``state.view_for(seat)``), handed to ``act``.
        state: the true position, against whose legal moves the answer is checked.
        ctrl_c: tells a real Ctrl-C (re-raised) from an agent's KeyboardInterrupt.
        hard_limit: seconds after which a Python-level hang is interrupted (0 = none).
        move_time: the per-move time limit of the fault policy (0 = none).
        passthrough: exception types that are requests to the driver, not faults
            (a human seat's undo and quit); re-raised as they are.

    Returns:
        The move (None after a fault), the fault, and the wall and CPU seconds spent.
    """
    move, fault = None, None
    t0 = time.perf_counter()
    c0 = time.thread_time()  # the searching thread's CPU, as cpu_time budgets count it
    try:
        with _hard_limit(hard_limit):
            move = agent.act(view)
    except passthrough:
        raise
    except MoveInterrupted as exc:
        fault = (FAULT_HANG, str(exc))
    except BaseException as exc:  # noqa: BLE001 - any failure is the agent's fault
        kind = FAULT_EXIT if ctrl_c.is_agent_exit(exc) else FAULT_EXCEPTION
        # An agent playing from its own process (forumlab.agents.process) says what
        # happened there: its exception's kind and line, or how the process ended.
        named = getattr(exc, "fault_kind", None)
        fault = (named, str(exc)) if isinstance(named, str) else (kind, exception_line(exc))
    elapsed = time.perf_counter() - t0
    used = time.thread_time() - c0
    if fault is None and move not in set(state.legal_moves().tolist()):
        fault = (FAULT_ILLEGAL, f"returned {move!r}, which is not a legal move")
    limit = move_time * TIMEOUT_FACTOR + TIMEOUT_SLACK if move_time > 0 else None
    if fault is None and limit is not None and elapsed > limit:
        fault = (FAULT_TIMEOUT, f"took {elapsed:.3f} s, limit {move_time:g} s (+margin)")
    return Answer(None if fault else move, fault, elapsed, used)


def fallback_agent(game_seed: int, seat: int, start: int = 0) -> Agent:
    """The seeded random agent that plays a faulty seat's moves.

    Args:
        game_seed: the game's seed.
        seat: the seat.
        start: the ply a continuation starts from (0 for a game from its start); a
            continuation's stream starts afresh, seeded by where it starts.

    Returns:
        A RandomAgent whose stream depends only on these three numbers.
    """
    return RandomAgent(seed=derive_seed(game_seed, "fallback", seat, *([start] if start else [])))


def _per_seat(values, n: int, zero):
    """``values`` padded (or cut) to ``n`` seats."""
    values = list(values)[:n]
    return values + [zero] * (n - len(values))


# What a worker resolves once and reuses for every game it plays: looking an agent's
# name up scans the installed packages' entry points (milliseconds, more than a random
# game), and a game's facade is the same for every game of one configuration. Each game
# still constructs its own agents, so that a game depends only on its seed and lineup,
# never on which games the same worker played before it.
_agent_classes: dict[str, type[Agent]] = {}
_games: dict[tuple[str, str], Game] = {}
_host: list[str] = []


def _agent_class(name: str) -> type[Agent]:
    cls = _agent_classes.get(name)
    if cls is None:
        cls = _agent_classes[name] = agent_class(name)
    return cls


def _create_agent(spec: str, seed: int) -> Agent:
    """``forumlab.agents.registry.create_agent`` with the class looked up once per process."""
    name, params = parse_spec(spec)
    if "seed" in params:
        seed = params.pop("seed")
    return _agent_class(name)(seed=seed, **params)


def _compiled_seats(job: GameJob) -> tuple[str, list[int]] | None:
    """The agent and the agent seeds of a game that :mod:`forumlab.arena.compiled_play` can
    play, else None: a fresh game (not a continuation), no fault so far, no move time to
    judge, and one built-in agent of :func:`_plain_cheap`, unchanged, in every seat (it
    cannot fault: its move is the engine's own legal ``random_move`` or the best of the
    engine's legal moves; its constructor only checks the seed)."""
    if not COMPILED_GAMES or job.resume_moves or job.prior_faults or job.move_time > 0:
        return None
    names, seeds = set(), []
    for spec, seed in zip(job.specs, job.agent_seeds):
        plain = _plain_agents.get(spec)
        if plain is None:
            plain = _plain_agents[spec] = _plain_cheap(spec)
        if plain is False:
            return None  # (a bad spec: the per-ply path records the seat's fault)
        names.add(plain[0])
        seeds.append(seed if plain[1] is True else plain[1])
    # One agent in every seat: the compiled loop's time is shared among the seats by their
    # moves, which is fair only when every seat's move costs alike.
    return (names.pop(), seeds) if len(names) == 1 else None


# spec -> (agent name, True) for the random agent or the greedy one with the game's own
# weights, unchanged; (agent name, its own seed) for the same with a seed= of its own;
# False for anything else
_plain_agents: dict[str, tuple[str, bool | int] | bool] = {}


def _plain_cheap(spec: str) -> tuple[str, bool | int] | bool:
    from ..agents.greedy import GreedyAgent

    try:
        name, params = parse_spec(spec)
        own = check_seed(params.pop("seed")) if "seed" in params else True
        cls = _agent_class(name)
    except AgentSpecError:
        return False
    if params or cls not in (RandomAgent, GreedyAgent):
        return False
    return ("random" if cls is RandomAgent else "greedy", own)


def _game_of(job: GameJob) -> Game:
    """The configured game of ``job``, made once per configuration in this process."""
    key = (job.game, repr(sorted(job.config.items())))
    game = _games.get(key)
    if game is None:
        game = _games[key] = create_game(job.game, job.config)
    return game


def _hostname() -> str:
    if not _host:
        _host.append(socket.gethostname())
    return _host[0]


def _create_agents(job: GameJob, n: int, faults: list[Fault], ctrl_c: CtrlC,
                   report) -> list[Agent | None]:
    """The seats' agents; None for a seat with a fault (from before, or its constructor's)."""
    agents: list[Agent | None] = []
    for seat in range(n):
        if seat in {f.seat for f in faults}:
            agents.append(None)
            continue
        # Ply 0 tells the executor whose constructor runs, should the worker die in it.
        report(seat, 0, job.resume_moves, faults, (), ())
        try:
            agents.append(_create_agent(job.specs[seat], job.agent_seeds[seat]))
        except BaseException as exc:  # noqa: BLE001 - any failure is the agent's fault
            kind = FAULT_EXIT if ctrl_c.is_agent_exit(exc) else FAULT_INIT
            faults.append(Fault(seat, 0, kind, "constructor: " + exception_line(exc)))
            agents.append(None)
    return agents


def _replay(game: Game, job: GameJob) -> State:
    """The position after the moves of a continuation job (the start for a new game)."""
    state = game.new_state(job.seed)
    for text in job.resume_moves:
        state.play(text)  # an error here is an engine bug, not an agent fault
    return state


@dataclass
class _Tally:
    """Per seat: agent move seconds and counts (carried over by a continuation), CPU
    seconds and the longest move in wall-clock and CPU seconds."""

    seconds: list[float]
    counts: list[int]
    cpu: list[float]
    longest: list[float]
    longest_cpu: list[float]

    @classmethod
    def for_job(cls, job: GameJob, n: int) -> _Tally:
        return cls(_per_seat(job.prior_seconds, n, 0.0), _per_seat(job.prior_counts, n, 0),
                   [0.0] * n, [0.0] * n, [0.0] * n)

    def add(self, seat: int, answer: Answer) -> None:
        self.seconds[seat] += answer.seconds
        self.counts[seat] += 1
        self.cpu[seat] += answer.cpu_seconds
        self.longest[seat] = max(self.longest[seat], answer.seconds)
        self.longest_cpu[seat] = max(self.longest_cpu[seat], answer.cpu_seconds)


# Set to False to play every game through the per-ply loop (tests compare the two).
COMPILED_GAMES = True


def _play_compiled(game: Game, job: GameJob, agent: str, seeds: list[int], tally: _Tally,
                   report) -> tuple[State, list[str]]:
    """Play the game whose seats all hold ``agent`` in one compiled call; the final state
    and the moves. The
    compiled loop's time is shared among the seats by their moves (single moves are
    not timed, so no CPU or longest-move figures are kept)."""
    import numpy as np

    from .compiled_play import play_compiled_game

    state = game.new_state(job.seed)
    report(int(state.current_player), 1, (), (), tally.seconds, tally.counts)
    counts = np.zeros(game.players, dtype=np.int64)
    rngs = np.stack([make_rng(seed) for seed in seeds])  # the agents' own streams
    view_rng = make_rng(derive_seed(job.seed, "views"))
    t0 = time.perf_counter()
    moves = play_compiled_game(game, agent, state.array, view_rng, rngs, counts)
    elapsed = time.perf_counter() - t0
    plies = max(1, len(moves))
    tally.counts = [int(c) for c in counts]
    tally.seconds = [elapsed * c / plies for c in tally.counts]
    return state, moves


def _play_plies(game: Game, job: GameJob, agents: list[Agent | None], faults: list[Fault],
                tally: _Tally, ctrl_c: CtrlC, report) -> tuple[State, list[str], set[int]]:
    """Play the game of ``job`` ply by ply under the fault policy; the final state, the
    moves from the start and the faulty seats."""
    n = game.players
    state = _replay(game, job)
    moves: list[str] = list(job.resume_moves)
    # A continuation starts its random streams afresh, seeded by where it starts,
    # so that it is as reproducible as the game itself.
    start = len(moves)
    fallbacks = [fallback_agent(job.seed, seat, start) for seat in range(n)]
    view_rng = make_rng(derive_seed(job.seed, "views", *([start] if start else [])))
    faulty = {f.seat for f in faults}
    listeners = listening(agents)
    while not state.is_terminal:
        seat = state.current_player
        ply = len(moves) + 1
        report(seat, ply, moves, faults, tally.seconds, tally.counts)
        # The agent sees a copy with everything its seat cannot see resampled.
        view = state.view_for(seat, view_rng)
        move = None
        agent = agents[seat]
        if seat not in faulty and agent is not None:
            answer = ask_agent(agent, view, state, ctrl_c, job.hard_limit, job.move_time)
            move = answer.move
            tally.add(seat, answer)
            if answer.fault is not None:
                faulty.add(seat)
                faults.append(Fault(seat, ply, *answer.fault))
        if move is None:
            move = fallbacks[seat].act(view)
        before = state.array.copy() if listeners else None
        moves.append(game.format_move(state.array, move))
        state.play(move)
        if listeners:  # bots hear each ply as their seat sees it (forumlab.bots.news)
            tell_ply(agents, game, before, move, seat)
    return state, moves, faulty


def run_job(job: GameJob) -> GameOutcome:
    """Play the game of ``job`` to the end (or on from its resume moves).

    A game whose seats all hold the built-in random agent, or all the built-in greedy
    agent with the game's own weights, is played by one compiled loop
    (:mod:`forumlab.arena.compiled_play`): the same moves and result, without the Python
    work per ply.

    Args:
        job: the planned game; a continuation when ``job.resume_moves`` or
            ``job.prior_faults`` are set.

    Returns:
        The outcome the store records: every move from the start, every fault
        (prior ones first), final scores and fault-policy ranks.
    """
    started = time.time()
    report = progress_hook()  # the executor's sink; a no-op outside a worker
    game = _game_of(job)
    faults: list[Fault] = list(job.prior_faults)
    tally = _Tally.for_job(job, game.players)
    compiled = _compiled_seats(job)
    agents: list[Agent | None] = []
    if compiled is not None:
        state, moves = _play_compiled(game, job, *compiled, tally, report)
        faulty, timed = set(), False
    else:
        ctrl_c = CtrlC()
        with ctrl_c.watching():
            agents = _create_agents(job, game.players, faults, ctrl_c, report)
            if job.move_time > 0:  # the kernels' loading is not the agents' move time
                load_here(game, job.config, [s for s, a in zip(job.specs, agents) if a is not None],
                          job.seed)
            state, moves, faulty = _play_plies(game, job, agents, faults, tally, ctrl_c, report)
            # A continuation's earlier moves were timed in a worker that died: only the
            # totals survived it, so the rest is left unknown rather than partial.
            timed = not job.restarts
    scores = state.scores()
    keys = state.rank_keys()
    ranks = fault_ranks(keys, faulty) if faulty else shared_ranks(keys)
    tell_game_over(agents, scores, ranks, faulty)
    return GameOutcome.for_job(
        job,
        moves=moves,
        scores=scores,
        ranks=ranks,
        plies=game.plies(state.array),
        termination=END_CAP if game.is_truncated(state.array) else END_RULES,
        faults=faults,
        move_seconds=tally.seconds,
        moves_made=tally.counts,
        started=started,
        finished=time.time(),
        host=_hostname(),
        **({"move_cpu_seconds": tally.cpu, "move_max_seconds": tally.longest,
            "move_max_cpu_seconds": tally.longest_cpu} if timed else {}),
    )
