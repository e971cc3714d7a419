"""Learned evaluations: linear models over a game's heuristic terms, fitted to the
outcomes of self-play games (docs/learning.md).

A model is a weight vector on the game's named terms, so it plays through the weighted
heuristic every search agent already takes (``eval=PATH`` or ``eval=learned``).
"""
