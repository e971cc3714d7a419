"""What the conformance kit checks Forum Romanum at (forumlab.testing; the keys are
described in docs/adding-a-game.md): plain data, read by the kit, make_perft and the
playout benchmark."""

CONFORMANCE = {
    "reference": "forumlab.engines.forum_romanum.reference:ReferenceForumRomanum",
    # Every check at each configuration (seeds 0 and 1 unless "seeds" is given);
    # "differential": further seeded games of the slow tier's differential test. The mix
    # keeps the turn caps of the former harness (1,200 games): every player count at the
    # default cap, games without a cap (ended by the rules), and short caps.
    "configs": [
        {"config": {"players": 2}, "differential": 30},
        {"config": {"players": 3}, "differential": 30},
        {"config": {"players": 4}, "differential": 30},
        {"config": {"players": 5}, "differential": 30},
        {"config": {"players": 6}, "differential": 30},
        {"config": {"players": 2, "max_rounds": 0}, "seeds": [0], "differential": 40},
        {"config": {"players": 4, "max_rounds": 0}, "seeds": [0], "differential": 40},
        {"config": {"players": 6, "max_rounds": 0}, "seeds": [0], "differential": 40},
        {"config": {"players": 2, "max_rounds": 60}, "seeds": [0], "differential": 80},
        {"config": {"players": 3, "max_rounds": 40}, "seeds": [0], "differential": 80},
        {"config": {"players": 5, "max_rounds": 20}, "seeds": [0], "differential": 80},
        {"config": {"players": 2, "max_rounds": 1}, "differential": 120},
        {"config": {"players": 3, "max_rounds": 2}, "differential": 120},
        {"config": {"players": 4, "max_rounds": 1}, "differential": 100},
        {"config": {"players": 4, "max_rounds": 3}, "differential": 100},
        {"config": {"players": 5, "max_rounds": 5}, "differential": 100},
        {"config": {"players": 6, "max_rounds": 8}, "differential": 100},
    ],
    # Texts refused (IllegalMoveError, nothing changed) after the plies "after".
    "bad_moves": [
        # 2 players: both colours of the seat may move, so the colour prefix is needed.
        {"config": {"players": 2}, "seed": 0, "after": [],
         "moves": ["d4", "5:d4", "0:", "0:d4-", "0:z9", "0:d4-e5", "2:d4"]},
        {"config": {"players": 3}, "seed": 0, "after": ["a1", "b1"],
         "moves": ["a1", "b1", "0:c1", "1:c1", "a1-c1", "c1-d1", "h8", "c0"]},
    ],
    # `forumlab replay` of each record fails with one line that contains "error".
    "bad_records": [
        {"record": {"config": {"players": 3}, "seed": 0, "moves": ["a1", "b1", "a1"]}, "error": "ply 3"},
        {"record": {"config": {"players": 7}, "seed": 0, "moves": []}, "error": "players"},
    ],
    # tests/data/make_perft.py: one line per config and seed (0, 1), moves drawn from the
    # reference's legal list (sorted by text when "sort_moves").
    "perft": {
        "configs": [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 5}, {"players": 6},
                    {"players": 2, "max_rounds": 0}, {"players": 3, "max_rounds": 0}],
        "sort_moves": False,
    },
}
