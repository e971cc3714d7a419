"""forumlab balance --variant: every variant on the same seeds and seatings in one file, a
study extended and pooled, its report, and bad input refused before anything is created."""
import json

import pytest

from forumlab.arena.balance_store import StudyFile
from forumlab.core.rng import derive_seed
from tests.cli_helpers import one_line_error, run

FAST = ["forum-romanum", "-p", "3", "--agent", "random", "-q", "--workers", "1"]
VARIANTS = ["--variant", "base=max_rounds=3", "--variant", "short=max_rounds=2"]






def stored(db):
    with StudyFile.open(db) as store:
        return store.definition, store.games()


def test_every_variant_plays_the_same_seeds_and_seatings(tmp_path):
    db = tmp_path / "s.db"
    result = run("balance", *FAST, *VARIANTS, "--games", "4", "--seed", "7", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [v["name"] for v in report["variants"]] == ["base", "short"]
    assert [v["games"] for v in report["variants"]] == [4, 4]
    assert report["differences"][0]["variant"] == "short" and report["differences"][0]["paired_games"] == 4
    assert report["family"]["comparisons"] == 12  # 3 columns x (3 seats + a joint test)
    definition, games = stored(db)
    by_group = {}
    for variant, outcome, _ in games:
        by_group.setdefault(outcome.group, {})[variant] = outcome
    assert len(by_group) == 4
    for g, (group, pair) in enumerate(sorted(by_group.items())):
        assert group == f"L0000-G{g:03d}"
        base, short = pair["base"], pair["short"]
        # The seed balance would use for its game g, in both variants; the same agent seed per seat.
        assert base.seed == short.seed == derive_seed(7, "game", 0, g)
        assert base.agent_seeds == short.agent_seeds
        assert base.labels == short.labels == ("random",) * 3
    assert definition["variants"][1]["config"] == {"max_rounds": 2, "players": 3}


def test_the_text_names_the_first_player_advantage_and_the_correction(tmp_path):
    result = run("balance", *FAST, *VARIANTS, "--games", "3")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "first player" in text and "Bonferroni over the 12 comparisons" in text
    assert "short - base" in text and "no seat matters p" in text
    # Forum Romanum's score sources: the kinds of region, and the final settlement.
    assert "Score sources:" in text and all(f"\n{source} " in text for source in
                                            ("rows", "columns", "diagonals", "sections", "deadlocks"))
    assert "game length" in text.lower() and "pairing, short - base" in text


def test_a_study_is_extended_by_more_games_and_by_more_variants(tmp_path):
    db = tmp_path / "s.db"
    assert run("balance", *FAST, *VARIANTS, "--games", "2", "--db", db).exit_code == 0
    grown = run("balance", *FAST, *VARIANTS, "--games", "3", "--db", db, "--json")
    assert grown.exit_code == 0, grown.output
    assert [v["games"] for v in json.loads(grown.stdout)["variants"]] == [3, 3]
    # Without --games: the file's size; a third variant is played on the same seeds.
    more = run("balance", *FAST, *VARIANTS, "--variant", "one=max_rounds=1", "--db", db, "--json")
    assert more.exit_code == 0, more.output
    assert [v["games"] for v in json.loads(more.stdout)["variants"]] == [3, 3, 3]
    _, games = stored(db)
    seeds = {}
    for variant, outcome, _ in games:
        seeds.setdefault(variant, set()).add(outcome.seed)
    assert seeds["one"] == seeds["base"] == seeds["short"]
    snapshot = db.read_bytes()
    assert "would shorten it" in one_line_error(run("balance", *FAST, *VARIANTS, "--games", "2", "--db", db))
    swapped = ["--variant", "short=max_rounds=2", "--variant", "base=max_rounds=3"]
    assert "must come first, unchanged" in one_line_error(run("balance", *FAST, *swapped, "--db", db))
    assert "another study" in one_line_error(run("balance", *FAST, *VARIANTS, "--seed", "9", "--db", db))
    assert db.read_bytes() == snapshot


def test_files_of_one_design_on_other_seeds_pool(tmp_path):
    a, b, c = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    for db, seed in ((a, 1), (b, 2)):
        assert run("balance", *FAST, *VARIANTS, "--games", "3", "--seed", seed, "--db", db).exit_code == 0
    pooled = run("balance", "report", a, b, "--json")
    assert pooled.exit_code == 0, pooled.output
    report = json.loads(pooled.stdout)
    assert [v["games"] for v in report["variants"]] == [6, 6]
    assert report["differences"][0]["paired_games"] == 6  # each file's seeds pair among themselves
    assert [f["games"] for f in report["files"]] == [6, 6]
    text = run("balance", "report", a)
    assert text.exit_code == 0 and "3 games each" in text.stdout
    assert "same seed" in one_line_error(run("balance", "report", b, _copy(b, tmp_path / "b2.db")))
    assert run("balance", *FAST, "--variant", "base=max_rounds=3", "--games", "2", "--seed", "3",
               "--db", c).exit_code == 0
    assert "variants" in one_line_error(run("balance", "report", a, c))
    assert "twice" in one_line_error(run("balance", "report", a, a))
    plain = tmp_path / "plain.db"
    assert run("balance", *FAST, "-o", "max_rounds=3", "--games", "2", "--db", plain).exit_code == 0
    assert "cannot pool" in one_line_error(run("balance", "report", a, plain))
    single = run("balance", "report", plain, "--json")
    assert single.exit_code == 0 and json.loads(single.stdout)["variants"][0]["name"] == "base"


def _copy(src, dst):
    dst.write_bytes(src.read_bytes())
    return dst


@pytest.mark.parametrize("args, words", [
    (["--variant", "base=", "--variant", "x=nosuch=1"], ["variant x", "unknown option"]),
    (["--variant", "base=", "--variant", "x=max_rounds=-4"], ["variant x", "max_rounds"]),
    (["--variant", "base=", "--variant", "base=max_rounds=2"], ["base", "twice"]),
    (["--variant", "a b=max_rounds=2"], ["name"]),
    (["--variant", "x=max_rounds"], ["KEY=VALUE"]),
    (["-o", "max_rounds=3", "--variant", "x=max_rounds=2"], ["also given with -o"]),
    (["--variant", "x=", "--report", "r.html"], ["--report"]),
    (["--variant", "x=", "--games", "0"], ["--games"]),
])
def test_bad_variants_are_one_line_and_create_nothing(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    message = one_line_error(run("balance", *FAST, *args, "--db", "s.db"))
    for word in words:
        assert word in message, message
    assert list(tmp_path.iterdir()) == []


def test_a_cooperative_variant_is_refused(tmp_path):
    message = one_line_error(run("balance", "foundations-of-rome", "-p", "2", "--variant", "base=",
                                 "--variant", "consul=consul=true", "--db", tmp_path / "s.db"))
    assert "cooperative" in message and not (tmp_path / "s.db").exists()


def test_a_file_that_is_not_a_study_is_refused(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 10)
    assert "not a forumlab" in one_line_error(run("balance", *FAST, *VARIANTS, "--db", junk))
    assert one_line_error(run("balance", "report", tmp_path / "missing.db"))


def test_score_sources_of_a_game_that_reports_them(tmp_path):
    result = run("balance", "foundations-of-rome", "-p", "2", "--agent", "random", "-q", "--workers", "1",
                 "--variant", "base=", "--variant", 'monuments=modules=["monuments"]', "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    base, monuments = report["variants"]
    assert "population" in base["sources"] and "monuments" in monuments["sources"]
    diff = report["differences"][0]["sources"]
    assert set(diff) >= set(base["sources"]) | set(monuments["sources"])
    # Every point comes from one source: the per-seat means add up to the mean score.
    mean_score = sum(s["mean_score"] for s in monuments["seats"]) / 2
    assert sum(s["per_seat"]["mean"] for s in monuments["sources"].values()) == pytest.approx(mean_score)


def test_one_setup_reports_the_first_player_advantage_with_its_interval():
    # Whole games: with a round cap random games mostly end in a full tie, which says nothing
    # about seats (the interval is then undefined, shown as '-').
    result = run("balance", *FAST, "--games", "4")
    assert result.exit_code == 0, result.output
    assert "first player" in result.stdout and "Bonferroni over the 4 comparisons" in result.stdout
    assert "random: 4 games" in result.stdout
    data = json.loads(run("balance", *FAST, "--games", "4", "--json").stdout)
    fpa = data["variants"][0]["first_player_advantage"]
    assert fpa["interval"][0] <= fpa["elo"] <= fpa["interval"][1]
    assert data["games"] == 4 and data["seats"][0]["elo_vs_seat0"] == 0  # the earlier keys stay


def test_one_game_per_variant_gives_json_without_undefined_numbers():
    """A spread from one game is undefined: None in the JSON (it was NaN, which is not JSON)."""
    result = run("balance", *FAST, *VARIANTS, "--games", "1", "--json")
    assert result.exit_code == 0, result.output

    def refuse(constant):
        raise ValueError(constant)

    report = json.loads(result.stdout, parse_constant=refuse)
    assert report["variants"][0]["seats"][0]["interval"] is None
    assert report["differences"][0]["pairing"]["seat_variance_vs_independent"] is None
    assert "pairing, short - base" in run("balance", *FAST, *VARIANTS, "--games", "1").stdout


def test_forma_reports_its_score_parts_as_sources():
    result = run("balance", "forma", "-p", "2", "--agent", "random", "-q", "--workers", "1",
                 "--variant", "base=", "--variant", "bare=obstacles=none", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    for v in report["variants"]:
        assert set(v["sources"]) == {"squares", "enclosures", "stones", "tower", "bridges"}
        # The parts add up to the score.
        mean_score = sum(s["mean_score"] for s in v["seats"]) / 2
        assert sum(s["per_seat"]["mean"] for s in v["sources"].values()) == pytest.approx(mean_score)


def test_balance_report_of_a_cooperative_results_file_points_to_the_team_figures(tmp_path):
    db = tmp_path / "c.db"
    played = run("balance", "foundations-of-rome", "-p", "1", "--agent", "random", "--games", "2",
                  "-o", "consul=standard", "-q", "--workers", "1", "--db", db)
    assert played.exit_code == 0, played.output
    assert "forumlab ratings" in one_line_error(run("balance", "report", db))
