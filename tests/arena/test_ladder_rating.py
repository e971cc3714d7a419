"""Ratings on a fixed scale: the ladder files, the fixed-ladder fit, and `forumlab rate`.

The fit is checked on games drawn from the model itself (a candidate of known strength
against members of known strength is recovered within its interval; a copy of a member
lands on the member), then the command on the shipped 3-player Forum Romanum ladder: a
member rated by it gets back its calibrated Elo within the interval the command reports,
two seeds agree within their intervals, a bot program is rated through the protocol, and
bad input is one line with exit code 2. The gauntlets meet only the cheap members
(``--members``) so the tests stay quick; every run has a fixed seed, and iteration
budgets make each game the same on every machine, so the figures do not vary.
"""
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from forumlab.arena.ladder import (
    ANCHOR,
    ANCHOR_ELO,
    Ladder,
    Member,
    available_ladders,
    drifted_members,
    load_ladder,
    read_ladder,
)
from forumlab.arena.ladder_fit import rate_on_ladder
from forumlab.arena.plackett_luce import ELO_PER_NAT, RatedGame
from forumlab.arena.rate_command import field_sprt
from forumlab.cli import main

GAME, PLAYERS = "forum-romanum", 3


def synthetic_ladder(thetas: dict[str, float], players: int = 3, sd: float = 0.0) -> Ladder:
    """A ladder whose members have exactly these strengths (natural log), no seat effects."""
    anchor = thetas[ANCHOR]
    members = tuple(Member(name, name, ANCHOR_ELO + (t - anchor) * ELO_PER_NAT, 0.0 if name == ANCHOR else sd,
                           t, None, None) for name, t in thetas.items())
    cov = np.diag([m.elo_sd ** 2 for m in members]).tolist()
    return Ladder("synthetic", players, {"players": players}, members, cov, [0.0] * players, {}, 2.0,
                  {"command": "none", "games": 0, "date": "-", "commit": "-"})


def draw_games(thetas: dict[str, float], lineups: list[tuple[str, ...]], repeats: int, seed: int):
    """Plackett-Luce finishing orders (no ties) for every lineup in every rotation."""
    rng = np.random.default_rng(seed)
    games = []
    for li, lineup in enumerate(lineups):
        n = len(lineup)
        for r in range(repeats):
            for shift in range(n):
                seats = lineup[shift:] + lineup[:shift]
                left, ranks = list(range(n)), [0] * n
                for place in range(1, n + 1):
                    w = np.exp([thetas[seats[s]] for s in left])
                    pick = left[rng.choice(len(left), p=w / w.sum())]
                    ranks[pick] = place
                    left.remove(pick)
                games.append(RatedGame(f"L{li}-G{r}", seats, tuple(ranks), (0.0,) * n))
    return games


MEMBERS = {"random": -2.0, ANCHOR: 0.0, "weak": -0.5, "strong": 0.8}
LINEUPS = [("candidate", a, b) for i, a in enumerate(MEMBERS) for b in list(MEMBERS)[i + 1:]]


@pytest.mark.parametrize("truth", [-1.0, 0.3, 1.2])
def test_fit_recovers_a_candidate_of_known_strength(truth):
    ladder = synthetic_ladder(MEMBERS)
    games = draw_games({**MEMBERS, "candidate": truth}, LINEUPS, 40, seed=7)
    r = rate_on_ladder(games, ladder, "candidate")
    expected = ANCHOR_ELO + truth * ELO_PER_NAT
    low, high = r.interval
    assert low <= expected <= high
    assert r.ladder_sd == 0.0 and r.sd == r.games_sd and r.converged and r.separated is None


def test_a_copy_of_a_member_lands_on_the_member():
    ladder = synthetic_ladder(MEMBERS)
    games = draw_games({**MEMBERS, "candidate": MEMBERS["weak"]}, LINEUPS, 60, seed=3)
    r = rate_on_ladder(games, ladder, "candidate")
    low, high = r.interval
    assert low <= ladder.member("weak").elo <= high


