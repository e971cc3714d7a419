"""The public Python API: games, agents, one game, tournaments and ratings, as data.

Everything here is re-exported by ``forumlab`` itself (``forumlab.load_game``, ...),
loaded on first use so that ``import forumlab`` stays cheap and compiles nothing::

    import forumlab

    game = forumlab.load_game("forum-romanum", players=3)
    record = forumlab.play(game, ["greedy", "mcts(iterations=200)", "random"], seed=1)
    print(record.result["ranks"])
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .agents.base import Agent
from .core.errors import ConfigError
from .core.game import Game, State
from .core.record import Record

MAX_WORKERS = 1024  # local processes, as the command line allows; a Dask cluster for more


def _is_int(value: Any) -> bool:
    """An integer and not a bool (``True`` is no seed, no count)."""
    import numpy as np

    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _check_seed(seed: Any, what: str = "seed") -> int:
    """``seed`` as an int when it is a 64-bit integer, else ConfigError (as the command
    line's ``--seed`` is checked: a float is refused, not truncated)."""
    if not _is_int(seed):
        raise ConfigError(f"{what} must be an integer, not {seed!r}")
    if not -(2**63) <= int(seed) <= 2**63 - 1:
        raise ConfigError(f"{what} {int(seed)} does not fit in 64 bits (-2**63 .. 2**63-1)")
    return int(seed)


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def _check_game_name(game: Any) -> str:
    if not isinstance(game, str):
        raise ConfigError(f"game must be a game name (text), not {game!r}")
    return game


def load_game(name: str, /, **options: Any) -> Game:
    """A configured game.

    Args:
        name: a registered game, e.g. ``"forum-romanum"`` (``forumlab games`` lists them).
        **options: the game's options, e.g. ``players=3`` (``name`` is positional only,
            so an option of that name reaches the game, which refuses it, as any).

    Returns:
        The game; ``game.new_state(seed)`` starts a game of it.

    Raises:
        UnknownGameError: no game has this name.
        ConfigError: a name that is not text, an unknown option or a bad value.
    """
    from .core.registry import create_game

    return create_game(_check_game_name(name), options)


def make_agent(spec: str, seed: int = 0) -> Agent:
    """An agent from a spec string.

    Args:
        spec: ``name`` or ``name(key=value, ...)``, e.g. ``"mcts(iterations=2000)"``.
        seed: the agent's seed (a ``seed=`` in the spec wins).

    Returns:
        The agent; ``agent.act(state)`` returns its move code.

    Raises:
        AgentSpecError: a malformed spec, an unknown agent, a bad parameter, a module
            that fails to import, or a seed that is not a 64-bit integer.
    """
    from .agents.registry import create_agent
    from .agents.spec import check_seed

    return create_agent(spec, seed=check_seed(seed))


def play(game: Game | str, agents: list[Agent | str], seed: int = 0) -> Record:
    """Play one game to the end and return its record.

    Each agent is handed only its seat's view of the position, as in ``forumlab play``
    and in tournaments. Agents given as spec strings are seeded as ``forumlab play``
    seeds them, so ``play(game, specs, seed)`` plays the same game as ``forumlab play
    GAME -a SPECS --seed SEED``. An agent that raises stops the game with its exception
    (here a researcher wants the traceback; the command line and the arena replace a
    faulty agent instead).

    Args:
        game: a game from :func:`load_game`, or a game name (default options).
        agents: one agent or spec string per seat, in seat order.
        seed: the game's seed.

    Returns:
        The game's :class:`~forumlab.core.record.Record`: ``moves`` in notation,
        ``result`` (scores, ranks, winners, plies, ...), ``agents`` (label, spec, seed
        per seat), and ``record.to_json()`` / ``record.save(path)`` for a file that
        ``forumlab replay`` reads. :func:`replay` gives the final state.

    Raises:
        UnknownGameError: an unknown game name.
        ConfigError: ``game`` is neither a Game nor a name, ``seed`` is not a 64-bit
            integer, or the number of agents is not the game's number of players.
        AgentSpecError: ``agents`` is not a list of agents and spec strings, or a spec
            is bad.
    """
    from .agents.spec import AgentSpecError
    from .arena.match import play_match
    from .core.rng import derive_seed

    seed = _check_seed(seed)
    if not isinstance(game, Game):
        game = load_game(game)
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise AgentSpecError(f"agents must be a list of agents or spec strings, one per seat, not {agents!r}")
    for agent in agents:
        if not isinstance(agent, (str, Agent)):
            raise AgentSpecError(f"an agent must be an Agent or a spec string, not {agent!r}")
    if len(agents) != game.players:
        raise ConfigError(f"{len(agents)} agents for {game.players} players")
    seats, info = [], []
    for i, agent in enumerate(agents):
        if isinstance(agent, str):
            agent_seed = derive_seed(seed, "agent", i)
            seats.append(make_agent(agent, seed=agent_seed))
            info.append({"label": agent, "spec": agent, "seed": agent_seed})
        else:
            seats.append(agent)
            info.append({"label": agent.spec(), "spec": agent.spec(), "seed": agent.seed})
    match = play_match(game, seats, seed)
    return Record.from_state(match.state, agents=info)


def replay(record: Record | dict[str, Any] | str | Path) -> State:
    """The state a record reaches (its moves replayed from its config and seed).

    Args:
        record: a :class:`Record`, its JSON dict, or the path of a record file.

    Returns:
        The final state, with its history.

    Raises:
        RecordError: a malformed record; IllegalMoveError: a move that is not legal.
    """
    from .core.record import load_record
    from .core.record import replay as replay_record

    if isinstance(record, (str, Path)):
        record = load_record(record)
    elif not isinstance(record, Record):  # a dict, or anything else: refused as a record
        record = Record.from_json(record)
    return replay_record(record)


def run_tournament(game: str, agents: list[str], db: str | Path, /, *, games_per_lineup: int = 1,
                   format: str = "round-robin", candidate: str | None = None,
                   rotations: str = "balanced", seed: int = 1, workers: int | None = None,
                   progress: bool = False, **options: Any) -> dict[str, Any]:
    """Play a tournament into a results file (or finish one) and return its ratings.

    Args:
        game: a registered game.
        agents: the pool: spec strings, or ``"label=spec"`` to rate a spec under a label.
        db: the results file (SQLite); created if absent, continued if it holds the
            same tournament, refused if it holds another.
        games_per_lineup: rotation groups (game seeds) per lineup.
        format: ``"round-robin"`` or ``"gauntlet"`` (then ``candidate`` is a label).
        candidate: the gauntlet's candidate label.
        rotations: ``"balanced"``, ``"cyclic"`` or ``"all"`` (see docs/arena.md, Seating).
        seed: the tournament's seed.
        workers: worker processes (None: one per core; 0: in this process). Scripts
            that start workers need the ``if __name__ == "__main__":`` guard.
        progress: draw a progress bar on stderr.
        **options: the game's options, e.g. ``players=3``.

    Returns:
        :func:`ratings` of the file, plus ``"played"``: the games played by this call.

    Raises:
        ConfigError, AgentSpecError: a bad definition or argument (``workers``,
            ``progress`` or ``db`` of the wrong type, a worker count out of range
            included), found before the results file is created: nothing is created.
        StoreError: the file holds another tournament or is not a results file;
            DamagedResultsError (a StoreError) if its stored data is damaged (nothing
            is played into it).
    """
    from .agents.spec import AgentSpecError
    from .arena.definition import TournamentDefinition, parse_agent_option
    from .arena.tournament import run_tournament as run

    # Everything is checked before run() creates the results file, so that a refused
    # call leaves no file behind.
    _check_game_name(game)
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence) or not all(
            isinstance(a, str) for a in agents):
        raise AgentSpecError(f"agents must be a list of spec strings (or 'label=spec'), not {agents!r}")
    if not isinstance(db, (str, Path)):
        raise ConfigError(f"db must be a path, not {db!r}")
    if workers is not None and not (_is_int(workers) and 0 <= workers <= MAX_WORKERS):
        raise ConfigError(f"workers must be None (one per core) or an integer from 0 (in this process) "
                          f"to {MAX_WORKERS}, not {workers!r}")
    if not isinstance(progress, bool):
        raise ConfigError(f"progress must be true or false, not {progress!r}")
    definition = TournamentDefinition(
        game=game, config=dict(options), agents=tuple(parse_agent_option(a) for a in agents),
        format=format, candidate=candidate, games_per_lineup=games_per_lineup,
        rotations=rotations, seed=seed)
    played = run(definition, db, workers=workers, progress=progress)
    report = ratings(db)
    report["played"] = played
    return report


