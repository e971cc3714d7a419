"""Test helpers that ship with forumlab, for its own tests and for new games.

- :mod:`forumlab.testing.conformance`: the kit of checks that a registered game keeps
  the game protocol; every game runs it from one parametrised test, at every
  configuration its conformance data lists.
- :mod:`forumlab.testing.reference`: the reference-engine protocol, and where the kit
  finds a game's reference engine and conformance data.
- :mod:`forumlab.testing.differential`: the kit's differential check, the numba engine
  against the reference engine ply by ply.
- :mod:`forumlab.testing.malformed`: the kit's check of a game's own malformed moves and
  records.
"""
