"""Every file the tool reads or writes goes through here.

Reading: a path is checked to be a regular file of bounded size *before* it is opened, so
a named pipe cannot block a command and ``/dev/zero`` cannot fill memory; the file is then
opened without blocking and checked once more through its descriptor, so a path swapped
for a pipe or device in between is refused too. Writing: an output is written to a
temporary file beside its target and renamed over it only once it is complete, and only
when the target is absent or a regular file (renaming over a device such as ``/dev/null``
would replace it). Every refusal is a :class:`ConfigError` (or the error class the caller
names), which the command line prints as one ``error:`` line with exit code 2.
"""
from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import IO

from .errors import ConfigError, ForumlabError

# Size bounds per kind of input. Each is far above anything the tool writes or a person
# types, and small enough that reading the whole file into memory is harmless.

#: A game record: the longest games (Foundations of Rome with a high turn cap) take a few
#: thousand plies of at most a few dozen characters each, plus per-seat timings: well under
#: 1 MiB. 16 MiB leaves room for hand-made and foreign records.
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: A tournament TOML file is written by hand: a pool of agents and a few options, a few
#: kilobytes. 1 MiB is a pool of thousands of agents.
MAX_TOML_BYTES = 1024 * 1024
#: A command file of the human agent: one short command per ply, at most a few thousand
#: plies per game. 4 MiB is hundreds of thousands of lines.
MAX_COMMAND_BYTES = 4 * 1024 * 1024
#: A learned-evaluation (model) file: one weight per heuristic term and how it was made,
#: a few kilobytes. 1 MiB is thousands of terms.
MAX_MODEL_BYTES = 1024 * 1024
#: Any other text input read whole (a tuning log: one line per evaluation, a few hundred
#: bytes each, so 64 MiB is far beyond the largest budget).
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


def _reason(exc: OSError) -> str:
    """An OSError's reason, without the path Python appends (the message names it)."""
    return exc.strerror or str(exc)


def _check_input_info(info: os.stat_result, path: str | os.PathLike, what: str,
                      max_bytes: int | None, error: type[ForumlabError]) -> None:
    """Refuse a stat result that is not a regular file of at most ``max_bytes``."""
    if not stat.S_ISREG(info.st_mode):
        raise error(f"cannot read the {what} {path}: it is {_kind(info.st_mode)}, not a regular file")
    if max_bytes is not None and info.st_size > max_bytes:
        raise error(f"cannot read the {what} {path}: {info.st_size:,} bytes, more than the "
                    f"{max_bytes:,} a {what} may have")


