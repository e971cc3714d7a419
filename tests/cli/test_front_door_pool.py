"""``forumlab ratings A.db B.db`` pools files of different games, and refuses files that
share games: a study extended in a copy (``cp a.db b.db``, then a larger ``--games`` on
``b.db``) holds every game of the original again, and its definition differs only in the
number of rotation groups, so the check by definition alone let the shared games count
twice and the intervals narrow on evidence that was never played."""
from click.testing import CliRunner

from forumlab.arena.definition import PoolEntry, TournamentDefinition
from forumlab.arena.jobs import END_RULES, GameOutcome
from forumlab.arena.store import ResultStore
from forumlab.cli import main

LABELS = ("A", "B", "C")


def _store(path, groups, seed=1, first_group=0):
    """A results file of ``groups`` hand-made 3-player games (no engine runs); game k is
    the same game in every file (same game seed, seating and agent seeds)."""
    definition = TournamentDefinition(config={"players": 3}, seed=seed, games_per_lineup=first_group + groups,
                                      agents=tuple(PoolEntry(a, "random") for a in LABELS))
    with ResultStore.create(path, definition.to_json(), {}, synchronous="NORMAL") as store:
        for k in range(first_group, first_group + groups):
            seats = LABELS[k % 3:] + LABELS[:k % 3]
            ranks = [1, 2, 3]
            store.record(GameOutcome(
                key=f"L0000-G{k:03d}-R00", group=f"L0000-G{k:03d}", lineup=0, rotation=0, seed=1000 * seed + k,
                labels=seats, specs=("random",) * 3, agent_seeds=(k, k + 1, k + 2), moves=[],
                scores=[3.0, 2.0, 1.0], ranks=ranks, plies=30, termination=END_RULES,
                move_seconds=[0.1, 0.1, 0.1], moves_made=[10, 10, 10]))
    return path


def run(*args):
    return CliRunner().invoke(main, ["ratings", *map(str, args)])


def test_an_extended_copy_is_refused_with_the_number_of_shared_games(tmp_path):
    small = _store(tmp_path / "small.db", groups=4)
    extended = _store(tmp_path / "extended.db", groups=6)  # the same 4 games, then 2 more
    result = run(small, extended)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert f"{extended} and {small} share 4 games" in lines[0] and "twice" in lines[0], lines[0]


def test_files_of_other_games_still_pool(tmp_path):
    first = _store(tmp_path / "first.db", groups=4, seed=1)
    second = _store(tmp_path / "second.db", groups=4, seed=2)
    result = run(first, second)
    assert result.exit_code == 0, result.output
    assert "8 games (pooled from 2 files)" in result.output


def test_the_same_tournament_twice_keeps_its_message(tmp_path):
    a = _store(tmp_path / "a.db", groups=3)
    b = _store(tmp_path / "b.db", groups=3)
    result = run(a, b)
    assert result.exit_code == 2
    assert "hold the same tournament (same definition and seeds)" in result.output
