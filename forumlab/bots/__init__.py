"""Bots in other processes: the ``forumlab-bot/1`` protocol (docs/bot-protocol.md).

- :mod:`.protocol` the messages, their encoding and the checks of what a bot sends;
- :mod:`.connection` a bot process and the lines exchanged with it;
- :mod:`.view` what a seat is shown of a position (a game's ``bot_view`` hook, else a
  generic view built only from what the seat may see);
- :mod:`.referee` :class:`~.referee.CommandAgent`, the agent that plays a bot process
  (spec ``cmd:./mybot --flag``);
- :mod:`.news` what every driver tells listening agents: each ply as their seat sees it,
  and the end of the game;
- :mod:`.check` ``forumlab bot check``: the compliance run.
"""
