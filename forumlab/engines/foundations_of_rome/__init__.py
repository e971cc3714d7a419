"""Foundations of Rome (``shared/rules/foundations-of-rome.md``): 2-5 players, an economy,
deeds and buildings on an N x N city. ``reference`` is the plain-Python test oracle."""
