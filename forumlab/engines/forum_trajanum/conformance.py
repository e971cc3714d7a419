"""What the conformance kit checks Forum Trajanum at (forumlab.testing; the keys are
described in docs/adding-a-game.md): plain data, read by the kit, make_perft and the
playout benchmark."""

CONFORMANCE = {
    "reference": "forumlab.engines.forum_trajanum.reference:ReferenceState",
    # Every check at each configuration (seeds 0 and 1 unless "seeds" is given);
    # "differential": further seeded games of the slow tier's differential test. Both
    # setup modes and the introductory game, at every player count.
    "configs": [
        {"config": {"players": 2}, "differential": 90},
        {"config": {"players": 3}, "differential": 90},
        {"config": {"players": 4}, "differential": 80},
        {"config": {"players": 3, "setup": "fixed"}, "seeds": [0], "differential": 80},
        {"config": {"players": 2, "setup": "fixed"}, "seeds": [0], "differential": 50},
        {"config": {"players": 2, "intro": True}, "seeds": [0], "differential": 40},
        {"config": {"players": 4, "intro": True, "setup": "fixed"}, "seeds": [0], "differential": 40},
    ],
    # Texts refused (IllegalMoveError, nothing changed) after the plies "after".
    "bad_moves": [
        {"config": {"players": 2}, "seed": 0, "after": [],
         "moves": ["", "take", "take a4 c2", "take rv c2", "take c2  rv", "use x", "cit 7", "build col@d2",
                   "build bb@c5,c4/b,b", "build bb@c4,c5/yA,b", "pick V+T", "pick T+r", "pay 5,1", "env u1",
                   "setup rbgg/1/a1", "keep", "conv B>A"]},
    ],
    # `forumlab replay` of each record fails with one line that contains "error"
    # ("take a1 e1" is legal at ply 1 of this deal).
    "bad_records": [
        {"record": {"config": {"players": 2, "intro": False, "setup": "fixed"}, "seed": 1,
                    "moves": ["take a1 e1", bad]}, "error": f"ply 2: illegal move '{bad}'"}
        for bad in ("take a4 c2", "use k", "keep f6")
    ],
    # tests/data/make_perft.py: one line per config and seed (0, 1), moves drawn from the
    # reference's legal list (sorted by text when "sort_moves").
    "perft": {
        "configs": [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 3, "setup": "fixed"},
                    {"players": 2, "intro": True}],
        "sort_moves": True,
    },
}
