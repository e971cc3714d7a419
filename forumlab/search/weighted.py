"""The one call every search makes to score a position: the game's heuristic, with the
agent's weights on its named terms when it was given any.

A game's heuristic is a weighted sum of named terms per seat (its ``heuristic.py``;
docs/agents.md, "Heuristic weights"). ``w`` is either ``None`` (the game's default
weights, compiled in as constants: the search runs the very code it ran before weights
existed) or a float64 array of one weight per term, in the game's term order. Which of
the two is decided by the argument's type when numba compiles the caller, so the
default path costs nothing and only an agent given weights compiles the second variant.
A later evaluation (a learned weight vector over the same terms) plugs in here too.
"""
from numba import types
from numba.extending import overload

from ..core.dispatch import heuristic, weighted_heuristic


def heuristic_value(tag, s, player, w):
    """``player``'s heuristic value of ``s``: the game's own (``w`` None) or with the
    weights ``w`` on its terms. Callable from numba code and from Python."""
    if w is None:
        return heuristic(tag, s, player)
    return weighted_heuristic(tag, s, player, w)


def _is_none(w) -> bool:
    return w is None or isinstance(w, (types.NoneType, types.Omitted))


@overload(heuristic_value)
def _heuristic_value_typed(tag, s, player, w):
    if _is_none(w):
        def default_weights(tag, s, player, w):
            return heuristic(tag, s, player)
        return default_weights

    def given_weights(tag, s, player, w):
        return weighted_heuristic(tag, s, player, w)
    return given_weights