def check_input_file(path: str | os.PathLike, what: str, max_bytes: int | None = None,
                     *, error: type[ForumlabError] = ConfigError) -> Path:
    """Refuse an input that is missing, not a regular file, or too large.

    Nothing is opened: a named pipe is refused without waiting for a writer, a device
    without being read.

    Args:
        path: the file to read (a symbolic link is followed).
        what: what the file is, for the message (``"game record"``).
        max_bytes: the largest size accepted (None: any size).
        error: the exception class raised (a :class:`ForumlabError` subclass).

    Returns:
        The path.

    Raises:
        ConfigError (or ``error``): the file does not exist or cannot be examined, is a
            directory, a pipe, a device or a socket, or is larger than ``max_bytes``.
    """
    target = Path(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        raise error(f"cannot read the {what} {path}: no such file") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        reason = _reason(exc) if isinstance(exc, OSError) else "not a valid path"
        raise error(f"cannot read the {what} {path}: {reason}") from None
    _check_input_info(info, path, what, max_bytes, error)
    return target


def read_bytes_file(path: str | os.PathLike, what: str, max_bytes: int = MAX_TEXT_BYTES,
                    *, error: type[ForumlabError] = ConfigError) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``.

    Args:
        path: the file.
        what: what the file is, for messages.
        max_bytes: the largest size accepted.
        error: the exception class raised.

    Returns:
        The file's bytes.

    Raises:
        ConfigError (or ``error``): see :func:`check_input_file`; also a file that cannot
            be read, or that grew beyond ``max_bytes`` after the check.
    """
    target = check_input_file(path, what, max_bytes, error=error)
    # One byte more than allowed: a file that grew after the check is still bounded.
    data = _read_opened(target, path, what, max_bytes, max_bytes + 1, error)
    if len(data) > max_bytes:
        raise error(f"cannot read the {what} {path}: more than the {max_bytes:,} bytes a {what} may have")
    return data


def read_file_head(path: str | os.PathLike, what: str, count: int,
                   *, error: type[ForumlabError] = ConfigError) -> bytes:
    """The first ``count`` bytes of a regular file of any size (a header to recognise it by).

    Args:
        path: the file.
        what: what the file is, for messages.
        count: how many bytes to read at most.
        error: the exception class raised.

    Returns:
        Up to ``count`` bytes (fewer if the file is shorter).

    Raises:
        ConfigError (or ``error``): see :func:`check_input_file`; also a file that cannot be read.
    """
    target = check_input_file(path, what, error=error)
    return _read_opened(target, path, what, None, count, error)


def _read_opened(target, path, what: str, max_bytes: int | None, count: int,
                 error: type[ForumlabError]) -> bytes:
    """Up to ``count`` bytes of ``target``, a path :func:`check_input_file` accepted,
    checked again on the open file (``path`` names it in messages)."""
    try:
        # O_NONBLOCK: should the path have become a pipe since the check, open returns
        # at once instead of waiting for a writer; fstat then refuses it.
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise error(f"cannot read the {what} {path}: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, "rb") as fh:
            _check_input_info(os.fstat(fh.fileno()), path, what, max_bytes, error)
            return fh.read(count)
    except OSError as exc:
        raise error(f"cannot read the {what} {path}: {_reason(exc)}") from None


def read_text_file(path: str | os.PathLike, what: str, max_bytes: int = MAX_TEXT_BYTES,
                   *, error: type[ForumlabError] = ConfigError, errors: str = "strict",
                   hint: str = "") -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``.

    Args:
        path: the file.
        what: what the file is, for messages.
        max_bytes: the largest size accepted.
        error: the exception class raised.
        errors: ``"strict"`` refuses a file that is not UTF-8; ``"replace"`` reads it
            with replacement characters.
        hint: appended to the message for a file that is not UTF-8 (``"; records are
            UTF-8 JSON"``).

    Returns:
        The text.

    Raises:
        ConfigError (or ``error``): see :func:`read_bytes_file`; also a file that is not
            UTF-8 (with ``errors="strict"``).
    """
    data = read_bytes_file(path, what, max_bytes, error=error)
    try:
        return data.decode("utf-8", errors=errors)
    except UnicodeDecodeError as exc:
        raise error(f"the {what} {path} is not UTF-8 text (byte {exc.start}){hint}") from None


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
    except (OSError, ValueError) as exc:
        reason = _reason(exc) if isinstance(exc, OSError) else "not a valid path"
        raise ConfigError(f"cannot write the {what} {path}: {reason}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"cannot write the {what} {path}: it is {_kind(info.st_mode)}, "
                          "not a regular file")
    if info is None and os.path.islink(target):
        # Writing through a link to nothing would make a file elsewhere, under another name.
        raise ConfigError(f"cannot write the {what} {path}: it is a symbolic link to "
                          f"{os.readlink(target)}, which does not exist")
    real = Path(os.path.realpath(target))
    if not real.parent.is_dir():
        raise ConfigError(f"cannot write the {what} {path}: its directory does not exist")
    # Checked before any work, so a long run does not end in a file it cannot write. The
    # file is replaced by a rename, which its own permissions would not stop: a file the
    # user may not write is refused as open() would refuse it.
    if not os.access(real.parent, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write the {what} {path}: its directory is not writable")
    if info is not None and not os.access(real, os.W_OK):
        raise ConfigError(f"cannot write the {what} {path}: the file is not writable")
    return target


def check_output_directory(path: str | os.PathLike, what: str) -> Path:
    """Refuse, before any work, a directory to write files into that is something else.

    Args:
        path: the directory (made later, with its parents, if it does not exist).
        what: what the directory holds, for messages.

    Returns:
        The path.

    Raises:
        ConfigError: ``path`` exists and is not a directory (a file, a device, a pipe), is
            a symbolic link to nothing, or is a directory the user may not write into.
    """
    target = Path(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        if os.path.islink(target):
            raise ConfigError(f"cannot write the {what} {path}: it is a symbolic link to "
                              f"{os.readlink(target)}, which does not exist") from None
        return target
    except (OSError, ValueError) as exc:
        reason = _reason(exc) if isinstance(exc, OSError) else "not a valid path"
        raise ConfigError(f"cannot write the {what} {path}: {reason}") from None
    if not stat.S_ISDIR(info.st_mode):
        kind = "a regular file" if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)
        raise ConfigError(f"cannot write the {what} {path}: it is {kind}, not a directory")
    if not os.access(target, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write the {what} {path}: the directory is not writable")
    return target


def write_file_atomically(path: str | os.PathLike, what: str, write: Callable[[IO[str]], None],
                          newline: str | None = None) -> None:
    """Write a text file completely or not at all.

    ``write`` receives a file opened for text beside the target; the target is replaced
    only after ``write`` returns, so an exception inside it (a damaged row met half-way)
    leaves an existing target exactly as it was, and no temporary file behind. A target
    that is a symbolic link keeps the link: the file it points to is replaced. A replaced
    file keeps its permission bits.

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
    check_output_file(path, what)
    # The file a link points to is the one replaced, so the link stays a link.
    target = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None  # a new file: the umask decides, as for open()
    tmp = None
    try:
        # A fresh name, created exclusively: a stale or foreign file is never written into.
        for _ in range(100):
            candidate = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
            try:
                fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                continue
            tmp = candidate
            break
        else:
            raise ForumlabError(f"cannot write the {what} {path}: no free temporary name beside it")
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())  # complete on disk before it takes the target's name
        if mode is not None:
            os.chmod(tmp, mode)
        # Checked again just before the rename: a device put there meanwhile stays.
        check_output_file(path, what)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise ForumlabError(f"cannot write the {what} {path}: {_reason(exc)}") from None
    finally:
        if tmp is not None:
            try:
                tmp.unlink()
            except OSError:
                pass
