"""Exceptions with messages fit to show a user on one line."""


class ForumlabError(Exception):
    """Base class: any error the CLI reports as a one-line message with exit code 2."""


class UnknownGameError(ForumlabError):
    """A game name that the registry does not know."""


class ConfigError(ForumlabError):
    """A bad game option, e.g. a player count out of range."""


class IllegalMoveError(ForumlabError):
    """A move that is malformed or not legal in the position."""


class RecordError(ForumlabError):
    """A game record that cannot be read or replayed."""


class GameOverError(ForumlabError):
    """An operation that needs a running game was asked of a finished one."""


class GameRegistrationError(ForumlabError):
    """A game that cannot be registered: not a Game, or beyond a limit of generic code."""
