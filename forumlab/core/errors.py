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
        One line; the type name alone when the exception has no text.
    """
    lines = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return lines[0][:EXCEPTION_LINE_LIMIT] if lines else type(exc).__name__


def squeeze(text: object, limit: int = 160) -> str:
    """``text`` with every run of whitespace (newlines included) made one space, and cut
    to ``limit`` characters with a trailing ``...`` when longer (for messages of
    libraries, e.g. SQLite's, quoted inside a sentence)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
