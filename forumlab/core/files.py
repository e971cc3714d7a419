"""Every file the tool reads or writes goes through here.

Reading: a path is checked to be a regular file of bounded size *before* it is opened, so
a named pipe cannot block a command and ``/dev/zero`` cannot fill memory. Writing: an
output is written to a temporary file beside its target and renamed over it only once it
is complete, and only when the target is absent or a regular file (renaming over a
device such as ``/dev/null`` would replace it). Every refusal is a :class:`ConfigError`,
which the command line prints as one ``error:`` line with exit code 2.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import IO

from .errors import ConfigError, ForumlabError

#: Largest text input read whole (a game record, a tournament TOML file, a command file).
MAX_TEXT_BYTES = 64 * 1024 * 1024


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_input_file(path: str | os.PathLike, what: str, max_bytes: int | None = None) -> Path:
    """Refuse an input that is missing, not a regular file, or too large.

    Args:
        path: the file to read.
        what: what the file is, for the message (``"game record"``).
        max_bytes: the largest size accepted (None: any size).

    Returns:
        The path.

    Raises:
        ConfigError: the file does not exist or cannot be examined, is a directory, a
            pipe, a device or a socket, or is larger than ``max_bytes``.
    """
    target = Path(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        raise ConfigError(f"{what} {path}: no such file") from None
    except OSError as exc:
        raise ConfigError(f"{what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"{what} {path}: {_kind(info.st_mode)}, not a regular file")
    if max_bytes is not None and info.st_size > max_bytes:
        raise ConfigError(f"{what} {path}: {info.st_size:,} bytes, more than the {max_bytes:,} "
                          f"a {what} may have")
    return target


def read_text_file(path: str | os.PathLike, what: str, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``.

    Args:
        path: the file.
        what: what the file is, for messages.
        max_bytes: the largest size accepted.

    Returns:
        The text.

    Raises:
        ConfigError: see :func:`check_input_file`; also a file that is not UTF-8 or
            cannot be read (the size is checked again while reading, so a file that
            grows after the check is still bounded).
    """
    target = check_input_file(path, what, max_bytes)
    try:
        # O_NONBLOCK: should the path have become a pipe since the check, open returns
        # at once instead of waiting for a writer.
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise ConfigError(f"{what} {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise ConfigError(f"{what} {path}: more than the {max_bytes:,} bytes a {what} may have")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{what} {path}: not UTF-8 text") from None


def check_output_file(path: str | os.PathLike, what: str) -> Path:
    """Refuse, before any work, an output path that cannot be replaced safely.

    Args:
        path: the file to write.
        what: what the file is, for messages.

    Returns:
        The path.

    Raises:
        ConfigError: the path exists and is not a regular file (a directory, a device,
            a pipe), or its directory does not exist.
    """
    target = Path(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise ConfigError(f"cannot write the {what} {path}: {exc.strerror or exc}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"cannot write the {what} {path}: it is {_kind(info.st_mode)}")
    if not target.resolve().parent.is_dir():
        raise ConfigError(f"cannot write the {what} {path}: its directory does not exist")
    return target


def write_file_atomically(path: str | os.PathLike, what: str, write: Callable[[IO[str]], None],
                          newline: str | None = None) -> None:
    """Write a text file completely or not at all.

    ``write`` receives a file opened for text beside the target; the target is replaced
    only after ``write`` returns, so an exception inside it (a damaged row met half-way)
    leaves an existing target exactly as it was.

    Args:
        path: the file to write (checked with :func:`check_output_file`).
        what: what the file is, for messages.
        write: fills the file.
        newline: passed to ``open`` (``""`` for CSV).

    Raises:
        ConfigError: see :func:`check_output_file`.
        ForumlabError: the file cannot be written (disk full, no permission).
        Whatever ``write`` raises, after the temporary file is removed.
    """
    target = check_output_file(path, what)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline=newline) as fh:
            write(fh)
        # Checked again just before the rename: a device put there meanwhile stays.
        check_output_file(target, what)
        os.replace(tmp, target)
    except OSError as exc:
        raise ForumlabError(f"cannot write the {what} {path}: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
