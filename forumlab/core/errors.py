"""Exceptions with messages fit to show a user on one line."""


class ForumlabError(Exception):
    """Base class: any error the CLI reports as a one-line message with exit code 2."""


class UnknownGameError(ForumlabError):
    """A game name that the registry does not know."""


class ConfigError(ForumlabError):
    """A bad game option, e.g. a player count out of range."""


class ArgumentError(ConfigError, ValueError):
    """An API argument out of its range or of the wrong kind, e.g. a seat the game does not
    have (a ValueError too, which such calls raised before)."""


class IllegalMoveError(ForumlabError):
    """A move that is malformed or not legal in the position."""


class RecordError(ForumlabError):
    """A game record that cannot be read or replayed."""


class GameOverError(ForumlabError):
    """An operation that needs a running game was asked of a finished one."""


class GameRegistrationError(ForumlabError):
    """A game that cannot be registered: not a Game, or beyond a limit of generic code."""


# One-line formatting, shared by the CLI, the arena and the benchmarks so that every
# message a user sees is cut the same way.

EXCEPTION_LINE_LIMIT = 300  # characters of an exception kept in a fault or failure record


def error_line(message: object) -> str:
    """The CLI's ``error: ...`` line for ``message``.

    Args:
        message: any object; its text's lines are joined with single spaces.

    Returns:
        ``"error: "`` followed by the message on one line (no trailing newline).
    """
    return "error: " + " ".join(str(message).splitlines())


def exception_line(exc: BaseException) -> str:
    """``Type: message`` of an exception, first line only, cut at 300 characters.

    Args:
        exc: the exception (an agent's, a worker's, a cluster task's).

    Returns:
        One line; ``Type:`` (the name and a colon) when the exception has no text.
    """
    lines = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return lines[0][:EXCEPTION_LINE_LIMIT] if lines else type(exc).__name__


def squeeze(text: object, limit: int = 160) -> str:
    """``text`` on one line, cut to a length (for messages of libraries, e.g. SQLite's,
    quoted inside a sentence).

    Args:
        text: any object; its text is used.
        limit: the most characters returned (at least 3).

    Returns:
        The text with every run of whitespace (newlines included) made one space and
        leading/trailing whitespace dropped; when longer than ``limit``, its first
        ``limit - 3`` characters followed by ``...``.
    """
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
