"""The named terms of Foundations of Rome's heuristic (pure Python: listings read them
without compiling anything; :mod:`.heuristic` computes them).

Each term is a part of a seat's estimated final VP; the heuristic weighs each by a
weight (1 by default: the default weights are the heuristic the search agents always
used) and scores a seat by its weighted sum minus the best other seat's (in a Consul
game the team's lowest seat minus the Consul, whose own value has no terms).
"""

TERMS = (
    ("vp", "VP scored so far"),
    ("silver", "silver in hand: 0.35 per coin up to 15, 0.1 per coin from 15 to 40 (silver never "
               "scores at the end)"),
    ("residential", "population per era scoring left: 1.3 per citizen (with the Consul: 7 for the "
                    "leader, the gap to the leader for the others)"),
    ("commercial", "the seat's commercial buildings per era scoring left: tray VP and silver income, "
                   "plus 1.2 x income per era left"),
    ("civic", "the VP the seat's civic buildings would score now, per era scoring left"),
    ("monuments", "the seat's monuments, valued as its buildings of their type are (civic VP, "
                  "commercial VP and income), per era scoring left"),
    ("lots", "empty lots (future buildings): 1 + 0.7 per era left each; 0.5 per lot built on"),
    ("modules", "module assets: favor tokens, objectives met, invocations held, its role's effects "
                "(their mix: MODULE_WEIGHTS)"),
)
TERM_NAMES = tuple(name for name, _ in TERMS)
