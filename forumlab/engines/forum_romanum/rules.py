"""Short terminal rules of Forum Romanum (``forumlab rules forum-romanum``).

The full rules, the board diagram, the notation and every decision this project made
where the rulebook is silent are in ``docs/games/forum-romanum.md``.
"""

SHORT_RULES = """\
FORUM ROMANUM (forum-romanum), 2-6 players, perfect information

Board: 7x7, columns a-g, rows 1-7 (a1 top-left). 23 scoring regions: the 7
rows, the 7 columns, the 2 long diagonals (each worth 7) and 7 sections:
      a b c d e f g
  1   1 1 1 2 2 2 2    section:  S1 S2 S3 S4 S5 S6 S7
  2   1 1 1 2 2 2 2    value:     6  8  6  9  6  8  6
  3   3 3 4 4 4 5 5
  4   3 3 4 4 4 5 5
  5   3 3 4 4 4 5 5
  6   6 6 6 6 7 7 7
  7   6 6 6 6 7 7 7
Pieces: 10 each with 3 players, 8 with 4, 6 with 5, 5 with 6. With 2
players each player has two colours of 8 pieces and scores their sum.

Turn: place a piece from your hand on an empty cell ("d4"); once your hand
is empty, move one of your pieces to another empty cell ("d4-e5"). No
passing. With 2 players a turn is two plies, one per colour, in the order
you choose: "1:d4", then "0:a2-b3".

Settling: after every ply, each region that just became full and is not yet
settled is checked, colour by colour:
  - one colour has the most pieces: it scores the region's value; the colour
    with the fewest loses 4 (2 each if several tie for fewest). The region
    is settled for good.
  - the most is tied: the region is deadlocked (checked again if it refills).

End: when every region is settled or deadlocked (or after max_rounds
rounds, default 100; 0 = no cap). Each deadlocked region then gives +4 to
every colour tied for most; the fewest among the rest loses 4 (2 each if
tied). Highest total wins; ties share the win. Scores can be negative.

Options: players (2-6, default 3), max_rounds (default 100).
Try: forumlab play forum-romanum -a human,greedy,greedy
Full rules: docs/games/forum-romanum.md
"""
