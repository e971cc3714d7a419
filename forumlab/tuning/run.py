"""One tuning run from the command line: check everything, search, confirm, report."""
from __future__ import annotations

import os
import shutil
import sys
from typing import Any

import click

from ..core.errors import ConfigError


def _check(mode: str, spec: str, game: str, params, kw) -> tuple[list, list, tuple | None]:
    """The agent and option dimensions and the target, or a one-line ConfigError."""
    from .grid import check_agent_dimensions, parse_dimension
    from .objectives import parse_target

    agent_dims = [parse_dimension(p) for p in params]
    option_dims = [parse_dimension(p) for p in kw["option_params"]]
    names = [d.name for d in agent_dims + option_dims]
    if len(set(names)) != len(names):
        raise ConfigError("a parameter is searched twice")
    if agent_dims and option_dims:
        raise ConfigError("search agent parameters (--param) or game options (--option-param), not both")
    if not agent_dims and not option_dims:
        raise ConfigError(f"nothing to search: give {'--param or ' if mode == 'tune' else ''}--option-param")
    target = parse_target(kw["target"]) if kw["target"] is not None else None
    if option_dims and target is None:
        raise ConfigError("a design search needs --target seat-fair or --target length=N")
    if agent_dims and target is not None:
        raise ConfigError("--target is for game options (--option-param); agent tuning plays for strength")
    if any(d.name == "time" for d in agent_dims):
        raise ConfigError("time (wall-clock seconds) cannot be tuned: it depends on the machine's load; "
                          "tune iterations, nodes or cpu_time")
    if agent_dims:
        from ..agents.spec import parse_spec

        check_agent_dimensions(parse_spec(spec)[0], agent_dims)
    return agent_dims, option_dims, target


def _base_config(game: str, kw) -> tuple[dict, dict]:
    """The fixed options (from -o) and the config with the players, checked by the game."""
    from ..core.options import parse_key_values
    from ..core.registry import create_game

    base = parse_key_values(kw["options"])
    if "players" in base:
        raise ConfigError("give the number of players with -p, not -o players=")
    config = {**base, "players": kw["players"]}
    create_game(game, config)
    return base, config


def _check_specs(game: str, config: dict, specs: list[str]) -> None:
    """Every spec the run will play, refused now with one line (unknown parameter, weight,
    a wall-clock budget)."""
    from ..agents.spec import parse_spec
    from ..arena.definition import PoolEntry, TournamentDefinition, validate

    for spec in specs:
        if parse_spec(spec)[1].get("time", 0):
            # A wall-clock budget makes every evaluation depend on the machine's load.
            raise ConfigError(f"{spec}: tuning plays at machine-independent budgets; give iterations, "
                              "nodes or cpu_time instead of time")
    pool = tuple(PoolEntry(f"a{i}", s) for i, s in enumerate(dict.fromkeys(specs)))
    validate(TournamentDefinition(game=game, config=dict(config), agents=pool))


def _check_options(objective) -> None:
    """Each searched option value, the others at their first value, must be one the game takes."""
    from ..core.registry import create_game

    for d, dim in enumerate(objective.dims):
        for i in range(len(dim.values)):
            point = tuple(i if j == d else 0 for j in range(len(objective.dims)))
            try:
                create_game(objective.arena.game, objective.options(point))
            except ConfigError as exc:
                raise ConfigError(f"{dim.name}={dim.values[i]!r}: {exc}") from None


def _header(mode, spec, game, config, dims, fields, target, kw) -> dict[str, Any]:
    return {"mode": mode, "spec": spec, "game": game, "config": config,
            "dims": [[d.name, list(d.values)] for d in dims], "field": list(fields),
            "target": kw["target"] if target else None,
            "games_per_evaluation": kw["games_per_evaluation"] if target else None,
            "evaluations": kw["evaluations"], "repeats": kw["repeats"], "k": kw["k"],
            "neighbours": kw["neighbours"], "seed": kw["seed"]}


