"""A third-party agent in a process of its own, as tournament workers run agents.

``forumlab play`` runs every agent that does not ship with forumlab this way
(:func:`is_third_party`), so that nothing the agent's code does ends the game: ``os._exit``,
a segfault or anything that kills its process becomes a fault of its seat under the
tournaments' policy (kind ``exit`` or ``crash``, as the arena's local pool names them),
and the game goes on with the seat's random fallback. The agent's module is imported,
and the agent created, in that process only; a failure there is an
:class:`~forumlab.agents.spec.AgentSpecError` of :class:`ProcessAgent`'s constructor, so
``play`` reports it as bad input before anything is played. Each move sends the seat's
view (never anything hidden from it) and receives the move code.

The process ignores SIGINT from its start, as tournament workers do: Ctrl-C reaches the
whole process group, and it is ``play``'s to stop the game; a KeyboardInterrupt raised
inside the process is then the agent's own, an ``exit`` fault.
"""
from __future__ import annotations

import multiprocessing
import signal
from typing import Any

from ..core.errors import ForumlabError, exception_line
from ..core.game import State
from .spec import AgentSpecError, parse_spec


class AgentProcessFault(Exception):
    """The agent failed in its process, or its process ended, during a move.

    ``fault_kind`` is the fault policy's kind (``forumlab.arena.jobs.FAULT_*``), which
    :func:`forumlab.arena.runner.ask_agent` records instead of its own guess, with this
    exception's message as the fault's message.
    """

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.fault_kind = kind


def is_third_party(spec: str) -> bool:
    """Whether ``spec`` names an agent that does not ship with forumlab, found without
    importing anything (an import runs the module's code).

    Args:
        spec: an agent spec string.

    Returns:
        True for ``module:Class`` outside the ``forumlab`` package and for entry-point
        agents whose target is outside it.

    Raises:
        AgentSpecError: a malformed spec.
    """
    from .registry import _all_targets

    name = parse_spec(spec)[0]
    target = name if ":" in name else _all_targets().get(name, "forumlab.")
    return not target.startswith("forumlab.")


def _death(process) -> tuple[str, str]:
    """The fault kind and the words for how a process ended (as the local pool says it):
    ``("crash", "killed by signal 11 (SIGSEGV)")`` or ``("exit", "exit code 3")``."""
    from ..arena.jobs import FAULT_CRASH, FAULT_EXIT

    process.join(5.0)
    code = process.exitcode
    if code is not None and code < 0:
        how = f"killed by signal {-code}"
        try:
            how += f" ({signal.Signals(-code).name})"
        except ValueError:
            pass
        return FAULT_CRASH, how
    return FAULT_EXIT, f"exit code {code}"


