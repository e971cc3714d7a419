"""Short terminal rules of Foundations of Rome (``forumlab rules foundations-of-rome``).

The full rules (modules, the draft, the Consul), the board diagram, the notation and
every decision this project made where the rulebook is silent are in
``docs/games/foundations-of-rome.md``.
"""

SHORT_RULES = """\
FOUNDATIONS OF ROME (foundations-of-rome), 2-5 players, hidden information

City: N x N lots (7, 8, 9, 10 for 2-5 players), columns a.., rows 1.. (a1
top-left). Each player starts with 6 deeds (a lot marker on each), 5 silver
(+1 per seat after seat 0) and 24 buildings: residential R (citizens),
commercial C (silver) and civic V (score their neighbours).

Turn: exactly one main action (modules add free actions before it):
  I             Income: 5 silver + the silver of your commercial buildings.
  D1..D6        Buy the deed in slot k (prices 2 3 4 6 8 10); put a marker
                on its lot; the cards to its right slide left, slot 6 refills.
  R3L@c3,c4,d4  Build on lots you own (cells in ascending order). You may
                cover your own strictly smaller buildings; they return.
Shapes: R1/C1 one cell, R2/C2 2 in a line, R3L/C3L an L, R3I/C3I 3 in a
line, R4O/C4O a square, R4I/C4I 4 in a line; civic V1F V2F V1L V2L V1M V2M
V1G V2G. Any rotation or reflection.

Eras: when the last deed of an era is bought, every player takes one final
turn (Income or Build), then the era is scored:
  1. Population: the leaders score population + 4/7/10 (era 1/2/3); the
     others score the next higher population.
  2. Civic buildings score their neighbours (fountain, library, market...).
  3. Commercial: silver again (VP instead in era 3) + tray VP (C2 2, C3 3,
     C4 5) every era.
End: after era 3, +1 VP per lot marker on the board. Most VP wins; ties go
to more silver, then are shared. Capped at max_turns main actions (1000).

Hidden: the order of the deed piles; with modules, others' objectives, roles
and draft picks until revealed.
Modules (option modules=[...]): monuments (Build M<k>@cells), trading
(T<seat>:<give>/<get>, answered Y or N), stealing (S:<lot>), objectives
(K:O<k>), invocations (U:G<k>), roles (K:P<k>). Also draft=true (K:<lot>)
and consul="standard"|"hard"|"challenge" (co-op against the Will of the
Consul). Others: deed_prices, max_trades, max_turns, objectives.
Try: forumlab play foundations-of-rome -a human,greedy,greedy
Full rules: docs/games/foundations-of-rome.md
"""
