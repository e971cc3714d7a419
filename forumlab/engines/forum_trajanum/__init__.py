"""Forum Trajanum (Stefan Feld, 2018): the numba engine (registered as
``forum-trajanum``; facade :mod:`.game`, kernels :mod:`.kernels`) and the plain-Python
reference engine in ``reference/`` (the test oracle). The rules are
``shared/rules/forum-trajanum.md``; for players, the rules, the notation, what is hidden
from whom and every decision this project made where the rulebook is silent are in
``docs/games/forum-trajanum.md`` of the repository."""