def test_the_ladders_uncertainty_widens_the_interval():
    games = draw_games({**MEMBERS, "candidate": 0.3}, LINEUPS, 20, seed=5)
    fixed = rate_on_ladder(games, synthetic_ladder(MEMBERS), "candidate")
    loose = rate_on_ladder(games, synthetic_ladder(MEMBERS, sd=40.0), "candidate")
    assert loose.elo == pytest.approx(fixed.elo) and loose.games_sd == pytest.approx(fixed.games_sd)
    # Every non-anchor member's rating moves the candidate's by less than its own move.
    assert 0.0 < loose.ladder_sd < 40.0
    assert loose.sd == pytest.approx(math.hypot(loose.games_sd, loose.ladder_sd))


def test_a_candidate_that_never_wins_is_marked_below():
    ladder = synthetic_ladder(MEMBERS)
    order = ("candidate", ANCHOR, "strong")
    place = {"strong": 1, ANCHOR: 2, "candidate": 3}
    games = [RatedGame(f"g{k}", order[k:] + order[:k], tuple(place[a] for a in order[k:] + order[:k]),
                       (0.0,) * 3) for k in range(3)]
    r = rate_on_ladder(games, ladder, "candidate")
    assert r.separated == "below"


def simulated_ladder(thetas: dict[str, float], groups: int, seed: int) -> Ladder:
    """A ladder calibrated as benchmarks/calibrate_ladder.py does, on a simulated round robin."""
    from itertools import combinations

    from forumlab.arena.plackett_luce import fit_plackett_luce

    fit = fit_plackett_luce(draw_games(thetas, list(combinations(thetas, 3)), groups, seed), anchor=ANCHOR)
    names = list(thetas)
    ix = [fit.agents.index(n) for n in names]
    g, c = fit.agents.index(ANCHOR), fit.covariance
    cov = np.array([[c[i, j] - c[i, g] - c[j, g] + c[g, g] for j in ix] for i in ix]) * ELO_PER_NAT ** 2
    members = tuple(Member(n, n, ANCHOR_ELO + fit.elo[n], math.sqrt(max(cov[k, k], 0.0)), float(fit.params[ix[k]]),
                           None, None) for k, n in enumerate(names))
    return Ladder("simulated", 3, {"players": 3}, members, cov.tolist(), fit.seat_delta[3], fit.tie, 2.0, {})


@pytest.mark.slow
def test_intervals_cover_the_truth_once_the_ladders_uncertainty_is_propagated():
    """200 ladders, each calibrated on its own simulated round robin (2 groups per lineup),
    each rating a candidate from its own simulated gauntlet (4 groups): the interval with the
    ladder's uncertainty covers the true Elo 94.0% of the time, the games' sd alone 69.5%,
    because a loosely calibrated ladder moves the candidate's estimate."""
    from itertools import combinations

    truth = {"random": -1.5, ANCHOR: 0.0, "m1": -0.6, "m2": 0.5, "m3": 0.7}
    lineups = [("candidate", *pair) for pair in combinations(truth, 2)]
    target = ANCHOR_ELO + 0.2 * ELO_PER_NAT
    covered = games_only = 0
    for k in range(200):
        ladder = simulated_ladder(truth, 2, seed=1000 + k)
        r = rate_on_ladder(draw_games({**truth, "candidate": 0.2}, lineups, 4, 5000 + k), ladder, "candidate")
        covered += r.interval[0] <= target <= r.interval[1]
        games_only += abs(r.elo - target) <= 1.959963984540054 * r.games_sd
    assert 0.91 <= covered / 200 <= 0.99
    assert games_only / 200 < 0.85


def test_games_without_the_candidate_cannot_rate_it():
    from forumlab.arena.plackett_luce import RatingsError

    # A shared rank leaves the tie prevalence to fit, which once made this a ValueError.
    games = draw_games(MEMBERS, [("random", ANCHOR, "weak")], 2, seed=1)
    games.append(RatedGame("tied", ("random", ANCHOR, "weak"), (1, 1, 3), (0.0,) * 3))
    with pytest.raises(RatingsError, match="played no game"):
        rate_on_ladder(games, synthetic_ladder(MEMBERS), "candidate")


