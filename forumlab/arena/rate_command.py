"""``forumlab rate``: a candidate's Elo on a ladder's fixed scale, from a gauntlet.

The candidate plays the ladder's members (:mod:`forumlab.arena.ladder`) at their calibrated
budgets in an ordinary gauntlet: every combination of members for the other seats, each
rotation group in every seating of the balanced design, so the candidate meets every
member equally often, in every seat and after every member equally often. The ratings
hold the ladder fixed (:mod:`forumlab.arena.ladder_fit`).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import tempfile

import click

from ..core.errors import ConfigError

CANDIDATE = "candidate"
MIN_GAMES = 60  # default --games: the fewest rotation groups per lineup that play this many


def _candidate_entry(text: str, ladder):
    """The candidate's pool entry: ``LABEL=SPEC`` keeps its label, a bare spec is ``candidate``."""
    from .definition import PoolEntry, parse_agent_option

    entry = parse_agent_option(text)
    label = entry.label if entry.label != entry.spec else CANDIDATE
    if label in {m.name for m in ladder.members}:
        raise ConfigError(f"the candidate's label {label!r} is a ladder member's name; choose another "
                          f"(LABEL=SPEC)")
    return PoolEntry(label, entry.spec)


def chosen_members(ladder, names: str | None):
    """The members named in ``--members`` (comma-separated), or all of them."""
    if names is None:
        return ladder.members
    chosen = [ladder.member(name.strip()) for name in names.split(",") if name.strip()]
    if len(chosen) < ladder.players - 1 or len({m.name for m in chosen}) != len(chosen):
        raise ConfigError(f"--members must name at least {ladder.players - 1} distinct members of the "
                          f"ladder ({', '.join(m.name for m in ladder.members)}), not {names!r}")
    return tuple(chosen)


def gauntlet_definition(ladder, entry, groups: int | None, seed: int, hard_limit: float, sprt=None,
                        members=None):
    """The gauntlet of ``entry`` against ``members`` of ``ladder`` (default: all).

    Args:
        ladder: the ladder.
        entry: the candidate's PoolEntry.
        groups: rotation groups per lineup (None: enough for ``MIN_GAMES`` games).
        seed: master seed.
        hard_limit: seconds after which a move is cut off as a hang.
        sprt: a field-scale :class:`forumlab.arena.sprt.SprtSettings`, or None.
        members: the members it meets (default: every member).
    """
    from .definition import PoolEntry, TournamentDefinition, planned_games

    pool = (entry, *(PoolEntry(m.name, m.spec) for m in (members or ladder.members)))
    base = TournamentDefinition(game=ladder.game, config=dict(ladder.config), agents=pool, format="gauntlet",
                                candidate=entry.label, games_per_lineup=1, rotations="balanced", seed=seed,
                                hard_limit=hard_limit)
    if groups is None:
        groups = max(1, math.ceil(MIN_GAMES / planned_games(base)))
    from dataclasses import replace

    return replace(base, games_per_lineup=groups, sprt=None if sprt is None else sprt.to_json())


def field_sprt(members, text: str):
    """``--sprt elo0=X0,elo1=X1[,alpha=A,beta=B]`` on the fixed scale, as the gauntlet's test.

    The gauntlet's sequential test (:mod:`forumlab.arena.sprt`) compares the candidate with
    its field by the mean share of opponents it finishes ahead of. A candidate rated ``X``
    on the fixed scale is expected to finish ahead of member ``j`` with probability
    ``s(X - E_j)`` (Plackett–Luce's pairwise marginals are Bradley–Terry's), and it meets
    every member equally often, so ``X`` is the field-relative Elo ``s^-1(mean_j s(X - E_j))``.

    Returns:
        (field settings, the fixed-scale settings as given).
    """
    from .sprt import SprtSettings, expected_score, parse_sprt, score_elo

    asked = parse_sprt(text)

    def field_elo(x: float) -> float:
        share = sum(expected_score(x - m.elo) for m in members) / len(members)
        return score_elo(share)

    try:
        field = SprtSettings(field_elo(asked.elo0), field_elo(asked.elo1), asked.alpha, asked.beta)
    except ConfigError as exc:
        raise ConfigError(f"--sprt {text!r}: on this ladder that is {exc}") from None
    return field, asked


