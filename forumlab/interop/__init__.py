"""Adapters to other frameworks' game interfaces (optional extras).

- :mod:`forumlab.interop.pettingzoo`: every game as a PettingZoo AEC environment
  (``pip install 'forumlab[pettingzoo]'``).
- :mod:`forumlab.interop.openspiel`: every game as an OpenSpiel Python game
  (``pip install 'forumlab[openspiel]'``).

Both use the games' fixed action spaces, observation tensors and returns
(:class:`forumlab.core.game.State`), so they work for any registered game.
"""
