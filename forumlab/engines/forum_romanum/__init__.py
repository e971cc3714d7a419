"""Forum Romanum (``forum-romanum``): the numba engine (facade :mod:`.game`, kernels
:mod:`.kernels`) and the plain-Python reference engine :mod:`.reference` (the test oracle).
For players, the rules, the notation and every decision this project made where the
rulebook is silent are in ``docs/games/forum-romanum.md`` of the repository."""