def rate_report(outcomes, ladder, label: str, spec: str, sprt_record=None) -> dict:
    """Everything ``forumlab rate`` prints, as one JSON-ready dict."""
    from .ladder_fit import rate_on_ladder
    from .ratings import move_times, rated_games

    games = rated_games(outcomes)
    r = rate_on_ladder(games, ladder, label)
    head = {}
    for o in outcomes:
        mine = o.ranks[o.labels.index(label)]
        for name, rank in zip(o.labels, o.ranks):
            if name != label:
                row = head.setdefault(name, [0, 0.0])
                row[0] += 1
                row[1] += 1.0 if mine < rank else 0.5 if mine == rank else 0.0
    t = move_times(outcomes).get(label)
    return {
        "game": ladder.game, "players": ladder.players, "candidate": {"label": label, "spec": spec},
        "elo": r.elo, "sd": r.sd, "interval_95": list(r.interval), "games_sd": r.games_sd,
        "ladder_sd": r.ladder_sd, "games": r.games, "separated": r.separated, "converged": r.converged,
        "faults": [{"key": o.key, "seat": f.seat, "agent": o.labels[f.seat], "kind": f.kind}
                   for o in outcomes for f in o.faults],
        "members": [{"name": m.name, "spec": m.spec, "elo": m.elo, "elo_sd": m.elo_sd,
                     "meetings": head.get(m.name, [0, 0])[0],
                     "score": (head[m.name][1] / head[m.name][0]) if head.get(m.name) else None}
                    for m in ladder.members if m.name in head],
        "move_time": None if t is None else {"moves": t.moves, "wall_mean": t.mean, "cpu_mean": t.cpu_mean,
                                             "wall_max": t.max_move, "cpu_max": t.cpu_max_move},
        "ladder": {"file": ladder.path.name if ladder.path else None, **ladder.calibration},
        "sprt": sprt_record,
    }


def _ms(seconds) -> str:
    from .ratings import ms_text

    return "-" if seconds is None else ms_text(seconds)


def format_rate(report: dict) -> str:
    """The text ``forumlab rate`` prints."""
    cal = report["ladder"]
    low, high = report["interval_95"]
    lines = [f"{report['game']}, {report['players']} players: {report['candidate']['spec']} against the "
             f"ladder, {report['games']} games, {len(report['faults'])} faults",
             f"Elo {report['elo']:.0f}  95% interval [{low:.0f}, {high:.0f}]  on the fixed scale "
             "(greedy = 1000)",
             f"  sd {report['sd']:.0f}: {report['games_sd']:.0f} from these games, {report['ladder_sd']:.0f} "
             f"from the ladder's own calibration ({cal['games']} games, {cal['date']}, {cal['commit']}), "
             "combined in quadrature"]
    if report["faults"]:
        kinds: dict[str, int] = {}
        for f in report["faults"]:
            key = f"{f['agent']} {f['kind']}"
            kinds[key] = kinds.get(key, 0) + 1
        lines.append("  faults (the faulty seat ranks last): "
                     + ", ".join(f"{k} x{v}" for k, v in sorted(kinds.items())))
    if report["separated"] == "below":
        lines.append("  the candidate never finished ahead of (or level with) any member: its Elo is set by "
                     "the prior, read it as 'below the weakest member it met'")
    elif report["separated"] == "above":
        lines.append("  the candidate never finished behind (or level with) any member: its Elo is set by "
                     "the prior, read it as 'above the strongest member'")
    lines.append("Member     Calibrated Elo  Meetings  Candidate ahead")
    for m in report["members"]:
        score = "-" if m["score"] is None else f"{m['score']:.3f}"
        lines.append(f"{m['name']:<10} {m['elo']:>7.0f} ± {1.96 * m['elo_sd']:<4.0f}  {m['meetings']:>8}  "
                     f"{score:>15}")
    t = report["move_time"]
    if t is not None:
        lines.append(f"Time per move of the candidate: {_ms(t['wall_mean'])} ms wall, "
                     f"{_ms(t['cpu_mean'])} ms CPU (mean over {t['moves']} moves; longest "
                     f"{_ms(t['wall_max'])} ms wall)")
    if report["sprt"] is not None:
        lines.append(report["sprt"])
    return "\n".join(lines)


