"""Short terminal rules of Forma (``forumlab rules forma``).

The full rules, the board diagram, the notation and every decision this project made
where the rulebook is silent are in ``docs/games/forma.md``.
"""

SHORT_RULES = """\
FORMA (forma), 2-4 players, perfect information

Board: 20x20 squares, columns a-t, rows 1-20 (a1 top-left). By default 25
grey obstacle stones and one white tower are placed at random from the seed
(the tower is never on the edge; no two obstacles touch along an edge).

Pieces: each colour has 22 polyomino pieces (90 squares): I1 twice, I2, I3,
V3, I4, O4, T4, L4, S4, F5, I5, L5, N5, P5, T5, U5, V5, W5, X5, Y5, Z5.
With 2 players each player owns two sets, played as one colour.

Turn: place one of your pieces on free squares, any rotation or reflection;
it need not touch anything. "P5/3@h7" = piece P5 in orientation 3 with the
top-left corner of its bounding box on h7. With no placement left you must
"pass". The game ends when nobody can place a piece.

Scoring:
  +1   per square of your pieces on the board
  +10  per free square you enclose: your placement closes the last open
       side(s) of a single free square (sides: edge, obstacle, tower, piece
       or marker); a marker goes on it
  +10  per grey stone enclosed by your colour alone (all non-edge sides)
  +50  for closing the last open side of the tower
  +50  per bridge at the end: a chain of your squares from one edge to the
       opposite edge (north-south and east-west counted separately;
       bridges in one direction share no square)
Highest total wins; ties share the win.

Options: players (2-4, default 4), obstacles ("random", "none" or a list of
squares), tower (a square, with an explicit obstacle list).
Try: forumlab play forma -p 2 -a human,greedy
Full rules: docs/games/forma.md
"""