def _progressed(objective, total: int, show: bool):
    """``objective`` reporting each evaluation on stderr (when ``show``)."""
    from .grid import point_values

    def evaluate(index, point):
        value = objective(index, point)
        if show:
            shown = ", ".join(f"{k}={v}" for k, v in point_values(objective.dims, point).items())
            click.echo(f"evaluation {index + 1}/{total}: {shown} -> {value:.3f}", err=True)
        return value
    return evaluate


def run_command(mode: str, spec: str, game: str, params, fields, kw) -> None:
    """``forumlab tune`` / ``forumlab design``: check, search, confirm, print, write JSON."""
    from ..arena.executors import make_executor
    from ..arena.warmup import warm_up
    from .log import TuneLog
    from .ntbea import NtbeaSettings, ntbea
    from .objectives import AgentObjective, Arena, DesignObjective

    agent_dims, option_dims, target = _check(mode, spec, game, params, kw)
    base, config = _base_config(game, kw)
    fields = list(fields) or [spec]
    dims = agent_dims or option_dims
    _check_specs(game, config, [spec, *fields] if agent_dims else [spec])
    if kw["out"] is not None:
        from ..core.files import check_output_file

        check_output_file(kw["out"], "result")  # before the search: never a device or a pipe
        if kw["db"] is not None and os.path.realpath(kw["out"]) == os.path.realpath(kw["db"]):
            raise ConfigError(f"--out {kw['out']} is the tuning log itself")
    log = TuneLog(kw["db"], _header(mode, spec, game, config, dims, fields, target, kw))
    settings = NtbeaSettings(k=kw["k"], neighbours=kw["neighbours"], repeats=kw["repeats"])
    warm_up(game, config, [spec, *fields], kw["seed"])
    with make_executor(kw["workers"], None, progress=False) as executor:
        arena = Arena(game, config, kw["seed"], executor)
        if agent_dims:
            objective = AgentObjective(arena, spec, dims, fields, log)
            _check_specs(game, config, [objective.candidate(tuple(0 for _ in dims))])
        else:
            objective = DesignObjective(arena, spec, dims, base, target, kw["games_per_evaluation"], log)
            _check_options(objective)
        if kw["evaluations"] < kw["repeats"]:
            raise ConfigError("--evaluations must be at least --repeats")
        evaluate = _progressed(objective, kw["evaluations"], kw["progress"])
        result = ntbea([len(d.values) for d in dims], evaluate, kw["evaluations"], kw["seed"], settings)
    _finish(mode, spec, game, config, objective, result, target, kw)


def _finish(mode, spec, game, config, objective, result, target, kw) -> None:
    """Confirm the recommendation on fresh seeds, print the report and write the JSON."""
    from .command import confirm_path, write_out
    from .confirm import confirm_agent, confirm_design
    from .grid import point_values
    from .report import agent_text, design_text

    values = point_values(objective.dims, result.best)
    out: dict[str, Any] = {
        "mode": mode, "game": game, "players": config["players"], "values": values,
        "estimate": result.estimate, "evaluations": len(result.history),
        "games": sum(len(r.get("games", ())) for r in objective.log.done.values()) or None,
        "seed": kw["seed"],
        "recommendations": [point_values(objective.dims, p) for p in result.recommendations]}
    tmp: list[str] = []
    try:
        if target is None:
            out.update(spec=objective.candidate(result.best), default=spec, field=objective.field)
            if kw["confirm_games"]:
                out["confirmation"] = confirm_agent(game, config, out["spec"], spec, kw["confirm_games"],
                                                    kw["seed"], kw["workers"], confirm_path(kw["db"], tmp),
                                                    kw["progress"])
            text = agent_text(out)
        else:
            out.update(spec=spec, target=kw["target"], options=objective.options(result.best))
            confirmation = None
            if kw["confirm_games"]:
                confirmation, out["confirmation"] = confirm_design(
                    game, out["options"], spec, kw["confirm_games"], kw["seed"], kw["workers"],
                    confirm_path(kw["db"], tmp), kw["progress"])
            text = design_text(out, confirmation)
    finally:
        for path in tmp:
            shutil.rmtree(path, ignore_errors=True)
    if tmp and "confirmation" in out:
        out["confirmation"].pop("db", None)  # a temporary file, gone now
    write_out(kw["out"], out)
    click.echo(text)
    sys.stdout.flush()