def ratings(db: str | Path | Sequence[str | Path], anchor: str | None = None,
            merge: tuple[str, ...] = ()) -> dict[str, Any]:
    """The ratings of a results file, or of several rated as one (what ``forumlab ratings
    DB... --json`` prints).

    Args:
        db: a results file, or a list of them: same game and config, and each label the
            same agent spec in every file.
        anchor: the label rated 0 Elo (default: the reference, the connected agent whose
            distances the games measure most precisely; never an agent the games cannot place).
        merge: ``"NAME=LABEL,LABEL"`` strings: labels of one spec rated as one agent
            (``ratings --merge``).

    Returns:
        A JSON-ready dict: per agent Elo with its 95% interval to the anchor, comparison
        interval, LOS over the next agent and time per move, win rate, mean rank and
        score; ``los_pairs``; seat advantages; the pairwise matrices; ``"games"``;
        ``"tournament"``, the (first) stored definition; ``"sources"``, per file its
        path, games and definition; and ``"sprt"``, the sequential test's record or None.
        For a cooperative game (a team against an automaton) the team's results instead
        of the ratings: ``team``, ``agents`` and ``lineups`` with games, team wins and
        win rates (see ``forumlab.arena.cooperative.team_report``), plus the same
        ``games``, ``tournament``, ``sources`` and ``sprt``.

    Raises:
        StoreError: a file is missing, not a results file, corrupt or locked.
        DamagedResultsError: a file's stored data is damaged (a StoreError and a ConfigError).
        ForumlabError: a file holds no finished game yet.
        ConfigError: files that cannot be pooled, or a bad merge (see
            ``forumlab.arena.pool.load_results``).
        RatingsError: the games cannot be rated (e.g. ``anchor`` did not play).
        ConfigError: ``db``, ``anchor`` or ``merge`` of the wrong type.
    """
    from .arena.pool import load_results, results_json

    # Checked as the command line's arguments are: never a TypeError from deep inside.
    paths = [db] if _is_path(db) else list(db) if isinstance(db, (list, tuple)) else None
    if paths is None or not all(_is_path(p) for p in paths):
        raise ConfigError(f"db must be a results file's path or a list of them, not {db!r}")
    if anchor is not None and not isinstance(anchor, str):
        raise ConfigError(f"anchor must be an agent's label (text), not {anchor!r}")
    if not isinstance(merge, (list, tuple)) or not all(isinstance(m, str) for m in merge):
        raise ConfigError(f"merge must be a list of NAME=LABEL,LABEL texts, not {merge!r}")
    return results_json(load_results(paths, tuple(merge)), anchor)
