"""What the conformance kit checks Foundations of Rome at (forumlab.testing; the keys are
described in docs/adding-a-game.md): plain data, read by the kit, make_perft and the
playout benchmark."""

ALL_MODULES = ["monuments", "trading", "stealing", "objectives", "invocations", "roles"]
# A 3-player game with every module, seed 1: the objective and role keeps, then seat 0's
# Income (seat 1 to move).
AFTER_KEEPS = ["K:O1", "K:O2", "K:O12", "K:P12", "K:P4", "K:P15", "I"]

CONFORMANCE = {
    "reference": "forumlab.engines.foundations_of_rome.reference:ReferenceState",
    # Every check at each configuration (seeds 0 and 1 unless "seeds" is given);
    # "differential": further seeded games of the slow tier's differential test. The base
    # game at every player count, the draft, other deed prices, every module (alone, in
    # pairs and all together) and the Will of the Consul.
    "configs": [
        {"config": {"players": 2}, "differential": 120},
        {"config": {"players": 3}, "differential": 120},
        {"config": {"players": 4}, "differential": 80},
        {"config": {"players": 5}, "differential": 60},
        {"config": {"players": 3, "draft": True, "modules": ["monuments"]}, "seeds": [3],
         "differential": 100},
        {"config": {"players": 4, "modules": ["monuments"], "deed_prices": [0, 0, 1, 1, 5, 9]}, "seeds": [3],
         "differential": 60},
        {"config": {"players": 3, "modules": ALL_MODULES}, "seeds": [3], "differential": 80},
        {"config": {"players": 4, "modules": ALL_MODULES, "objectives": "public", "draft": True},
         "seeds": [3], "differential": 50},
        {"config": {"players": 1, "modules": ["monuments"], "consul": "challenge"}, "seeds": [3],
         "differential": 60},
        {"config": {"players": 2, "modules": ["monuments"], "consul": "hard", "draft": True}, "seeds": [3],
         "differential": 60},
        {"config": {"players": 2, "modules": ["trading", "stealing"]}, "seeds": [3], "differential": 80},
        {"config": {"players": 5, "modules": ["objectives", "roles", "invocations"], "draft": True},
         "seeds": [3], "differential": 60},
        {"config": {"players": 4, "modules": ["trading", "invocations"], "max_trades": 2}, "seeds": [3],
         "differential": 60},
    ],
    # Texts refused (IllegalMoveError, nothing changed; the message says one of
    # "error_words") after the plies "after".
    "bad_moves": [
        {"config": {"players": 3}, "seed": 0, "after": ["I"],
         "error_words": ["malformed", "not legal", "shape"],
         "moves": ["", "i", "D0", "D7", "D01", "R3L@c4,c3,d4", "R3L@c3,c4", "R9@a1", "R1@z9", "R1@a9",
                   "R1@a0", "K:", "K:a1,a2", "R1@a1,", "I "]},
        # Every module, after AFTER_KEEPS: a lot seat 1 does not own, malformed silver, a
        # token side it does not hold, an invocation it does not hold, a malformed answer,
        # an answer nobody asked for, a trade with itself, a seat out of range.
        {"config": {"players": 3, "modules": ALL_MODULES}, "seed": 1, "after": AFTER_KEEPS,
         "moves": ["T2:a1/-", "T2:$99/-", "T2:F4/-", "U:G3", "Yes", "Y", "T1:-/-", "T7:-/$1"]},
    ],
    # `forumlab replay` of each record fails with one line that contains "error".
    "bad_records": [
        {"record": {"config": {"players": 2, "deed_prices": [90] * 6}, "seed": 1,
                    "moves": ["I", "I", "I", bad]}, "error": f"ply 4: illegal move '{bad}'{why}"}
        for bad, why in (("R9@a1", ": malformed"), ("D6", ""), ("R1@a1,a2", ""))
    ] + [
        {"record": {"config": {"players": 3, "modules": ALL_MODULES}, "seed": 1,
                    "moves": [*AFTER_KEEPS, bad]}, "error": f"ply {len(AFTER_KEEPS) + 1}"}
        for bad in ("T2:a1/-", "T2:$99/-", "T2:F4/-", "U:G3", "Yes", "Y", "T1:-/-", "T7:-/$1")
    ],
    # tests/data/make_perft.py: one line per config and seed (0, 1), moves drawn from the
    # reference's legal list (sorted by text when "sort_moves").
    "perft": {
        "configs": [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 5},
                    {"players": 3, "draft": True, "modules": ["monuments"]},
                    {"players": 5, "draft": True, "modules": ["monuments"]}],
        "sort_moves": True,
    },
}
