"""What the conformance kit checks Forma at (forumlab.testing; the keys are described in
docs/adding-a-game.md): plain data, read by the kit, make_perft and the playout benchmark."""

CONFORMANCE = {
    "reference": "forumlab.engines.forma.reference:ReferenceForma",
    # Every check at each configuration (seeds 0 and 1 unless "seeds" is given);
    # "differential": further seeded games of the slow tier's differential test. Random
    # layouts (drawn by the numba setup, handed to the reference as explicit squares) and
    # empty boards, at every player count. With the biased and sampler-driven games of
    # tests/engines/forma/test_forma_differential.py, about the 340 games of the former
    # harness (~0.7 CPU s a game).
    "configs": [
        {"config": {"players": 2}, "differential": 90},
        {"config": {"players": 3}, "seeds": [0], "differential": 20},
        {"config": {"players": 4}, "differential": 90},
        {"config": {"players": 2, "obstacles": "none"}, "seeds": [0], "differential": 30},
        {"config": {"players": 4, "obstacles": "none"}, "seeds": [0], "differential": 30},
    ],
    # Texts refused (IllegalMoveError, nothing changed) after the plies "after".
    "bad_moves": [
        {"config": {"players": 4, "obstacles": ["c3"]}, "seed": 0, "after": [],
         "moves": ["I1/0@c3", "I5/0@q1", "pass", "P5/9@h7", "Q5/0@a1", "I1/0@u1", "I1@a1", "I1/0a1"]},
        {"config": {"players": 4, "obstacles": "none"}, "seed": 0, "after": ["I1/0@a1"],
         "moves": ["I1/0@a1"]},
    ],
    # `forumlab replay` of each record fails with one line that contains "error".
    "bad_records": [
        {"record": {"config": {"players": 2, "obstacles": "none"}, "seed": 0,
                    "moves": ["I1/0@a1", "I1/0@a1"]}, "error": "ply 2"},
    ],
    # tests/data/make_perft.py: one line per config and seed (0, 1), moves drawn from the
    # reference's legal list (sorted by text when "sort_moves").
    "perft": {
        "configs": [{"players": 2, "obstacles": "random"}, {"players": 3, "obstacles": "random"},
                    {"players": 4, "obstacles": "random"}, {"players": 4, "obstacles": "none"}],
        "sort_moves": False,
    },
}
