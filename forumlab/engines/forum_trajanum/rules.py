"""Short terminal rules of Forum Trajanum (``forumlab rules forum-trajanum``).

The full rules, the board diagrams, the notation, what is hidden from whom and every
decision this project made where the rulebook is silent are in
``docs/games/forum-trajanum.md``.
"""

SHORT_RULES = """\
FORUM TRAJANUM (forum-trajanum), 2-4 players, hidden information

Each player has a 6x6 Colonia (a-f, 1-6): 4 crane corners, 4 temples and 28
buildable spaces; every space but the temples, and the river (rv), holds a
tile of yours, most face down. A citizen row belongs to each of the 6 rows.
Shared: the Forum (4x4 mosaic boards in a row, one per player plus one,
cells a1..t4, colour areas and eagles).
Setup ply: "setup rbgy/1/a1" (crane colours, row of your first citizen,
corner for a second citizen).

12 rounds in 3 cycles of 4. Each round two street cards are drawn.
 Draft (secret, one after another): "take X Y" two tiles of your Colonia,
   one per card; a space in the card's street is free, another costs 1
   tribune ("rv" always does). "keep X": the other goes to your right.
 Turns: "use k" / "use r" one tile (kept or received), "use kr" both for 2
   tribunes. Resources are gained; citizens go to a row ("cit 3"); your own
   used tiles become envoys in your ship.
   Conversions of active rows ("conv C>T", "conv A>g", "conv A>B"), then
   at most one building on vacated spaces: "build col@d2/B",
   "build lib+y@c4,d4/gg,y" (pay a builder or 2 workers of one colour per
   grey part; a worker of the colour, or another worker + assistant, per
   coloured part), or "build -".
 Buildings: a column scores column value (3/2/1 by cycle) + active
 citizens; library, basilica, market climb a track ("track 2"); each
 structure sends an envoy to a Forum cell of its colour ("env i2",
 "env -"). Completing a Forum area gives a bonus ("pick T").
End of a cycle: pay 1 coin per row to keep its citizens active ("pay 1,5"
or "pay -"); score cranes, Colonia rows (grey types x multiplier), Forum
(eagles + largest envoy group) and the cycle's Trajan card.
End: after cycle III. Most VP wins; ties: more active citizens, then more
resources left, else shared.

Hidden: face-down tiles (even from their owner, except the river tile),
others' draft picks this round, tiles held and not yet used (known to the
holder and the passer), the order of the street cards.
Options: players (2-4, default 3), intro (only the last Trajan card is
scored), setup ("choose" or "fixed").
Try: forumlab play forum-trajanum -a human,greedy,greedy
Full rules: docs/games/forum-trajanum.md
"""