def test_sprt_on_the_fixed_scale_is_the_fields_elo():
    ladder = synthetic_ladder({"random": 0.0, ANCHOR: 0.0})  # both members at 1000
    field, asked = field_sprt(ladder.members, "elo0=1000,elo1=1100")
    assert (asked.elo0, asked.elo1) == (1000, 1100)
    assert field.elo0 == pytest.approx(0.0, abs=1e-9) and field.elo1 == pytest.approx(100.0)


# ---- the shipped ladder files ------------------------------------------------------------

def test_every_ladder_file_loads_and_names_its_command():
    found = available_ladders()
    assert (GAME, PLAYERS) in found
    for game, players in found:
        ladder = load_ladder(game, players)
        assert (ladder.game, ladder.players) == (game, players)
        assert ladder.calibration["command"].startswith("python -m benchmarks.calibrate_ladder")
        for key in ("date", "commit", "games", "seed", "groups_per_lineup"):
            assert ladder.calibration[key] not in (None, "")
        assert ladder.member(ANCHOR).elo == ANCHOR_ELO and ladder.member(ANCHOR).elo_sd == 0.0
        # Budgets are iterations, never time: the ratings hold on every machine.
        assert all("time" not in m.spec for m in ladder.members)
        assert drifted_members(ladder) == [], "a member searches with other settings than calibrated"


def test_a_ladder_ships_for_every_player_count_with_the_planned_members():
    from benchmarks.calibrate_ladder import PLAN, planned_members
    from forumlab.core.registry import game_names, get_game_class

    builtin = [g for g in game_names() if g in {game for game, _ in PLAN}]
    assert len(builtin) == 4
    for game in builtin:
        cls = get_game_class(game)
        assert {n for g, n in PLAN if g == game} == set(range(cls.min_players, cls.max_players + 1))
    assert set(available_ladders()) == set(PLAN)  # a ladder for every game and player count
    for game, players in available_ladders():
        ladder = load_ladder(game, players)
        assert [m.name for m in ladder.members] == [name for name, _ in planned_members(game, players)]
        # A calibration stopped at its time allowance says how much of its plan it played.
        assert ladder.calibration["games"] <= ladder.calibration.get("planned_games", ladder.calibration["games"])


def test_the_missing_ladder_error_names_exactly_the_ladders_that_exist(tmp_path):
    shipped = available_ladders()
    result = rate("greedy", "--game", "forum-romanum", "-p", 7)
    assert result.exit_code == 2 and "players" in result.output  # a count the game does not allow
    own = [(GAME, PLAYERS), shipped[0]]
    for game, players in own:
        (tmp_path / f"{game}-{players}p.json").write_text(load_ladder(game, players).path.read_text())
    missing = next((g, n) for g, n in [("forma", 4), ("forum-trajanum", 2), ("forum-romanum", 2)]
                   if (g, n) not in own)
    result = CliRunner().invoke(main, ["rate", "greedy", "--game", missing[0], "-p", str(missing[1])],
                                env={"FORUMLAB_LADDER_DIR": str(tmp_path)})
    assert result.exit_code == 2, result.output
    listed = result.output.strip().split("(game players): ")[1]
    assert listed == ", ".join(f"{g} {n}" for g, n in sorted(own))
    assert available_ladders(tmp_path) == sorted(own)


def test_a_calibration_writes_a_ladder_file_that_names_its_command(tmp_path):
    from benchmarks.calibrate_ladder import main as calibrate

    out = tmp_path / "forum-romanum-2p.json"
    calibrate(["--game", "forum-romanum", "--players", "2", "--groups", "1", "--workers", "1",
               "--member", "random=random", "--member", "greedy=greedy", "--member", "m=mcts(iterations=10)",
               "--db", str(tmp_path / "cal.db"), "--out", str(out)])
    ladder = read_ladder(out)
    assert [m.name for m in ladder.members] == ["random", "greedy", "m"]
    assert ladder.calibration["command"].startswith("python -m benchmarks.calibrate_ladder --game forum-romanum")
    assert ladder.calibration["games"] == 6 and ladder.member(ANCHOR).elo == ANCHOR_ELO
    # The member's spec carries the game's tuned settings, so later tuning cannot move it.
    from forumlab.agents.spec import parse_spec
    from forumlab.core.registry import create_game

    tuned = create_game("forum-romanum", {"players": 2}).tuned_mcts()
    assert parse_spec(ladder.member("m").spec)[1] == {**tuned, "iterations": 10}
    assert drifted_members(ladder) == []


