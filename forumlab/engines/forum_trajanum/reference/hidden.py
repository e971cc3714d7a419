"""Hidden information: summary, observation and determinize (the spec's section)."""
from __future__ import annotations


def summary(state, viewer):
    return {}


def observation(state, seat):
    return {}


def determinize(state, seat, rng):
    pass