@click.command()
@click.argument("spec", metavar="[LABEL=]SPEC")
@click.option("--game", default="forum-romanum", show_default=True, help="The game.")
@click.option("--players", "-p", type=int, default=None, help="Players (default: the game's default).")
@click.option("--games", "groups", type=int, default=None,
              help=f"Rotation groups (game seeds) per lineup (default: the fewest that play {MIN_GAMES} "
                   "games).")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed of the gauntlet.")
@click.option("--sprt", default=None, metavar="elo0=X0,elo1=X1[,alpha=A,beta=B]",
              help="Stop once a sequential test decides whether the candidate is rated at most X0 (H0) or "
                   "at least X1 (H1) on the fixed scale; --games is then the most groups per lineup.")
@click.option("--members", default=None, metavar="NAME,NAME,...",
              help="Play only these ladder members (default: all); fewer, cheaper members for a weak "
                   "candidate, every one still met equally often.")
@click.option("--hard-limit", type=float, default=60.0, show_default=True,
              help="A move taking longer is cut off as a hang (s).")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes (default: cores).")
@click.option("--db", default=None, type=click.Path(dir_okay=False),
              help="Keep the games here (default: discarded); the same command continues the file, a "
                   "larger --games extends it.")
@click.option("--json", "as_json", is_flag=True, help="Every figure as one JSON object.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: only when stderr is a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="Same as --no-progress.")
def rate(spec, game, players, groups, seed, sprt, members, hard_limit, workers, db, as_json, progress, quiet):
    """Rate an agent or bot SPEC on the fixed scale of GAME's ladder: a gauntlet against the
    ladder's members (built-in agents at fixed iteration budgets, calibrated once), every seat
    and every member equally often; prints its Elo (greedy = 1000) with a 95% interval that
    includes the ladder's own uncertainty, and its time per move. See docs/ratings.md."""
    from ..core.registry import create_game
    from .commands import _check_workers, _show_progress
    from .ladder import drifted_members, load_ladder
    from .store import ResultStore
    from .tournament import run_tournament

    _check_workers(workers)
    if groups is not None and groups < 1:
        raise ConfigError(f"--games must be >= 1, not {groups}")
    n = create_game(game, {} if players is None else {"players": players}).players  # unknown game: exit 2
    ladder = load_ladder(game, n)
    drifted = drifted_members(ladder)
    if drifted:
        click.echo(f"warning: ladder members {', '.join(drifted)} now search with other settings than at "
                   "their calibration; their ratings may no longer hold", err=True)
    entry = _candidate_entry(spec, ladder)
    met = chosen_members(ladder, members)
    field, asked = field_sprt(met, sprt) if sprt is not None else (None, None)
    definition = gauntlet_definition(ladder, entry, groups, seed, hard_limit, field, met)
    tmp = None
    if db is None:
        tmp = tempfile.mkdtemp(prefix="forumlab-rate-")
        db = os.path.join(tmp, "rate.db")
    try:
        run_tournament(definition, db, workers, None, progress=_show_progress(progress, quiet))
        with ResultStore.open(db, readonly=True) as store:
            outcomes = store.outcomes()
            record = store.sprt_record() if field is not None else None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    report = rate_report(outcomes, ladder, entry.label, entry.spec, _sprt_text(record, asked))
    click.echo(json.dumps(report, indent=1) if as_json else format_rate(report))


def _sprt_text(record, asked) -> str | None:
    """One line on the sequential test's outcome, in fixed-scale terms."""
    if asked is None:
        return None
    if record is None or record.get("decision") is None:
        return (f"SPRT (H0: Elo <= {asked.elo0:g}, H1: Elo >= {asked.elo1:g}): undecided after every "
                "planned game; a larger --games continues it")
    verdict = {"H1": f"at least {asked.elo1:g}", "H0": f"at most {asked.elo0:g}"}[record["decision"]]
    return (f"SPRT (H0: Elo <= {asked.elo0:g}, H1: Elo >= {asked.elo1:g}, alpha {asked.alpha:g}, beta "
            f"{asked.beta:g}): accepted {record['decision']}, the candidate is rated {verdict}")
