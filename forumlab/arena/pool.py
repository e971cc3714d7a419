"""Several results files rated as one (``forumlab ratings A.db B.db``, ``forumlab report``).

Games of different tournaments can be pooled when they are games of the same thing: the
same game with the same config (player count and options), and every agent label meaning
the same agent spec in every file, so that one strength parameter per label is the right
model. Files that break either rule are refused with one line naming the difference;
so is a file given twice, two files of the very same tournament definition (the same
seeds: the same games, which pooling would count twice), or two files of one tournament at
different sizes (a copy extended with a larger ``--games`` holds every game of its original).

Game keys and rotation groups are prefixed with the file's name when several files are
pooled, so that a game stays identifiable (``a.db:L0001-G000-R00``).
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import ConfigError, ForumlabError
from .jobs import GameOutcome
from .merge import merge_labels


@dataclass(frozen=True)
class PooledResults:
    """The games of one or more results files, checked to be ratable together.

    ``definitions`` / ``versions`` / ``games``: per file, in the order given. ``sprt``: the
    sequential test's record of a single file (None when several are pooled: a test
    decided on one tournament says nothing about a pool).
    """

    paths: tuple[str, ...]
    outcomes: list[GameOutcome]
    definitions: tuple[dict[str, Any], ...]
    versions: tuple[dict[str, Any], ...]
    games: tuple[int, ...]
    sprt: dict[str, Any] | None

    @property
    def definition(self) -> dict[str, Any]:
        """The first file's tournament definition (the game and config are every file's)."""
        return self.definitions[0]


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _prefixes(paths: Sequence[str]) -> list[str]:
    """A short, distinct name per file for game keys: the base name when those differ."""
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) == len(names):
        return names
    return [str(p) for p in paths]


def _refuse_shared_games(per_file: list) -> None:
    """Refuse two files of one tournament at different sizes: a copy extended with a larger
    ``--games`` differs from its original only in ``games_per_lineup``, and every game of
    the smaller file is one of the larger file's (the same key, seeds and seating)."""
    from .store import tournament_id

    seen: dict[str, tuple[str, set[str]]] = {}
    for path, outcomes, definition, _, _ in per_file:
        base = tournament_id({k: v for k, v in definition.items() if k != "games_per_lineup"})
        keys = {o.key for o in outcomes}
        if base in seen:
            other, other_keys = seen[base]
            raise ConfigError(f"{path} and {other} share {len(keys & other_keys)} games (one tournament, "
                              "one file extending a copy of the other); pooling them would count those "
                              "games twice")
        seen[base] = (path, keys)


def load_results(paths: str | os.PathLike | Iterable[str | os.PathLike],
                 merges: Iterable[str] = ()) -> PooledResults:
    """Read one results file, or several compatible ones, with labels merged as asked.

    Args:
        paths: a results file or a sequence of them.
        merges: ``NAME=LABEL,LABEL[,...]`` strings (see :func:`forumlab.arena.merge.merge_labels`),
            applied to the pooled games.

    Returns:
        A :class:`PooledResults`.

    Raises:
        StoreError: a file is missing, not a results file, corrupt or locked.
        ForumlabError: a file holds no finished game.
        ConfigError: no file, a file given twice, files of different games or configs, a
            label with different specs in different files, two files of the same
            tournament definition or sharing games, or a bad merge.
    """
    from .store import ResultStore, tournament_id

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ConfigError("name at least one results file")
    for i, a in enumerate(paths):
        for b in paths[:i]:
            if _same_file(a, b):
                raise ConfigError(f"{a} is given twice; its games would count twice")
    per_file = []
    for path in paths:
        with ResultStore.open(path, readonly=True) as store:
            outcomes = store.outcomes()
            definition = store.definition
            versions = [store.versions] + [s["versions"] for s in store.sessions()]
            sprt = store.sprt_record()
        if not outcomes:
            raise ForumlabError(f"{path} holds no finished games yet")
        per_file.append((path, outcomes, definition, versions, sprt))
    first_path, _, first, _, _ = per_file[0]
    seen_ids = {tournament_id(first): first_path}
    spec_of: dict[str, tuple[str, str]] = {}  # label -> (spec, file it was first seen in)
    for path, outcomes, definition, _, _ in per_file:
        if path != first_path:
            for key in ("game", "config"):
                if definition.get(key) != first.get(key):
                    raise ConfigError(f"cannot pool {path} with {first_path}: {key} "
                                      f"{definition.get(key)!r} is not {first.get(key)!r}")
            tid = tournament_id(definition)
            if tid in seen_ids:
                raise ConfigError(f"{path} and {seen_ids[tid]} hold the same tournament (same definition "
                                  "and seeds); pooling them would count its games twice")
            seen_ids[tid] = path
        for o in outcomes:
            for label, spec in zip(o.labels, o.specs):
                known = spec_of.setdefault(label, (spec, path))
                if known[0] != spec:
                    where = "in one file" if known[1] == path else f"in {known[1]} and {path}"
                    raise ConfigError(f"cannot pool: label {label!r} means {known[0]!r} and {spec!r} "
                                      f"{where}; a label must name the same agent spec in every file")
    _refuse_shared_games(per_file)
    pooled: list[GameOutcome] = []
    if len(per_file) == 1:
        pooled = list(per_file[0][1])
    else:
        for prefix, (_, outcomes, _, _, _) in zip(_prefixes(paths), per_file):
            pooled += [replace(o, key=f"{prefix}:{o.key}", group=f"{prefix}:{o.group}") for o in outcomes]
    pooled = merge_labels(pooled, merges)
    versions = [v for _, _, _, vs, _ in per_file for v in vs]
    return PooledResults(
        paths=tuple(paths),
        outcomes=pooled,
        definitions=tuple(d for _, _, d, _, _ in per_file),
        versions=tuple(versions),
        games=tuple(len(o) for _, o, _, _, _ in per_file),
        sprt=per_file[0][4] if len(per_file) == 1 else None,
    )


def results_json(pooled: PooledResults, anchor: str | None = None) -> dict[str, Any]:
    """What ``forumlab ratings --json`` prints and :func:`forumlab.ratings` returns.

    A cooperative game gives the team's results (:func:`forumlab.arena.cooperative.team_results`),
    any other the Plackett-Luce ratings (:func:`forumlab.arena.ratings.ratings_report`);
    both with ``games``, ``tournament`` (the first file's definition), ``sources`` (per
    file its path, games and definition) and ``sprt`` (the sequential test's record, or None).

    Args:
        pooled: the games, from :func:`load_results`.
        anchor: the label at Elo 0 (competitive games only).

    Returns:
        A JSON-ready dict.

    Raises:
        RatingsError: the games cannot be rated (e.g. ``anchor`` did not play).
    """
    from .cooperative import team_results
    from .ratings import rate_outcomes, ratings_report

    report = team_results(pooled.definition, pooled.outcomes)
    if report is None:
        report = ratings_report(rate_outcomes(pooled.outcomes, anchor=anchor))
    report["games"] = len(pooled.outcomes)
    report["tournament"] = pooled.definition
    report["sources"] = [{"path": p, "games": n, "tournament": d}
                         for p, n, d in zip(pooled.paths, pooled.games, pooled.definitions)]
    report["sprt"] = pooled.sprt
    return report
