"""Variant studies: several rule setups of one game, self-play on the same seeds and seatings.

A study is ``(game, players, agent, seed, games, variants)``; a variant is a name and game
options. Game ``i`` of every variant is the game that ``forumlab balance GAME -o OPTIONS
--seed SEED`` plays as its game ``i``: the same game seed, and the same agent seed in each
seat (self-play: one agent, so every seat assignment is the same), planned by the
tournament schedule itself (:func:`forumlab.arena.schedule.plan`). Its game seed's key
(``L0000-G005``) is the pairing unit of the statistics.

A study grows, never shrinks: running it again on its file plays only what is missing,
with a larger ``games`` adds game seeds, and with more variants (listed after the stored
ones, which must be unchanged) plays the new variants on the same seeds.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.options import parse_key_values
from .balance_stats import VariantGames

KIND = "balance-variants"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$")


def split_options(text: str) -> list[str]:
    """``a=1,b=[1,2],c="x,y"`` -> ``["a=1", "b=[1,2]", 'c="x,y"']``: commas inside brackets
    or quotes belong to a value."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in (p.strip() for p in parts) if p]


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME=KEY=V[,KEY=V...]`` (or ``NAME=`` / ``NAME`` for the default rules) -> (name, options).

    Raises:
        ConfigError: a bad name, or options :func:`forumlab.core.options.parse_key_values` refuses.
    """
    name, _, rest = text.partition("=")
    name = name.strip()
    if not NAME.match(name):
        raise ConfigError(f"--variant {text!r}: a variant needs a name of letters, digits and _.+- "
                          "(up to 40), as NAME=KEY=VALUE[,KEY=VALUE...]")
    try:
        return name, parse_key_values(split_options(rest))
    except ConfigError as exc:
        raise ConfigError(f"--variant {name}: {exc}") from None


def study_definition(game: str, players: int, agent: str, seed: int, games: int,
                     variants: list[str], common: tuple[str, ...] = ()) -> dict[str, Any]:
    """The study, validated before anything is created.

    Args:
        game, players, agent, seed: as for ``forumlab balance``.
        games: game seeds per variant.
        variants: ``NAME=OPTIONS`` texts, the first being the baseline.
        common: ``-o KEY=VALUE`` options of every variant.

    Returns:
        The JSON-ready definition: every variant with its name, options and full config.

    Raises:
        ConfigError: a bad or duplicate name, an unknown option, a bad value, an option given
            both with ``-o`` and in a variant, a bad agent, seed or size.
    """
    shared = parse_key_values(common)
    rows, seen = [], set()
    for text in variants:
        name, options = parse_variant(text)
        if name in seen:
            raise ConfigError(f"variant {name} is given twice")
        seen.add(name)
        for key in options.keys() & shared.keys():
            raise ConfigError(f"variant {name}: option {key} is also given with -o; give it in one place")
        config = {**shared, **options, "players": players}
        _check_variant(name, game, config, agent, seed, games)
        rows.append({"name": name, "options": {**shared, **options}, "config": config})
    if len(rows) * games > _max_games():
        raise ConfigError(f"{len(rows)} variants x {games} games is more than {_max_games():,} games; "
                          "split the study")
    return {"kind": KIND, "game": game, "players": players, "agent": agent, "seed": seed, "games": games,
            "variants": rows}


def _max_games() -> int:
    from .definition import MAX_GAMES

    return MAX_GAMES


def _tournament(study: dict[str, Any], config: dict[str, Any], games: int | None = None):
    """The self-play tournament of one variant (what the schedule plans and runs)."""
    from .definition import PoolEntry, TournamentDefinition

    spec = study["agent"]
    return TournamentDefinition(game=study["game"], config=dict(config), agents=(PoolEntry(spec, spec),),
                                games_per_lineup=study["games"] if games is None else games,
                                rotations="balanced", seed=study["seed"])


def _check_variant(name: str, game: str, config: dict, agent: str, seed: int, games: int) -> None:
    from .cooperative import is_cooperative

    study = {"game": game, "agent": agent, "seed": seed, "games": games}
    try:
        _tournament(study, config, games=1)
    except ConfigError as exc:
        raise ConfigError(f"variant {name}: {exc}") from None
    if is_cooperative({"game": game, "config": config}):
        raise ConfigError(f"variant {name}: a cooperative setup has no seats to compare; "
                          "run it without --variant for the team's win rate")


def check_growth(path, stored: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Refuse a study that is not the stored one, grown (one line, nothing written).

    Raises:
        ConfigError: another game, player count, agent or seed; fewer games; a stored
            variant missing, renamed, reordered or with other options.
    """
    for key in ("game", "players", "agent", "seed"):
        if stored.get(key) != wanted.get(key):
            raise ConfigError(f"{path} holds another study: {key} {stored.get(key)!r}, "
                              f"not {wanted.get(key)!r} (give another --db to start a new one)")
    if wanted["games"] < stored["games"]:
        raise ConfigError(f"{path} holds {stored['games']} games per variant; --games {wanted['games']} "
                          "would shorten it (a study is only extended)")
    old, new = stored["variants"], wanted["variants"]
    for i, row in enumerate(old):
        if i >= len(new) or new[i]["name"] != row["name"] or new[i]["config"] != row["config"]:
            listed = " ".join(f"--variant {v['name']}={_options_text(v['options'])}" for v in old)
            raise ConfigError(f"{path} holds variants that must come first, unchanged: {listed}")


def _options_text(options: dict[str, Any]) -> str:
    from ..core.options import option_text

    return ",".join(f"{k}={option_text(v)}" for k, v in options.items())


def planned_jobs(study: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every game of the study as ``(variant, job)``; a job's key is ``VARIANT:GAMEKEY``."""
    from .schedule import plan

    jobs = []
    for row in study["variants"]:
        for job in plan(_tournament(study, row["config"])):
            jobs.append((row["name"], replace(job, key=f"{row['name']}:{job.key}")))
    return jobs


def games_sources(game, outcomes: Sequence) -> list[list | None]:
    """Points per scoring source and seat of finished games of one configured game,
    replayed from their seeds and moves in one call of :meth:`Game.score_sources_many`;
    None for each game when the game does not report its sources."""
    return game.score_sources_many((o.seed, o.moves) for o in outcomes)


def recorded_rows(games: dict[str, Any], variant_of: dict[str, str],
                  outcomes: Sequence) -> list[tuple[str, Any, list | None]]:
    """``(variant, outcome, sources)`` of finished games as a study file records them;
    ``games`` is each variant's configured game, ``variant_of`` each game key's variant.
    The games of one variant have their sources replayed together (:func:`games_sources`)."""
    by_variant: dict[str, list] = {}
    for o in outcomes:
        by_variant.setdefault(variant_of[o.key], []).append(o)
    sources = {}
    for variant, group in by_variant.items():
        sources.update(zip((o.key for o in group), games_sources(games[variant], group)))
    return [(variant_of[o.key], o, sources[o.key]) for o in outcomes]


def variant_games(name: str, options: dict, rows: list[tuple[str, Any, list | None]]) -> VariantGames:
    """The games of one variant as the statistics take them; ``rows`` are (unit, outcome, sources)."""
    sources = [s for _, _, s in rows]
    return VariantGames(
        name=name, options=options, units=[u for u, _, _ in rows],
        ranks=np.array([o.ranks for _, o, _ in rows], dtype=np.int64),
        scores=np.array([o.scores for _, o, _ in rows], dtype=float),
        plies=np.array([o.plies for _, o, _ in rows], dtype=np.int64),
        sources=sources if rows and all(s is not None for s in sources) else None)
