"""Forum Trajanum (Stefan Feld, 2018): the numba engine (registered as
``forum-trajanum``; facade :mod:`.game`, kernels :mod:`.kernels`) and the plain-Python
reference engine in ``reference/`` (the test oracle). The rules are
``shared/rules/forum-trajanum.md``."""
