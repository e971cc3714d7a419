"""The named terms of Forum Trajanum's heuristic (pure Python: listings read them
without compiling anything; :mod:`.heuristic` computes them).

Each term is a part of a seat's estimated final VP; the heuristic weighs each by a
weight (1 by default: the default weights are the heuristic the search agents always
used) and scores a seat by its weighted sum minus the best other seat's.
"""

TERMS = (
    ("vp", "VP scored so far"),
    ("colonia", "Colonia points the seat would score now (grey types per row x (1 + active citizens)), "
                "once per cycle-end scoring left"),
    ("eagles", "eagle points it would score now (envoys on or next to eagles), once per scoring left"),
    ("area", "area points it would score now (its largest envoy group on the prestige bar plus "
             "prestige), once per scoring left"),
    ("cranes", "uncovered cranes: the crane value of this cycle times the seat's structures of the "
               "crane's colour"),
    ("trajan", "Trajan tasks of the current cycle's card the seat meets now: 3 + prestige each"),
    ("resources", "0.5 per resource (tribunes, coins, building materials)"),
    ("envoys", "0.7 per envoy in the ship"),
    ("citizens", "0.7 per active citizen, per scoring left"),
    ("prestige", "0.3 per prestige step (bar position plus the Merchant's 2), per scoring left"),
    ("tracks", "0.8 per level on the three tracks, up to level 4 each"),
    ("held", "worth of the Colonia tiles the seat holds and has not used yet (the draft's pair, "
             "the tiles being used): what using them adds, at the default weights' prices"),
)
TERM_NAMES = tuple(name for name, _ in TERMS)
