"""A deadline for a test body that could block: it fails instead of hanging the suite."""
import signal
from contextlib import contextmanager


class Blocked(TimeoutError):
    """Raised by the alarm: the body did not return in time."""


@contextmanager
def deadline(seconds: int):
    """Raise :class:`Blocked` in the body if it runs longer than ``seconds``.

    The alarm's handler raises, which also interrupts a blocking ``open`` of a named pipe
    (main thread only, as every signal handler)."""
    def expire(signum, frame):
        raise Blocked(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
