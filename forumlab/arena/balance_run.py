"""Playing a variant study into its file, and reading one or several study files back.

Several files of the same study design (game, players, agent and variants alike) on
different seeds pool into one analysis; each file's game seeds stay their own pairing
units. Two files on the same seed hold the same games and are refused, as are files
whose designs differ.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from ..core.errors import ConfigError, ForumlabError
from .balance_stats import VariantGames
from .balance_store import StudyFile, is_study_file
from .balance_study import check_growth, games_sources, planned_jobs, recorded_rows, variant_games


def open_for_study(path: str, study: dict[str, Any],
                   versions: dict[str, Any]) -> tuple[StudyFile, int | None]:
    """The study file at ``path``: created, or continued (and grown) if it holds this study.

    Returns:
        The writable file, and the games per variant it held before (None if new).

    Raises:
        ConfigError, StoreError: another study, fewer games, changed variants, not a study
            file, locked; the file is then untouched.
    """
    if not os.path.lexists(path):
        return StudyFile.create(path, study, versions), None
    store = StudyFile.open(path, writable=True)
    try:
        stored = store.definition
        check_growth(path, stored, study)
        if stored != study:
            store.extend(study, versions)
        return store, stored["games"]
    except BaseException:
        store.close()
        raise


def play_study(store: StudyFile, study: dict[str, Any], workers: int | None, progress: bool,
               say: Callable[[str], None]) -> int:
    """Play every game of ``study`` that ``store`` lacks, committing the games that finish
    together (with their points per scoring source) in one transaction; returns how many
    were played."""
    from ..core.registry import create_game
    from .executors import make_executor
    from .runner import run_job
    from .warmup import warm_up

    done = store.done()
    todo = [(v, job) for v, job in planned_jobs(study) if (v, job.key) not in done]
    say(f"balance study: {study['game']}, {study['players']} players, {len(study['variants'])} variants x "
        f"{study['games']} games ({len(done)} already in {store.path}, {len(todo)} to play)")
    if not todo:
        return 0
    variant_of = {job.key: v for v, job in todo}
    games = {row["name"]: create_game(study["game"], row["config"]) for row in study["variants"]}
    for row in study["variants"]:
        warm_up(study["game"], row["config"], [study["agent"]], study["seed"])
    played = 0
    with make_executor(workers, None) as executor:
        # The games that finish together are committed together (see docs/arena.md,
        # "Cheap games in batches"): a kill loses only the games still in flight.
        for outcomes in executor.run_batches([job for _, job in todo], run_job, progress=progress):
            store.record_many(recorded_rows(games, variant_of, outcomes))
            played += len(outcomes)
    return played


def _check_poolable(paths: Sequence[str], studies: list[dict[str, Any]]) -> None:
    first = studies[0]
    seeds = {}
    for path, study in zip(paths, studies):
        for key in ("game", "players", "agent"):
            if study[key] != first[key]:
                raise ConfigError(f"cannot pool {path} with {paths[0]}: {key} {study[key]!r} is not "
                                  f"{first[key]!r}")
        mine = [(v["name"], v["config"]) for v in study["variants"]]
        if mine != [(v["name"], v["config"]) for v in first["variants"]]:
            raise ConfigError(f"cannot pool {path} with {paths[0]}: the variants (names and options, "
                              "in order) differ")
        if study["seed"] in seeds:
            raise ConfigError(f"{path} and {seeds[study['seed']]} are played on the same seed "
                              f"({study['seed']}): the same games, which pooling would count twice")
        seeds[study["seed"]] = path


def load_studies(paths: Sequence[str]) -> tuple[dict[str, Any], list[VariantGames], list[int]]:
    """The pooled games of one or more study files.

    Returns:
        The first file's study definition, each variant's games (units prefixed by the file
        when several are pooled), and the games per file.

    Raises:
        ConfigError: no file, a file twice, designs that differ, the same seed twice.
        StoreError: a file missing, not a study file, or damaged.
        ForumlabError: a variant without games.
    """
    if not paths:
        raise ConfigError("name at least one study file")
    real = [os.path.realpath(p) for p in paths]
    if len(set(real)) != len(real):
        raise ConfigError("a file is given twice; its games would count twice")
    studies, contents = [], []
    for path in paths:
        with StudyFile.open(path) as store:
            studies.append(store.definition)
            contents.append(store.games())
    _check_poolable(paths, studies)
    rows: dict[str, list] = {v["name"]: [] for v in studies[0]["variants"]}
    for i, games in enumerate(contents):
        prefix = f"{i}:" if len(paths) > 1 else ""
        for variant, outcome, sources in games:
            rows[variant].append((prefix + outcome.group, outcome, sources))
    out = []
    for v in studies[0]["variants"]:
        if not rows[v["name"]]:
            raise ForumlabError(f"variant {v['name']} has no finished games yet")
        out.append(variant_games(v["name"], v["options"], rows[v["name"]]))
    return studies[0], out, [len(g) for g in contents]


def results_file_variant(paths: Sequence[str]) -> tuple[dict[str, Any], list[VariantGames], list[int]]:
    """Results files of single-setup self-play (``forumlab balance --db``) as one variant."""
    from ..core.registry import create_game
    from .cooperative import is_cooperative
    from .pool import load_results

    pooled = load_results(list(paths))
    definition = pooled.definition
    if is_cooperative({"game": definition["game"], "config": dict(definition["config"])}):
        raise ConfigError("a cooperative game has no seats to compare: its team's win rate is in "
                          "forumlab ratings DB")
    if len({spec for o in pooled.outcomes for spec in o.specs}) != 1:
        raise ConfigError("a balance report needs self-play games (one agent in every seat); "
                          "rate a tournament with forumlab ratings")
    game = create_game(definition["game"], definition["config"])
    rows = [(o.group if len(paths) == 1 else o.key.rsplit("-R", 1)[0], o, sources)
            for o, sources in zip(pooled.outcomes, games_sources(game, pooled.outcomes))]
    options = {k: v for k, v in definition["config"].items() if k != "players"}
    study = {"kind": "single", "game": definition["game"], "players": game.players,
             "agent": pooled.outcomes[0].specs[0], "seed": definition["seed"], "variants": [
                 {"name": "base", "options": options, "config": definition["config"]}]}
    return study, [variant_games("base", options, rows)], list(pooled.games)


def load_any(paths: Sequence[str]):
    """Study files, or results files of single-setup self-play; not a mixture."""
    kinds = {is_study_file(p) for p in paths}
    if len(kinds) > 1:
        raise ConfigError("cannot pool variant-study files with single-setup results files")
    return load_studies(paths) if kinds == {True} else results_file_variant(paths)
