"""The header every game's state array begins with.

A state is one flat int64 array (:mod:`forumlab.core.game`). Generic code - search,
the conformance kit, the facade - reads exactly one slot of it without knowing the
game: the number of players, in ``PLAYERS_SLOT``. A game's own slots start at
``HEADER_SIZE``. Which game a state belongs to is not stored in the array: generic
kernels dispatch on the game's tag type (:mod:`forumlab.core.dispatch`).
"""

PLAYERS_SLOT = 0  # the number of players, in every game's state
HEADER_SIZE = 1  # slots of the header; a game's own slots follow