def _serve(conn, spec: str, seed: int) -> None:
    """The agent's process: create the agent, then answer each view with a move."""
    from ..arena.jobs import FAULT_EXCEPTION, FAULT_EXIT
    from .registry import create_agent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (usually ignored since birth already)
    try:
        agent = create_agent(spec, seed=seed)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent as bad input
        conn.send(("error", str(exc) if isinstance(exc, ForumlabError) else exception_line(exc),
                   isinstance(exc, ForumlabError)))
        return
    conn.send(("ready", bool(agent.interactive)))
    while True:
        try:
            view = conn.recv()
        except (EOFError, OSError):
            return  # the game is over, or play is gone
        except Exception as exc:  # noqa: BLE001 - e.g. a game registered in play's process only
            conn.send(("fault", FAULT_EXCEPTION, "cannot read the position here: " + exception_line(exc)))
            continue
        if view is None:
            return
        try:
            reply: tuple = ("move", agent.act(view))
        except BaseException as exc:  # noqa: BLE001 - any failure is the agent's fault
            kind = FAULT_EXIT if isinstance(exc, (SystemExit, KeyboardInterrupt)) else FAULT_EXCEPTION
            reply = ("fault", kind, exception_line(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


_PROBED: set[str] = set()  # modules found to import without ending a process


def _probe(conn, module: str) -> None:
    """Import ``module`` and say so (in a process that may die doing it)."""
    from .registry import import_agent_module

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import_agent_module(module)
    except BaseException:  # noqa: BLE001 - the parent's own import reports it
        pass
    conn.send("imported")


def check_import_survives(module: str) -> None:
    """Refuse a third-party agent module whose import ends the process that imports it.

    A module's top-level code runs in whatever process first imports it, and a command
    such as ``forumlab tournament run`` imports a pool's modules before any game, to check
    the specs. A module that calls ``os._exit`` or crashes at import would end that
    command silently; so the first import of a module outside forumlab is tried in a
    process of its own first (about a second, once per module and command). An import
    that merely raises is left to the caller's own import, which reports it. Nothing is
    tried inside a daemonic process (a tournament worker, an agent's process), which may
    not start processes and whose death the arena handles.

    Args:
        module: a dotted module name.

    Raises:
        AgentSpecError: importing the module ended the process.
    """
    import sys

    if (module in _PROBED or module in sys.modules or module.startswith("forumlab.")
            or multiprocessing.current_process().daemon):
        return
    from ..arena.executors.local_pool import _default_start_method, _start_born_ignoring_sigint

    method = _default_start_method()
    ctx = multiprocessing.get_context(method)
    parent, child = ctx.Pipe()
    process = ctx.Process(target=_probe, args=(child, module), daemon=True, name="forumlab-import-check")
    _start_born_ignoring_sigint(process, method)
    child.close()
    try:
        parent.recv()
    except (EOFError, OSError):
        _, how = _death(process)
        raise AgentSpecError(f"cannot load agent module {module!r}: importing it ended the process "
                             f"({how})") from None
    finally:
        parent.close()
        process.join(5.0)
    _PROBED.add(module)


class ProcessAgent:
    """An agent that plays from its own process (module docstring).

    Args:
        spec: the agent's spec string.
        seed: its seed (a ``seed=`` inside the spec wins, as for any agent).

    Raises:
        AgentSpecError: the agent cannot be created: its module or class cannot be
            loaded, a parameter is bad, its constructor fails or ends its process.
    """

    interactive = False

    def __init__(self, spec: str, seed: int = 0):
        from ..arena.executors.local_pool import _default_start_method, _start_born_ignoring_sigint

        self.spec_text = spec
        self.seed = seed
        self.name = parse_spec(spec)[0]
        method = _default_start_method()
        ctx = multiprocessing.get_context(method)
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(target=_serve, args=(child, spec, seed), daemon=True,
                                    name=f"forumlab-agent-{self.name}")
        _start_born_ignoring_sigint(self._process, method)  # the arena's way: no Ctrl-C window
        child.close()
        try:
            reply = self._conn.recv()
        except (EOFError, OSError):
            _, how = _death(self._process)
            raise AgentSpecError(f"cannot create agent {spec!r}: its process ended ({how})") from None
        if reply[0] == "error":
            self.close()
            raise AgentSpecError(reply[1] if reply[2] else f"cannot create agent {spec!r}: {reply[1]}")
        if reply[1]:  # it asks a person: that needs this process's terminal
            self.close()
            raise AgentSpecError(f"agent {spec!r} asks a person for moves: it cannot play from a "
                                 "process of its own")

    def act(self, state: State) -> int:
        """The agent's move in ``state`` (the seat's view), computed in its process.

        Raises:
            AgentProcessFault: the agent raised (its exception's kind and line), or its
                process ended during the move.
        """
        try:
            self._conn.send(state)
            reply: Any = self._conn.recv()
        except (EOFError, OSError):
            kind, how = _death(self._process)
            raise AgentProcessFault(kind, f"the agent's process ended ({how})") from None
        except BaseException:
            # The wait was cut off (the hard limit, Ctrl-C): the process may still be
            # computing, and its late answer must never be read as a later move's.
            self._process.kill()
            self._process.join(2.0)
            self._conn.close()
            raise
        if reply[0] == "fault":
            raise AgentProcessFault(reply[1], reply[2])
        return reply[1]

    def spec(self) -> str:
        """The spec string the agent was created from."""
        return self.spec_text

    def close(self) -> None:
        """End the agent's process (it is daemonic, so it also ends with this one)."""
        try:
            self._conn.send(None)
        except (OSError, EOFError, ValueError):
            pass
        self._conn.close()
        self._process.join(2.0)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(2.0)
