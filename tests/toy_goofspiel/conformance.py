"""What the conformance kit checks the toy game at: the worked example of a game's
conformance data (docs/adding-a-game.md describes the keys). The toy has no reference
engine (no "reference" key), so the kit's differential check reports a skip for it."""

CONFORMANCE = {
    # Every check at each configuration, seeds 0 and 1 unless "seeds" says otherwise.
    "configs": [
        {"config": {"players": 2}},
        {"config": {"players": 3}},
        {"config": {"players": 3, "cards": 6}, "seeds": [0]},
    ],
    # Texts refused (IllegalMoveError, nothing changed) after the plies "after": seat 1
    # to move in round 1 of a 4-card game.
    "bad_moves": [
        {"config": {"players": 2}, "seed": 0, "after": ["1"], "moves": ["0", "5", "x", "1.0", "-1", "+2"]},
    ],
    # `forumlab replay` of each record fails with one line that contains "error": seat 0
    # bids its spent card 1 again in round 2.
    "bad_records": [
        {"record": {"config": {"players": 2}, "seed": 0, "moves": ["1", "1", "1"]}, "error": "ply 3"},
    ],
}
