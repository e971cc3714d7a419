"""The named terms of Forma's heuristic (pure Python: listings read them without
compiling anything; :mod:`.heuristic` computes them).

Each term is a part of a seat's estimated final score; the heuristic weighs each by a
weight (1 by default: the default weights are the heuristic the search agents always
used) and scores a seat by its weighted sum minus the best other seat's. A finished
game is worth its exact margin, whatever the weights.
"""

TERMS = (
    ("score", "points scored so far (enclosures, claimed stones, the tower, bridges)"),
    ("supply", "0.5 per square still in the seat's supply, while it can still place"),
    ("bridges", "2 players only: 50 x, per direction, 1 for a finished bridge, else the squared share "
                "of the board's length its chains from the two edges cover"),
    ("stones", "10 x (share of its sides)**2 for each stone only this seat can still claim"),
    ("enclosures", "for the seat to move: free squares it can close next (one free side left): "
                   "7 for the first, 2 for each further one"),
    ("tower", "for the seat to move: 35 (0.7 x the tower's 50) when the tower has one open side left"),
)
TERM_NAMES = tuple(name for name, _ in TERMS)
