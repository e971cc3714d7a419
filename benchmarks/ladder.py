"""The ladder: equal-budget strength of the search agents, and how it scales with time.

Usage: python -m benchmarks.ladder --game G [--players N] [--budget 0.2] [--groups K]
       [--workers 2] [--out DIR] [--agent SPEC ...] [--vary SPEC:KEY=V1,V2 ...]
       [--no-curve] [--quick] [--report FILE]

Works for every registered game (nothing below is specific to one). Budgets are CPU
seconds of the searching thread per move (the agents' ``cpu_time=``), so a result does
not depend on how busy the machine is; only the wall-clock duration does.

1. Round robin at ``--budget`` seconds per move of greedy, paranoid, maxn, brs and mcts,
   through the arena with neighbour-balanced seating (every seat, every predecessor),
   one game per worker process. Random is left out of the round robin: it finishes
   behind every agent in practically every game, so its lineups cost half the round
   robin at 3 players and tell nothing about the search agents; it is rated in the
   curve's field instead. ``--agent SPEC`` (repeatable) replaces the search agents by
   the given specs, e.g. candidate MCTS settings when tuning a game's defaults; a spec
   without a budget of its own (``iterations``, ``nodes``, ``depth``, ``time``,
   ``cpu_time``) gets ``cpu_time=--budget``, one with an iteration or node budget
   keeps it, so such a run replays bit for bit. ``--vary SPEC:KEY=V1,V2,...``
   (repeatable) adds one such candidate per value, SPEC with KEY=V, e.g.
   ``--vary 'mcts:c=0.3,0.7,1.0'``; KEY and every value are checked against the
   agent's declared parameters (``forumlab.agents.registry.agent_params``) before
   anything runs.
2. Scaling curve (skipped with ``--no-curve``): each search agent at 0.01, 0.03, 0.1,
   0.3 and 1 s per move in a gauntlet against the fixed reference field: greedy and
   random, in one lineup at 3+ players; greedy alone at 2 players (a 2-player game has
   room for one reference agent, and the games against random would double the
   curve's cost to say only that search beats random). All gauntlets are rated
   together, so every point is on one Plackett-Luce Elo scale anchored at greedy.
3. Prints one JSON object: per point the Elo against greedy with its 95% interval, the
   games, the CPU seconds per move actually used (``time.thread_time`` around the
   agent's move on a few positions of a greedy self-play game, measured in this
   process) and the wall seconds per move recorded by the arena, plus the command and
   versions.
4. Writes ``DIR/ladder-<game>-<N>p.png`` (the curve) when matplotlib is installed
   (``pip install forumlab[plot]``); otherwise says so and skips it. With ``--report
   FILE`` also an HTML report (:mod:`forumlab.report`): the curve, then the round robin
   and the curve's gauntlets as two rated sections (matplotlib required: checked first).

Before playing it prints (stderr) the expected duration: for every planned game, the
moves per seat (from greedy self-play) times each seat's budget (greedy at its measured
move time, random free), plus a per-game and per-tournament overhead, over the workers.
Without ``--groups`` it plays the most rotation groups per lineup that keep that
estimate under ``TARGET_MINUTES`` (at least one). Results files go to ``--out``
(default ``ladder-<game>-<N>p``), one per tournament: running the same command again
continues where a run stopped, and ``DIR/partial.json`` holds the report of the
tournaments finished so far.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import shlex
import sys
import time
from pathlib import Path

import click

from forumlab.agents.params import resolve_options
from forumlab.agents.registry import agent_params, check_spec, create_agent
from forumlab.agents.spec import AgentSpecError, parse_spec, parse_value
from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.ratings import rate, rated_games, ratings_report
from forumlab.arena.schedule import plan
from forumlab.arena.store import ResultStore
from forumlab.arena.tournament import run_tournament, versions
from forumlab.cli import fail
from forumlab.core.errors import ForumlabError
from forumlab.core.registry import create_game, get_game_class

from .cli import run_command

SEARCH_AGENTS = ("paranoid", "maxn", "brs", "mcts")
REFERENCE = ("greedy", "random")
ANCHOR = "greedy"
CURVE_BUDGETS = (0.01, 0.03, 0.1, 0.3, 1.0)
QUICK = {"budget": 0.005, "curve": (0.002, 0.005), "groups": 1}
TARGET_MINUTES = 25.0  # default size: the estimate stays below this (the budget allows 30)
SELF_PLAY_GAMES = 6  # greedy games that measure game length and greedy's move time
CALIBRATION_POSITIONS = 3  # positions on which each point's CPU seconds per move are measured
GAME_OVERHEAD = 0.05  # seconds per game beyond the agents' moves (set-up, notation, store)
TOURNAMENT_OVERHEAD = 5.0  # seconds per tournament (worker start-up, kernel cache loads)


BUDGET_PARAMS = ("iterations", "nodes", "depth", "time", "cpu_time")


def budget_spec(agent: str, seconds: float) -> str:
    """The agent spec of ``agent`` at ``seconds`` CPU seconds per move."""
    return f"{agent}(cpu_time={seconds:g})"


def with_param(spec: str, key: str, value: str) -> str:
    """``spec`` with ``key=value`` appended to its parameters (``value`` as spec text)."""
    name, params = parse_spec(spec)
    return f"{spec.rstrip()[:-1]}, {key}={value})" if params else f"{name}({key}={value})"


def with_budget(spec: str, seconds: float) -> str:
    """``spec`` as given when it names a budget of its own, else at ``seconds`` CPU s/move."""
    _, params = parse_spec(spec)
    if any(k in params for k in BUDGET_PARAMS):
        return spec
    return with_param(spec, "cpu_time", f"{seconds:g}")


def vary(text: str) -> list[str]:
    """The candidate specs of one ``--vary SPEC:KEY=V1,V2,...``: SPEC with each KEY=V.

    Args:
        text: e.g. ``"mcts:c=0.3,0.7"`` or ``"mcts(iterations=300):widen=0.1,0.3"``.

    Returns:
        One spec per value, in the order given, e.g. ``["mcts(c=0.3)", "mcts(c=0.7)"]``.

    Raises:
        AgentSpecError: a malformed option, a KEY the agent does not declare or SPEC
            sets already, or a value its declaration refuses.
    """
    spec, _, assignment = text.rpartition(":")  # the last ':' (a module:Class spec has one)
    key, sep, values = (part.strip() for part in assignment.partition("="))
    texts = [v.strip() for v in values.split(",")]
    if not (spec.strip() and sep and key and all(texts)):
        raise AgentSpecError(f"--vary {text!r}: expected SPEC:KEY=V1,V2,... (e.g. 'mcts:c=0.3,0.7')")
    try:
        name, params = parse_spec(spec)
        if key in params:
            raise AgentSpecError(f"{spec.strip()} sets {key} already")
        for value in texts:
            resolve_options(name, agent_params(name), {key: parse_value(value)})
    except AgentSpecError as exc:
        raise AgentSpecError(f"--vary {text!r}: {exc}") from None
    return [with_param(spec, key, value) for value in texts]


def field(players: int) -> tuple[str, ...]:
    """The curve's reference field: greedy and random, or greedy alone at 2 players."""
    return REFERENCE if players >= 3 else (ANCHOR,)


