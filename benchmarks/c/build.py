"""Build the C reference programs of the benchmarks with the system's C compiler.

The executable goes to a cache directory under the temp directory, named after a hash
of the source, the compiler and its flags, so it is built once and rebuilt when any of
them changes. ``-O3 -march=native`` where the compiler takes it (plain ``-O3``
otherwise); the k-th set bit uses BMI2 ``pdep`` exactly when the numba engines do
(:data:`forumlab.core.bits.FAST_PDEP`), so both sides run the same algorithm.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
FORUM_ROMANUM = HERE / "forum_romanum_playout.c"


class NoCompiler(RuntimeError):
    """No C compiler could build the program; the message says why."""


@dataclass(frozen=True)
class Built:
    """A compiled program and how it was made."""

    path: Path
    compiler: str
    flags: tuple[str, ...]


def find_compiler() -> str | None:
    """The C compiler to use: ``$CC`` if set, else the first of cc, gcc, clang on PATH."""
    if os.environ.get("CC"):
        return shutil.which(os.environ["CC"])
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def _flag_sets(pdep: bool) -> list[tuple[str, ...]]:
    """The flags to try, best first."""
    select = ("-DUSE_PDEP=1", "-mbmi2") if pdep else ()
    return [("-O3", "-march=native", *select), ("-O3", *select)]


def build(source: Path = FORUM_ROMANUM, pdep: bool | None = None) -> Built:
    """Compile ``source`` (cached); raise :class:`NoCompiler` when that is impossible.

    Args:
        source: a one-file C program.
        pdep: select bits with ``pdep``; None: as the numba engines do on this machine.
    """
    if pdep is None:
        from forumlab.core.bits import FAST_PDEP

        pdep = FAST_PDEP
    compiler = find_compiler()
    if compiler is None:
        raise NoCompiler("no C compiler: neither $CC nor cc, gcc or clang is on PATH")
    text = source.read_bytes()
    errors = []
    for flags in _flag_sets(pdep):
        key = hashlib.sha256(text + "\0".join((compiler, *flags)).encode()).hexdigest()[:16]
        out = Path(tempfile.gettempdir()) / "forumlab-c" / key / source.stem
        if out.is_file():
            return Built(out, compiler, flags)
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_suffix(f".{os.getpid()}.tmp")  # another process may build the same key
        done = subprocess.run([compiler, *flags, "-o", str(partial), str(source)],
                              capture_output=True, text=True)
        if done.returncode == 0:
            partial.replace(out)
            return Built(out, compiler, flags)
        errors.append(f"{' '.join(flags)}: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
    raise NoCompiler(f"{compiler} could not build {source.name} ({'; '.join(map(str, errors))})")
