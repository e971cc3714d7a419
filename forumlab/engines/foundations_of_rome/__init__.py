"""Foundations of Rome (``shared/rules/foundations-of-rome.md``): 2-5 players, an economy,
deeds and buildings on an N x N city. ``reference`` is the plain-Python test oracle. For
players, the rules, the modules, the notation and every decision this project made where
the rulebook is silent are in ``docs/games/foundations-of-rome.md`` of the repository.

Modules (one per concern): :mod:`.layout` (state slots), :mod:`.data` (the spec's
tables, the move codes), :mod:`.setup` (``new_state``), :mod:`.moves` (legal moves,
applying a move; the modules' free actions in :mod:`.free_actions`, lot markers and
prices in :mod:`.pieces`, the Consul's placement in :mod:`.consul`), :mod:`.scoring`
(era and end scoring, the result; the objectives in :mod:`.objectives`),
:mod:`.heuristic`, :mod:`.hidden` (``determinize``, observations), :mod:`.notation`,
:mod:`.render`, :mod:`.tensor`, :mod:`.rules`; :mod:`.kernels` binds the protocol
kernels for the core, :mod:`.game` is the facade.

Decisions where the spec is silent are those of the reference engine's docstring
(``reference/__init__.py``, decisions 1-28), which this engine follows move for move
(tests/engines/foundations_of_rome/test_foundations_of_rome_modules_differential.py); in short:

- Draft: every round's picks run in seat order from seat 0; the deed board is revealed
  at setup before the draft; hand i passes to seat i+1; the last round's single-card
  pick is a ply; picks and keeps are not main actions (``max_turns`` does not count
  them). Keeps (``K:O``, then ``K:P``) run seat 0..n-1 after the draft; the last role
  choice reveals all roles.
- Monument on-build effects (M11 +2 VP, M12 +3 silver) reach each owner of a building
  adjacent to the new monument once, the builder included (M11's VP the Consul too),
  adjacency taken after the build.
- Free actions (offers, steals, uses) are legal in normal and final turns of the seat
  to move, never in setup or while an answer is due; an offer is a ply of the proposer,
  the answer (``Y``/``N``) a ply of the partner (``current_player``), after which the
  proposer's turn goes on. Every offer counts against ``max_trades``. "This turn"
  effects and the offer count end with the main action (a truncation too); a Ianus
  Build is not a main action.
- Prices: the Consul's floor first, then Agrimensor -1 and Vulcanus -3, min 0.
- The Consul acts after each main action of the holder in a normal turn while the
  board has a card; the card passes one seat after each era scoring.
- Results: ``scores`` are the VP; ranks and winners follow (VP, silver), the spec's
  tie-break (then shared), through ``Game.rank_keys``. Search values terminal
  positions by VP alone (a silver tie-break is not part of the generic rewards). In a
  Consul game ``scores`` gives every seat the shared value, min over seats of (VP -
  Consul VP), and the game is cooperative (``Game.cooperative``).
- A building's copy (R1, C1, R2, C2 come twice) does not matter: the first copy not
  on the board is used; identical copies are one move.
- ``determinize`` follows the spec's order of resampling (deeds, invocations, piles,
  picks, objectives, roles, Consul piles, RNG word) but redeals the unlocated cards
  from sorted lists into canonical places and keeps other seats' hands sorted, so a
  view depends only on what the observer saw, never on where the hidden cards truly
  are (:mod:`.hidden`); its draws are therefore not those of the reference's.
- ``max_turns`` is 1..1,000,000; a capped game gets no further scoring.
- ``random_move`` counts the legal offers by item class and draws one by rejection
  sampling instead of listing them (uniform over all legal moves).
"""
