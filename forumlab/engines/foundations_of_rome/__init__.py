"""Foundations of Rome (``shared/rules/foundations-of-rome.md``): 2-5 players, an economy,
deeds and buildings on an N x N city. ``reference`` is the plain-Python test oracle. For
players, the rules, the modules, the notation and every decision this project made where
the rulebook is silent are in ``docs/games/foundations-of-rome.md`` of the repository."""
