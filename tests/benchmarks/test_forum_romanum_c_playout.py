"""The C playout of the ``--vs-c`` benchmark (benchmarks/c/forum_romanum_playout.c) plays
the same games as the numba engine: from the same seed, the same uniformly random moves,
game after game, to the same ends and scores. Skipped, with the reason, where no C
compiler exists."""
import json
import subprocess

import pytest

from benchmarks.c.build import NoCompiler, build
from forumlab.core.bits import FAST_PDEP
from forumlab.core.registry import create_game
from forumlab.core.rng import make_rng
from forumlab.engines.forum_romanum import kernels as K
from forumlab.engines.forum_romanum.layout import N_COLOURS, OCCUPIED, SCORE, SETTLED, TRUNCATED

GAMES = 12


def _program(pdep: bool):
    try:
        return build(pdep=pdep).path
    except NoCompiler as exc:  # the C reference is built only where a compiler exists
        pytest.skip(str(exc))


def numba_trace(players: int, max_rounds: int, seed: int, games: int) -> list[str]:
    """The C program's ``trace`` output, from the numba kernels: per game its plies,
    truncation, settled regions, occupied cells and colour scores; then game 0's moves."""
    start = create_game("forum-romanum", {"max_rounds": max_rounds}, players=players).new_state(seed).array
    rng = make_rng(seed)
    lines, first = [], []
    for g in range(games):
        s = start.copy()
        plies = 0
        while not K.is_terminal(s):
            move = int(K.random_move(s, rng))
            if g == 0:
                first.append(move)
            K.apply_move(s, move)
            plies += 1
        fields = [plies, s[TRUNCATED], s[SETTLED], s[OCCUPIED], *(s[SCORE + c] for c in range(s[N_COLOURS]))]
        lines.append(" ".join(str(int(f)) for f in fields))
    return [*lines, "moves " + " ".join(map(str, first))]


@pytest.mark.parametrize("pdep", [False, True], ids=["broadword", "pdep"])
@pytest.mark.parametrize("players, max_rounds, seed", [(2, 100, 1), (3, 100, 7), (4, 100, 3), (5, 30, 11),
                                                       (6, 5, 2)])
def test_c_playout_plays_the_numba_engines_games(players, max_rounds, seed, pdep):
    if pdep and not FAST_PDEP:
        # The pdep build would fault on a CPU without BMI2; the portable build (pdep=False)
        # still checks the same games on this machine.
        pytest.skip("this CPU has no fast pdep: the C program would not run the instruction")
    args = [str(_program(pdep)), "trace", str(players), str(max_rounds), str(seed), str(GAMES)]
    c_lines = subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip().split("\n")
    assert c_lines == numba_trace(players, max_rounds, seed, GAMES)


def test_c_benchmark_mode_reports_its_counts():
    args = [str(_program(False)), "bench", "3", "100", "1", "0.01"]
    report = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    # Counts, not speed: the bench mode plays until its CPU-time budget (0.01 s) is spent and
    # plays whole batches of 64 games, so it reports at least that budget and one batch.
    assert report["games"] >= 64 and report["plies"] >= 64 * 30 and report["cpu_seconds"] >= 0.01


def test_c_program_rejects_bad_arguments_with_exit_2():
    done = subprocess.run([str(_program(False)), "trace", "7", "100", "1", "1"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_vs_c_benchmark_reports_a_ratio_per_round():
    from click.testing import CliRunner

    from benchmarks import playouts

    run = CliRunner().invoke(playouts.main, ["--vs-c", "--rounds", "2", "--seconds", "0.02", "--players", "3"])
    assert run.exit_code == 0, run.output
    report = json.loads(run.output)
    if "skipped" in report:  # no compiler: the report says why instead
        assert report["skipped"]
        return
    (result,) = report["results"]
    assert result["players"] == 3 and len(result["round_ratios"]) == 2
    assert result["ratio_numba_over_c"]["min"] <= result["ratio_numba_over_c"]["median"] > 0


def test_vs_c_benchmark_refuses_a_game_without_a_c_playout():
    from click.testing import CliRunner

    from benchmarks import playouts

    run = CliRunner().invoke(playouts.main, ["--vs-c", "--game", "forma"])
    assert run.exit_code == 2 and "only forum-romanum" in run.output


def test_without_a_compiler_the_benchmark_says_why_it_skipped(monkeypatch):
    from benchmarks import playouts

    monkeypatch.setenv("CC", "no-such-c-compiler")
    report = playouts.vs_c([3], {}, 0.01, 1, 1)
    assert report["skipped"].startswith("no C compiler") and "results" not in report
