"""Forum Trajanum (Stefan Feld, 2018): the plain-Python reference engine lives in
``reference/``; the numba engine comes later. The rules are ``shared/rules/forum-trajanum.md``."""
