"""Test helpers that ship with forumlab, for its own tests and for new games.

:mod:`forumlab.testing.conformance` checks that a registered game keeps the game
protocol (:mod:`forumlab.core.game`); every game runs it from one parametrised test.
"""