def point_label(agent: str, seconds: float) -> str:
    """The label under which a curve point is rated, e.g. ``mcts@0.1s``."""
    return f"{agent}@{seconds:g}s"


def round_robin(game: str, config: dict, budget: float, groups: int, seed: int,
                specs: tuple[str, ...] = ()) -> TournamentDefinition:
    """Greedy and every search agent at ``budget`` (or ``specs``), each lineup ``groups`` times."""
    if specs:
        entries = tuple(PoolEntry(s, with_budget(s, budget)) for s in specs)
    else:
        entries = tuple(PoolEntry(a, budget_spec(a, budget)) for a in SEARCH_AGENTS)
    pool = (PoolEntry(ANCHOR, ANCHOR),) + entries
    return TournamentDefinition(game=game, config=config, agents=pool, games_per_lineup=groups,
                                seed=seed, hard_limit=_hard_limit(budget))


def gauntlet(game: str, config: dict, agent: str, budget: float, groups: int,
             seed: int) -> TournamentDefinition:
    """``agent`` at ``budget`` against the reference field (greedy and random)."""
    label = point_label(agent, budget)
    pool = ((PoolEntry(label, budget_spec(agent, budget)),)
            + tuple(PoolEntry(a, a) for a in field(config["players"])))
    return TournamentDefinition(game=game, config=config, agents=pool, format="gauntlet", candidate=label,
                                games_per_lineup=groups, seed=seed, hard_limit=_hard_limit(budget))


