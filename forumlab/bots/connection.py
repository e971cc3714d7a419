"""A bot process and the lines exchanged with it (no protocol knowledge here).

The bot is started in a session of its own (Ctrl-C at the terminal reaches the referee,
which ends the bot, never the bot directly), with its stderr appended to a log file.
Reading never blocks past a deadline: every wait is a ``select`` on the bot's stdout, so
a hanging bot costs at most its time limit, and a bot that writes an endless line is cut
off at :data:`~.protocol.MAX_LINE_BYTES`.
"""
from __future__ import annotations

import os
import select
import signal
import subprocess
import time

from .protocol import MAX_LINE_BYTES, ProtocolError


class BotGone(Exception):
    """The bot's process ended or closed its stdout; ``fault_kind`` says how (crash/exit)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.fault_kind = kind


class BotSilent(Exception):
    """No complete line from the bot before the deadline."""


class BotConnection:
    """A running bot command: write lines to its stdin, read lines from its stdout.

    Args:
        argv: the command and its arguments.
        stderr_path: the file the bot's stderr is appended to.

    Raises:
        OSError: the command cannot be started (not found, not executable).
    """

    def __init__(self, argv: list[str], stderr_path: str):
        self.argv = list(argv)
        self.stderr_path = stderr_path
        with open(stderr_path, "ab") as log:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                            bufsize=0, start_new_session=True, close_fds=True)
        self._fd = self.process.stdout.fileno()
        self._buffer = b""

    @property
    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.process.poll() is None

    def send(self, data: bytes) -> None:
        """Write one encoded message.

        Raises:
            BotGone: the bot closed its stdin or ended.
        """
        try:
            self.process.stdin.write(data)
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            raise self.gone("while the referee was writing to it") from None

    def read_line(self, timeout: float) -> bytes:
        """The next line the bot writes (without its newline).

        Args:
            timeout: seconds to wait at most (0 = no limit).

        Raises:
            BotSilent: no complete line in time.
            BotGone: the bot closed its stdout or ended first.
            ProtocolError: a line longer than MAX_LINE_BYTES.
        """
        deadline = time.monotonic() + timeout if timeout > 0 else None
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE_BYTES:
                raise ProtocolError(f"a line longer than {MAX_LINE_BYTES} bytes (no newline)")
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise BotSilent(f"no answer within {timeout:g} s")
            ready, _, _ = select.select([self._fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(self._fd, 65536)
            if not chunk:
                raise self.gone("before answering")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.rstrip(b"\r")

    def gone(self, when: str) -> BotGone:
        """The fault of a bot whose pipe broke: ``crash`` if a signal ended it, else ``exit``."""
        try:
            code = self.process.wait(2.0)
        except subprocess.TimeoutExpired:
            return BotGone("exit", f"the bot closed its output {when} (still running)")
        if code < 0:
            try:
                name = f" ({signal.Signals(-code).name})"
            except ValueError:
                name = ""
            return BotGone("crash", f"the bot was killed by signal {-code}{name} {when}")
        return BotGone("exit", f"the bot exited with code {code} {when}")

    def finish(self, data: bytes | None, grace: float = 1.0) -> None:
        """Send ``data`` (the quit message) if given, wait ``grace`` seconds for the bot to
        exit, then kill it and everything it started."""
        if data is not None and self.alive:
            try:
                self.send(data)
                self.process.stdin.close()
            except (BotGone, OSError):
                pass
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self) -> None:
        """End the bot's process group at once (idempotent)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        try:
            self.process.wait(5.0)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass
