"""The named terms of Forum Romanum's heuristic (pure Python: listings read them
without compiling anything; :mod:`.heuristic` computes them).

Each term is a part of a colour's estimated final score (at 2 players a seat has two
colours: its terms are their sums); the heuristic weighs each by a weight (1 by default:
the default weights are the heuristic the search agents always used) and scores a seat
by its weighted sum minus the best other seat's. A finished game is worth its exact
margin, whatever the weights.
"""

TERMS = (
    ("score", "points scored so far"),
    ("rows", "open rows the colour leads: the row's 7 (4 when tied for the lead) x 0.75 x the share of "
             "its cells filled"),
    ("columns", "open columns the colour leads, valued as rows"),
    ("diagonals", "open long diagonals the colour leads, valued as rows"),
    ("sections", "open sections I-VII the colour leads: the section's 6, 8 or 9 (4 when tied) x 0.75 x "
                 "the share filled"),
    ("last_places", "open regions (any kind) where the colour has the fewest pieces: minus 4 (2 when "
                    "tied for the fewest) x 0.75 x the share filled"),
)
TERM_NAMES = tuple(name for name, _ in TERMS)