def test_a_damaged_ladder_file_is_one_error(tmp_path):
    bad = tmp_path / "forma-2p.json"
    bad.write_text('{"format": "forumlab-ladder/1"}')
    with pytest.raises(Exception, match="not a readable ladder file"):
        read_ladder(bad)


# ---- forumlab rate ---------------------------------------------------------------------------

def rate(*args):
    result = CliRunner().invoke(main, ["rate", *map(str, args)])
    return result


def rate_json(spec, *args):
    result = rate(spec, "--game", GAME, "-p", PLAYERS, "--json", "-q", "-w", 1, *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.slow
def test_rating_a_ladder_member_returns_its_calibrated_rating():
    ladder = load_ladder(GAME, PLAYERS)
    member = ladder.member("mcts100")
    report = rate_json(member.spec, "--members", "greedy,mcts100", "--games", 4, "--seed", 11)
    low, high = report["interval_95"]
    assert low <= member.elo <= high, report
    assert report["games"] == 24 and report["faults"] == []
    assert report["move_time"]["moves"] > 0 and report["move_time"]["cpu_mean"] > 0


@pytest.mark.slow
def test_two_seeds_agree_within_their_intervals():
    one = rate_json("greedy", "--members", "random,greedy", "--games", 4, "--seed", 1)
    two = rate_json("greedy", "--members", "random,greedy", "--games", 4, "--seed", 2)
    assert one["interval_95"][0] <= two["elo"] <= one["interval_95"][1]
    assert two["interval_95"][0] <= one["elo"] <= two["interval_95"][1]


@pytest.mark.slow
def test_a_bot_program_is_rated_through_the_protocol():
    report = rate_json("cmd:python3 examples/bots/random_bot.py", "--members", "random,greedy", "--games", 1)
    assert report["games"] == 6 and report["faults"] == []
    low, high = report["interval_95"]
    assert report["elo"] < ANCHOR_ELO and low < high
    assert "Elo" in rate("cmd:python3 examples/bots/random_bot.py", "--game", GAME, "-p", PLAYERS,
                         "--members", "random,greedy", "--games", 1, "-q", "-w", 1).output


def test_a_kept_gauntlet_is_continued_and_extended(tmp_path):
    from forumlab.arena.store import ResultStore

    db = tmp_path / "rate.db"
    first = rate_json("greedy", "--members", "random,greedy", "--games", 1, "--db", db)
    again = rate_json("greedy", "--members", "random,greedy", "--games", 1, "--db", db)
    assert again["elo"] == first["elo"] and again["games"] == 6  # nothing played twice
    more = rate_json("greedy", "--members", "random,greedy", "--games", 2, "--db", db)
    assert more["games"] == 12
    with ResultStore.open(db, readonly=True) as store:
        assert len(store) == 12 and store.definition["format"] == "gauntlet"


@pytest.mark.slow
def test_a_sequential_test_on_the_fixed_scale_stops_the_gauntlet():
    report = rate_json("random", "--members", "random,greedy", "--games", 20,
                       "--sprt", "elo0=500,elo1=900")
    assert "accepted H0" in report["sprt"] and "at most 500" in report["sprt"]
    assert report["games"] < 20 * 6 and report["games"] % 6 == 0  # whole rotation groups


@pytest.mark.parametrize("args, message", [
    (["greedy", "--game", "no-such-game"], "unknown game"),
    (["no_such_agent", "--game", GAME, "-p", 3], "no_such_agent"),
    (["greedy=random", "--game", GAME, "-p", 3], "a ladder member's name"),
    (["random", "--game", GAME, "-p", 3, "--members", "greedy,nobody"], "no member 'nobody'"),
    (["random", "--game", GAME, "-p", 3, "--members", "greedy"], "at least 2 distinct members"),
    (["random", "--game", GAME, "-p", 3, "--sprt", "elo0=5"], "--sprt"),
    (["random", "--game", GAME, "-p", 3, "--games", 0], "--games must be >= 1"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = rate(*args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message.lower() in lines[0].lower(), lines
