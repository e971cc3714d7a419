"""A bot that crashes, hangs, writes garbage, plays an illegal move, exits early or fails
its handshake in a tournament: every game is recorded with its fault, the bot ranks last,
the other seats' results stand, and the next game starts a new bot."""
import pytest

from forumlab.api import run_tournament
from forumlab.arena.store import ResultStore
from forumlab.core.ranks import shared_ranks

from .helpers import broken

CASES = [("crash", "crash"), ("hang", "hang"), ("malformed", "exception"), ("illegal", "illegal"),
         ("early-exit", "exit"), ("bad-handshake", "init")]


@pytest.mark.parametrize("mode, kind", CASES)
def test_every_game_records_the_bots_fault(mode, kind, tmp_path):
    spec = f"bot=cmd(command='{broken(mode)}', timeout=1, log_dir='{tmp_path}')"
    db = tmp_path / "results.db"
    run_tournament("forum-romanum", [spec, "random", "greedy"], db, players=3, max_rounds=3, workers=0)
    with ResultStore.open(db, readonly=True) as store:
        outcomes = store.outcomes()
    assert len(outcomes) >= 3
    for o in outcomes:
        seat = o.labels.index("bot")
        assert [(f.seat, f.kind) for f in o.faults] == [(seat, kind)], o.faults
        # a fresh bot every game: the fault comes at the same move of the bot in each
        assert o.faults[0].ply == 0 if kind == "init" else o.faults[0].ply > 0
        assert o.ranks[seat] == max(o.ranks) and o.ranks.count(o.ranks[seat]) == 1
        others = [s for s in range(3) if s != seat]
        expected = shared_ranks([o.scores[s] for s in others])
        assert [o.ranks[s] for s in others] == expected  # the clean seats ranked by their scores
        assert o.plies == len(o.moves) > 0


def test_a_tournament_of_good_bots_has_no_faults(tmp_path, c_bot):
    db = tmp_path / "results.db"
    report = run_tournament("forum-trajanum", [f"c=cmd:{c_bot}", "random"], db, players=2, intro=True,
                            setup="fixed", workers=0)
    assert report["played"] >= 2
    with ResultStore.open(db, readonly=True) as store:
        assert all(not o.faults for o in store.outcomes())