def _hard_limit(budget: float) -> float:
    # A CPU budget can take several times as long in wall-clock time on a busy machine;
    # only a real hang should be cut off.
    return max(60.0, 30 * budget)


def self_play(game_obj, games: int = SELF_PLAY_GAMES):
    """Greedy self-play: (mean plies per seat, greedy CPU seconds per move, positions)."""
    plies, seconds, moves, positions = [], 0.0, 0, []
    for g in range(games):
        agents = [create_agent("greedy", seed=100 * g + s) for s in range(game_obj.players)]
        state = game_obj.new_state(g + 1)
        history = [state.copy()]
        while not state.is_terminal:
            t0 = time.thread_time()  # CPU, not wall: the estimate should not grow with the load
            move = agents[state.current_player].act(state.view_for(state.current_player))
            seconds += time.thread_time() - t0
            moves += 1
            state.play(move)
            history.append(state.copy())
        plies.append(len(history) - 1)
        if g == 0:  # calibration positions: spread over the first game
            n = len(history) - 1
            positions = [history[(i * n) // CALIBRATION_POSITIONS] for i in range(CALIBRATION_POSITIONS)]
    return sum(plies) / len(plies) / game_obj.players, seconds / max(1, moves), positions


def expected_seconds(definitions, moves_per_seat: float, move_seconds: dict, workers: int) -> float:
    """Expected wall seconds of ``definitions`` (see the module docstring).

    ``move_seconds`` maps every spec that plays to its measured seconds per move.
    """
    total = 0.0
    for d in definitions:
        work = 0.0
        for job in plan(d):
            work += GAME_OVERHEAD
            for spec in job.specs:
                work += moves_per_seat * move_seconds.get(spec, 0.0)
        total += work / workers + TOURNAMENT_OVERHEAD
    return total


def cpu_per_move(spec: str, positions) -> float:
    """Mean thread CPU seconds of a fresh ``spec`` agent's move over ``positions``."""
    used = []
    for i, state in enumerate(positions):
        agent = create_agent(spec, seed=i)
        t0 = time.thread_time()
        agent.act(state.view_for(state.current_player))
        used.append(time.thread_time() - t0)
    return sum(used) / len(used)


def _db_path(out: Path, kind: str, d: TournamentDefinition) -> Path:
    digest = hashlib.sha256(d.canonical().encode()).hexdigest()[:10]
    return out / f"{kind}-{digest}.db"


def _outcomes(db: Path):
    with ResultStore.open(db, readonly=True) as store:
        return store.outcomes()


def _wall_per_move(outcomes, label: str) -> float | None:
    seconds = moves = 0
    for o in outcomes:
        for s, lab in enumerate(o.labels):
            if lab == label:
                seconds += o.move_seconds[s]
                moves += o.moves_made[s]
    return seconds / moves if moves else None


def _rating_rows(outcomes):
    report = ratings_report(rate(rated_games(outcomes), anchor=ANCHOR))
    return {row["agent"]: row for row in report["agents"]}, report


def _entry(row: dict, **extra) -> dict:
    keep = ("elo", "elo_low", "elo_high", "games", "win_rate", "mean_rank", "separated")
    return {**extra, **{k: row[k] for k in keep}}


def build_report(header: dict, rr, curve, cpu: dict) -> dict:
    """The JSON report of the tournaments finished so far.

    ``rr`` is (definition, outcomes) or None; ``curve`` a list of (agent, budget,
    definition, outcomes) of the finished gauntlets; ``cpu`` maps spec -> CPU s/move.
    """
    report = dict(header)
    if rr is not None:
        d, outcomes = rr
        rows, full = _rating_rows(outcomes)
        report["round_robin"] = {
            "budget_cpu_seconds": header["budget"], "games": len(outcomes), "anchor": ANCHOR,
            "agents": [_entry(rows[a.label], agent=a.label, spec=a.spec,
                              cpu_seconds_per_move=cpu.get(a.spec),
                              wall_seconds_per_move=_wall_per_move(outcomes, a.label))
                       for a in sorted(d.agents, key=lambda a: -rows[a.label]["elo"])],
            "separation_note": full["separation"]["note"],
        }
    if curve:
        everything = [o for *_, outcomes in curve for o in outcomes]
        rows, full = _rating_rows(everything)
        points = []
        for agent, budget, _, outcomes in curve:
            label = point_label(agent, budget)
            points.append(_entry(rows[label], agent=agent, budget_cpu_seconds=budget, label=label,
                                 spec=budget_spec(agent, budget),
                                 cpu_seconds_per_move=cpu.get(budget_spec(agent, budget)),
                                 wall_seconds_per_move=_wall_per_move(outcomes, label)))
        report["curve"] = {
            "budgets": list(header["curve_budgets"]), "anchor": ANCHOR, "games": len(everything),
            "field": list(field(header["players"])), "points": points,
            "reference": [_entry(rows[a], agent=a) for a in REFERENCE if a in rows],
            "separation_note": full["separation"]["note"],
        }
    return report


def curve_figure(report: dict):
    """Elo against CPU seconds per move, one line per agent, as a matplotlib Figure."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5), layout="tight")
    ax = fig.add_subplot()
    for i, agent in enumerate(SEARCH_AGENTS):
        pts = [p for p in report["curve"]["points"] if p["agent"] == agent]
        # Staggered a little sideways so that equal points do not hide each other.
        shift = 1.05 ** (i - (len(SEARCH_AGENTS) - 1) / 2)
        xs = [p["budget_cpu_seconds"] * shift for p in pts]
        ys = [p["elo"] for p in pts]
        err = [[p["elo"] - p["elo_low"] for p in pts], [p["elo_high"] - p["elo"] for p in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=agent)
    ax.axhline(0.0, color="grey", linewidth=0.8, linestyle="--", label="greedy (anchor)")
    ax.set_xscale("log")
    ax.set_xlabel("CPU seconds per move (points staggered sideways)")
    ax.set_ylabel("Elo against greedy (95% interval)")
    ax.set_title(f"{report['game']}, {report['players']} players: "
                 f"{report['curve']['games']} games vs {' and '.join(report['curve']['field'])}")
    ax.legend()
    return fig


def plot_curve(report: dict, path: Path) -> str | None:
    """Draw the curve (:func:`curve_figure`) into ``path``; None without matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return None
    curve_figure(report).savefig(path, dpi=120)
    return str(path)


def write_html_report(path: str, report: dict, rr, curve) -> None:
    """The ladder as an HTML report (forumlab.report): the curve, then the round robin
    and the curve's gauntlets (rated together, anchor greedy) as two sections."""
    from forumlab.report import section_from_outcomes, write_report
    from forumlab.report.figures import svg_uri

    sections, extras = [], []
    if rr is not None:
        d, outcomes = rr
        sections.append(section_from_outcomes(
            f"Round robin at {report['budget']:g} CPU s per move", [d.to_json()], [report["versions"]],
            outcomes, anchor=ANCHOR))
    if curve:
        everything = [o for *_, outcomes in curve for o in outcomes]
        sections.append(section_from_outcomes(
            f"Scaling curve: gauntlets against {' and '.join(report['curve']['field'])}",
            [d.to_json() for _, _, d, _ in curve], [report["versions"]], everything, anchor=ANCHOR))
        extras.append(("fig-curve", svg_uri(curve_figure(report)),
                       "Elo against greedy (95% interval) at each CPU budget per move."))
    write_report(path, f"Ladder: {report['game']}, {report['players']} players", sections, extras)


def _note(message: str) -> None:
    click.echo(f"ladder: {message}", err=True)


@click.command()
@click.option("--game", required=True, help="A registered game.")
@click.option("--players", type=int, default=None, help="Players (default: the game's default).")
@click.option("--budget", type=float, default=0.2, show_default=True,
              help="CPU seconds per move of the search agents in the round robin.")
@click.option("--groups", type=int, default=None,
              help=f"Rotation groups per lineup (default: most that fit {TARGET_MINUTES:g} min, at least 1).")
@click.option("--workers", type=int, default=2, show_default=True, help="Worker processes (one game each).")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory for results files and the plot (default: ladder-<game>-<N>p).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--agent", "specs", multiple=True,
              help="Round-robin agent spec instead of the search agents (repeatable); "
                   "cpu_time=--budget is added unless it names a budget.")
@click.option("--vary", "variations", multiple=True, metavar="SPEC:KEY=V1,V2",
              help="Round-robin candidates SPEC with KEY=V for each value, like --agent "
                   "(repeatable), e.g. 'mcts:c=0.3,0.7,1.0'.")
@click.option("--no-curve", is_flag=True, help="Play the round robin only.")
@click.option("--quick", is_flag=True, help="A tiny configuration for a smoke test.")
@click.option("--report", "report_path", type=click.Path(), default=None,
              help="Also write an HTML report (forumlab report's kind) to this file.")
def main(game, players, budget, groups, workers, out, seed, specs, variations, no_curve, quick, report_path):
    """Equal-budget round robin and scaling curve of the search agents, as JSON."""
    started = time.perf_counter()
    command = "python -m benchmarks.ladder " + shlex.join(sys.argv[1:])
    try:
        get_game_class(game)
        config = {"players": players if players is not None else create_game(game).players}
        game_obj = create_game(game, config)
    except ForumlabError as exc:
        fail(exc)
    curve_budgets = CURVE_BUDGETS
    if quick:
        budget, curve_budgets = QUICK["budget"], QUICK["curve"]
        groups = QUICK["groups"] if groups is None else groups
    if not (math.isfinite(budget) and budget > 0):
        fail(f"--budget must be a positive number of seconds, not {budget!r}")
    if groups is not None and groups < 1:
        fail(f"--groups must be at least 1, not {groups}")
    if workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
    try:
        specs = tuple(specs) + tuple(s for text in variations for s in vary(text))
        for agent in SEARCH_AGENTS + REFERENCE:
            check_spec(budget_spec(agent, budget) if agent in SEARCH_AGENTS else agent)
        for spec in specs:
            check_spec(with_budget(spec, budget))
    except ForumlabError as exc:
        fail(exc)
    if len(set(specs)) != len(specs) or ANCHOR in specs:
        fail(f"--agent and --vary specs must differ from each other and from {ANCHOR!r}")
    out_dir = Path(out) if out else Path(f"ladder-{game}-{config['players']}p")
    if out_dir.exists() and not out_dir.is_dir():
        fail(f"--out {out_dir} exists and is not a directory")
    if report_path is not None:
        from forumlab.report import check_output_path, require_matplotlib

        try:
            require_matplotlib()
            check_output_path(report_path, out_dir.glob("*.db") if out_dir.is_dir() else ())
        except ForumlabError as exc:
            fail(exc)

    moves_per_seat, greedy_move, positions = self_play(game_obj)

    def definitions(k):
        rr = round_robin(game, config, budget, k, seed, specs)
        gs = [] if no_curve else [(a, b, gauntlet(game, config, a, b, k, seed))
                                  for b in curve_budgets for a in SEARCH_AGENTS]
        return rr, gs

    # CPU seconds per move actually used by each searching spec (they also feed the
    # duration estimate); each agent family moves once untimed first, so that loading
    # its kernels is not counted.
    rr_one, curve_one = definitions(1)
    searching = [a.spec for a in rr_one.agents if a.spec not in REFERENCE]
    searching += [budget_spec(a, b) for a, b, _ in curve_one]
    for family in dict.fromkeys(parse_spec(s)[0] for s in searching):
        warm = budget_spec(family, min(curve_budgets)) if family in SEARCH_AGENTS else family
        create_agent(warm, seed=0).act(positions[0].view_for(positions[0].current_player))
    cpu = {spec: cpu_per_move(spec, positions) for spec in dict.fromkeys(searching)}
    move_seconds = {**cpu, ANCHOR: greedy_move}

    def estimate(k):
        rr, gs = definitions(k)
        return expected_seconds([rr] + [d for *_, d in gs], moves_per_seat, move_seconds, workers)

    if groups is None:
        groups = 1
        while estimate(groups + 1) <= TARGET_MINUTES * 60:
            groups += 1
    rr_def, curve_defs = definitions(groups)
    expected = estimate(groups)
    games_planned = len(plan(rr_def)) + sum(len(plan(d)) for *_, d in curve_defs)
    _note(f"{game}, {config['players']} players: {games_planned} games ({groups} group(s) per lineup), "
          f"{moves_per_seat:.1f} moves per seat, greedy {greedy_move * 1000:.1f} ms/move; "
          f"expected about {expected / 60:.1f} min on {workers} worker(s) of an otherwise idle machine")
    if expected > 30 * 60:
        _note("the estimate exceeds 30 min even so: a smaller --budget or fewer --groups shortens it")
    out_dir.mkdir(parents=True, exist_ok=True)

    header = {
        "benchmark": "ladder", "game": game, "players": config["players"], "config": config,
        "command": command, "versions": versions(game), "machine": platform.machine(),
        "cores": os.cpu_count(), "workers": workers, "groups": groups, "seed": seed, "quick": quick,
        "budget": budget, "curve_budgets": list(curve_budgets),
        "budget_unit": "cpu_time (thread CPU seconds per move)",
        "seating": rr_def.rotations, "moves_per_seat": moves_per_seat, "expected_minutes": expected / 60,
        "cpu_seconds_per_move_measured_on": (f"{len(positions)} positions of a greedy self-play game, "
                                             "in the ladder's process"),
    }
    partial = out_dir / "partial.json"
    rr_done = None
    curve_done = []
    for kind, d, tag in [("round-robin", rr_def, None)] + [("curve", d, (a, b)) for a, b, d in curve_defs]:
        db = _db_path(out_dir, kind if tag is None else f"curve-{tag[0]}-{tag[1]:g}", d)
        run_tournament(d, db, workers, None, progress=False)
        outcomes = _outcomes(db)
        if tag is None:
            rr_done = (d, outcomes)
        else:
            curve_done.append((tag[0], tag[1], d, outcomes))
        partial.write_text(json.dumps(build_report(header, rr_done, curve_done, cpu), indent=1))
        minutes = (time.perf_counter() - started) / 60
        _note(f"finished {db.name} ({len(outcomes)} games, {minutes:.1f} min so far)")

    report = build_report(header, rr_done, curve_done, cpu)
    png = out_dir / f"ladder-{game}-{config['players']}p.png"
    report["plot"] = plot_curve(report, png) if "curve" in report else None
    if report["plot"] is None and "curve" in report:
        report["plot_note"] = "matplotlib is not installed (pip install 'forumlab[plot]'): no plot written"
        _note(report["plot_note"])
    if report_path is not None:
        write_html_report(report_path, report, rr_done, curve_done)
        report["html_report"] = report_path
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=1))


def run() -> None:
    """``main`` as a command line program (see benchmarks.cli.run_command)."""
    run_command(main)


if __name__ == "__main__":
    run()
